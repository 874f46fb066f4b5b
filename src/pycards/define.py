"""Define a card game of your own (docs/define.rst): a typed description,
checked when it is built, compiled into a table that the engine's one rules
interpreter runs in C.

A :class:`TrickGame` describes a game of the trick-taking family: its deck,
deals, passing, bidding, trumps, the rules of play and the scoring.  Each
field is checked when the description is made (a :class:`~pycards.errors.DefinitionError`
names the field at fault); :meth:`TrickGame.register` hands the compiled
table to the engine and returns the new :class:`pycards.game.Game` subclass,
which :func:`pycards.game.load_game`, the bots, the arena, the vector
environment and the records find by name like a built-in game.

>>> from pycards.define import TrickGame
>>> plain = TrickGame(name="doc_whist", title="DocWhist", players=4, trump="dealer_card",
...                   trick_points=1, book=6, partners=True)
>>> game_type = plain.register(listed=False)
>>> game = game_type(num_players=4)
>>> state = game.new_initial_state(seed=1)
>>> len(state.legal_actions())
13
>>> TrickGame(name="bad", title="Bad", players=4, ranks="A2Z")
Traceback (most recent call last):
...
pycards.errors.DefinitionError: ranks: unknown rank 'Z' (one of A23456789TJQK)
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import pathlib
import threading
from collections.abc import Callable, Mapping
from typing import ClassVar, Literal, cast

from cardcore import _core
from pycards.cards import Card
from pycards.engine import offer_game
from pycards.errors import DefinitionError
from pycards.game import Game, Rules, State
from pycards.narrate import By, Template

__all__ = [
    "HEARTS",
    "MAX_PLAYERS",
    "OH_HELL",
    "PORTS",
    "SPADES",
    "WHIST",
    "Bidding",
    "Contract",
    "DefinedGame",
    "Passing",
    "TrickGame",
    "load_description",
    "plain_rules",
    "unlisted_names",
]

#: The most players a defined game seats.
MAX_PLAYERS = 7
_RANKS = "A23456789TJQK"
_SUITS = "CDHS"
_LOCK = threading.RLock()

TrumpKind = Literal["none", "fixed", "turnup", "dealer_card"]
LeadKind = Literal["left", "card"]
ContractKind = Literal["exact", "at_least"]
BreakKind = Literal["played", "never"]

# field indexes of the engine's table (cc_defined.h)
_F = {
    "version": 0,
    "min_players": 1,
    "max_players": 2,
    "ranks": 3,
    "rank_order": 4,
    "schedule_len": 17,
    "schedule": 18,
    "num_deals": 50,
    "target": 51,
    "pass_count": 52,
    "pass_dirs_len": 53,
    "pass_dirs": 54,
    "bidding": 62,
    "nil": 63,
    "hook": 64,
    "trump": 65,
    "trump_suit": 66,
    "must_trump": 67,
    "must_overtrump": 68,
    "lead": 69,
    "lead_card": 70,
    "break_suit": 71,
    "no_points_first": 72,
    "card_points": 73,
    "moon": 125,
    "trick_points": 126,
    "book": 127,
    "partners": 128,
    "contract": 129,
    "made_bonus": 130,
    "made_per_bid": 131,
    "set_per_bid": 132,
    "over_per_trick": 133,
    "bag_limit": 134,
    "bag_penalty": 135,
    "nil_bonus": 136,
    "trick_points_always": 137,
    "floor": 138,
    "break_by": 139,
    "side_limit": 140,
    "nil_tricks": 141,
}
# the description's field of each table field (for the engine's refusals)
_FIELD_OF = {
    "min_players": "players",
    "max_players": "players",
    "ranks": "ranks",
    "rank_order": "rank_order",
    "schedule_len": "hand_sizes",
    "schedule": "hand_sizes",
    "num_deals": "deals",
    "target": "target",
    "pass_count": "passing.count",
    "pass_dirs_len": "passing.directions",
    "pass_dirs": "passing.directions",
    "bidding": "bidding",
    "nil": "bidding.nil",
    "hook": "bidding.hook",
    "trump": "trump",
    "trump_suit": "trump_suit",
    "must_trump": "must_trump",
    "must_overtrump": "must_overtrump",
    "lead": "lead",
    "lead_card": "lead_card",
    "break_suit": "break_suit",
    "no_points_first": "no_points_first_trick",
    "card_points": "card_points",
    "moon": "shoot_the_moon",
    "trick_points": "trick_points",
    "book": "book",
    "partners": "partners",
    "contract": "contract",
    "trick_points_always": "trick_points_always",
    "floor": "floor",
    "break_by": "break_card",
    "side_limit": "bidding.side_limit",
    "nil_tricks": "contract.nil_tricks_count",
}


def _int(value: object, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DefinitionError(f"must be an int, got {value!r}", field)
    if not lo <= value <= hi:
        raise DefinitionError(f"must be {lo}..{hi}, got {value}", field)
    return value


def _bool(value: object, field: str) -> None:
    if not isinstance(value, bool):
        raise DefinitionError(f"must be a bool, got {value!r}", field)


def _choice(value: object, field: str, choices: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in choices:
        raise DefinitionError(f"must be one of {', '.join(choices)}, got {value!r}", field)


def _suit(value: object, field: str) -> int:
    if not isinstance(value, str) or len(value) != 1 or value not in _SUITS:
        raise DefinitionError(f"must be a suit letter (C D H S), got {value!r}", field)
    return _SUITS.index(value)


def _card(value: object, field: str) -> int:
    if not isinstance(value, str):
        raise DefinitionError(f"must be a card name such as '2C', got {value!r}", field)
    try:
        return int(Card.parse(value))
    except ValueError:
        raise DefinitionError(f"must be a card name such as '2C', got {value!r}", field) from None


@dataclasses.dataclass(frozen=True)
class Passing:
    """Cards passed before the play.

    :ivar count: the cards each player passes (1..6).
    :ivar directions: by deal number (cycled), how many seats to the left
        the cards go: 1 left, ``n - 1`` right, 0 no passing that deal.
    """

    count: int
    directions: tuple[int, ...]

    def __post_init__(self) -> None:
        _int(self.count, "passing.count", 1, 6)
        if not isinstance(self.directions, tuple) or not 1 <= len(self.directions) <= 8:
            raise DefinitionError("must be a tuple of 1 to 8 ints", "passing.directions")
        for d in self.directions:
            _int(d, "passing.directions", 0, MAX_PLAYERS - 1)


@dataclasses.dataclass(frozen=True)
class Bidding:
    """Each player bids how many tricks he will take, from the dealer's left.

    :ivar nil: a bid of 0 is nil, scored for its bidder alone
        (:attr:`Contract.nil_bonus`).
    :ivar hook: the dealer, bidding last, may not make the bids total the
        number of tricks (Oh Hell's "hook").
    :ivar side_limit: partners' bids total at most the number of tricks (a
        game with :attr:`TrickGame.partners`).
    """

    nil: bool = False
    hook: bool = False
    side_limit: bool = False

    def __post_init__(self) -> None:
        _bool(self.nil, "bidding.nil")
        _bool(self.hook, "bidding.hook")
        _bool(self.side_limit, "bidding.side_limit")


@dataclasses.dataclass(frozen=True)
class Contract:
    """How a side's bid is scored (its bids summed, a nil bid aside).

    :ivar kind: ``"exact"``: made when the side takes exactly its bid;
        ``"at_least"``: when it takes its bid or more.
    :ivar made_bonus: points for a made contract.
    :ivar made_per_bid: and points per trick bid.
    :ivar set_per_bid: points per trick bid of a failed contract.
    :ivar over_per_trick: points per trick over the bid of a made contract.
    :ivar bag_limit: 0, or the overtricks ("bags") that cost
        :attr:`bag_penalty` each time they add up to it.
    :ivar bag_penalty: the points of a full set of bags.
    :ivar nil_bonus: a nil bidder who takes no trick scores it, else loses
        it; his tricks count as bags.
    :ivar nil_tricks_count: a nil bidder's tricks count toward his side's
        contract (and its overtricks) instead of as bags alone; a side of
        two nil bids then has a contract of 0.
    """

    kind: ContractKind
    made_bonus: int = 0
    made_per_bid: int = 0
    set_per_bid: int = 0
    over_per_trick: int = 0
    bag_limit: int = 0
    bag_penalty: int = 0
    nil_bonus: int = 0
    nil_tricks_count: bool = False

    def __post_init__(self) -> None:
        _choice(self.kind, "contract.kind", ("exact", "at_least"))
        for name in ("made_bonus", "made_per_bid", "set_per_bid", "over_per_trick"):
            _int(getattr(self, name), f"contract.{name}", -1000, 1000)
        _int(self.bag_limit, "contract.bag_limit", 0, 100)
        _int(self.bag_penalty, "contract.bag_penalty", -10000, 10000)
        _int(self.nil_bonus, "contract.nil_bonus", -10000, 10000)
        _bool(self.nil_tricks_count, "contract.nil_tricks_count")


@dataclasses.dataclass(frozen=True)
class TrickGame:
    """A game of the trick-taking family (docs/define.rst, "The description").

    :ivar name: the engine's name (lowercase letters, digits and ``_``).
    :ivar title: the classes' prefix: ``<title>Game``, ``<title>Rules``...
    :ivar players: the number of players, or ``(fewest, most)`` (2..7).
    :ivar ranks: the ranks of the deck (every suit), e.g. ``"A789TJQK"``.
    :ivar rank_order: every rank, weakest first (trick strength).
    :ivar hand_sizes: the hand of each deal (cycled by deal number); 0
        shares the deck out evenly.
    :ivar deals: the deals of a game; 0: until :attr:`target`.
    :ivar target: ``None``; a positive score that ends the game when a seat
        reaches it; a negative one that ends it when a seat falls to it.
    :ivar floor: ``None``, or a negative score that also ends the game when a
        seat falls to it (a game to a positive target that random play
        might never finish).
    :ivar passing: ``None`` or the :class:`Passing` before the play.
    :ivar bidding: ``None`` or the :class:`Bidding` of tricks.
    :ivar trump: ``"none"``, ``"fixed"`` (:attr:`trump_suit`), ``"turnup"``
        (the card after the deal, in no hand) or ``"dealer_card"`` (the
        dealer's last card, shown).
    :ivar trump_suit: the fixed trump suit letter.
    :ivar must_trump: a player void in the led suit trumps if he can.
    :ivar must_overtrump: a player trumping beats the best trump if he can.
    :ivar lead: ``"left"`` (the dealer's left leads first) or ``"card"``
        (the holder of :attr:`lead_card` leads it).
    :ivar lead_card: the card of ``lead="card"``.
    :ivar break_suit: ``None`` or a suit not led until a card of it is
        played (unless a hand holds nothing else).
    :ivar breaks: what breaks :attr:`break_suit`: ``"played"``, a card of
        it played (or :attr:`break_card`); ``"never"``: nothing, the suit is
        led only from a hand holding nothing else.
    :ivar break_card: ``None``, or a card (``"QS"``) whose play also breaks
        :attr:`break_suit`.
    :ivar no_points_first_trick: no point card on the first trick if able.
    :ivar card_points: the points of the cards to their taker: keys are card
        names (``"QS"``) or suit letters (every card of the suit).
    :ivar shoot_the_moon: a player taking every point card scores none and
        every other player scores them all.
    :ivar trick_points: the points of each trick of a side past the book.
    :ivar book: the tricks of a side that score nothing.
    :ivar partners: 4 players, seats ``p`` and ``p + 2`` are one side.
    :ivar contract: ``None`` or the :class:`Contract` of the bids.
    :ivar trick_points_always: score the trick points with a contract too.
    :ivar preset: the name of the rules preset (the source of the rules).
    """

    name: str
    title: str
    players: int | tuple[int, int]
    ranks: str = _RANKS
    rank_order: str = "23456789TJQKA"
    hand_sizes: tuple[int, ...] = (0,)
    deals: int = 1
    target: int | None = None
    floor: int | None = None
    passing: Passing | None = None
    bidding: Bidding | None = None
    trump: TrumpKind = "none"
    trump_suit: str | None = None
    must_trump: bool = False
    must_overtrump: bool = False
    lead: LeadKind = "left"
    lead_card: str | None = None
    break_suit: str | None = None
    breaks: BreakKind = "played"
    break_card: str | None = None
    no_points_first_trick: bool = False
    card_points: Mapping[str, int] = dataclasses.field(default_factory=dict)
    shoot_the_moon: bool = False
    trick_points: int = 0
    book: int = 0
    partners: bool = False
    contract: Contract | None = None
    trick_points_always: bool = False
    preset: str = "standard"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise DefinitionError(f"must be a lowercase identifier, got {self.name!r}", "name")
        if self.name != self.name.lower() or not self.name.isascii() or len(self.name) > 31:
            raise DefinitionError(f"must be lowercase ASCII, 1 to 31, got {self.name!r}", "name")
        if not isinstance(self.title, str) or not self.title.isidentifier():
            raise DefinitionError(f"must be a class-name prefix, got {self.title!r}", "title")
        if not isinstance(self.preset, str) or not self.preset.isidentifier():
            raise DefinitionError(f"must be an identifier, got {self.preset!r}", "preset")
        if isinstance(self.players, tuple):
            if len(self.players) != 2:
                raise DefinitionError("must be an int or (fewest, most)", "players")
            lo = _int(self.players[0], "players", 2, MAX_PLAYERS)
            _int(self.players[1], "players", lo, MAX_PLAYERS)
        else:
            _int(self.players, "players", 2, MAX_PLAYERS)
        for field, text in (("ranks", self.ranks), ("rank_order", self.rank_order)):
            if not isinstance(text, str) or not text:
                raise DefinitionError(f"must be a string of ranks, got {text!r}", field)
            for r in text:
                if r not in _RANKS:
                    raise DefinitionError(f"unknown rank {r!r} (one of {_RANKS})", field)
            if len(set(text)) != len(text):
                raise DefinitionError("names a rank twice", field)
        if sorted(self.rank_order) != sorted(_RANKS):
            raise DefinitionError("must order all 13 ranks", "rank_order")
        if not isinstance(self.hand_sizes, tuple) or not 1 <= len(self.hand_sizes) <= 32:
            raise DefinitionError("must be a tuple of 1 to 32 ints", "hand_sizes")
        for h in self.hand_sizes:
            _int(h, "hand_sizes", 0, 17)
        _int(self.deals, "deals", 0, 1000)
        if self.target is not None:
            _int(self.target, "target", -100000, 100000)
            if self.target == 0:
                raise DefinitionError("must not be 0 (None: no target)", "target")
        elif self.deals == 0:
            raise DefinitionError("0 (until the target) needs a target", "deals")
        if self.floor is not None:
            _int(self.floor, "floor", -100000, -1)
        if self.passing is not None and not isinstance(self.passing, Passing):
            raise DefinitionError("must be None or a Passing", "passing")
        if self.bidding is not None and not isinstance(self.bidding, Bidding):
            raise DefinitionError("must be None or a Bidding", "bidding")
        _choice(self.trump, "trump", ("none", "fixed", "turnup", "dealer_card"))
        if (self.trump == "fixed") != (self.trump_suit is not None):
            raise DefinitionError("a suit with trump='fixed', else None", "trump_suit")
        if self.trump_suit is not None:
            _suit(self.trump_suit, "trump_suit")
        for field in ("must_trump", "must_overtrump"):
            _bool(getattr(self, field), field)
            if getattr(self, field) and self.trump == "none":
                raise DefinitionError("needs a trump", field)
        _choice(self.lead, "lead", ("left", "card"))
        if (self.lead == "card") != (self.lead_card is not None):
            raise DefinitionError("a card with lead='card', else None", "lead_card")
        if self.lead_card is not None:
            c = _card(self.lead_card, "lead_card")
            if _RANKS[c % 13] not in self.ranks:
                raise DefinitionError(f"{self.lead_card} is not in the deck", "lead_card")
        if self.break_suit is not None:
            _suit(self.break_suit, "break_suit")
        _choice(self.breaks, "breaks", ("played", "never"))
        if self.breaks == "never" and self.break_suit is None:
            raise DefinitionError("'never' needs a break_suit", "breaks")
        if self.break_card is not None:
            if self.break_suit is None or self.breaks == "never":
                raise DefinitionError("needs a break_suit broken when played", "break_card")
            c = _card(self.break_card, "break_card")
            if _RANKS[c % 13] not in self.ranks:
                raise DefinitionError(f"{self.break_card} is not in the deck", "break_card")
        for field in ("no_points_first_trick", "shoot_the_moon", "partners"):
            _bool(getattr(self, field), field)
        _bool(self.trick_points_always, "trick_points_always")
        if not isinstance(self.card_points, Mapping):
            raise DefinitionError("must be a mapping of cards or suits to ints", "card_points")
        for key, value in self.card_points.items():
            if isinstance(key, str) and len(key) == 1:
                _suit(key, "card_points")
            else:
                _card(key, "card_points")
            _int(value, f"card_points[{key!r}]", -1000, 1000)
        object.__setattr__(self, "card_points", dict(self.card_points))
        _int(self.trick_points, "trick_points", -1000, 1000)
        _int(self.book, "book", 0, 34)
        if self.partners and self.players != 4:
            raise DefinitionError("partners need exactly 4 players", "partners")
        if self.contract is not None and not isinstance(self.contract, Contract):
            raise DefinitionError("must be None or a Contract", "contract")
        if (self.contract is not None) and self.bidding is None:
            raise DefinitionError("a contract needs bidding", "contract")
        if self.bidding is not None and self.bidding.side_limit and not self.partners:
            raise DefinitionError("needs partners", "bidding.side_limit")
        nil_bids = self.bidding is not None and self.bidding.nil
        if self.contract is not None and self.contract.nil_tricks_count and not nil_bids:
            raise DefinitionError("needs nil bids", "contract.nil_tricks_count")
        if self.bidding is not None and self.bidding.nil and self.contract is None:
            raise DefinitionError("a nil bid needs a contract (its nil_bonus)", "bidding.nil")
        bad = _core.defined_check(self.table())
        if bad >= 0:
            key = max((i, k) for k, i in _F.items() if i <= bad)[1]
            raise DefinitionError("the engine cannot deal or play it", _FIELD_OF.get(key, key))

    def __hash__(self) -> int:
        return hash((*self.table(), self.name, self.title, self.preset))

    @property
    def player_range(self) -> tuple[int, int]:
        """The fewest and the most players."""
        p = self.players
        return (p, p) if isinstance(p, int) else (p[0], p[1])

    def table(self) -> list[int]:
        """The engine's table of the description (cc_defined.h)."""
        t = [0] * _core.DEFINED_TABLE_LEN
        t[_F["version"]] = 1
        t[_F["min_players"]], t[_F["max_players"]] = self.player_range
        t[_F["ranks"]] = sum(1 << _RANKS.index(r) for r in self.ranks)
        for strength, r in enumerate(self.rank_order):
            t[_F["rank_order"] + _RANKS.index(r)] = strength
        t[_F["schedule_len"]] = len(self.hand_sizes)
        for k, h in enumerate(self.hand_sizes):
            t[_F["schedule"] + k] = h
        t[_F["num_deals"]] = self.deals
        t[_F["target"]] = self.target or 0
        t[_F["floor"]] = self.floor or 0
        if self.passing is not None:
            t[_F["pass_count"]] = self.passing.count
            t[_F["pass_dirs_len"]] = len(self.passing.directions)
            for k, d in enumerate(self.passing.directions):
                t[_F["pass_dirs"] + k] = d
        if self.bidding is not None:
            t[_F["bidding"]] = 1
            t[_F["nil"]] = int(self.bidding.nil)
            t[_F["hook"]] = int(self.bidding.hook)
            t[_F["side_limit"]] = int(self.bidding.side_limit)
        t[_F["trump"]] = ("none", "fixed", "turnup", "dealer_card").index(self.trump)
        t[_F["trump_suit"]] = -1 if self.trump_suit is None else _SUITS.index(self.trump_suit)
        t[_F["must_trump"]] = int(self.must_trump)
        t[_F["must_overtrump"]] = int(self.must_overtrump)
        t[_F["lead"]] = int(self.lead == "card")
        t[_F["lead_card"]] = -1 if self.lead_card is None else int(Card.parse(self.lead_card))
        t[_F["break_suit"]] = -1 if self.break_suit is None else _SUITS.index(self.break_suit)
        t[_F["no_points_first"]] = int(self.no_points_first_trick)
        if self.breaks == "never":
            t[_F["break_by"]] = _core.DEFINED_BREAK_NEVER
        elif self.break_card is not None:
            t[_F["break_by"]] = int(Card.parse(self.break_card))
        else:
            t[_F["break_by"]] = -1
        for key, value in self.card_points.items():
            if len(key) == 1:
                suit = _SUITS.index(key)
                for rank in range(13):
                    t[_F["card_points"] + 13 * suit + rank] = value
        for key, value in self.card_points.items():
            if len(key) != 1:
                t[_F["card_points"] + int(Card.parse(key))] = value
        t[_F["moon"]] = int(self.shoot_the_moon)
        t[_F["trick_points"]] = self.trick_points
        t[_F["book"]] = self.book
        t[_F["partners"]] = int(self.partners)
        t[_F["trick_points_always"]] = int(self.trick_points_always)
        c = self.contract
        if c is not None:
            t[_F["contract"]] = 1 if c.kind == "exact" else 2
            t[_F["made_bonus"]] = c.made_bonus
            t[_F["made_per_bid"]] = c.made_per_bid
            t[_F["set_per_bid"]] = c.set_per_bid
            t[_F["over_per_trick"]] = c.over_per_trick
            t[_F["bag_limit"]] = c.bag_limit
            t[_F["bag_penalty"]] = c.bag_penalty
            t[_F["nil_bonus"]] = c.nil_bonus
            t[_F["nil_tricks"]] = int(c.nil_tricks_count)
        return t

    def register(self, module: str | None = None, *, listed: bool = True) -> type[DefinedGame]:
        """Register the game with the engine (once per process; registering
        the same description again returns the same class) and return its
        :class:`pycards.game.Game` subclass, ``<title>Game``; its rules are
        ``<title>Rules`` (the rules parameter ``first_dealer``) and its
        observation ``<title>Observation``.  ``module`` names the module the
        classes live in (for pickling: a module-level name of that module).
        ``listed=False`` keeps the class out of :func:`pycards.game.game_names`
        and :func:`pycards.game.load_game` (a game a test or a program uses
        through its class only; the engine still knows its name).
        ``ValueError`` if another game has the name."""
        with _LOCK:
            existing = _DEFINED.get(self.name)
            if existing is not None and self == existing.DESCRIPTION:
                return existing
            if existing is not None or self.name in _core.game_names():
                raise ValueError(f"register: a game named {self.name!r} exists")
            _core.define_game(self.name, self.table())
            game = _classes(self, module or __name__, listed)
            _DEFINED[self.name] = game
            return game


class DefinedGame(Game[Rules, object]):
    """The base of the games registered from a description
    (:meth:`TrickGame.register`): the text table and the deal kinds."""

    #: The description the game was registered from.
    DESCRIPTION: ClassVar[TrickGame]
    #: Whether :func:`pycards.game.game_names` lists it.
    LISTED: ClassVar[bool] = True
    DEAL_KINDS: ClassVar[frozenset[str]] = frozenset({"new_deal", "deal_card", "turnup"})
    NARRATION: ClassVar[Mapping[str, Template]] = {
        "new_deal": "{player} deals (deal {value})",
        "deal_card": "{player} is dealt {card}",
        "turnup": "{card} is turned up",
        "pass": "{player} passes {card} to {target}",
        "receive": "{player} receives {card} from {target}",
        "bid": "{player} bids {value}",
        "play": "{player} plays {card}",
        "trick": By(
            "value", {0: "{player} takes the trick"}, "{player} takes the trick ({points})"
        ),
        "score": "{player} scores {points} for the deal (total {extra})",
        "game_over": "the game is over",
    }

    def render(self, state: State[object], viewer: int | None = None) -> str:
        """The table as ``viewer`` sees it (``None``: the referee, every hand):
        the trump, each seat's hand, bid, tricks and score, the card it has on
        the trick, and whose turn it is."""
        n = self.num_players
        ref = dataclasses.asdict(state.observation(0 if viewer is None else viewer))  # type: ignore[call-overload]
        trump = "none" if ref["trump"] is None else _SUITS[ref["trump"]]
        turnup = f", turn-up {ref['turnup']}" if ref["turnup"] is not None else ""
        title = self.DESCRIPTION.title
        lines = [f"{title}: dealer seat {ref['dealer']}, trump {trump}{turnup}"]
        to_act = state.current_player
        for q in range(n):
            if viewer is None or viewer == q:
                own = dataclasses.asdict(state.observation(q))  # type: ignore[call-overload]
                hand = str(own["hand"]) or "-"
            else:
                hand = "(hidden)"
            bid = ref["bids"][q]
            bid_text = "-" if bid is None or bid < 0 else str(int(bid))
            card = ref["trick"][q]
            on = str(next(iter(card))) if card else "-"
            mark = "  <- to act" if to_act == q else ""
            lines.append(
                f"seat {q}: hand {hand}  bid {bid_text}  tricks {int(ref['tricks'][q] or 0)}"
                f"  score {int(ref['scores'][q] or 0)}  trick {on}{mark}"
            )
        return "\n".join(lines)


def _init_seating(fewest: int) -> Callable[..., None]:
    def __init__(  # noqa: N807  (the class's __init__)
        self: Game[Rules, object], rules: Rules | str | None = None, num_players: int = fewest
    ) -> None:
        """The game with ``rules`` (``None``: the defaults) for ``num_players``
        (by default the fewest the description allows)."""
        Game.__init__(self, rules, num_players)

    return __init__


# the games registered from this process's descriptions, by name
_DEFINED: dict[str, type[DefinedGame]] = {}


def __getattr__(name: str) -> type:
    """The classes of the games registered here by their names
    (``HeartsGame``, ``HeartsRules``, ``HeartsObservation``...), so that
    pickle finds them."""
    for game in list(_DEFINED.values()):
        if game.__module__ != __name__:
            continue
        for cls in (game, game.RULES_TYPE, game.OBSERVATION_TYPE):
            if cls.__name__ == name:
                return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def unlisted_names() -> frozenset[str]:
    """The names of the games registered with ``listed=False`` (the engine
    knows them; :func:`pycards.game.game_names` does not)."""
    return frozenset(name for name, cls in _DEFINED.items() if not cls.LISTED)


def _classes(desc: TrickGame, module: str, listed: bool) -> type[DefinedGame]:
    title = desc.title

    def preset(cls: type[Rules]) -> Rules:
        return cls()

    preset.__doc__ = f"The rules of {title} as described ({desc.preset})."
    rules: type[Rules] = dataclasses.make_dataclass(
        f"{title}Rules",
        [("first_dealer", "int | None", dataclasses.field(default=None))],
        bases=(Rules,),
        frozen=True,
        repr=False,
        namespace={
            "GAME": desc.name,
            "PRESETS": (desc.preset,),
            desc.preset: classmethod(preset),
            "__doc__": f"The rules of {title}: the first dealer's seat, or None (drawn).",
        },
    )
    names = [d["name"] for d in _core.segments(desc.name, (-1,), desc.player_range[0])]
    observation = dataclasses.make_dataclass(
        f"{title}Observation",
        [("player", "int"), *((name, "object") for name in names)],
        frozen=True,
        namespace={"__doc__": f"What one seat of {title} knows (docs/define.rst)."},
    )
    # a class with NAME in its body registers itself (pycards.game.Game)
    named = {"NAME": desc.name} if listed else {}
    game = cast(
        "type[DefinedGame]",
        type(
            f"{title}Game",
            (DefinedGame,),
            {
                **named,
                "LISTED": listed,
                "RULES_TYPE": rules,
                "OBSERVATION_TYPE": observation,
                "CARD_TYPE": Card,
                "DESCRIPTION": desc,
                "RULES_TEXT": plain_rules(desc),
                "__init__": _init_seating(desc.player_range[0]),
                "__doc__": f"{title}, a game defined from a description (docs/define.rst).",
            },
        ),
    )
    for cls in (rules, observation, game):
        cls.__module__ = module
    game.NAME = desc.name
    return game


_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_RANK_NAMES = dict(
    zip(
        _RANKS,
        ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"),
        strict=True,
    )
)


def _card_words(name: str) -> str:
    return f"the {_RANK_NAMES[name[0]]} of {_SUIT_NAMES[name[1]]}"


def _points(n: int) -> str:
    return f"{n} point" if abs(n) == 1 else f"{n} points"


def plain_rules(desc: TrickGame) -> str:
    """The rules of ``desc`` in plain words, as the browser table and the
    terminal's help show a game's rules (reST sections under ``.. rubric::``
    titles: the aim, the deal, the play, the scoring, the end), written from
    the description's fields alone."""
    lo, hi = desc.player_range
    seats = f"{lo}" if lo == hi else f"{lo} to {hi}"
    sides = "two partnerships, partners sitting opposite" if desc.partners else "each for himself"
    out = [
        ".. rubric:: The aim",
        "",
        f"{seats} players, {sides}, score points with the tricks they take.",
        "",
    ]
    deck = (
        "a full deck of 52"
        if len(desc.ranks) == 13
        else f"the {4 * len(desc.ranks)} cards of ranks {desc.ranks}"
    )
    sizes = ", ".join(str(h) for h in desc.hand_sizes)
    hands = (
        "the deck is shared out evenly"
        if desc.hand_sizes == (0,)
        else f"the hands are of {sizes} cards, deal by deal"
    )
    deal = [f"The game is played with {deck}; {hands}.  The deal passes to the left."]
    if desc.trump == "fixed" and desc.trump_suit is not None:
        deal.append(f"{_SUIT_NAMES[desc.trump_suit].capitalize()} are trumps.")
    elif desc.trump == "turnup":
        deal.append("The next card is turned up: its suit is trumps.")
    elif desc.trump == "dealer_card":
        deal.append("The dealer's last card is shown: its suit is trumps.")
    else:
        deal.append("There are no trumps.")
    if desc.passing is not None:
        ways = {0: "none", 1: "to the left"}
        if lo == hi:
            ways[hi - 1] = "to the right"
            if hi == 4:
                ways[2] = "across"
        dirs = ", ".join(ways.get(d, f"{d} seats to the left") for d in desc.passing.directions)
        deal.append(
            f"Before the play each player passes {desc.passing.count} cards, deal by deal: {dirs}."
        )
    if desc.bidding is not None:
        hook = (
            "; the dealer, last, may not make the bids add up to the tricks"
            if desc.bidding.hook
            else ""
        )
        nil = " (a bid of 0 is nil)" if desc.bidding.nil else ""
        deal.append(
            f"Each player then bids the tricks he will take{nil}, from the dealer's left{hook}."
        )
    out += [".. rubric:: The deal", "", " ".join(deal), ""]
    play = [
        "Each player must follow the suit led if he can; the highest card of the suit led"
        " wins the trick, or the highest trump."
    ]
    if desc.must_trump:
        play.append(
            "A player who cannot follow must trump if he can"
            + (" and beat the best trump if he can." if desc.must_overtrump else ".")
        )
    if desc.lead == "card" and desc.lead_card is not None:
        play.append(f"The holder of {_card_words(desc.lead_card)} leads it to the first trick.")
    else:
        play.append(
            "The player to the dealer's left leads first; the winner of a trick leads to the next."
        )
    if desc.break_suit is not None:
        play.append(
            f"{_SUIT_NAMES[desc.break_suit].capitalize()} may not be led until one has been"
            " played, unless the leader has nothing else."
        )
    if desc.no_points_first_trick:
        play.append("No card that scores may go to the first trick if the player has another.")
    out += [".. rubric:: The play", "", " ".join(play), ""]
    score: list[str] = []
    for key, value in desc.card_points.items():
        what = f"each card of {_SUIT_NAMES[key]}" if len(key) == 1 else _card_words(key)
        score.append(f"{what[0].upper()}{what[1:]} is worth {_points(value)} to its taker.")
    if desc.shoot_the_moon:
        score.append(
            "A player who takes every card that scores scores none of them, and every other"
            " player scores them all."
        )
    if desc.trick_points:
        past = f" past the first {desc.book}" if desc.book else ""
        score.append(f"Each trick{past} is worth {_points(desc.trick_points)}.")
    c = desc.contract
    if c is not None:
        kind = "exactly its bid" if c.kind == "exact" else "at least its bid"
        score.append(
            f"A side that takes {kind} makes it: {c.made_bonus} plus {c.made_per_bid} a trick"
            f" bid and {c.over_per_trick} a trick over; a side set scores {c.set_per_bid} a"
            " trick bid."
        )
        if c.bag_limit:
            score.append(f"Every {c.bag_limit} overtricks cost {c.bag_penalty}.")
        if desc.bidding is not None and desc.bidding.nil:
            score.append(f"A nil bidder who takes no trick scores {c.nil_bonus}, else loses it.")
    out += [".. rubric:: The scoring", "", " ".join(score) or "Nothing scores.", ""]
    end = []
    if desc.target is not None:
        when = f"reaches {desc.target}" if desc.target > 0 else f"falls to {desc.target}"
        end.append(
            f"The game ends when a player {when}"
            + (f" or falls to {desc.floor}" if desc.floor is not None else "")
            + "."
        )
    if desc.deals:
        end.append(f"The game is {desc.deals} deal{'s' if desc.deals != 1 else ''}.")
    end.append("The highest score wins.")
    out += [".. rubric:: The end", "", " ".join(end)]
    return "\n".join(out) + "\n"


# ---- the ports (docs/define.rst, "The ports"): descriptions, registered on request

#: Hearts (Morehead, "Hoyle's Rules of Games"): 3 cards passed left, right,
#: across, held; the 2C leads; hearts broken; no points on the first trick;
#: hearts 1 and QS 13 against; shooting the moon; to 100 against.
HEARTS = TrickGame(
    name="hearts",
    title="Hearts",
    players=4,
    deals=0,
    target=-100,
    passing=Passing(count=3, directions=(1, 3, 2, 0)),
    lead="card",
    lead_card="2C",
    break_suit="H",
    no_points_first_trick=True,
    card_points={"H": -1, "QS": -13},
    shoot_the_moon=True,
    preset="hoyle",
)
#: Oh Hell (Parlett, "The Penguin Book of Card Games"): hands of 7 down to 1
#: and up to 7, the next card turned for trumps, the dealer's hook, a trick a
#: point and 10 for the exact bid.
OH_HELL = TrickGame(
    name="oh_hell",
    title="OhHell",
    players=(3, 7),
    hand_sizes=(7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7),
    deals=13,
    trump="turnup",
    bidding=Bidding(hook=True),
    contract=Contract(kind="exact", made_bonus=10),
    trick_points=1,
    trick_points_always=True,
    preset="parlett",
)
#: Short Whist (Cavendish, "The Laws and Principles of Whist"): partners,
#: the dealer's last card turned for trumps, a point a trick past six, five
#: points a game (honours not scored).
WHIST = TrickGame(
    name="whist",
    title="Whist",
    players=4,
    partners=True,
    deals=0,
    target=5,
    trump="dealer_card",
    trick_points=1,
    book=6,
    preset="cavendish",
)
#: Spades (Parlett, "The Penguin Book of Card Games"): partners, spades
#: trumps and broken, bids with nil, 10 a trick bid, bags, 500 a game, lost
#: at -200.
SPADES = TrickGame(
    name="spades",
    title="Spades",
    players=4,
    partners=True,
    deals=0,
    target=500,
    floor=-200,
    trump="fixed",
    trump_suit="S",
    break_suit="S",
    bidding=Bidding(nil=True),
    contract=Contract(
        kind="at_least",
        made_per_bid=10,
        set_per_bid=-10,
        over_per_trick=1,
        bag_limit=10,
        bag_penalty=-100,
        nil_bonus=100,
    ),
    preset="parlett",
)
#: The ports, by name: each is offered to the engine
#: (:func:`pycards.engine.offer_game`), so :func:`pycards.game.load_game`, the
#: command line and the arena register it the first time its name is asked for.
PORTS: dict[str, TrickGame] = {d.name: d for d in (HEARTS, OH_HELL, WHIST, SPADES)}


def _register_port(desc: TrickGame) -> type[DefinedGame]:
    return desc.register()


for _port in PORTS.values():
    offer_game(_port.name, functools.partial(_register_port, _port))


def load_description(spec: str) -> TrickGame:
    """The description named by ``spec``, ``"path/to/file.py:NAME"``: the
    module-level name ``NAME`` of the Python file, a :class:`TrickGame`
    (without ``:NAME``, the file's only module-level :class:`TrickGame`).
    The file is run as a module of its own.  A :class:`~pycards.errors.DefinitionError`
    (field ``define``) names what is wrong: no such file, no such name, or not
    a description.  The command line's ``--define`` takes the same form."""
    if not isinstance(spec, str):
        raise DefinitionError(f"must be 'FILE.py[:NAME]', got {spec!r}", "define")
    path_text, sep, attr = spec.rpartition(":")
    if not sep or not path_text.endswith(".py"):
        path_text, attr = spec, ""
    path = pathlib.Path(path_text)
    if path.suffix != ".py" or not path.is_file():
        raise DefinitionError(f"no Python file {path_text!r}", "define")
    module_name = f"_pycards_defined_{path.stem}"
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise DefinitionError(f"cannot load {path_text!r}", "define")
    module = importlib.util.module_from_spec(loader_spec)
    loader_spec.loader.exec_module(module)
    if attr:
        found = getattr(module, attr, None)
        if not isinstance(found, TrickGame):
            raise DefinitionError(f"{path_text} has no TrickGame named {attr!r}", "define")
        return found
    games = [v for v in vars(module).values() if isinstance(v, TrickGame)]
    if len(games) != 1:
        raise DefinitionError(
            f"{path_text} has {len(games)} TrickGame descriptions; name one as FILE.py:NAME",
            "define",
        )
    return games[0]
