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
>>> game = NoTakers(num_players=4)
>>> state = game.new_initial_state(seed=7)
>>> len(state.observation(0).hand), state.observation(0).pile_size
(6, 28)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards._rules import check_bools, check_choices, check_int
from pycards.cards import RANKS, SUITS, Card, CardSet, CardsLike, to_mask52
from pycards.game import Game, State

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
    "NoTakers",
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
#: Event kinds by id.
EVENT_KINDS: dict[int, str] = {
    0: "deal", 1: "draw", 2: "save", 3: "ask", 4: "pass", 5: "give", 6: "no_takers",
    7: "score", 8: "game_over",
}  # fmt: skip
_KIND_NAMES = {1: "pair", 2: "trips", 3: "run", 4: "four"}
_SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


@dataclasses.dataclass(frozen=True)
class NoTakersRules:
    """The rules of No Takers? (docs/notakers.rst); every field is a named variant.

    :ivar save_requires_set: a Save must split into sets with no card left over.
    :ivar save_visibility: save piles are ``"hidden"`` (sizes public) or ``"open"``.
    :ivar pass_fallback: after a Pass, ``"each_one"`` (each later holder gives
        exactly one matching card), ``"each_at_least_one"`` (one or more), or
        ``"first_holder_only"`` (only the first holder gives, one card).
    :ivar short_draw: a draw finding fewer cards than players:
        ``"take_rest_then_end"`` or ``"end_without_drawing"``.
    :ivar max_turns: end the game after this many turns (0: no cap).
    :ivar ace_in_runs: the Ace in runs: ``"low"`` (A-2-3), ``"high"``
        (Q-K-A) or ``"both"`` (either, never K-A-2).
    :ivar tiebreak_ace: an Ace set's rank in the tie-break: ``"high"`` (14) or
        ``"low"`` (1).  An Ace on top of Q-K-A always counts 14.

    >>> NoTakersRules().to_params()
    (0, 0, 0, 0, 0, 0, 0)
    >>> NoTakersRules(ace_in_runs="wrap")
    Traceback (most recent call last):
    ...
    pycards.errors.RulesError: ace_in_runs must be one of 'low', 'high', 'both', got 'wrap'
    """

    save_requires_set: bool = False
    save_visibility: SaveVisibility = "hidden"
    pass_fallback: PassFallback = "each_one"
    short_draw: ShortDraw = "take_rest_then_end"
    max_turns: int = 0
    ace_in_runs: AceInRuns = "low"
    tiebreak_ace: TiebreakAce = "high"

    def __post_init__(self) -> None:
        check_choices(self, _CHOICES)
        check_bools(self, ("save_requires_set",))
        check_int(self, "max_turns", 0, MAX_TURNS)

    @classmethod
    def standard(cls) -> NoTakersRules:
        """The rules as "No Takers?" gives them (docs/notakers.rst)."""
        return cls()

    @classmethod
    def open_table(cls) -> NoTakersRules:
        """Save piles face up, a Save must be made of sets, the Ace high or low."""
        return cls(save_requires_set=True, save_visibility="open", ace_in_runs="both")

    @classmethod
    def capped(cls, max_turns: int = 200) -> NoTakersRules:
        """The defaults with a turn cap (for bots and tournaments)."""
        return cls(max_turns=max_turns)

    def to_params(self) -> tuple[int, ...]:
        """The C rules array, in this order: save_requires_set, save_visibility
        (0 hidden, 1 open), pass_fallback (0 each_one, 1 each_at_least_one,
        2 first_holder_only), short_draw (0 take_rest_then_end,
        1 end_without_drawing), max_turns, ace_in_runs (0 low, 1 high, 2 both),
        tiebreak_ace (0 high, 1 low)."""
        return (
            int(self.save_requires_set),
            _CHOICES["save_visibility"].index(self.save_visibility),
            _CHOICES["pass_fallback"].index(self.pass_fallback),
            _CHOICES["short_draw"].index(self.short_draw),
            self.max_turns,
            _CHOICES["ace_in_runs"].index(self.ace_in_runs),
            _CHOICES["tiebreak_ace"].index(self.tiebreak_ace),
        )


def _rules(rules: NoTakersRules | None) -> NoTakersRules:
    if rules is None:
        return NoTakersRules()
    if not isinstance(rules, NoTakersRules):
        raise TypeError(f"rules must be NoTakersRules, got {type(rules).__name__}")
    return rules


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
    r = _rules(rules)
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
    r = _rules(rules)
    return int(
        _core.notakers_points(to_mask52(cards), _CHOICES["ace_in_runs"].index(r.ace_in_runs))
    )


