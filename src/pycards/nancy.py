"""The Game of Nancy: 78-card tarot for 2 to 6 players (RULES.md section 1).

:class:`NancyRules` holds every variant; :class:`NancyGame` binds rules and a
player count to the generic :class:`~pycards.game.State`.  Actions are ints
(see :doc:`/nancy`): ``0`` pass, ``1..9`` bid, ``10 + card`` call,
``88 + card`` discard, ``166 + card`` play, ``244 + card`` pick the Outsider
exchange card.  Rule helpers (legal cards, trick winner, objectives, scores)
and their numpy batch forms work on card ids and Nancy bitsets.

>>> game = NancyGame(NancyRules(), num_players=4)
>>> state = game.new_initial_state(seed=3)
>>> state.legal_action_names()[:3]
['pass', 'bid 1', 'bid 2']
>>> base_score(bid=3, completed=4, won=True)
13
>>> settlement(4, taker=0, partner=-1, bid=3, completed=2, won=False)
[-12, 4, 4, 4]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards._rules import check_bools, check_choices, check_int
from pycards.cards import NancyCard, NancyCardSet, NancyCardsLike, to_mask78
from pycards.errors import InvalidCardError, RulesError
from pycards.game import Game, State

__all__ = [
    "ACTION_CALL",
    "ACTION_DISCARD",
    "ACTION_PASS",
    "ACTION_PICK",
    "ACTION_PLAY",
    "EVENT_KINDS",
    "NUM_ACTIONS",
    "OBJECTIVE_NAMES",
    "PHASES",
    "NancyGame",
    "NancyObservation",
    "NancyRules",
    "base_score",
    "batch_legal_cards",
    "batch_objectives",
    "batch_trick_winner",
    "legal_cards",
    "objectives",
    "settlement",
    "trick_winner",
]

ACTION_PASS = 0
ACTION_CALL = 10
ACTION_DISCARD = 88
ACTION_PLAY = 166
ACTION_PICK = 244
NUM_ACTIONS = 322

#: Phase names, by phase id (observation and docs).
PHASES = ("bidding", "call", "discard", "play", "pick", "over")
#: Event kind names, by kind id (see docs/nancy.rst).
EVENT_KINDS = (
    "dealer", "deal", "bid", "taker", "call", "hound", "discard", "play", "partner",
    "flip", "trick", "debt", "exchange", "result", "score", "game_over",
)  # fmt: skip
#: Names of the nine objectives; objective k is bit k-1 of an objective mask.
OBJECTIVE_NAMES = (
    "Heir's Bodyguard", "Empire of Rats", "Empire of Swords", "Empire of Skulls",
    "Empire of Pistols", "Royal Executioner", "Master of the Arcane", "Fat Nancy",
    "Chosen by the Outsider",
)  # fmt: skip

_CHOICES: dict[str, tuple[str, ...]] = {
    "hound_position_rule": ("ignore", "enforce"),
    "bidding_style": ("single_round", "open_auction"),
    "all_pass": ("redeal", "dealer_forced"),
    "partner_tricks_to": ("opponents", "nancy"),
    "outsider_exchange_mode": ("random", "owner_choice"),
    "deferred_exchange_pick": ("winner_choice", "random", "owner_choice"),
    "outsider_last_trick": ("decides_round", "changes_side"),
    "arcane_sum_mode": ("exact_total", "subset_sum", "at_least"),
    "fat_nancy_outsider_exception": ("none", "slam"),
}


@dataclasses.dataclass(frozen=True)
class NancyRules:
    """Every variant of RULES.md section 1; the defaults are the rule book's.

    :ivar face_up_count: cards of each player's deal dealt face-up (3 to 6
        players; 0..12).  Two players always use the table piles.
    :ivar hound_position_rule: ``ignore`` or ``enforce`` (the Hound's cards are
        dealt singly between packets, never among the first or last packet).
    :ivar bidding_style: ``single_round`` or ``open_auction``.
    :ivar min_bid: lowest bid, 1..9.
    :ivar all_pass: ``redeal`` or ``dealer_forced`` (the last player may not pass
        when everyone else passed).
    :ivar self_call_allowed: the Taker may name a card he holds (then plays alone).
    :ivar reveal_hound: the Hound is shown to all before the Taker takes it.
    :ivar overtrump_on_trump_lead: on a trump lead, play a higher trump if able.
    :ivar partner_tricks_to: ``opponents`` or ``nancy``.
    :ivar outsider_exchange_mode: ``random`` or ``owner_choice``.
    :ivar exchange_from_discard: the exchange card may come from the discards.
    :ivar deferred_exchange_pick: ``winner_choice``, ``random`` or ``owner_choice``.
    :ivar outsider_last_trick: ``decides_round`` or ``changes_side``.
    :ivar arcane_sum_mode: ``exact_total``, ``subset_sum`` or ``at_least``.
    :ivar fat_nancy_outsider_exception: ``none`` or ``slam``.
    :ivar match_rounds: rounds in a match; ``None``: each player deals once.
    :ivar first_dealer: the seat of the first dealer, or ``None`` (the default)
        to draw him from the game seed.  Fix it to replay a real table (with a
        stacked deck, :meth:`NancyGame.stacked_deck`).  The draw is made either
        way, so fixing the seat the seed would have drawn changes nothing else.

    Contradictory settings raise :class:`~pycards.errors.RulesError` (a
    ``ValueError``): an unknown choice, a value out of range, or (when a game
    is created) a ``first_dealer`` who is not a seat.

    >>> NancyRules(first_dealer=2).to_params()[-2:]
    (0, 2)
    >>> NancyRules(first_dealer=6)
    Traceback (most recent call last):
    ...
    pycards.errors.RulesError: first_dealer must be None or a seat 0..5, got 6
    """

    face_up_count: int = 6
    hound_position_rule: Literal["ignore", "enforce"] = "ignore"
    bidding_style: Literal["single_round", "open_auction"] = "single_round"
    min_bid: int = 1
    all_pass: Literal["redeal", "dealer_forced"] = "redeal"
    self_call_allowed: bool = True
    reveal_hound: bool = True
    overtrump_on_trump_lead: bool = True
    partner_tricks_to: Literal["opponents", "nancy"] = "opponents"
    outsider_exchange_mode: Literal["random", "owner_choice"] = "random"
    exchange_from_discard: bool = False
    deferred_exchange_pick: Literal["winner_choice", "random", "owner_choice"] = "winner_choice"
    outsider_last_trick: Literal["decides_round", "changes_side"] = "decides_round"
    arcane_sum_mode: Literal["exact_total", "subset_sum", "at_least"] = "exact_total"
    fat_nancy_outsider_exception: Literal["none", "slam"] = "none"
    match_rounds: int | None = None
    first_dealer: int | None = None

    def __post_init__(self) -> None:
        check_choices(self, _CHOICES)
        check_bools(
            self,
            (
                "self_call_allowed",
                "reveal_hound",
                "overtrump_on_trump_lead",
                "exchange_from_discard",
            ),
        )
        check_int(self, "face_up_count", 0, 12)
        check_int(self, "min_bid", 1, 9)
        check_int(self, "match_rounds", 1, 1000, optional=True)
        check_int(self, "first_dealer", 0, 5, optional=True, what="a seat")

    @classmethod
    def standard(cls) -> NancyRules:
        """The rule book's defaults (RULES.md section 1)."""
        return cls()

    @classmethod
    def real_table(cls) -> NancyRules:
        """Deal as at a physical table (``hound_position_rule="enforce"``)."""
        return cls(hound_position_rule="enforce")

    @classmethod
    def tarot(cls) -> NancyRules:
        """What French-tarot players expect: open auction, the Excuse slam
        exception, and the Outsider on the last trick simply changing sides."""
        return cls(
            bidding_style="open_auction",
            fat_nancy_outsider_exception="slam",
            outsider_last_trick="changes_side",
        )

    @classmethod
    def single_deal(cls) -> NancyRules:
        """One round per match (for bots and benchmarks)."""
        return cls(match_rounds=1)

    def to_params(self) -> tuple[int, ...]:
        """The engine's int32 parameter array (order: docs/nancy.rst)."""
        c = _CHOICES
        return (
            self.face_up_count,
            c["hound_position_rule"].index(self.hound_position_rule),
            c["bidding_style"].index(self.bidding_style),
            self.min_bid,
            c["all_pass"].index(self.all_pass),
            int(self.self_call_allowed),
            int(self.reveal_hound),
            int(self.overtrump_on_trump_lead),
            c["partner_tricks_to"].index(self.partner_tricks_to),
            c["outsider_exchange_mode"].index(self.outsider_exchange_mode),
            int(self.exchange_from_discard),
            c["deferred_exchange_pick"].index(self.deferred_exchange_pick),
            c["outsider_last_trick"].index(self.outsider_last_trick),
            c["arcane_sum_mode"].index(self.arcane_sum_mode),
            c["fat_nancy_outsider_exception"].index(self.fat_nancy_outsider_exception),
            self.match_rounds or 0,
            -1 if self.first_dealer is None else self.first_dealer,
        )

    def check_players(self, num_players: int) -> None:
        """Raise :class:`RulesError` if these rules cannot be played by ``num_players``."""
        if not 2 <= num_players <= 6:
            raise RulesError(f"nancy: 2 to 6 players, got {num_players}")
        if self.first_dealer is not None and self.first_dealer >= num_players:
            raise RulesError(
                f"nancy: first_dealer {self.first_dealer} is not a seat of {num_players} players"
            )


