"""No Takers? (docs/notakers.rst): the rules, the exact best-split scorer, and the game.

The scorer finds, for any set of cards (0 to 52), a split into disjoint sets
with the most points and, among those, the best tie-break key.  Suits: Cups
are hearts, Shields diamonds, Swords spades and Skulls clubs; the tie-break
order is Cups > Shields > Swords > Skulls.

>>> split = best_split("3H 4H 5H 6H 7H 7S 7C 7D")
>>> split.points
9
>>> [(s.kind, str(s.cards)) for s in split.sets]
[('four', '7C 7D 7H 7S'), ('run', '3H 4H 5H 6H')]
>>> winners(["2H 3H 4H 5H 6H", "9D 9S 9C 9H 4S"])
[0]
>>> game = NoTakersGame(num_players=4)
>>> state = game.new_initial_state(seed=7)
>>> len(state.observation(0).hand), state.observation(0).pile_size
(6, 28)
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Callable, Sequence
from typing import ClassVar, Literal

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards._args import JSONObject, as_int
from pycards.cards import RANKS, SUITS, Card, CardSet, CardsLike, to_mask52
from pycards.engine import game_info
from pycards.errors import PycardsError
from pycards.game import Event, Game, HandQuery, Rules, SearchDefaults, State
from pycards.games._facade import as_rules
from pycards.narrate import By, Line, Narrator, Template, descriptor_words
from pycards.summary import EventSource, Summarizer, Summary
from pycards.view import PlayerView

__all__ = [
    "ACTION_ASK",
    "ACTION_DRAW",
    "ACTION_GIVE",
    "ACTION_GIVE_DONE",
    "ACTION_SAVE",
    "ACTION_SAVE_CANCEL",
    "ACTION_SAVE_DONE",
    "EVENT_KINDS",
    "NUM_DESCRIPTORS",
    "PHASES",
    "SUIT_STRENGTH",
    "NoTakersGame",
    "NoTakersObservation",
    "NoTakersRules",
    "NoTakersSet",
    "Split",
    "ask_action",
    "batch_split_points",
    "best_split",
    "descriptor_name",
    "split_points",
    "splits_exactly",
    "winners",
]

AceInRuns = Literal["low", "high", "both"]
TiebreakAce = Literal["high", "low"]
SaveVisibility = Literal["hidden", "open"]
PassFallback = Literal["each_one", "each_at_least_one", "first_holder_only"]
ShortDraw = Literal["take_rest_then_end", "end_without_drawing"]
SetKind = Literal["pair", "trips", "run", "four"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "save_visibility": ("hidden", "open"),
    "pass_fallback": ("each_one", "each_at_least_one", "first_holder_only"),
    "short_draw": ("take_rest_then_end", "end_without_drawing"),
    "ace_in_runs": ("low", "high", "both"),
    "tiebreak_ace": ("high", "low"),
}
#: The largest ``max_turns``.
MAX_TURNS = 1_000_000

#: Tie-break strength of the engine suits C D H S: Cups (hearts) 3 > Shields
#: (diamonds) 2 > Swords (spades) 1 > Skulls (clubs) 0.
SUIT_STRENGTH: dict[int, int] = {0: 0, 1: 2, 2: 3, 3: 1}

#: Action ids (see :doc:`/notakers`): draw, end the save, cancel the save, stop giving.
ACTION_DRAW, ACTION_SAVE_DONE, ACTION_SAVE_CANCEL, ACTION_GIVE_DONE = 0, 1, 2, 3
#: ``ACTION_SAVE + card`` chooses a card to save; ``ACTION_GIVE + card`` gives it.
ACTION_SAVE, ACTION_GIVE = 4, 56
#: ``ACTION_ASK + NUM_DESCRIPTORS * (offset - 1) + descriptor`` asks the player
#: ``offset`` seats on; descriptors 0..12 ranks, 13..16 suits C D H S, 17 + card.
ACTION_ASK = 108
NUM_DESCRIPTORS = 69

#: Phases, by the index the observation tensor uses.
PHASES = ("turn", "save", "give", "pass_fallback", "no_takers", "over")
#: Names of the event kinds of the game log, by kind id (read from the engine).
EVENT_KINDS: tuple[str, ...] = game_info("notakers").event_names
_KIND_NAMES = {1: "pair", 2: "trips", 3: "run", 4: "four"}
_SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


@dataclasses.dataclass(frozen=True, repr=False)
class NoTakersRules(Rules):
    """The rules of No Takers? (docs/notakers.rst); every field is a named variant.

    :ivar save_requires_set: a Save must split into sets with no card left over.
    :ivar save_visibility: save piles are ``"hidden"`` (sizes public) or ``"open"``.
    :ivar pass_fallback: after a Pass, ``"each_one"`` (each later holder gives
        exactly one matching card), ``"each_at_least_one"`` (one or more), or
        ``"first_holder_only"`` (only the first holder gives, one card).
    :ivar short_draw: a draw finding fewer cards than players:
        ``"take_rest_then_end"`` or ``"end_without_drawing"``.
    :ivar max_turns: end the game after this many turns (``None``: no cap).
    :ivar ace_in_runs: the Ace in runs: ``"low"`` (A-2-3), ``"high"``
        (Q-K-A) or ``"both"`` (either, never K-A-2).
    :ivar tiebreak_ace: an Ace set's rank in the tie-break: ``"high"`` (14) or
        ``"low"`` (1).  An Ace on top of Q-K-A always counts 14.

    >>> NoTakersRules().to_params()
    (0, 0, 0, 0, 0, 0, 0)
    >>> NoTakersRules.open_table()
    NoTakersRules(save_requires_set=True, save_visibility='open', ace_in_runs='both')
    >>> NoTakersRules(ace_in_runs="wrap")
    Traceback (most recent call last):
    ...
    pycards.errors.RulesError: ace_in_runs must be one of 'low', 'high', 'both', got 'wrap'
    """

    GAME: ClassVar[str] = "notakers"
    PRESETS: ClassVar[tuple[str, ...]] = ("no_takers", "open_table", "capped")

    save_requires_set: bool = False
    save_visibility: SaveVisibility = "hidden"
    pass_fallback: PassFallback = "each_one"
    short_draw: ShortDraw = "take_rest_then_end"
    max_turns: int | None = None
    ace_in_runs: AceInRuns = "low"
    tiebreak_ace: TiebreakAce = "high"

    @classmethod
    def no_takers(cls) -> NoTakersRules:
        """The rules as "No Takers?" gives them (the defaults; docs/notakers.rst)."""
        return cls()

    @classmethod
    def open_table(cls) -> NoTakersRules:
        """A house variant: save piles face up, a Save must be made of sets, the
        Ace high or low."""
        return cls(save_requires_set=True, save_visibility="open", ace_in_runs="both")

    @classmethod
    def capped(cls, max_turns: int = 200) -> NoTakersRules:
        """The source's rules with a turn cap (for bots and tournaments)."""
        return cls(max_turns=max_turns)