def splits_exactly(cards: CardsLike, rules: NoTakersRules | None = None) -> bool:
    """Whether the cards split into sets with no card left over.

    >>> splits_exactly("5H 5S 5C"), splits_exactly("5H 5S 6C")
    (True, False)
    """
    r = _rules(rules)
    return bool(
        _core.notakers_splits_exactly(
            to_mask52(cards), _CHOICES["ace_in_runs"].index(r.ace_in_runs)
        )
    )


def batch_split_points(
    cards: npt.NDArray[np.uint64], rules: NoTakersRules | None = None
) -> npt.NDArray[np.int32]:
    """:func:`split_points` of each bitset of a 1-D C-contiguous ``uint64`` array
    (the C backend releases the GIL).

    >>> batch_split_points(CardSet.to_array(["5H 5S 5C", "AH 2H 3H"])).tolist()
    [2, 3]
    """
    r = _rules(rules)
    out: npt.NDArray[np.int32] = _core.batch_notakers_points(
        cards, _CHOICES["ace_in_runs"].index(r.ace_in_runs)
    )
    return out


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
    if not 0 <= descriptor < NUM_DESCRIPTORS:
        raise ValueError(f"descriptor must be 0..{NUM_DESCRIPTORS - 1}, got {descriptor}")
    if descriptor < 13:
        return f"rank {RANKS[descriptor]}"
    if descriptor < 17:
        return f"suit {SUITS[descriptor - 13]}"
    return f"card {Card(descriptor - 17)}"


def _descriptor_from_name(kind: str, token: str) -> int:
    token = token.strip().upper()
    if kind == "rank":
        if token == "10":
            token = "T"
        if len(token) != 1 or token not in RANKS:
            raise ValueError(f"unknown rank {token!r}")
        return RANKS.index(token)
    if kind == "suit":
        if len(token) != 1 or token not in SUITS:
            raise ValueError(f"unknown suit {token!r}")
        return 13 + SUITS.index(token)
    if kind == "card":
        return 17 + int(Card.parse(token))
    raise ValueError(f"unknown ask kind {kind!r}: rank, suit or card")


def ask_action(offset: int, descriptor: int) -> int:
    """The action asking the player ``offset`` seats on (1..n-1) for ``descriptor``."""
    if offset < 1 or not 0 <= descriptor < NUM_DESCRIPTORS:
        raise ValueError(f"bad ask: offset {offset}, descriptor {descriptor}")
    return ACTION_ASK + NUM_DESCRIPTORS * (offset - 1) + descriptor


# ---------------------------------------------------------------------------
# the game


@dataclasses.dataclass(frozen=True)
class NoTakersObservation:
    """What one player may know (decoded from the observation tensor).

    Seats are absolute.  ``save_piles`` shows the other players' save piles
    only with ``save_visibility="open"`` (else ``None`` for them).

    :ivar player: the observing seat.
    :ivar phase: one of :data:`PHASES`.
    :ivar current_player: the seat to act (-4 when over).
    :ivar hand: the player's hand.
    :ivar save: the player's save pile.
    :ivar selection: the cards he has chosen so far in a Save.
    :ivar save_piles: every seat's save pile if visible to him, else ``None``.
    :ivar hand_sizes: cards in each seat's hand.
    :ivar save_sizes: cards in each seat's save pile.
    :ivar pile_size: cards left in the draw pile.
    :ivar turns: completed turns.
    :ivar asker: the asking seat during an Ask, else ``None``.
    :ivar asked: the asked seat during an Ask, else ``None``.
    :ivar descriptor: what was asked for (see :func:`descriptor_name`), else ``None``.
    :ivar given: cards given so far by the current giver.
    :ivar receiver: during No Takers, the seat receiving the next card.
    :ivar final_points: each seat's points when the game is over, else ``None``.
    """

    player: int
    phase: str
    current_player: int
    hand: CardSet
    save: CardSet
    selection: CardSet
    save_piles: tuple[CardSet | None, ...]
    hand_sizes: tuple[int, ...]
    save_sizes: tuple[int, ...]
    pile_size: int
    turns: int
    asker: int | None
    asked: int | None
    descriptor: int | None
    given: int
    receiver: int | None
    final_points: tuple[int, ...] | None


def _cards_of(vec: npt.NDArray[np.float32]) -> CardSet:
    return CardSet(int(i) for i in np.flatnonzero(vec))


def _one_hot(vec: npt.NDArray[np.float32]) -> int | None:
    hits = np.flatnonzero(vec)
    return int(hits[0]) if len(hits) else None