@dataclasses.dataclass(frozen=True)
class NancyObservation:
    """What one player may know: one field per segment of the observation
    tensor (docs/nancy.rst, "Observation tensor"), seats absolute.

    Per-seat tuples are indexed by seat; ``trick[seat]`` is the card that seat
    played to the current trick (an empty set if none); ``bids[seat]`` is -1
    before the seat bid, 0 for a pass, else the bid.  ``hound`` is empty
    unless shown (or you are the Taker), ``discards`` unless you are the Taker.
    """

    player: int
    hand: NancyCardSet
    face_up: tuple[NancyCardSet | None, ...]
    table_down: tuple[int | None, ...]
    trick: tuple[NancyCardSet | None, ...]
    leader: int | None
    played: NancyCardSet
    bids: tuple[int | None, ...]
    dealer: int | None
    taker: int | None
    called: NancyCard | None
    partner_revealed: int
    partner: int | None
    hound: NancyCardSet
    discards: NancyCardSet
    shown_trumps: NancyCardSet
    nancy_pile: NancyCardSet
    opponents_pile: NancyCardSet
    void_rats: tuple[int | None, ...]
    void_swords: tuple[int | None, ...]
    void_skulls: tuple[int | None, ...]
    void_pistols: tuple[int | None, ...]
    trump_ceiling: tuple[int | None, ...]
    phase: int | None
    current_player: int | None
    scores: tuple[int | None, ...]
    trick_index: int
    rounds_done: int
    outsider_debt: int
    outsider_played: int

    @property
    def phase_name(self) -> str:
        """``bidding``, ``call``, ``discard``, ``play``, ``pick`` or ``over``."""
        return PHASES[self.phase or 0]

    @property
    def trick_cards(self) -> tuple[tuple[int, NancyCard], ...]:
        """The current trick as ``(seat, card)`` in play order."""
        if self.leader is None:
            return ()
        n = len(self.trick)
        out: list[tuple[int, NancyCard]] = []
        for k in range(n):
            q = (self.leader + k) % n
            out.extend((q, c) for c in self.trick[q] or ())
        return tuple(out)

    @property
    def voids(self) -> tuple[tuple[int, ...], ...]:
        """The suits (0..3: Rats, Swords, Skulls, Pistols) each seat showed void in."""
        parts = (self.void_rats, self.void_swords, self.void_skulls, self.void_pistols)
        return tuple(tuple(s for s in range(4) if parts[s][q]) for q in range(len(self.void_rats)))