# ---------------------------------------------------------------------------
# scoring


@dataclasses.dataclass(frozen=True)
class NoTakersSet:
    """One set of a split.

    :ivar kind: ``"pair"``, ``"trips"``, ``"run"`` or ``"four"``.
    :ivar cards: its cards.
    :ivar points: its points (pair 1, trips 2, four 5, run of k: k).
    :ivar position: its list position (pair 1, trips 2, run 3: 3, run 4: 4,
        four 5, run of k >= 5: k + 1).
    :ivar top: the top rank as the tie-break counts it (2..13; an Ace 14 on
        top of a run, 14 or 1 in a same-rank set by ``tiebreak_ace``).
    :ivar suit: the engine suit id (0..3 = C D H S) of its strongest card.
    """

    kind: SetKind
    cards: CardSet
    points: int
    position: int
    top: int
    suit: int

    @property
    def key(self) -> tuple[int, int, int]:
        """Its tie-break descriptor: (position, top, suit strength)."""
        return (self.position, self.top, SUIT_STRENGTH[self.suit])


@dataclasses.dataclass(frozen=True)
class Split:
    """A best split: the most points, then the best tie-break key.

    :ivar points: total points.
    :ivar sets: the sets, best first (the order of the key).
    """

    points: int
    sets: tuple[NoTakersSet, ...]

    @property
    def key(self) -> tuple[tuple[int, int, int], ...]:
        """The tie-break key: the sets' descriptors, best first (compare as tuples)."""
        return tuple(s.key for s in self.sets)

    @property
    def rank_key(self) -> tuple[int, tuple[tuple[int, int, int], ...]]:
        """(points, key): the larger wins (docs/notakers.rst, scoring)."""
        return (self.points, self.key)

    @property
    def cards(self) -> CardSet:
        """All cards used by the sets."""
        mask = 0
        for s in self.sets:
            mask |= s.cards.mask
        return CardSet.from_mask(mask)