class NoTakers(Game[NoTakersRules, NoTakersObservation]):
    """No Takers? for 2 to 8 players (docs/notakers.rst).

    Action names: ``"draw"``, ``"end save"``, ``"cancel save"``,
    ``"stop giving"``, ``"save 7H"``, ``"give 7H"``, ``"ask +1 rank 7"``,
    ``"ask +2 suit H"``, ``"ask +1 card 7H"`` (``+k``: the player k seats on).

    >>> g = NoTakers(num_players=3)
    >>> g.action_name(ask_action(2, 17 + 6)), g.action_from_name("give TD")
    ('ask +2 card 7C', 78)
    """

    NAME = "notakers"
    RULES_TYPE = NoTakersRules

    def action_name(self, action: int) -> str:
        """A readable name of an action id."""
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action must be 0..{self.num_actions - 1}, got {action}")
        if action == ACTION_DRAW:
            return "draw"
        if action == ACTION_SAVE_DONE:
            return "end save"
        if action == ACTION_SAVE_CANCEL:
            return "cancel save"
        if action == ACTION_GIVE_DONE:
            return "stop giving"
        if action < ACTION_GIVE:
            return f"save {Card(action - ACTION_SAVE)}"
        if action < ACTION_ASK:
            return f"give {Card(action - ACTION_GIVE)}"
        offset, descriptor = divmod(action - ACTION_ASK, NUM_DESCRIPTORS)
        return f"ask +{offset + 1} {descriptor_name(descriptor)}"

    def action_from_name(self, name: str) -> int:
        """The action id of a name made by :meth:`action_name`."""
        words = name.strip().lower().split()
        fixed = {
            ("draw",): ACTION_DRAW,
            ("end", "save"): ACTION_SAVE_DONE,
            ("cancel", "save"): ACTION_SAVE_CANCEL,
            ("stop", "giving"): ACTION_GIVE_DONE,
        }
        action: int
        if tuple(words) in fixed:
            action = fixed[tuple(words)]
        elif len(words) == 2 and words[0] in ("save", "give"):
            base = ACTION_SAVE if words[0] == "save" else ACTION_GIVE
            action = base + int(Card.parse(words[1]))
        elif len(words) == 4 and words[0] == "ask" and words[1].startswith("+"):
            try:
                offset = int(words[1][1:])
            except ValueError:
                raise ValueError(f"bad seat offset in {name!r}") from None
            if not 1 <= offset < self.num_players:
                raise ValueError(f"seat offset must be 1..{self.num_players - 1} in {name!r}")
            action = ask_action(offset, _descriptor_from_name(words[2], words[3]))
        else:
            raise ValueError(f"unknown action name {name!r}")
        return action

    def event_kind_name(self, kind: int) -> str:
        """The name of an event kind (see :data:`EVENT_KINDS`)."""
        return EVENT_KINDS.get(kind, f"kind {kind}")

    def decode_observation(
        self, state: State[NoTakersObservation], player: int
    ) -> NoTakersObservation:
        """The typed observation of ``player`` (from his observation tensor only)."""
        t = state.observation_tensor(player)
        n = self.num_players

        def seat(rel: int) -> int:
            return (player + rel) % n

        def by_seat(block: npt.NDArray[np.float32]) -> tuple[int, ...]:
            values = [0] * n
            for rel in range(n):
                values[seat(rel)] = int(block[rel])
            return tuple(values)

        hand, save, selection = _cards_of(t[:52]), _cards_of(t[52:104]), _cards_of(t[104:156])
        o = 156
        piles: list[CardSet | None] = [None] * n
        piles[player] = save
        if self.rules.save_visibility == "open":  # the segment exists only then
            for rel in range(1, n):
                piles[seat(rel)] = _cards_of(t[o : o + 52])
                o += 52
        hand_sizes, save_sizes = by_seat(t[o : o + n]), by_seat(t[o + n : o + 2 * n])
        o += 2 * n
        pile_size, turns = int(t[o]), int(t[o + 1])
        o += 2
        cur = _one_hot(t[o : o + n])
        o += n
        phase_index = _one_hot(t[o : o + len(PHASES)])
        phase = PHASES[phase_index if phase_index is not None else 0]
        o += len(PHASES)
        asker, asked = _one_hot(t[o : o + n]), _one_hot(t[o + n : o + 2 * n])
        descriptor = _one_hot(t[o + 2 * n : o + 2 * n + NUM_DESCRIPTORS])
        given = int(t[o + 2 * n + NUM_DESCRIPTORS])
        o += 2 * n + NUM_DESCRIPTORS + 1
        receiver = _one_hot(t[o : o + n])
        o += n
        over = phase == "over"
        return NoTakersObservation(
            player=player,
            phase=phase,
            current_player=-4 if over or cur is None else seat(cur),
            hand=hand,
            save=save,
            selection=selection,
            save_piles=tuple(piles),
            hand_sizes=hand_sizes,
            save_sizes=save_sizes,
            pile_size=pile_size,
            turns=turns,
            asker=None if asker is None else seat(asker),
            asked=None if asked is None else seat(asked),
            descriptor=descriptor,
            given=given,
            receiver=None if receiver is None else seat(receiver),
            final_points=by_seat(t[o : o + n]) if over else None,
        )