# (name, kind, unit): the engine's segments (cardcore nancy_game.c SEGMENTS);
# TRANSITIONAL until the generic decoder reads them from the engine.
_SEGMENTS = (
    ("hand", "cards", "deck"), ("face_up", "seat_cards", "seat_decks"),
    ("table_down", "seat_numbers", "seats"), ("trick", "seat_cards", "seat_decks"),
    ("leader", "seat", "seats"), ("played", "cards", "deck"),
    ("bids", "seat_numbers", "seats"), ("dealer", "seat", "seats"),
    ("taker", "seat", "seats"), ("called", "card", "deck"),
    ("partner_revealed", "number", "one"), ("partner", "seat", "seats"),
    ("hound", "cards", "deck"), ("discards", "cards", "deck"),
    ("shown_trumps", "cards", "deck"), ("nancy_pile", "cards", "deck"),
    ("opponents_pile", "cards", "deck"), ("void_rats", "seat_numbers", "seats"),
    ("void_swords", "seat_numbers", "seats"), ("void_skulls", "seat_numbers", "seats"),
    ("void_pistols", "seat_numbers", "seats"), ("trump_ceiling", "seat_numbers", "seats"),
    ("phase", "one_hot", "phases"), ("current_player", "seat", "seats"),
    ("scores", "seat_numbers", "seats"), ("trick_index", "number", "one"),
    ("rounds_done", "number", "one"), ("outsider_debt", "number", "one"),
    ("outsider_played", "number", "one"),
)  # fmt: skip


