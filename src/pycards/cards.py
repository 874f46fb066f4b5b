"""Cards and card sets for the 52-card French deck and the 78-card Nancy deck.

A card is an ``int`` subclass holding its dense id (French: ``suit * 13 + rank``,
0..51; Nancy: ``suit * 14 + rank`` for suit cards, ``55 + n`` for trump ``n``, 77
for the Outsider), so cards are valid action ids and tensor indices.  A card set
is an immutable value backed by a bitset (French: a 16-bit lane per suit, bit
``suit * 16 + rank``; Nancy: 128 bits, see :doc:`/internals`) that behaves like a
Python ``frozenset`` of cards, in the manner of python-chess's ``SquareSet``.

>>> hand = parse_cards("AS TD 10h 2c")
>>> len(hand), Card.parse("AS") in hand
(4, True)
>>> str(hand)
'2C TD TH AS'
>>> parse_cards("AS as")
Traceback (most recent call last):
...
pycards.errors.InvalidCardError: duplicate card 'as' (AS)
>>> int(parse_cards("AC 2C"))
3
>>> str(parse_nancy_cards("King of Rats, Death, The Outsider"))
'KR OUT XXI'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards.errors import InvalidCardError

__all__ = [
    "DECK52_MASK",
    "NANCY_MASK",
    "NANCY_SUIT_NAMES",
    "OUTSIDER",
    "RANKS",
    "SUITS",
    "TRUMP_NAMES",
    "Bitset",
    "Card",
    "CardSet",
    "CardsLike",
    "NancyCard",
    "NancyCardSet",
    "NancyCardsLike",
    "card_arg",
    "card_list_arg",
    "card_mask_arg",
    "deal",
    "parse_cards",
    "parse_nancy_cards",
    "shuffled_deck",
    "to_mask52",
    "to_mask78",
]

#: A card set as a plain integer bitset.
Bitset: TypeAlias = int

RANKS = "A23456789TJQK"
SUITS = "CDHS"
#: Every valid bit of a 52-card set (bits 13..15 of each lane are unused).
DECK52_MASK: Bitset = 0x1FFF1FFF1FFF1FFF
_LO_MASK = 0x3FFF3FFF3FFF3FFF
_HI_MASK = 0x3FFFFF
#: Every valid bit of a Nancy card set, as one integer (``lo | hi << 64``).
NANCY_MASK: Bitset = _LO_MASK | _HI_MASK << 64

NANCY_SUIT_NAMES = ("Rats", "Swords", "Skulls", "Pistols")
_NANCY_SUIT_CODES = "RSXP"
_NANCY_RANK_CODES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
_NANCY_RANK_NAMES = (
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Commoner", "Queen", "King",
)  # fmt: skip
_ROMAN = (
    "", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
    "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI",
)  # fmt: skip
#: Known names of the trumps, keyed by number (:doc:`/nancy`, Cards); XII, XIII, XVIII and
#: XIX are not confirmed and print as their number.
TRUMP_NAMES: dict[int, str] = {
    1: "Judgement",
    2: "Lust",
    3: "The Man on Stilts",
    4: "The Boatman",
    5: "The Witch",
    6: "The Weeper",
    7: "The Lady",
    8: "Regret",
    9: "The Urchin Prince",
    10: "The Twins",
    11: "The Hermit",
    14: "The Governess",
    15: "Nobility",
    16: "The High Overseer",
    17: "The Drowned Man",
    20: "The World",
    21: "Death",
}
#: Dense id of the Outsider (the Fool / Excuse).
OUTSIDER = 77


def _int(value: object, what: str) -> int:
    """``value`` as a Python int: an ``int`` (not a ``bool``) or a numpy integer.

    A bool, a float (Python or numpy), ``None`` or anything else raises
    ``TypeError`` naming ``what``.  Cards are ints too: callers that must not
    take a card of the other deck check that first.
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    raise TypeError(f"{what} must be an int, got {type(value).__name__} {value!r}")