def best_split(cards: CardsLike, rules: NoTakersRules | None = None) -> Split:
    """The best split of any set of cards (docs/notakers.rst, scoring), exactly.

    >>> s = best_split("AH 2H 3H QH KH", NoTakersRules(ace_in_runs="both"))
    >>> s.points, s.sets[0].kind, str(s.sets[0].cards), s.key
    (3, 'run', 'AH QH KH', ((3, 14, 3),))
    """
    r = as_rules(rules, NoTakersRules)
    raw_points, raw_sets = _core.notakers_best_split(
        to_mask52(cards),
        _CHOICES["ace_in_runs"].index(r.ace_in_runs),
        _CHOICES["tiebreak_ace"].index(r.tiebreak_ace),
    )
    sets = tuple(
        NoTakersSet(
            kind=_KIND_NAMES[kind],  # type: ignore[arg-type]
            cards=CardSet.from_mask(mask),
            points=points,
            position=position,
            top=top,
            suit=suit,
        )
        for kind, mask, points, position, top, suit in raw_sets
    )
    return Split(int(raw_points), sets)


def split_points(cards: CardsLike, rules: NoTakersRules | None = None) -> int:
    """The points of the best split (faster than :func:`best_split`).

    >>> split_points("5H 5S 6H 6S 7H 7S")
    6
    """
    r = as_rules(rules, NoTakersRules)
    return int(
        _core.notakers_points(to_mask52(cards), _CHOICES["ace_in_runs"].index(r.ace_in_runs))
    )


def splits_exactly(cards: CardsLike, rules: NoTakersRules | None = None) -> bool:
    """Whether the cards split into sets with no card left over.

    >>> splits_exactly("5H 5S 5C"), splits_exactly("5H 5S 6C")
    (True, False)
    """
    r = as_rules(rules, NoTakersRules)
    return bool(
        _core.notakers_splits_exactly(
            to_mask52(cards), _CHOICES["ace_in_runs"].index(r.ace_in_runs)
        )
    )


def batch_split_points(
    cards: npt.NDArray[np.uint64],
    rules: NoTakersRules | None = None,
    *,
    out: npt.NDArray[np.int32] | None = None,
    threads: int = 1,
) -> npt.NDArray[np.int32]:
    """:func:`split_points` of each bitset of a 1-D C-contiguous ``uint64`` array
    (the C backend releases the GIL).  ``out`` and ``threads`` are those of
    :mod:`pycards.batch`: the int32 array to write the points to (returned), and
    the threads to spread the batch over (0: every core).

    >>> batch_split_points(CardSet.to_array(["5H 5S 5C", "AH 2H 3H"])).tolist()
    [2, 3]
    """
    r = as_rules(rules, NoTakersRules)
    result: npt.NDArray[np.int32] = _core.notakers_batch_points(
        cards, _CHOICES["ace_in_runs"].index(r.ace_in_runs), out=out, threads=threads
    )
    return result


