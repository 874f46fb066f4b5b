"""Cribbage, the American Cribbage Congress rules (docs/cribbage.rst).

:class:`CribbageRules` names the variants; :func:`score_show` and
:func:`score_play` give itemized breakdowns of the show and of each card of
the play; :func:`batch_score_show` and :func:`show_score_distribution` score
numpy arrays of hands and every hand at once in C; :func:`analyze_discards`
and :func:`batch_discards` rank the 15 discards of 6-card hands;
:class:`CribbageGame` is the game (2, 3 or 4 players) behind the generic
:class:`pycards.game.State` API; :func:`win_probability_table` (of
:mod:`pycards.bots.value`) gives the dealer's chance of winning a game of two
from any two scores.

>>> score_show("5H 5S 5C JD", "5D").total
29
>>> score_show("4H 5H 6H 7H", "KC", crib=True).total
8
>>> [str(item) for item in score_play("7H 8S 9H 6C").items]
['run 6C 7H 9H 8S: 4']
>>> game = CribbageGame(num_players=2)
>>> state = game.new_initial_state(seed=7)
>>> state.legal_action_names()[:2]
['discard 4D', 'discard 5D']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar, Literal

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards.bots.value import win_probability_table
from pycards.cards import Card, CardSet, CardsLike, card_arg, card_list_arg, to_mask52
from pycards.engine import game_info
from pycards.errors import InvalidCardError
from pycards.game import TERMINAL, Game, HandQuery, Rules, SearchDefaults, State
from pycards.games import _facade
from pycards.games._facade import (
    ItemizedScore,
    as_rules,
    complete_deck,
    itemized,
    stacked_hands,
)
from pycards.games._pegging import PeggingNarrator, PeggingSummarizer
from pycards.narrate import By, Template
from pycards.view import PlayerView

__all__ = [
    "DISCARD_PAIRS",
    "EVENT_KINDS",
    "ITEM_KINDS",
    "MAX_TARGET",
    "CribbageGame",
    "CribbageObservation",
    "CribbageRules",
    "DiscardOption",
    "GameResult",
    "PlayScore",
    "ScoreItem",
    "ShowScore",
    "analyze_discards",
    "batch_discards",
    "batch_score_show",
    "game_result",
    "score_play",
    "score_show",
    "show_score_distribution",
    "win_probability_table",
]

#: Names of the scoring item kinds, by kind id (the C ``CC_CRIBBAGE_*`` constants).
ITEM_KINDS = ("fifteen", "pair", "run", "flush", "nobs", "thirty_one", "go", "his_heels")
#: Names of the event kinds of the game log, by kind id (read from the engine).
EVENT_KINDS: tuple[str, ...] = game_info("cribbage").event_names
#: The largest allowed ``game_target``.
MAX_TARGET = 121
#: The 15 discards of a 6-card hand, as index pairs into its cards sorted by
#: id: the column order of :func:`batch_discards`.
DISCARD_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (i, j) for i in range(6) for j in range(i + 1, 6)
)

#: How an overclaim under muggins is handled (``CribbageRules.overclaim``).
Overclaim = Literal["correct", "penalty"]
#: How four players are paired (``CribbageRules.partnership``).
Partnership = Literal["cut", "seats"]


@dataclasses.dataclass(frozen=True, repr=False)
class CribbageRules(Rules):
    """The rules of cribbage (docs/cribbage.rst); every field is a named variant.

    :ivar game_target: points to win: 121 (the default, the ACC game), 61 (the
        short game), anything from 1 to 121.  Skunk lines sit 30 and 60
        points below it (91 and 61 for 121).
    :ivar crib_four_flush: a crib whose four cards share a suit (and the
        starter does not) scores a flush of 4.  Not the ACC rule (only a
        five-card crib flush counts); some home rules and OpenSpiel score it.
    :ivar first_dealer: the seat of the first dealer, or ``None`` (the
        default) to cut for deal from the game seed.  The cut is made either
        way, so fixing the seat the cut would have chosen changes nothing else.
    :ivar muggins: each player claims his own points, those of each card
        and go in the play and of his hand (and the dealer of his crib) in
        the show, and the opponent on his left may take any he overlooks
        (the ACC's optional rule 10).  Off by default.
    :ivar overclaim: with muggins, a claim above the true score:
        ``"correct"`` (the default, the ACC rules 8.4 and 11.1: corrected,
        and a false claim of game costs 15 points and gives the opponent the
        points overclaimed) or ``"penalty"`` (the older laws: corrected, and
        the excess pegged by the opponent).
    :ivar partnership: four players' partners: ``"cut"`` (the default, the
        ACC rule: the two lowest cutters against the two highest) or
        ``"seats"`` (seats 0 and 2 against 1 and 3).

    >>> CribbageRules().to_params()
    (121, 0, -1, 0, 0, 0)
    >>> CribbageRules.acc_61().game_target
    61
    >>> CribbageRules(game_target=200)
    Traceback (most recent call last):
    ...
    pycards.errors.RulesError: game_target must be an int 1..121, got 200
    """

    GAME: ClassVar[str] = "cribbage"

    game_target: int = 121
    crib_four_flush: bool = False
    first_dealer: int | None = None
    muggins: bool = False
    overclaim: Overclaim = "correct"
    partnership: Partnership = "cut"

    #: The preset constructors, named after their sources.
    PRESETS: ClassVar[tuple[str, ...]] = ("acc", "acc_61", "acc_muggins", "openspiel")

    @classmethod
    def acc(cls) -> CribbageRules:
        """The default: the American Cribbage Congress rules, game to 121."""
        return cls(game_target=121, crib_four_flush=False)

    @classmethod
    def acc_61(cls) -> CribbageRules:
        """The ACC rules played to 61 (the short game)."""
        return cls(game_target=61, crib_four_flush=False)

    @classmethod
    def acc_muggins(cls) -> CribbageRules:
        """The ACC rules with their one optional rule, muggins, in effect."""
        return cls(game_target=121, crib_four_flush=False, muggins=True)

    @classmethod
    def openspiel(cls) -> CribbageRules:
        """The scoring of OpenSpiel's ``cribbage``: a four-card crib flush
        counts; four players sit as partners 0+2 against 1+3."""
        return cls(game_target=121, crib_four_flush=True, partnership="seats")


# ---------------------------------------------------------------------------
# scoring


class ScoreItem(_facade.ScoreItem):
    """One scoring combination: its kind (see :data:`ITEM_KINDS`), cards and points."""


class ShowScore(ItemizedScore):
    """The itemized score of a hand or crib with the starter (docs/cribbage.rst, The show)."""


class PlayScore(ItemizedScore):
    """What the last card of a count makes (docs/cribbage.rst, The play)."""


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return value


def score_show(
    hand: CardsLike,
    starter: Card | int | str,
    *,
    crib: bool = False,
    rules: CribbageRules | None = None,
) -> ShowScore:
    """The itemized show score of a 4-card ``hand`` (or, with ``crib=True``, a
    crib) with the ``starter`` (docs/cribbage.rst, The show).

    Items come in the order fifteens, pairs, runs, flush, nobs.  A crib scores
    a flush only with the starter (unless ``rules.crib_four_flush``).

    >>> [str(i) for i in score_show("4C 5D 6H JS", "5S").items][-3:]
    ['run 4C 5D 6H: 3', 'run 4C 6H 5S: 3', 'nobs JS: 1']
    >>> score_show("2H 4H 6H 8H", "KC").total, score_show("2H 4H 6H 8H", "KC", crib=True).total
    (4, 0)
    """
    mask = to_mask52(hand, "hand")
    up = card_arg(starter, "starter", Card)
    if bin(mask).count("1") != 4:
        raise InvalidCardError(f"a cribbage hand has 4 cards, got {CardSet(mask)}")
    if mask & up.bit:
        raise InvalidCardError(f"the starter {up} is in the hand")
    is_crib = _flag(crib, "crib")
    params = as_rules(rules, CribbageRules).to_params()
    raw = _core.cribbage_score_show(mask, int(up), is_crib, params)
    return itemized(ShowScore, ScoreItem, raw, ITEM_KINDS)


def score_play(sequence: Iterable[Card | int | str] | str) -> PlayScore:
    """What the last card of ``sequence`` (the cards of the current count, in
    order) makes: fifteen, pairs (2, 6, 12), runs in any order, 31.

    The go and last-card point is pegged by the game.

    >>> [str(i) for i in score_play("5H 5S 5C").items]
    ['fifteen 5C 5H 5S: 2', 'pair 5C 5H 5S: 6']
    >>> score_play("KH QS 6C 5D").total
    2
    """
    cards = card_list_arg(sequence, "sequence", Card)
    if len(set(cards)) != len(cards):
        raise InvalidCardError(f"a card is played twice in {' '.join(map(str, cards))}")
    # the engine checks the length and the total (its message names card ids)
    try:
        raw = _core.cribbage_score_play([int(c) for c in cards])
    except ValueError as exc:
        raise ValueError(f"score_play {' '.join(map(str, cards))}: {exc}") from None
    return itemized(PlayScore, ScoreItem, raw, ITEM_KINDS)


def batch_score_show(
    hands: npt.NDArray[np.uint64],
    starters: npt.NDArray[np.uint8],
    *,
    crib: bool = False,
    rules: CribbageRules | None = None,
    out: npt.NDArray[np.int32] | None = None,
    threads: int = 1,
) -> npt.NDArray[np.int32]:
    """Show scores of many hands: ``hands`` are 4-card bitsets (uint64, 1-D),
    ``starters`` card ids (uint8, same length).  Computed in C without the GIL.

    ``out`` and ``threads`` are those of :mod:`pycards.batch`: the int32 array
    to write the scores to (returned), and the threads to spread the batch
    over (0: every core).

    >>> h = np.array([int(CardSet("5H 5S 5C JD"))], dtype=np.uint64)
    >>> batch_score_show(h, np.array([Card.parse("5D")], dtype=np.uint8)).tolist()
    [29]
    """
    result: npt.NDArray[np.int32] = _core.cribbage_batch_score_show(
        hands,
        starters,
        _flag(crib, "crib"),
        as_rules(rules, CribbageRules).to_params(),
        out=out,
        threads=threads,
    )
    return result


def show_score_distribution(
    *, crib: bool = False, rules: CribbageRules | None = None
) -> npt.NDArray[np.int64]:
    """The exact number of the 270,725 x 48 = 12,994,800 (hand, starter) pairs
    scoring each number of points as a hand (or a crib), index = points.

    >>> dist = show_score_distribution()
    >>> int(dist[0]), int(dist[29]), int(dist.sum())
    (1009008, 4, 12994800)
    """
    params = as_rules(rules, CribbageRules).to_params()
    hist = np.asarray(_core.cribbage_show_distribution(_flag(crib, "crib"), params), dtype=np.int64)
    return hist[:30]


# ---------------------------------------------------------------------------
# discard analysis


@dataclasses.dataclass(frozen=True)
class DiscardOption:
    """One discard of a 6-card hand (docs/cribbage.rst, Discard analysis).

    :ivar discard: the two cards laid away.
    :ivar kept: the four cards kept.
    :ivar hand: the exact expected show score of the kept cards over the 46
        possible starters.
    :ivar crib: the expected show score of the crib holding the discards (see
        :func:`analyze_discards` for the model).
    :ivar value: ``hand + crib`` for the dealer, ``hand - crib`` for the pone.
    """

    discard: CardSet
    kept: CardSet
    hand: float
    crib: float
    value: float


def _six(hand: CardsLike) -> int:
    mask = to_mask52(hand, "hand")
    if bin(mask).count("1") != 6:
        raise InvalidCardError(f"discard analysis takes 6 cards, got {CardSet(mask)}")
    return mask


def analyze_discards(
    hand: CardsLike,
    *,
    dealer: bool = True,
    exact_crib: bool = True,
    rules: CribbageRules | None = None,
) -> list[DiscardOption]:
    """The 15 discards of a two-player 6-card ``hand``, best first.

    The hand part is exact: the mean show score of the kept four over the 46
    starters.  The crib part is the mean show score of a crib of the two
    discards, two cards of the opponent and the starter, where those three
    are a uniform 3-subset of the 46 unseen cards (``exact_crib=True``: the
    opponent's discards modelled as uniform among his cards) or of the 50
    cards other than the discards (``False``: the faster table model of
    :func:`batch_discards`).  ``dealer`` says whose crib it is.

    >>> best = analyze_discards("5H 5S JD JC 2C 9H", dealer=True)[0]
    >>> str(best.discard), round(best.hand, 3)
    ('2C 9H', 14.326)
    """
    mask = _six(hand)
    params = as_rules(rules, CribbageRules).to_params()
    sums, table = _core.cribbage_batch_discards(
        np.array([mask], dtype=np.uint64), params, not _flag(exact_crib, "exact_crib")
    )
    crib = _core.cribbage_crib_exact(mask, params) if exact_crib else np.asarray(table)[0]
    cards = list(CardSet(mask))
    sign = 1.0 if _flag(dealer, "dealer") else -1.0
    out = []
    for k, (i, j) in enumerate(DISCARD_PAIRS):
        d = CardSet([cards[i], cards[j]])
        h = float(sums[0, k]) / 46.0
        c = float(crib[k])
        out.append(DiscardOption(d, CardSet(mask & ~int(d)), h, c, h + sign * c))
    out.sort(key=lambda o: -o.value)
    return out


def batch_discards(
    hands: npt.NDArray[np.uint64],
    *,
    with_crib: bool = True,
    rules: CribbageRules | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64] | None]:
    """Discard analysis of many 6-card hands (uint64 bitsets, 1-D), in C.

    Returns ``(hand, crib)``, each of shape ``(n, 15)``: column ``k`` is the
    discard of the cards ``DISCARD_PAIRS[k]`` of the hand sorted by id.
    ``hand`` is the exact mean show score of the kept four over the 46
    starters; ``crib`` (``None`` unless ``with_crib``) the mean crib of the
    two discards under the table model (the other three cards a uniform
    3-subset of the 50 cards other than the discards).

    >>> h = np.array([int(CardSet("5H 5S JD JC 2C 9H"))], dtype=np.uint64)
    >>> hand, crib = batch_discards(h)
    >>> hand.shape, round(float(hand.max()), 3)
    ((1, 15), 14.326)
    """
    sums, crib = _core.cribbage_batch_discards(
        hands, as_rules(rules, CribbageRules).to_params(), _flag(with_crib, "with_crib")
    )
    return np.asarray(sums, dtype=np.float64) / 46.0, crib


# ---------------------------------------------------------------------------
# the game


@dataclasses.dataclass(frozen=True)
class CribbageObservation:
    """What one player knows: one field per segment of the observation
    tensor (docs/cribbage.rst, Observation tensor), seats absolute.

    :ivar player: the observer.
    :ivar hand: the observer's held cards.
    :ivar discards: the observer's own discards to the crib this deal.
    :ivar starter: the starter, ``None`` before the cut.
    :ivar played: the cards each seat has played this deal.
    :ivar play_order: per card id, its place in this deal's play, 0 if not played.
    :ivar count: the cards of the current count.
    :ivar total: the running total of the count.
    :ivar scores: the points of each seat's side.
    :ivar held: the number of cards each seat holds.
    :ivar to_act: the seat to act, ``None`` when the game is over.
    :ivar dealer: the dealer of this deal.
    :ivar gone: 1 for each seat that said go this count.
    :ivar phase: 0 while discarding, 1 in the play, ``None`` when over.
    :ivar skunk: at the end, 1 for each skunked seat, 2 for a double skunk.
    :ivar game_over: 1 when the game is over.
    :ivar partner: with 4 players, the observer's partner (else ``None``).
    :ivar crib_shown: with muggins, the crib once turned up in the show.
    :ivar claimant: with muggins, whose points are being claimed: his hand
        or the crib in the show, a card or a go in the play (``None`` when
        nothing is claimed).
    :ivar show_crib: with muggins, 1 while the crib is being counted.
    :ivar claim: with muggins, the points claimed while a muggins call is awaited.
    :ivar muggins_call: with muggins, 1 while a muggins call is awaited.
    """

    player: int
    hand: CardSet
    discards: CardSet
    starter: Card | None
    played: tuple[CardSet | None, ...]
    play_order: tuple[int, ...]
    count: CardSet
    total: int
    scores: tuple[int | None, ...]
    held: tuple[int | None, ...]
    to_act: int | None
    dealer: int | None
    gone: tuple[int | None, ...]
    phase: int | None
    skunk: tuple[int | None, ...]
    game_over: int
    partner: int | None = None
    crib_shown: CardSet | None = None
    claimant: int | None = None
    show_crib: int | None = None
    claim: int | None = None
    muggins_call: int | None = None

    @property
    def play(self) -> tuple[Card, ...]:
        """The cards played this deal, in order."""
        placed = sorted((k, c) for c, k in enumerate(self.play_order) if k)
        return tuple(Card(c) for _, c in placed)

    @property
    def current_player(self) -> int:
        """The seat to act, or ``TERMINAL``."""
        return TERMINAL if self.to_act is None else self.to_act


@dataclasses.dataclass(frozen=True)
class GameResult:
    """How a finished game ended: the winning seats, the points and the skunks."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    skunk: tuple[int, ...]


def game_result(state: State[CribbageObservation]) -> GameResult:
    """The winners, points and skunks (0, 1 skunk, 2 double skunk per seat)
    of a finished game; ``ValueError`` if it is not over."""
    if not state.is_terminal:
        raise ValueError("game_result: the game is not over")
    obs = state.observation(0)
    scores = tuple(int(s or 0) for s in obs.scores)
    best = max(scores)
    return GameResult(
        tuple(q for q, s in enumerate(scores) if s == best),
        scores,
        tuple(int(k or 0) for k in obs.skunk),
    )


# ---------------------------------------------------------------------------
# the story (pycards.narrate, pycards.summary)

#: How each event kind is told (:mod:`pycards.narrate`).
NARRATION: dict[str, Template] = {
    "cut": "{player} cuts {card}",
    "new_deal": "{player} deals (deal {value})",
    "deal_card": "{player} is dealt {card}",
    "crib_dealt": "{player} deals {card} to the crib",
    "discard": "{player} lays {card} away to the crib",
    "starter": "{player} turns the starter {card}",
    "his_heels": "{player} pegs {points} for his heels (a Jack starter)",
    "play": By(
        "extra",
        {0: "{player} plays {card} (count {target_seat})"},
        "{player} plays {card} (count {target_seat}) and pegs {extra}: {reason}",
    ),
    "go": "{player} says go (count {target_seat})",
    "last_card": By(
        "extra",
        {1: "{player} pegs {points} for the last card (count {target_seat})"},
        "{player} pegs {points} for go (count {target_seat})",
    ),
    "show_hand": "{player} shows their hand and pegs {value}{reason}",
    "crib_card": "{player} shows {card} from the crib",
    "show_crib": "{player} pegs {value} for the crib{reason}",
    "skunk": By(
        "value", {2: "{player} is double skunked ({extra})"}, "{player} is skunked ({extra})"
    ),
    "game_over": "{player} wins the game with {value}",
    "partners": "{player} and {target} are partners",
    "claim": By(
        "target",
        {
            0: "{player} claims {points} for their hand",
            1: "{player} claims {points} for the crib",
        },
        "{player} claims {points}",
    ),
    "muggins": "{player} calls muggins on {target} and pegs {value} overlooked",
    "no_muggins": "{player} lets {target}'s {value} overlooked points go",
    "overclaim": "{player} claimed {value} too many, corrected",
    "penalty": "{player}'s side pegs {value} for {target}'s overclaim",
}


class CribbageNarrator(PeggingNarrator):
    """The reasons of the play and of the show, from :func:`score_play` and
    :func:`score_show`."""

    SHOWS: ClassVar[dict[str, str]] = {"show_hand": "hand", "show_crib": "crib"}
    SCORING: ClassVar[frozenset[str]] = frozenset(
        {"last_card", "his_heels", "show_hand", "show_crib", "muggins", "penalty"}
    )

    def score_count(self, cards: list[int]) -> tuple[_facade.ScoreItem, ...]:
        return score_play(cards).items

    def prompt(self, view: PlayerView[object], names: Sequence[str] | None = None) -> str:
        """The discard to the crib, the play, and under muggins the claims and
        the muggins call."""
        obs = view.observation
        if not isinstance(obs, CribbageObservation):  # pragma: no cover - the game's own view
            return super().prompt(view, names)
        legal = view.legal_action_names()
        if "muggins" in legal:
            who = self.name(obs.claimant if obs.claimant is not None else -1, names)
            return (
                f"{who} claimed {obs.claim}: call muggins if points were overlooked"
                " (you peg them), or pass"
            )
        if any(name.startswith("claim ") for name in legal):
            if obs.show_crib:
                return "Count the crib with the starter and claim its points"
            if obs.phase == 1:
                return "Claim the points your card (or your go) made"
            return "Count your hand with the starter and claim its points"
        if obs.phase == 0:
            left = len(obs.hand) - 4
            crib = "your" if obs.dealer == view.seat else f"{self.name(obs.dealer or 0, names)}'s"
            count = "1 card" if left == 1 else f"{left} cards"
            return f"Lay away {count} to {crib} crib (you keep 4 for the play and the show)"
        return super().prompt(view, names)

    def score_show(
        self, cards: list[int], turnup: int, crib: bool
    ) -> tuple[_facade.ScoreItem, ...]:
        return score_show(
            cards, turnup, crib=crib, rules=as_rules(self.game.rules, CribbageRules)
        ).items


class CribbageSummarizer(PeggingSummarizer):
    """Each deal's summary (:class:`pycards.games._pegging.DealSummary`: the hands
    and the crib item by item, the pegging) and the game's (who reached the
    target, how, and the skunks)."""

    HOW: ClassVar[dict[str, str]] = {
        "play": "during the play",
        "last_card": "during the play",
        "show_hand": "in the show",
        "show_crib": "in the show",
        "his_heels": "for his heels",
        "muggins": "by muggins",
        "penalty": "by a penalty",
    }
    LABELS: ClassVar[dict[str, str]] = {
        "last_card": "the last card",
        "go": "go",
        "his_heels": "his heels",
        "play": "the play",
    }


class CribbageGame(Game[CribbageRules, CribbageObservation]):
    """Cribbage for 2, 3 or 4 players (4: two partnerships, chosen by the cut
    unless ``partnership="seats"``), docs/cribbage.rst.

    Actions: ``0..51`` discard a card to the crib (``"discard 7H"``, one card
    per action: two each with 2 players, one each with 3 or 4), ``52..103``
    play a card (``"play 7H"``); with muggins (only) ``104..133`` claim 0 to
    29 points of a hand or crib in the show, or 0 to 14 for a card or a go
    in the play (``"claim 12"``), ``134`` ``"muggins"`` and ``135``
    ``"pass"``.  The cut for deal, the deal, the starter, his heels, go, the
    pegging (without muggins) and the next deal happen inside
    :meth:`State.apply`, logged as events.

    >>> game = CribbageGame(num_players=3)
    >>> game.num_actions, game.tensor_size
    (136, 438)
    >>> game.action_name(52 + Card.parse("7H"))
    'play 7H'
    """

    NAME = "cribbage"
    TITLE = "Cribbage"
    #: The search bots' defaults (docs/search.rst, "Defaults").
    SEARCH_DEFAULTS: ClassVar[SearchDefaults] = {
        "reward": "margin",
        "horizon": "deal",
        "rollout": "heuristic",
        "scale": 20.0,
        "ismcts": {"simulations": 8000, "exploration": 0.35},
        "pimc": {"simulations": 3000, "samples": 200},
    }
    #: The bot ``best`` plays (docs/bots.rst, "The best bot").
    BEST_BOT: ClassVar[str] = "pimc"
    RACE_TARGET = "game_target"
    RULES_TYPE = CribbageRules
    OBSERVATION_TYPE = CribbageObservation
    CARD_TYPE = Card
    NARRATION = NARRATION
    NARRATOR = CribbageNarrator
    SUMMARIZER = CribbageSummarizer

    def table_order(self, seed: int | None = None) -> tuple[int, ...]:
        """The seats in their order round the table (play passes to the
        left): the seats' own order, except with four players partnered by
        the cut (``partnership="cut"``): seat 0, the first seat of the other
        side, seat 0's partner, the second seat of the other side.  The cut
        comes from the game ``seed``, which that case needs.

        >>> CribbageGame(num_players=3).table_order()
        (0, 1, 2)
        >>> CribbageGame(num_players=4).table_order(seed=1)
        (0, 2, 1, 3)
        """
        n = self.num_players
        if n != 4 or self.rules.partnership == "seats":
            return tuple(range(n))
        if seed is None:
            raise ValueError("table_order: four players partnered by the cut: give the seed")
        mate = self.new_initial_state(seed).observation(0).partner
        assert mate is not None
        first, second = (q for q in (1, 2, 3) if q != mate)
        return (0, first, mate, second)

    def stacked_deck(
        self,
        hands: Sequence[str | Iterable[Card | int | str]],
        starter: Card | int | str,
        dealer: int | None = None,
        crib_card: Card | int | str | None = None,
        *,
        seed: int | None = None,
    ) -> list[Card]:
        """A whole deck, top first, that deals ``hands[seat]`` (6 cards each
        with 2 players, 5 with 3 or 4) and cuts ``starter`` when ``dealer``
        deals; for ``new_initial_state(seed, deck=...)``.

        The cards are placed as the deal takes them: one at a time from the
        dealer's left round to the dealer (in :meth:`table_order`; four
        players partnered by the cut need the game ``seed`` for it), then
        (3 players) ``crib_card`` to the crib, then the starter, then every
        other card, ascending.

        >>> game = CribbageGame(CribbageRules(first_dealer=1), num_players=2)
        >>> deck = game.stacked_deck(["5H 5S 5C JD 2C 3C", "KH KS 4D 6D 8D 9D"], "5D")
        >>> " ".join(str(c) for c in deck[:4])
        '5H KH 5S KS'
        """
        n = self.num_players
        dealer = self._stacking_dealer(dealer)
        size = 6 if n == 2 else 5
        cards = stacked_hands(hands, n, size)
        table = self.table_order(seed)
        at = table.index(dealer)
        order = [cards[table[(at + 1 + i) % n]][k] for k in range(size) for i in range(n)]
        if n == 3:
            if crib_card is None:
                raise ValueError("stacked_deck: with 3 players, name the crib_card")
            order.append(card_arg(crib_card, "crib_card", Card))
        elif crib_card is not None:
            raise ValueError("stacked_deck: a crib card is dealt with 3 players only")
        order.append(card_arg(starter, "starter", Card))
        return complete_deck(order)

    def score_distribution(
        self, query: HandQuery | None = None, progress: Callable[[int], None] | None = None
    ) -> tuple[npt.NDArray[np.int64], str]:
        """Exact: :func:`show_score_distribution` of every 4-card hand (or
        crib, with ``query.crib``) with every starter."""
        crib = query is not None and query.crib
        what = "crib" if crib else "hand"
        return show_score_distribution(crib=crib, rules=self.rules), (
            f"exact, every 4-card {what} with every starter: 12,994,800 deals"
        )

    def render(self, state: State[CribbageObservation], viewer: int | None = None) -> str:
        """The table as ``viewer`` sees it (``None``: the referee, every hand):
        each seat's known cards, the play and the count, the scores, whose
        turn it is and the deal.

        >>> game = CribbageGame(CribbageRules(first_dealer=1), num_players=2)
        >>> deck = game.stacked_deck(["5H 5S 5C JD 2C 3C", "KH KS 4D 6D 8D 9D"], "5D")
        >>> print(game.render(game.new_initial_state(0, deck=deck), viewer=0))
        deal 1, dealer seat 1, starter -
        seat 0: hand 2C 3C 5C JD 5H 5S crib -     played -           score 0 <- to act
        seat 1: hand ? ? ? ? ? ?       crib -     played -           score 0
        discard; count: -  (total 0)
        """
        n = self.num_players
        ref = state.observation(0 if viewer is None else viewer)
        deal_no = sum(1 for e in state.events() if e.kind == "new_deal")
        starter = "-" if ref.starter is None else str(ref.starter)
        lines = [f"deal {deal_no}, dealer seat {ref.dealer}, starter {starter}"]
        for q in range(n):
            played = ref.played[q] or CardSet()
            if viewer is None or viewer == q:
                own = state.observation(q)
                hand = str(own.hand) or "-"
                crib = str(own.discards) or "-"
            else:
                held = int(ref.held[q] or 0)
                hand = " ".join("?" * held) or "-"
                laid = (6 if n == 2 else 5) - held - len(played)
                crib = " ".join("?" * laid) or "-"
            mark = " <- to act" if ref.to_act == q else ""
            if ref.gone[q]:
                mark += "  (go)"
            lines.append(
                f"seat {q}: hand {hand:<17} crib {crib:<5} played {str(played) or '-':<11}"
                f" score {ref.scores[q]}{mark}".rstrip()
            )
        if ref.partner is not None:
            mine = sorted((ref.player, ref.partner))
            theirs = [q for q in range(n) if q not in mine]
            lines.append(f"partners: seats {mine[0]}+{mine[1]} against {theirs[0]}+{theirs[1]}")
        if ref.crib_shown:
            lines.append(f"crib: {ref.crib_shown}")
        count = " ".join(str(c) for c in ref.play if c in ref.count) or "-"
        if ref.game_over:
            phase = "game over"
        elif ref.claimant is not None:
            if ref.phase == 1:
                phase = f"play: seat {ref.claimant}'s points"
            else:
                what = "crib" if ref.show_crib else "hand"
                phase = f"show: seat {ref.claimant}'s {what}"
            if ref.muggins_call:
                phase += f", {ref.claim} claimed: muggins?"
        else:
            phase = "discard" if ref.phase == 0 else "play"
        lines.append(f"{phase}; count: {count}  (total {ref.total})")
        return "\n".join(lines)