def _text(value: object, what: str) -> str:
    """``value`` if it is a ``str``, else ``TypeError`` naming ``what``."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__} {value!r}")
    return value


# ---------------------------------------------------------------------------
# cards


class Card(int):
    """A card of the 52-card deck: an ``int`` equal to its dense id ``suit * 13 + rank``.

    Ranks 0..12 are A 2..10 J Q K (Ace low); suits 0..3 are clubs, diamonds,
    hearts, spades.

    >>> c = Card.parse("qh")
    >>> int(c), c.rank, c.suit, str(c)
    (37, 11, 2, 'QH')
    """

    __slots__ = ()

    def __new__(cls, card_id: int) -> Card:
        """The card with dense id ``card_id`` (0..51): an ``int`` or a numpy integer,
        not a bool, a float or a :class:`NancyCard` (``TypeError``)."""
        if isinstance(card_id, NancyCard):
            raise TypeError(f"a NancyCard is not a Card: {card_id!r}")
        i = _int(card_id, "card id")
        if not 0 <= i < 52:
            raise InvalidCardError(f"card id must be 0..51, got {i}", str(i))
        return super().__new__(cls, i)

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (type(self), (int(self),))

    @classmethod
    def from_rank_suit(cls, rank: int, suit: int) -> Card:
        """The card of ``rank`` (0..12) and ``suit`` (0..3)."""
        r, s = _int(rank, "rank"), _int(suit, "suit")
        if not (0 <= r < 13 and 0 <= s < 4):
            raise InvalidCardError(f"no card with rank {r} and suit {s}")
        return cls(s * 13 + r)

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse ``"AS"``, ``"TD"``, ``"10h"``, ``"2c"``.

        Rank A 2-9 T or 10 J Q K, suit C D H S, case-insensitive, ASCII only
        (a look-alike such as ``"A\u017f"`` is no card).
        """
        if not _text(token, "card").isascii():
            raise InvalidCardError(f"unknown card {token!r} (not ASCII)", token)
        t = token.strip().upper()
        if t.startswith("10"):
            t = "T" + t[2:]
        if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
            raise InvalidCardError(f"unknown card {token!r}", token)
        return cls(SUITS.index(t[1]) * 13 + RANKS.index(t[0]))

    @property
    def rank(self) -> int:
        """Rank 0..12 (A 2..10 J Q K)."""
        return int(self) % 13

    @property
    def suit(self) -> int:
        """Suit 0..3 (clubs, diamonds, hearts, spades)."""
        return int(self) // 13

    @property
    def pips(self) -> int:
        """Pip value: A = 1, 2..10 face value, J Q K = 10."""
        return min(self.rank + 1, 10)

    @property
    def bit(self) -> Bitset:
        """This card's bit in a 52-card bitset."""
        return 1 << (16 * self.suit + self.rank)

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_NANCY_ALIASES_SUIT = {
    "rats": 0, "cups": 0,
    "swords": 1,
    "skulls": 2, "coins": 2, "pentacles": 2, "deniers": 2,
    "pistols": 3, "batons": 3, "wands": 3, "clubs": 3,
}  # fmt: skip
_NANCY_ALIASES_RANK = {
    "1": 0, "one": 0, "ace": 0,
    "2": 1, "two": 1, "3": 2, "three": 2, "4": 3, "four": 3, "5": 4, "five": 4,
    "6": 5, "six": 5, "7": 6, "seven": 6, "8": 7, "eight": 7, "9": 8, "nine": 8,
    "10": 9, "ten": 9,
    "jack": 10, "page": 10, "valet": 10, "j": 10,
    "commoner": 11, "knight": 11, "cavalier": 11, "c": 11,
    "queen": 12, "q": 12,
    "king": 13, "k": 13,
}  # fmt: skip
_OUTSIDER_NAMES = {"out", "outsider", "the outsider", "fool", "the fool", "excuse", "the excuse"}


def _nancy_name_table() -> dict[str, int]:
    table: dict[str, int] = {}
    for n in range(1, 22):
        table[_ROMAN[n].lower()] = 55 + n
        table[f"t{n}"] = 55 + n
        table[f"trump {n}"] = 55 + n
        table[f"trump {_ROMAN[n].lower()}"] = 55 + n
        if n in TRUMP_NAMES:
            name = TRUMP_NAMES[n].lower()
            table[name] = 55 + n
            table[f"{_ROMAN[n].lower()} {name}"] = 55 + n
            if name.startswith("the "):
                table[name[4:]] = 55 + n
    for name in _OUTSIDER_NAMES:
        table[name] = OUTSIDER
    for s, code in enumerate(_NANCY_SUIT_CODES):
        for r, rc in enumerate(_NANCY_RANK_CODES):
            table[(rc + code).lower()] = s * 14 + r
    return table