def winners(hands: Sequence[CardsLike], rules: NoTakersRules | None = None) -> list[int]:
    """The winning players given each player's cards (hand and save pile
    together): the most points, then the best key; ties are shared.

    >>> winners(["8H 9H TH 3D 3S", "8S 9S TS 2D 2C"])
    [0]
    """
    splits = [best_split(h, rules).rank_key for h in hands]
    if not splits:
        return []
    top = max(splits)
    return [p for p, k in enumerate(splits) if k == top]


# ---------------------------------------------------------------------------
# actions


def descriptor_name(descriptor: int) -> str:
    """The name of an ask descriptor: ``"rank 7"``, ``"suit H"`` or ``"card 7H"``."""
    descriptor = as_int(descriptor, "descriptor", 0, NUM_DESCRIPTORS - 1)
    if descriptor < 13:
        return f"rank {RANKS[descriptor]}"
    if descriptor < 17:
        return f"suit {SUITS[descriptor - 13]}"
    return f"card {Card(descriptor - 17)}"


def ask_action(offset: int, descriptor: int) -> int:
    """The action asking the player ``offset`` seats on (1..7) for ``descriptor``
    (0..68); whether that seat exists depends on the game's player count."""
    offset = as_int(offset, "offset", 1, 7)
    descriptor = as_int(descriptor, "descriptor", 0, NUM_DESCRIPTORS - 1)
    return ACTION_ASK + NUM_DESCRIPTORS * (offset - 1) + descriptor


# ---------------------------------------------------------------------------
# the game


@dataclasses.dataclass(frozen=True, kw_only=True)
class NoTakersObservation:
    """What one player may know: one field per segment of the observation
    tensor (docs/notakers.rst, Observation tensor), seats absolute.

    :ivar player: the observing seat.
    :ivar hand: the player's hand.
    :ivar save: the player's save pile.
    :ivar selection: the cards he has chosen so far in a Save.
    :ivar save_piles: with ``save_visibility="open"``, every other seat's save
        pile (``None`` for the observer's own, which is :attr:`save`); with
        hidden saves, ``None``.
    :ivar hand_sizes: cards in each seat's hand.
    :ivar save_sizes: cards in each seat's save pile.
    :ivar pile_size: cards left in the draw pile.
    :ivar turns: completed turns.
    :ivar current_player: the seat to act, ``None`` when the game is over.
    :ivar phase: the index in :data:`PHASES` (see :attr:`phase_name`).
    :ivar asker: the asking seat during an Ask, else ``None``.
    :ivar asked: the asked seat during an Ask, else ``None``.
    :ivar descriptor: what was asked for (see :func:`descriptor_name`), else ``None``.
    :ivar given: cards given so far by the current giver.
    :ivar receiver: during No Takers, the seat receiving the next card.
    :ivar points: each seat's points once the game is over (0 before).
    """

    player: int
    hand: CardSet
    save: CardSet
    selection: CardSet
    save_piles: tuple[CardSet | None, ...] | None = None
    hand_sizes: tuple[int | None, ...]
    save_sizes: tuple[int | None, ...]
    pile_size: int
    turns: int
    current_player: int | None
    phase: int | None
    asker: int | None
    asked: int | None
    descriptor: int | None
    given: int
    receiver: int | None
    points: tuple[int | None, ...]

    @property
    def phase_name(self) -> str:
        """The phase's name (one of :data:`PHASES`)."""
        return PHASES[self.phase] if self.phase is not None else "over"


# ---------------------------------------------------------------------------
# the story (pycards.narrate, pycards.summary)

#: How each event kind is told (:mod:`pycards.narrate`).
NARRATION: dict[str, Template] = {
    "deal": "{player} is dealt {card}",
    "draw": By("extra", {1: "{player} must draw: {card}"}, "{player} draws {card}"),
    "save": "{player} saves {card}",
    "ask": "{player} asks {target} for {descriptor}",
    "pass": "{player} has none: Pass",
    "give": By(
        "extra",
        {
            1: "{player} gives {target} {card} after the Pass",
            2: "No Takers: {player} gives {target} {card}",
        },
        "{player} gives {target} {card}",
    ),
    "no_takers": "{player} finds no takers",
    "score": By(
        "extra",
        {1: "{player} scores {points} for their best split and wins"},
        "{player} scores {points} for their best split",
    ),
    "game_over": By(
        "value",
        {1: "the game is over: the turns ran out"},
        "the game is over: the draw pile ran out",
    ),
}