def _card_name(card: int) -> str:
    return str(NancyCard(card))


def _nancy_card(card: NancyCard | int | str) -> NancyCard:
    if isinstance(card, str):
        return NancyCard.parse(card)
    return NancyCard(card)


def _nancy_card_list(cards: str | Iterable[NancyCard | int | str]) -> list[NancyCard]:
    """Cards in the order given: a string of short codes split on spaces, or
    of full names split on commas (as :func:`~pycards.cards.parse_nancy_cards`)."""
    if isinstance(cards, str):
        if "," in cards or ";" in cards:
            tokens = [t.strip() for t in cards.replace(";", ",").split(",") if t.strip()]
        else:
            tokens = cards.split()
        return [NancyCard.parse(t) for t in tokens]
    if not isinstance(cards, Iterable):
        raise TypeError(
            f"expected Nancy cards (a string like 'KR XXI' or a sequence), got {cards!r}"
        )
    return [_nancy_card(c) for c in cards]


_SeatCards: TypeAlias = str | Iterable[NancyCard | int | str]


class NancyGame(Game[NancyRules, NancyObservation]):
    """The Game of Nancy for 2 to 6 players.

    The first dealer is drawn from the seed unless ``rules.first_dealer``
    names him; the first deal can come from a given deck
    (``new_initial_state(seed, deck=...)``), which :meth:`stacked_deck`
    builds from what each seat is to hold.
    """

    NAME: ClassVar[str] = "nancy"
    RULES_TYPE: ClassVar[type[Any]] = NancyRules
    CARD_TYPE = NancyCard

    def _check_players(self) -> None:
        self.rules.check_players(self.num_players)

    def stacked_deck(
        self,
        hands: Sequence[_SeatCards],
        hound: _SeatCards = (),
        face_up: Sequence[_SeatCards] | None = None,
        table_down: Sequence[_SeatCards] | None = None,
        dealer: int | None = None,
        fill: bool = False,
    ) -> list[NancyCard]:
        """A whole deck, top first, that deals each seat its cards when
        ``dealer`` deals; for :meth:`~pycards.game.Game.new_initial_state`
        ``(seed, deck=...)``.

        ``hands[seat]`` are the seat's face-down hand cards, ``face_up[seat]``
        its face-up cards (with 2 players: the face-up tops of its table piles
        0..7, in pile order) and ``table_down[seat]`` (2 players only) the
        face-down bottoms of its piles 0..7; ``hound`` is the Hound.  Each is a
        string of card names or a sequence of cards, ids or names.  The
        positions follow the documented mapping (docs/nancy.rst, "A stacked
        first deal"), with the rules' ``hound_position_rule``.  ``dealer``
        defaults to the rules' ``first_dealer``; the state deals as planned only
        if that is who deals (so fix ``first_dealer`` in the rules, or pass the
        seat the seed draws).

        Every place must get exactly as many cards as it holds, unless
        ``fill`` is true: then places given fewer are filled up with the
        lowest cards nobody was given, seat by seat (table bottoms, face-up
        cards, hand), then the Hound (for setting up a position).  A card
        placed twice, a place given too many cards (or, without ``fill``, too
        few) raises :class:`~pycards.errors.InvalidCardError`; a wrong number of
        seats or a dealer who is not a seat raises ``ValueError``.

        >>> game = NancyGame(NancyRules(face_up_count=0, first_dealer=2), num_players=3)
        >>> deck = game.stacked_deck(["KR QR", "KS", ""], hound="XXI I", fill=True)
        >>> " ".join(str(c) for c in deck[:4]), " ".join(str(c) for c in deck[-6:])
        ('KR QR 1R KS', 'XXI I XVIII XIX XX OUT')
        >>> state = game.new_initial_state(seed=5, deck=deck)
        >>> state.observation(0).dealer, "KR" in str(state.observation(0).hand)
        (2, True)
        """
        n = self.num_players
        dealer = self._stacking_dealer(dealer)

        def per_seat(what: str, given: Sequence[_SeatCards] | None) -> list[list[NancyCard]]:
            if given is None:
                return [[] for _ in range(n)]
            if isinstance(given, str) or len(given) != n:
                raise ValueError(f"stacked_deck: give {what} per seat ({n} entries)")
            return [_nancy_card_list(cards) for cards in given]

        if n > 2 and table_down is not None and any(_nancy_card_list(t) for t in table_down):
            raise ValueError("stacked_deck: only 2 players have face-down table piles")
        downs = per_seat("the table bottoms", table_down if n == 2 else None)
        ups = per_seat("the face-up cards", face_up)
        hand_lists = per_seat("a hand", hands)
        hound_list = _nancy_card_list(hound)
        each = {2: 36, 3: 24, 4: 18, 5: 15, 6: 12}[n]
        nup = 8 if n == 2 else self.rules.face_up_count
        ndown = 8 if n == 2 else 0
        hsize = 3 if n == 5 else 6
        # (name, cards, size) of every place, in fill order
        places: list[tuple[str, list[NancyCard], int]] = []
        for q in range(n):
            places.append((f"seat {q}'s table bottoms", downs[q], ndown))
            places.append((f"seat {q}'s face-up cards", ups[q], nup))
            places.append((f"seat {q}'s hand", hand_lists[q], each - nup - ndown))
        places.append(("the Hound", hound_list, hsize))
        seen: set[NancyCard] = set()
        for name, cards, size in places:
            if len(cards) > size or (len(cards) < size and not fill):
                raise InvalidCardError(f"stacked_deck: {name} holds {size} cards, got {len(cards)}")
            for c in cards:
                if c in seen:
                    raise InvalidCardError(f"stacked_deck: {c} is placed twice", str(c))
                seen.add(c)
        spare = iter([NancyCard(c) for c in range(78) if NancyCard(c) not in seen])
        for _name, cards, size in places:
            cards.extend(next(spare) for _ in range(size - len(cards)))
        # each seat's cards by card number, in the order dealt (docs/nancy.rst)
        dealt = [downs[q] + ups[q] + hand_lists[q] for q in range(n)]
        packet = 4 if n == 2 else 3
        npackets = (78 - hsize) // packet
        before: set[int] = set()
        if self.rules.hound_position_rule == "enforce":
            before = {j * npackets // (hsize + 1) for j in range(1, hsize + 1)}
        deck: list[NancyCard] = []
        hound_left = iter(hound_list)
        for k in range(npackets):
            if k in before:
                deck.append(next(hound_left))
            r = k // n
            deck += dealt[(dealer + 1 + k) % n][packet * r : packet * r + packet]
        deck.extend(hound_left)
        return deck

    def action_name(self, action: int) -> str:
        """``pass``, ``bid 3``, ``call QR``, ``discard 5S``, ``play XXI``, ``pick KP``."""
        if action == ACTION_PASS:
            return "pass"
        if 1 <= action <= 9:
            return f"bid {action}"
        for base, verb in (
            (ACTION_PICK, "pick"),
            (ACTION_PLAY, "play"),
            (ACTION_DISCARD, "discard"),
            (ACTION_CALL, "call"),
        ):
            if base <= action < base + 78:
                return f"{verb} {_card_name(action - base)}"
        raise ValueError(f"unknown Nancy action {action!r} (0..{NUM_ACTIONS - 1})")

    def action_from_name(self, name: str) -> int:
        """Inverse of :meth:`action_name` (cards by any name ``NancyCard.parse`` accepts)."""
        words = name.strip().split(None, 1)
        if not words:
            raise ValueError("empty action name")
        verb = words[0].lower()
        if verb == "pass" and len(words) == 1:
            return ACTION_PASS
        if len(words) != 2:
            raise ValueError(f"unknown Nancy action {name!r}")
        if verb == "bid":
            if words[1].isdigit() and 1 <= int(words[1]) <= 9:
                return int(words[1])
            raise ValueError(f"a bid is 1..9, got {words[1]!r}")
        bases = {
            "call": ACTION_CALL,
            "discard": ACTION_DISCARD,
            "play": ACTION_PLAY,
            "pick": ACTION_PICK,
        }
        if verb not in bases:
            raise ValueError(f"unknown Nancy action {name!r}")
        return bases[verb] + int(NancyCard.parse(words[1]))

    def event_kind_name(self, kind: int) -> str:
        """The name of an event kind id."""
        return EVENT_KINDS[kind] if 0 <= kind < len(EVENT_KINDS) else f"kind {kind}"

    def decode_observation(self, state: State[NancyObservation], player: int) -> NancyObservation:
        """Decode ``player``'s observation tensor, segment by segment."""
        t = state.observation_tensor(player)
        n = self.num_players
        units = {"one": 1, "deck": 78, "seats": n, "seat_decks": 78 * n, "phases": 6}
        pos = 0
        fields: dict[str, Any] = {"player": player}

        def cards(part: npt.NDArray[np.float32]) -> NancyCardSet:
            return NancyCardSet(int(c) for c in np.flatnonzero(part))

        def first(part: npt.NDArray[np.float32]) -> int | None:
            hits = np.flatnonzero(part)
            return int(hits[0]) if len(hits) else None

        def absolute(blocks: list[Any]) -> tuple[Any, ...]:
            return tuple(blocks[(q - player) % n] for q in range(n))

        for name, kind, unit in _SEGMENTS:
            part = t[pos : pos + units[unit]]
            pos += units[unit]
            if kind == "cards":
                fields[name] = cards(part)
            elif kind == "seat_cards":
                fields[name] = absolute([cards(part[78 * r : 78 * r + 78]) for r in range(n)])
            elif kind == "seat_numbers":
                fields[name] = absolute([int(x) for x in part])
            elif kind == "seat":
                r = first(part)
                fields[name] = None if r is None else (player + r) % n
            elif kind == "card":
                c = first(part)
                fields[name] = None if c is None else NancyCard(c)
            elif kind == "one_hot":
                fields[name] = first(part)
            else:
                fields[name] = int(part[0])
        return NancyObservation(**fields)


# ---------------------------------------------------------------------------
# rule helpers


def _trick_ids(trick: Iterable[NancyCard | int | str]) -> list[int]:
    return [int(NancyCard.parse(c)) if isinstance(c, str) else int(c) for c in trick]


def legal_cards(
    holding: NancyCardsLike, trick: Sequence[NancyCard | int | str], overtrump: bool = True
) -> NancyCardSet:
    """Cards of ``holding`` playable to ``trick`` (rules 8 and 9 of RULES.md 1.4).

    >>> str(legal_cards("KR 3S XV OUT", ["5R"]))
    'KR OUT'
    """
    return NancyCardSet.from_mask(
        _core.nancy_legal_cards(to_mask78(holding), _trick_ids(trick), overtrump)
    )


def trick_winner(trick: Sequence[NancyCard | int | str]) -> int:
    """Position of the winning card in ``trick`` (-1 if only the Outsider was played).

    >>> trick_winner(["KR", "II", "QR"])
    1
    """
    result: int = _core.nancy_trick_winner(_trick_ids(trick))
    return result


def objectives(
    nancy: NancyCardsLike,
    arcane_sum_mode: Literal["exact_total", "subset_sum", "at_least"] = "exact_total",
) -> int:
    """Mask of objectives 1..7 met by the cards of a Nancy (bit k-1 for objective k).

    >>> objectives("XXI I")  # Heir's Bodyguard and Master of the Arcane (21 + 1)
    65
    """
    mode = _CHOICES["arcane_sum_mode"].index(arcane_sum_mode)
    result: int = _core.nancy_objectives(to_mask78(nancy), mode)
    return result


def base_score(bid: int, completed: int, won: bool) -> int:
    """The round's base score (RULES.md 1.6)."""
    result: int = _core.nancy_base_score(bid, completed, won)
    return result


def settlement(
    nplayers: int, taker: int, partner: int, bid: int, completed: int, won: bool
) -> list[int]:
    """Points of each seat for one round (``partner`` -1 when the Taker plays alone)."""
    result: list[int] = _core.nancy_settlement(nplayers, taker, partner, bid, completed, won)
    return result


def batch_legal_cards(
    holdings: npt.NDArray[np.uint64], tricks: npt.NDArray[np.int8], overtrump: bool = True
) -> npt.NDArray[np.uint64]:
    """Legal cards per row: holdings ``(n, 2)`` uint64, tricks ``(n, k<=5)`` int8
    (card ids in play order, -1 padding) -> ``(n, 2)`` uint64."""
    result: npt.NDArray[np.uint64] = _core.nancy_batch_legal_cards(holdings, tricks, overtrump)
    return result


def batch_trick_winner(tricks: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """Winning position per trick row ``(n, k<=6)`` int8 -> ``(n,)`` int8."""
    result: npt.NDArray[np.int8] = _core.nancy_batch_trick_winner(tricks)
    return result


def batch_objectives(
    nancies: npt.NDArray[np.uint64],
    arcane_sum_mode: Literal["exact_total", "subset_sum", "at_least"] = "exact_total",
) -> npt.NDArray[np.uint16]:
    """Objectives 1..7 mask per Nancy row ``(n, 2)`` uint64 -> ``(n,)`` uint16."""
    mode = _CHOICES["arcane_sum_mode"].index(arcane_sum_mode)
    result: npt.NDArray[np.uint16] = _core.nancy_batch_objectives(nancies, mode)
    return result