_NANCY_NAMES = _nancy_name_table()
_OF_RE = re.compile(r"^\s*(?:the\s+)?(\S+)\s+of\s+(?:the\s+)?(\S+)\s*$", re.IGNORECASE)


class NancyCard(int):
    """A card of the 78-card Nancy deck: an ``int`` equal to its dense id.

    Suit cards ``suit * 14 + rank`` (suits Rats, Swords, Skulls, Pistols; ranks
    1..10, Jack, Commoner, Queen, King), trump ``n`` is ``55 + n``, the Outsider 77.
    Short codes: rank code (1..10, J, C, Q, K) + suit letter (R Rats, S Swords,
    X Skulls, P Pistols), roman numerals for trumps, ``OUT`` for the Outsider.

    >>> NancyCard.parse("King of Rats"), NancyCard.parse("Death").name
    (NancyCard.parse('KR'), 'XXI Death')
    >>> NancyCard.parse("Knight of Cups") == NancyCard.parse("CR")
    True
    """

    __slots__ = ()

    def __new__(cls, card_id: int) -> NancyCard:
        """The card with dense id ``card_id`` (0..77): an ``int`` or a numpy integer,
        not a bool, a float or a :class:`Card` (``TypeError``)."""
        if isinstance(card_id, Card):
            raise TypeError(f"a Card is not a NancyCard: {card_id!r}")
        i = _int(card_id, "Nancy card id")
        if not 0 <= i < 78:
            raise InvalidCardError(f"Nancy card id must be 0..77, got {i}", str(i))
        return super().__new__(cls, i)

    def __reduce__(self) -> tuple[type[NancyCard], tuple[int]]:
        return (type(self), (int(self),))

    @classmethod
    def trump(cls, number: int) -> NancyCard:
        """Trump ``number`` (1..21)."""
        n = _int(number, "trump number")
        if not 1 <= n <= 21:
            raise InvalidCardError(f"trump number must be 1..21, got {n}")
        return cls(55 + n)

    @classmethod
    def parse(cls, token: str) -> NancyCard:
        """Parse a short code (``KR``, ``10S``, ``XXI``, ``OUT``) or a full name.

        Full names: ``"King of Rats"``, ``"XXI"``, ``"Death"``, ``"The Outsider"``,
        and the standard tarot aliases (Cups/Swords/Coins/Batons, Knight, Page,
        Fool, Excuse).  Case-insensitive, ASCII only.
        """
        if not _text(token, "Nancy card").isascii():
            raise InvalidCardError(f"unknown Nancy card {token!r} (not ASCII)", token)
        key = " ".join(token.strip().lower().split())
        if key in _NANCY_NAMES:
            return cls(_NANCY_NAMES[key])
        m = _OF_RE.match(key)
        if m:
            rank = _NANCY_ALIASES_RANK.get(m.group(1))
            suit = _NANCY_ALIASES_SUIT.get(m.group(2))
            if rank is not None and suit is not None:
                return cls(suit * 14 + rank)
        raise InvalidCardError(f"unknown Nancy card {token!r}", token)

    @property
    def is_trump(self) -> bool:
        """True for trumps I..XXI (not the Outsider)."""
        return 56 <= self <= 76

    @property
    def is_outsider(self) -> bool:
        """True for the Outsider."""
        return int(self) == OUTSIDER

    @property
    def suit(self) -> int | None:
        """Suit 0..3 for suit cards, ``None`` for trumps and the Outsider."""
        return int(self) // 14 if self < 56 else None

    @property
    def rank(self) -> int | None:
        """Rank 0..13 (1..10, J, C, Q, K) for suit cards, else ``None``."""
        return int(self) % 14 if self < 56 else None

    @property
    def trump_number(self) -> int | None:
        """1..21 for trumps, else ``None``."""
        return int(self) - 55 if self.is_trump else None

    @property
    def is_face(self) -> bool:
        """Jack, Commoner, Queen or King."""
        return self < 56 and int(self) % 14 >= 10

    @property
    def bit(self) -> Bitset:
        """This card's bit in a Nancy bitset (as one integer)."""
        if self < 56:
            return 1 << (16 * (int(self) // 14) + int(self) % 14)
        if self.is_trump:
            return 1 << (64 + int(self) - 55)
        return 1 << 64

    @property
    def name(self) -> str:
        """Full name: ``"King of Rats"``, ``"XXI Death"``, ``"XII"``, ``"The Outsider"``."""
        if self < 56:
            return f"{_NANCY_RANK_NAMES[int(self) % 14]} of {NANCY_SUIT_NAMES[int(self) // 14]}"
        if self.is_trump:
            n = int(self) - 55
            return f"{_ROMAN[n]} {TRUMP_NAMES[n]}" if n in TRUMP_NAMES else _ROMAN[n]
        return "The Outsider"

    def __str__(self) -> str:
        if self < 56:
            return _NANCY_RANK_CODES[int(self) % 14] + _NANCY_SUIT_CODES[int(self) // 14]
        if self.is_trump:
            return _ROMAN[int(self) - 55]
        return "OUT"

    def __repr__(self) -> str:
        return f"NancyCard.parse({str(self)!r})"


# ---------------------------------------------------------------------------
# card sets

_S = TypeVar("_S", bound="_BitCardSet[Any]")
_C = TypeVar("_C", Card, NancyCard)


class _BitCardSet(Iterable[_C]):
    """Shared machinery of the two card-set types (an immutable int-backed set)."""

    __slots__ = ("_mask",)
    _VALID: ClassVar[int]
    _DECK_NAME: ClassVar[str]
    _mask: int

    def __init__(self, cards: Iterable[_C | int | str] | int = ()) -> None:
        if isinstance(cards, _BitCardSet):
            if type(cards) is not type(self):
                raise TypeError(f"cannot make a {type(self).__name__} from a {cards!r}")
            mask = cards._mask
        elif isinstance(cards, (int, np.integer)) and not isinstance(cards, (bool, np.bool_)):
            mask = self._check_mask(int(cards))
        elif isinstance(cards, str):
            mask = int(self._parse(cards))
        else:
            # a mapping iterates over its keys only: refused, not read as a set
            if not isinstance(cards, Iterable) or isinstance(cards, (bytes, bytearray, Mapping)):
                raise TypeError(
                    f"cards must be a {type(self).__name__}, an int bitset, a string or an "
                    f"iterable of cards, got {type(cards).__name__} {cards!r}"
                )
            mask = 0
            for c in cards:
                card = self._card(c)
                bit = card.bit
                if mask & bit:
                    raise InvalidCardError(f"duplicate card {str(card)!r}", str(card))
                mask |= bit
        object.__setattr__(self, "_mask", mask)

    # hooks
    @classmethod
    def _card(cls, c: _C | int | str) -> _C:
        raise NotImplementedError

    @classmethod
    def _parse(cls: type[_S], text: str) -> _S:
        raise NotImplementedError

    @classmethod
    def _id_of_bit(cls, bit: int) -> int:
        raise NotImplementedError

    # construction helpers
    @classmethod
    def _check_mask(cls, mask: int) -> int:
        if mask < 0 or mask & ~cls._VALID:
            raise InvalidCardError(
                f"bitset {mask:#x} has bits outside the {cls._DECK_NAME} deck "
                f"({(mask & ~cls._VALID) if mask >= 0 else mask:#x})"
            )
        return mask

    def _check_other(self, other: object) -> int:
        if type(other) is not type(self):
            raise TypeError(f"cannot combine {type(self).__name__} with {type(other).__name__}")
        assert isinstance(other, _BitCardSet)
        return other._mask

    @classmethod
    def _from_mask(cls: type[_S], mask: int) -> _S:
        obj = _new(cls)
        _set_mask(obj, mask)
        return obj

    @classmethod
    def full(cls: type[_S]) -> _S:
        """The whole deck."""
        return cls._from_mask(cls._VALID)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    # immutable: a copy is the set itself; pickles as (type, bitset)
    def __reduce__(self) -> tuple[type[Any], tuple[int]]:
        return (type(self), (self._mask,))

    def __copy__(self: _S) -> _S:
        return self

    def __deepcopy__(self: _S, memo: object) -> _S:
        return self

    # set protocol
    @property
    def mask(self) -> Bitset:
        """The bitset as an ``int``."""
        return self._mask

    def __int__(self) -> int:
        return self._mask

    def __index__(self) -> int:
        return self._mask

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __bool__(self) -> bool:
        return self._mask != 0

    def __iter__(self) -> Iterator[_C]:
        m = self._mask
        while m:
            low = m & -m
            yield self._card(self._id_of_bit(low.bit_length() - 1))
            m ^= low

    def __reversed__(self) -> Iterator[_C]:
        return reversed(list(self))

    def __contains__(self, card: object) -> bool:
        try:
            c = self._card(card)  # type: ignore[arg-type]
        except (InvalidCardError, TypeError):
            return False
        return bool(self._mask & c.bit)

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            assert isinstance(other, _BitCardSet)
            return self._mask == other._mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._mask))

    def __or__(self: _S, other: _S) -> _S:
        return self._from_mask(self._mask | self._check_other(other))

    def __and__(self: _S, other: _S) -> _S:
        return self._from_mask(self._mask & self._check_other(other))

    def __sub__(self: _S, other: _S) -> _S:
        return self._from_mask(self._mask & ~self._check_other(other))

    def __xor__(self: _S, other: _S) -> _S:
        return self._from_mask(self._mask ^ self._check_other(other))

    def __invert__(self: _S) -> _S:
        return self._from_mask(self._VALID & ~self._mask)

    def __le__(self: _S, other: _S) -> bool:
        return self._mask & ~self._check_other(other) == 0

    def __lt__(self: _S, other: _S) -> bool:
        return self <= other and self._mask != other._mask

    def __ge__(self: _S, other: _S) -> bool:
        return other <= self

    def __gt__(self: _S, other: _S) -> bool:
        return other < self

    union = __or__
    intersection = __and__
    difference = __sub__
    symmetric_difference = __xor__
    issubset = __le__
    issuperset = __ge__

    def isdisjoint(self: _S, other: _S) -> bool:
        """True if the two sets share no card."""
        return self._mask & self._check_other(other) == 0

    def add(self: _S, card: _C | int | str) -> _S:
        """A new set with ``card`` added."""
        return self._from_mask(self._mask | self._card(card).bit)

    def remove(self: _S, card: _C | int | str) -> _S:
        """A new set without ``card``; ``KeyError`` if it is not in the set."""
        c = self._card(card)
        if not self._mask & c.bit:
            raise KeyError(str(c))
        return self._from_mask(self._mask & ~c.bit)

    def discard(self: _S, card: _C | int | str) -> _S:
        """A new set without ``card`` (no error if absent)."""
        return self._from_mask(self._mask & ~self._card(card).bit)

    def ids(self) -> list[int]:
        """Dense card ids, in iteration order."""
        return [int(c) for c in self]

    def __str__(self) -> str:
        return " ".join(str(c) for c in self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


class CardSet(_BitCardSet[Card]):
    """An immutable set of French cards backed by a 64-bit bitset.

    Iteration goes in ascending bit order: clubs A..K, then diamonds, hearts,
    spades.  Build one from a string, an iterable of cards or ids, or an int
    bitset; convert with ``int(s)`` and :meth:`to_array` / :meth:`from_array`.

    >>> s = CardSet("5H 5S 5C JD")
    >>> len(s), str(s - CardSet("JD"))
    (4, '5C 5H 5S')
    """

    __slots__ = ()
    _VALID = DECK52_MASK
    _DECK_NAME = "52-card"

    @classmethod
    def _card(cls, c: Card | int | str) -> Card:
        if isinstance(c, Card):
            return c
        if isinstance(c, str):
            return Card.parse(c)
        if isinstance(c, NancyCard):
            raise TypeError(f"a NancyCard is not a card of a CardSet: {c!r}")
        if isinstance(c, (int, np.integer)) and not isinstance(c, (bool, np.bool_)):
            return Card(int(c))
        raise TypeError(f"expected a card, card id or card name, got {type(c).__name__} {c!r}")

    @classmethod
    def _parse(cls, text: str) -> CardSet:
        return parse_cards(text)

    @classmethod
    def _id_of_bit(cls, bit: int) -> int:
        return (bit >> 4) * 13 + (bit & 15)

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """The set of an int bitset; :class:`InvalidCardError` for bits outside the deck."""
        return cls._from_mask(cls._check_mask(_int(mask, "mask")))

    @staticmethod
    def to_array(sets: Iterable[CardSet | int]) -> npt.NDArray[np.uint64]:
        """A 1-D ``uint64`` array of bitsets, for :mod:`pycards.batch`."""
        return np.array([to_mask52(s) for s in sets], dtype=np.uint64)

    @classmethod
    def from_array(cls, arr: npt.ArrayLike) -> list[CardSet]:
        """Card sets from a 1-D array of ``uint64`` bitsets (validated)."""
        a = np.asarray(arr)
        if a.dtype != np.uint64:
            raise TypeError(f"expected dtype uint64, got {a.dtype}")
        if a.ndim != 1:
            raise ValueError(f"expected a 1-D array, got {a.ndim} dimensions")
        return [cls.from_mask(int(x)) for x in a]


class NancyCardSet(_BitCardSet[NancyCard]):
    """An immutable set of Nancy cards backed by a 128-bit bitset.

    Iteration: Rats 1..King, Swords, Skulls, Pistols, then the Outsider, then
    trumps I..XXI (ascending bit order of ``lo | hi << 64``).  In numpy a set is
    a row of two ``uint64`` words ``(lo, hi)``.

    >>> s = NancyCardSet("KR XXI I OUT")
    >>> len(s), NancyCard.parse("Death") in s
    (4, True)
    """

    __slots__ = ()
    _VALID = NANCY_MASK
    _DECK_NAME = "78-card Nancy"

    @classmethod
    def _card(cls, c: NancyCard | int | str) -> NancyCard:
        if isinstance(c, NancyCard):
            return c
        if isinstance(c, str):
            return NancyCard.parse(c)
        if isinstance(c, Card):
            raise TypeError(f"a Card is not a card of a NancyCardSet: {c!r}")
        if isinstance(c, (int, np.integer)) and not isinstance(c, (bool, np.bool_)):
            return NancyCard(int(c))
        raise TypeError(f"expected a Nancy card, card id or name, got {type(c).__name__} {c!r}")

    @classmethod
    def _parse(cls, text: str) -> NancyCardSet:
        return parse_nancy_cards(text)

    @classmethod
    def _id_of_bit(cls, bit: int) -> int:
        if bit < 64:
            return (bit >> 4) * 14 + (bit & 15)
        return OUTSIDER if bit == 64 else 55 + bit - 64

    @classmethod
    def from_mask(cls, mask: int) -> NancyCardSet:
        """The set of an int bitset ``lo | hi << 64`` (validated)."""
        return cls._from_mask(cls._check_mask(_int(mask, "mask")))

    @property
    def words(self) -> tuple[int, int]:
        """The two 64-bit words ``(lo, hi)``."""
        return self._mask & ((1 << 64) - 1), self._mask >> 64

    @staticmethod
    def to_array(sets: Iterable[NancyCardSet | int]) -> npt.NDArray[np.uint64]:
        """An ``(n, 2)`` ``uint64`` array of ``(lo, hi)`` rows."""
        rows = [to_mask78(s) for s in sets]
        out = np.zeros((len(rows), 2), dtype=np.uint64)
        for i, m in enumerate(rows):
            out[i, 0] = m & ((1 << 64) - 1)
            out[i, 1] = m >> 64
        return out

    @classmethod
    def from_array(cls, arr: npt.ArrayLike) -> list[NancyCardSet]:
        """Card sets from an ``(n, 2)`` ``uint64`` array (validated)."""
        a = np.asarray(arr)
        if a.dtype != np.uint64:
            raise TypeError(f"expected dtype uint64, got {a.dtype}")
        if a.ndim != 2 or a.shape[1] != 2:
            raise ValueError(f"expected an (n, 2) array, got shape {a.shape}")
        return [cls.from_mask(int(lo) | int(hi) << 64) for lo, hi in a]


#: Anything that names a set of French cards.
CardsLike: TypeAlias = CardSet | int | str | Iterable[Card | int | str]
#: Anything that names a set of Nancy cards.
NancyCardsLike: TypeAlias = NancyCardSet | int | str | Iterable[NancyCard | int | str]


def _ascii_text(text: object) -> str:
    """``text`` if it is an ASCII ``str`` (cards are written in ASCII: a
    look-alike letter or space is refused, not folded into one)."""
    t = _text(text, "cards")
    if not t.isascii():
        bad = next(ch for ch in t if not ch.isascii())
        raise InvalidCardError(f"unknown character {bad!r} in cards {t!r} (not ASCII)", bad)
    return t


def _parse_tokens(tokens: Iterable[str], card: Any, set_type: Any) -> Any:
    mask = 0
    for tok in tokens:
        c = card.parse(tok)
        if mask & c.bit:
            raise InvalidCardError(f"duplicate card {tok!r} ({c})", tok)
        mask |= c.bit
    return set_type._from_mask(mask)


def parse_cards(text: str) -> CardSet:
    """Parse whitespace- or comma-separated French cards: ``"AS TD 10h 2c"``.

    Any run of ASCII blanks and commas separates two cards, so ``"5H,6H"``,
    ``"5H, 6H"`` and ``"5H 6H"`` are the same set.  Raises
    :class:`InvalidCardError` naming an unknown, malformed or duplicated token.

    >>> parse_cards("5H,6H") == parse_cards("5H 6H")
    True
    """
    tokens = [t for t in re.split(r"[\s,]+", _ascii_text(text)) if t]
    result: CardSet = _parse_tokens(tokens, Card, CardSet)
    return result


def parse_nancy_cards(text: str) -> NancyCardSet:
    """Parse Nancy cards: short codes separated by spaces (``"KR 10S XXI OUT"``), or
    full names separated by commas (``"King of Rats, Death, The Outsider"``)."""
    text = _ascii_text(text)
    if "," in text or ";" in text:
        tokens = [t.strip() for t in re.split(r"[,;]", text) if t.strip()]
    else:
        tokens = text.split()
    result: NancyCardSet = _parse_tokens(tokens, NancyCard, NancyCardSet)
    return result


# ---------------------------------------------------------------------------
# a user's card arguments, for both decks: one family, errors naming the argument

# per card type: its set type, what the errors call one, and its deck's size
_DECKS: dict[type[Card] | type[NancyCard], tuple[type[_BitCardSet[Any]], str, int]] = {}


def card_arg(value: object, name: str, card_type: type[_C]) -> _C:
    """One card of ``card_type``'s deck (:class:`Card` or :class:`NancyCard`):
    a card of that type, its id or its name.

    A bool, a float, ``None``, a card of the other deck or anything else
    raises ``TypeError`` naming ``name``; an unknown name or id raises
    :class:`InvalidCardError` naming it.

    >>> card_arg("7h", "starter", Card), card_arg(13, "lead", NancyCard)
    (Card.parse('7H'), NancyCard.parse('KR'))
    """
    if isinstance(value, card_type):
        return value
    _set, what, size = _DECKS[card_type]
    if isinstance(value, str):
        try:
            return card_type.parse(value)
        except InvalidCardError as exc:
            raise InvalidCardError(f"{name}: {exc}", value) from None
    if isinstance(value, (Card, NancyCard, bool, np.bool_)) or not isinstance(
        value, (int, np.integer)
    ):
        raise TypeError(
            f"{name} must be {what}, its id 0..{size - 1} or its name, "
            f"got {type(value).__name__} ({value!r})"
        )
    if not 0 <= int(value) < size:
        raise InvalidCardError(
            f"{name}: no {what.removeprefix('a ')} has id {int(value)} (0..{size - 1})",
            str(value),
        )
    return card_type(int(value))


def card_list_arg(value: object, name: str, card_type: type[_C]) -> list[_C]:
    """Cards of ``card_type``'s deck in the order given: a string (French
    cards split on blanks and commas; Nancy short codes on blanks, or full
    names on commas), or an iterable of cards, ids or names (a card set gives
    its cards in ascending order).  Errors name ``name`` and the item
    (``name[i]``), as :func:`card_arg`'s.

    >>> [str(c) for c in card_list_arg("KR, The World", "trick", NancyCard)]
    ['KR', 'XX']
    """
    if isinstance(value, str):
        text = _ascii_text(value)
        if card_type is NancyCard and ("," in text or ";" in text):
            tokens = [t.strip() for t in re.split(r"[,;]", text) if t.strip()]
        elif card_type is NancyCard:
            tokens = text.split()
        else:
            tokens = [t for t in re.split(r"[\s,]+", text) if t]
        return [card_arg(t, f"{name}[{i}]", card_type) for i, t in enumerate(tokens)]
    set_type, what, _size = _DECKS[card_type]
    if (
        isinstance(value, (bytes, bytearray, Mapping))
        or (isinstance(value, _BitCardSet) and not isinstance(value, set_type))
        or not isinstance(value, Iterable)
    ):
        raise TypeError(
            f"{name} must be cards of {what}'s deck in order (a string or a sequence), "
            f"got {type(value).__name__}"
        )
    return [card_arg(c, f"{name}[{i}]", card_type) for i, c in enumerate(value)]


def card_mask_arg(value: object, name: str, card_type: type[_C]) -> Bitset:
    """The bitset of a set of ``card_type``'s cards: a card set of that deck,
    an int bitset, a string of names or an iterable of cards, ids or names.

    A bool, a float, ``None``, bytes, a set of the other deck or anything
    else raises ``TypeError`` naming ``name``; an unknown, repeated or
    out-of-deck card raises :class:`InvalidCardError` naming it.

    >>> card_mask_arg("AC 2C", "hand", Card)
    3
    """
    set_type, what, _size = _DECKS[card_type]
    if isinstance(value, set_type):
        return value._mask
    if value is None or isinstance(
        value, (bool, np.bool_, float, np.floating, bytes, bytearray, Mapping)
    ):
        raise TypeError(
            f"{name} must be cards of {what}'s deck, got {type(value).__name__} ({value!r})"
        )
    if isinstance(value, (str, _BitCardSet, int, np.integer)):
        try:
            return set_type(int(value) if isinstance(value, np.integer) else value)._mask
        except InvalidCardError as exc:
            raise InvalidCardError(f"{name}: {exc}", exc.token) from None
        except TypeError as exc:
            raise TypeError(f"{name}: {exc}") from None
    if not isinstance(value, Iterable):
        raise TypeError(f"{name} must be cards of {what}'s deck, got {type(value).__name__}")
    mask = 0
    for i, c in enumerate(value):
        card = card_arg(c, f"{name}[{i}]", card_type)
        if mask & card.bit:
            raise InvalidCardError(f"{name}: duplicate card {str(card)!r}, given twice", str(card))
        mask |= card.bit
    return mask


def to_mask52(cards: CardsLike, name: str = "cards") -> Bitset:
    """The 52-card bitset of anything card-like (validated):
    :func:`card_mask_arg` for the 52-card deck.

    A bool, a float, ``None`` or a :class:`NancyCardSet` raises ``TypeError``;
    bits outside the deck raise :class:`InvalidCardError`.
    """
    if type(cards) is CardSet:
        return cards._mask
    return card_mask_arg(cards, name, Card)


def to_mask78(cards: NancyCardsLike, name: str = "cards") -> Bitset:
    """The Nancy bitset (``lo | hi << 64``) of anything Nancy-card-like
    (validated): :func:`card_mask_arg` for the Nancy deck.

    A bool, a float, ``None`` or a :class:`CardSet` raises ``TypeError``.
    """
    if type(cards) is NancyCardSet:
        return cards._mask
    return card_mask_arg(cards, name, NancyCard)


def shuffled_deck(seed: int, size: int = 52) -> list[int]:
    """A seeded permutation of the card ids ``0..size-1`` (the engine's RNG).

    Same seed, same order, on every platform.  ``seed`` is 0..2**64-1 and
    ``size`` 0..255 (``ValueError`` otherwise); both are ints (``TypeError``
    for a bool, a float or ``None``; numpy integers are welcome).
    """
    result: list[int] = _core.shuffled_deck(seed, size)
    return result


def deal(seed: int, hands: int, cards_each: int) -> list[CardSet]:
    """Deal ``hands`` French hands of ``cards_each`` cards, one card at a time, from
    the top of the deck shuffled with ``seed``.

    A deal has at least one hand of at least one card: ``hands`` and
    ``cards_each`` are ints of 1 or more with ``hands * cards_each <= 52``
    (``ValueError`` otherwise, so ``deal(seed, 0, 5)`` and ``deal(seed, 5, 0)``
    are refused rather than dealing nothing).

    >>> [len(h) for h in deal(1, 4, 13)]
    [13, 13, 13, 13]
    """
    hands, cards_each = _int(hands, "hands"), _int(cards_each, "cards_each")
    if hands < 1 or cards_each < 1 or hands * cards_each > 52:
        raise ValueError(
            f"cannot deal {hands} hands of {cards_each} from 52 cards "
            "(hands and cards_each are 1 or more, hands * cards_each <= 52)"
        )
    deck = shuffled_deck(seed, 52)
    out = []
    for h in range(hands):
        out.append(CardSet(deck[h : hands * cards_each : hands]))
    return out


_DECKS[Card] = (CardSet, "a card", 52)
_DECKS[NancyCard] = (NancyCardSet, "a Nancy card", 78)

_new = object.__new__
#: The ``_mask`` slot's setter: fills a new set without the immutable ``__setattr__``.
_set_mask = _BitCardSet.__dict__["_mask"].__set__