#: The phases in the table's words.
_PHASE_WORDS = {
    "save": "saving",
    "give": "giving",
    "pass_fallback": "giving after a Pass",
    "no_takers": "No Takers",
}


class NoTakersNarrator(Narrator):
    """A score is the points of the best split (docs/notakers.rst, scoring)."""

    def points(self, ev: Event) -> int:
        return ev.value or 0 if ev.kind == "score" else 0

    def words(self, move: str, view: PlayerView[object], names: Sequence[str] | None = None) -> str:
        """An ask in words: ``"ask +1 rank 7"`` is ``"ask Bob for sevens"``,
        ``"ask +1 card"`` (a step) ``"ask Bob for one card"``."""
        parts = move.split()
        if not parts or parts[0] != "ask" or len(parts) < 2 or not parts[1].startswith("+"):
            return move
        try:
            seat = (view.seat + int(parts[1][1:])) % view.num_players
        except ValueError:
            return move
        out = f"ask {self.name(seat, names)}"
        kind = parts[2] if len(parts) > 2 else None
        if kind is None:
            return out
        if len(parts) < 4:
            return out + {"rank": " for a rank", "suit": " for a suit"}.get(kind, " for one card")
        value = parts[3]
        if kind == "rank" and value in RANKS:
            return out + " for " + descriptor_words(RANKS.index(value), self.game._card_name)
        if kind == "suit" and value in SUITS:
            return out + " for " + descriptor_words(13 + SUITS.index(value), self.game._card_name)
        return out + f" for the {value}"

    def prompt(self, view: PlayerView[object], names: Sequence[str] | None = None) -> str:
        """Each decision in words: the turn, the save, a give (asked, after a
        Pass, or for No Takers)."""
        obs = view.observation
        if not isinstance(obs, NoTakersObservation):  # pragma: no cover - the game's own view
            return super().prompt(view)
        legal = view.legal_action_names()
        phase = obs.phase_name
        if phase == "turn":
            n = view.num_players
            parts = [f"draw {n} cards"]
            if any(name.startswith("save ") for name in legal):
                parts.append("save 3 or more cards from your hand")
            parts.append("ask a player for a rank, a suit or one card")
            return "Your turn: " + ", ".join(parts[:-1]) + ", or " + parts[-1]
        if phase == "save":
            chosen = len(obs.selection)
            if "end save" not in legal:
                return f"Choose the cards to save: {chosen} chosen, at least 3 (or cancel the save)"
            return f"Choose more cards to save, end the save ({chosen} chosen), or cancel it"
        what = descriptor_words(obs.descriptor, self.game._card_name)
        asker = self.name(obs.asker if obs.asker is not None else -1, names)
        if phase == "no_takers":
            to = self.name(obs.receiver if obs.receiver is not None else -1, names)
            return f"No Takers: nobody gave you {what}, so give {to} one card of your choice"
        if phase == "pass_fallback":
            asked = self.name(obs.asked if obs.asked is not None else -1, names)
            if what.startswith("the "):
                return f"{asked} had not {what}, and you have: give it to {asker}"
            return f"{asked} had no {what}: give {asker} one of yours"
        if "stop giving" in legal:
            return f"Give {asker} more of your {what}, or stop giving"
        it = "it" if what.startswith("the ") else "one of them, or more"
        return f"{asker} asks you for {what}: give {it}"


@dataclasses.dataclass(frozen=True)
class NoTakersSummary(Summary):
    """The end of a game of No Takers?.

    :ivar ended: why the game ended (the draw pile or the turns ran out).
    :ivar splits: each seat's best split: every seat lays its cards down
        at the end (``None`` for a seat whose cards the story's source could
        not read: a seat's view alone reads its own).
    :ivar points: each seat's points.
    :ivar winners: the winning seats.
    :ivar tie_break: whether the most points were tied and the tie-break
        (the best sets, then their top rank, then suit) decided.
    """

    ended: str
    splits: tuple[Split | None, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    tie_break: bool

    def lines(self) -> list[str]:
        who = " and ".join(f"seat {k}" for k in self.winners)
        out = [f"the game: {self.ended}; {who} {'win' if len(self.winners) > 1 else 'wins'}"]
        for k, (split, points) in enumerate(zip(self.splits, self.points, strict=True)):
            if split is None:
                out.append(f"  seat {k}: {_points(points)}")
                continue
            sets = (
                "; ".join(
                    f"{_SET_WORDS.get(x.kind, x.kind)} {x.cards} ({x.points})" for x in split.sets
                )
                or "no set"
            )
            out.append(f"  seat {k}: {_points(points)}: {sets}")
        top = max(self.points)
        tied = [k for k, p in enumerate(self.points) if p == top]
        if self.tie_break:
            out.append(
                f"  tie-break: {' and '.join(f'seat {k}' for k in tied)} tie on {top};"
                " the best sets decide"
            )
        elif len(self.winners) > 1:
            out.append(f"  a shared win on {top}: the tie-break cannot part them")
        return out


#: A set's kind in words.
_SET_WORDS = {"trips": "three of a kind", "four": "four of a kind"}


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


class NoTakersSummarizer(Summarizer):
    """The game's :class:`NoTakersSummary`, made when the game is over: every
    player lays down their hand and save pile, divided into sets, so the
    summary gives every seat's best split (:attr:`SHOWN_AT_END`)."""

    SHOWN_AT_END = True

    def __init__(self, game: Game[Rules, object], viewer: int | None) -> None:
        super().__init__(game, viewer)
        self.points: dict[int, int] = {}
        self.winners: list[int] = []
        self.ended = "the game is over"

    def feed(self, line: Line) -> list[Summary]:
        ev = line.event
        if ev.kind == "score":
            self.points[ev.player] = ev.value or 0
            if ev.extra == 1:
                self.winners.append(ev.player)
        elif ev.kind == "game_over":
            self.ended = "the turns ran out" if ev.value == 1 else "the draw pile ran out"
        return []

    def finish(self, state: EventSource) -> list[Summary]:
        n = self.game.num_players
        splits: list[Split | None] = [None] * n
        for k in range(n):
            try:  # a viewer that reads only its own seat's view knows its own
                obs = state.observation(k)
            except PycardsError:
                continue
            assert isinstance(obs, NoTakersObservation)  # the game's own observation
            splits[k] = best_split(obs.hand | obs.save, as_rules(self.game.rules, NoTakersRules))
        points = tuple(self.points.get(k, 0) for k in range(n))
        top = max(points) if points else 0
        tied = sum(1 for p in points if p == top)
        winners = tuple(sorted(self.winners))
        return [NoTakersSummary(0, self.ended, tuple(splits), points, winners, tied > len(winners))]


class NoTakersGame(Game[NoTakersRules, NoTakersObservation]):
    """No Takers? for 2 to 8 players (docs/notakers.rst).

    Action names: ``"draw"``, ``"end save"``, ``"cancel save"``,
    ``"stop giving"``, ``"save 7H"``, ``"give 7H"``, ``"ask +1 rank 7"``,
    ``"ask +2 suit H"``, ``"ask +1 card 7H"`` (``+k``: the player k seats on).

    >>> g = NoTakersGame(num_players=3)
    >>> g.action_name(ask_action(2, 17 + 6)), g.action_from_name("give TD")
    ('ask +2 card 7C', 78)
    """

    NAME = "notakers"
    TITLE = "No Takers?"
    DEAL_KINDS: ClassVar[frozenset[str]] = frozenset({"deal", "draw"})
    #: The search bots' defaults (docs/search.rst, "Defaults").
    SEARCH_DEFAULTS: ClassVar[SearchDefaults] = {
        "reward": "margin",
        "horizon": "game",
        "rollout": "heuristic",
        "scale": 5.0,
    }
    #: The bot ``best`` plays (docs/bots.rst, "The best bot").
    BEST_BOT: ClassVar[str] = "ismcts:rollout=heuristic:simulations=400"
    RULES_TYPE = NoTakersRules
    OBSERVATION_TYPE = NoTakersObservation
    CARD_TYPE = Card
    NARRATION = NARRATION
    NARRATOR = NoTakersNarrator
    SUMMARIZER = NoTakersSummarizer

    def table_notes(self, observation: object) -> JSONObject:
        """What the Ask in progress asks for, in words (``asked_for``)."""
        if not isinstance(observation, NoTakersObservation):
            raise TypeError(f"a NoTakersObservation, got {type(observation).__name__}")
        descriptor = observation.descriptor
        return {} if descriptor is None else {"asked_for": descriptor_name(descriptor)}

    def score_distribution(
        self, query: HandQuery | None = None, progress: Callable[[int], None] | None = None
    ) -> tuple[npt.NDArray[np.int64], str]:
        """Sampled: :func:`batch_split_points` of ``query.hands`` random
        ``query.cards``-card hands dealt from ``query.seed``."""
        q = query or HandQuery()
        hands, cards, seed = q.hands, q.cards, q.seed
        sample = _core.random_hands(hands, cards, seed)
        points = np.zeros(hands, dtype=np.int64)
        for start in range(0, hands, 1 << 18):
            part = sample[start : start + (1 << 18)]
            points[start : start + len(part)] = batch_split_points(part, self.rules)
            if progress is not None:
                progress(start + len(part))
        return np.bincount(points).astype(np.int64), (
            f"sampled, the best split of {hands:,} random {cards}-card hands, seed {seed}"
        )

    def render(self, state: State[NoTakersObservation], viewer: int | None = None) -> str:
        """The table as ``viewer`` sees it (``None``: the referee, every hand):
        each seat's hand (or its size) and save pile (or its size), the draw
        pile, the Ask in progress, whose turn and the phase; points at the end.

        >>> game = NoTakersGame(num_players=2)
        >>> print(game.render(game.new_initial_state(3), viewer=0))
        No Takers?, 2 players, turn 1, phase turn, seat 0 to act, draw pile 26
        seat 0: hand AC 3C 7C 9C JC QC KC KD 2H 8H AS 3S JS   save pile -
        seat 1: hand ? x 13   save pile -
        """
        n = self.num_players
        own = [state.observation(q) for q in range(n)] if viewer is None else None
        ref = state.observation(0 if viewer is None else viewer)
        who = "game over" if ref.current_player is None else f"seat {ref.current_player} to act"
        lines = [
            f"No Takers?, {n} players, turn {ref.turns + 1}, "
            f"phase {_PHASE_WORDS.get(ref.phase_name, ref.phase_name)}, "
            f"{who}, draw pile {ref.pile_size}"
        ]
        for q in range(n):
            if own is not None or q == viewer:
                mine = own[q] if own is not None else ref
                hand = str(mine.hand) or "-"
                save = str(mine.save) or "-"
                extra = f"   choosing {mine.selection}" if mine.selection else ""
            else:
                hand = f"? x {ref.hand_sizes[q]}"
                pile = ref.save_piles[q] if ref.save_piles is not None else None
                if pile is not None:
                    save = str(pile) or "-"
                else:
                    size = ref.save_sizes[q]
                    save = f"{size} face down" if size else "-"
                extra = ""
            lines.append(f"seat {q}: hand {hand}   save pile {save}{extra}")
        if ref.asker is not None and ref.asked is not None and ref.descriptor is not None:
            lines.append(
                f"ask: seat {ref.asker} asked seat {ref.asked} for "
                f"{descriptor_name(ref.descriptor)} ({ref.given} given)"
            )
        if ref.current_player is None:
            lines.append("points: " + " ".join(str(p) for p in ref.points))
        # every line fits 80 columns: a long hand goes on, between cards, indented
        return "\n".join(
            part
            for line in lines
            for part in textwrap.wrap(line, 80, subsequent_indent=" " * 8, break_on_hyphens=False)
        )
