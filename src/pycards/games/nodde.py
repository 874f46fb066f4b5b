"""Nodde Knave (Noddy), docs/nodde.rst: scoring and the complete game.

The rules object :class:`NoddeRules` names every variant; :func:`score_hand`
and :func:`score_play` give itemized breakdowns; :func:`batch_score_hands`
and :func:`hand_score_distribution` score numpy arrays of deals and every
deal at once in C; :class:`NoddeGame` is the game (2 to 4 players) behind the
generic :class:`pycards.game.State` API, dealt from the seed or, for the
first deal, from a stacked deck (:meth:`NoddeGame.stacked_deck`);
:func:`win_probability_table` (of :mod:`pycards.bots.value`) gives the
dealer's chance of winning a game of two from any two scores.

>>> score_hand("6H 6S 9C", "KD").total
8
>>> score_hand("6H 6S 9C", "KD", NoddeRules.willughby()).total
6
>>> [str(item) for item in score_hand("JC 7C 8C", "9C").items]
['fifteen 7C 8C: 2', 'run 7C 8C 9C: 2', 'flush 7C 8C 9C JC: 4', 'knave_noddy JC: 1']
>>> score_play("KH 5H QH").total
3
>>> game = NoddeGame(num_players=2)
>>> state = game.new_initial_state(seed=7)
>>> state.current_player in (0, 1)
True
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

__all__ = [
    "EVENT_KINDS",
    "ITEM_KINDS",
    "MAX_TARGET",
    "HandScore",
    "NoddeGame",
    "NoddeObservation",
    "NoddeRules",
    "PlayScore",
    "ScoreItem",
    "batch_score_hands",
    "hand_score_distribution",
    "score_hand",
    "score_play",
    "win_probability_table",
]

#: Names of the scoring item kinds, by kind id (the C ``CC_NODDE_*`` constants).
ITEM_KINDS = (
    "fifteen",
    "pair",
    "run",
    "flush",
    "knave_noddy",
    "thirty_one",
    "twenty_five",
    "last_card",
    "turned_knave",
)
#: Names of the event kinds of the game log, by kind id (read from the engine).
EVENT_KINDS: tuple[str, ...] = game_info("nodde").event_names
#: The largest allowed ``game_target``.
MAX_TARGET = 121

FourPlayerMode = Literal["partners", "individual"]
KnaveScorer = Literal["dealer", "elder"]
RunPoints = Literal["mwynwen", "per_card"]
FlushRule = Literal["any3_of_4", "hand3_required"]
Hand31 = Literal["off", "flat2", "flat4"]
Score25 = Literal["off", "flat4", "per_card"]


@dataclasses.dataclass(frozen=True, repr=False)
class NoddeRules(Rules):
    """The rules of Nodde Knave (docs/nodde.rst); every field is a named variant.

    :ivar four_player_mode: with 4 players, ``"partners"`` (seats 0+2 against
        1+3, one shared score) or ``"individual"``.
    :ivar reshuffle_each_deal: reshuffle before every deal; ``False`` deals on
        from the same shuffle until the stock runs short (2 players only, as
        Lady Mwynwen's redaction says).
    :ivar turned_knave_scorer: who pegs 2 for a Jack turned up: ``"dealer"``
        or ``"elder"``.
    :ivar run_points: ``"mwynwen"`` (Lady Mwynwen's table: run of n = 2(n-2):
        3 -> 2, 4 -> 4, 5 -> 6)
        or ``"per_card"`` (n).
    :ivar flush_rule: ``"any3_of_4"`` (3 or 4 of the 4 cards of one suit) or
        ``"hand3_required"`` (the 3 own cards must be that suit).
    :ivar hand_31: the four cards totalling 31: ``"off"``, ``"flat2"`` or ``"flat4"``.
    :ivar score_25: sets of 3+ cards totalling 25 (and a play total of 25):
        ``"off"``, ``"flat4"`` or ``"per_card"``.
    :ivar flush_in_play: the last 3+ cards played of one suit score 1 each.
    :ivar game_target: points to win (1..121; 31 by default; 61, 21, 15 are
        common).
    :ivar first_dealer: the seat of the first dealer, or ``None`` (the default)
        to draw him from the game seed.  Fix it to replay a real table (with a
        stacked deck: ``NoddeGame.new_initial_state(seed, deck=...)``).  The draw
        is made either way, so fixing the dealer the seed would have drawn
        changes nothing else.

    Contradictory settings raise :class:`~pycards.errors.RulesError` (a
    ``ValueError``): an unknown choice, a target out of range, a first dealer
    that is not a seat, or (when a game is created) ``reshuffle_each_deal=False``
    with more than 2 players.

    >>> NoddeRules().to_params()
    (0, 1, 0, 0, 0, 1, 0, 1, 31, -1)
    >>> NoddeRules.willughby().run_points
    'per_card'
    >>> NoddeRules(hand_31="flat3")
    Traceback (most recent call last):
    ...
    pycards.errors.RulesError: hand_31 must be one of 'off', 'flat2', 'flat4', got 'flat3'
    """

    GAME: ClassVar[str] = "nodde"

    four_player_mode: FourPlayerMode = "partners"
    reshuffle_each_deal: bool = True
    turned_knave_scorer: KnaveScorer = "dealer"
    run_points: RunPoints = "mwynwen"
    flush_rule: FlushRule = "any3_of_4"
    hand_31: Hand31 = "flat2"
    score_25: Score25 = "off"
    flush_in_play: bool = True
    game_target: int = 31
    first_dealer: int | None = None

    #: The preset constructors, named after their sources.
    PRESETS: ClassVar[tuple[str, ...]] = ("mwynwen", "willughby")

    @classmethod
    def mwynwen(cls) -> NoddeRules:
        """The default: the scoring table of "The Game of Nodde" as redacted by
        Lady Mwynwen Ysginidd (runs 2(n-2), 31 in hand 2, no 25)."""
        return cls(
            four_player_mode="partners",
            reshuffle_each_deal=True,
            turned_knave_scorer="dealer",
            run_points="mwynwen",
            flush_rule="any3_of_4",
            hand_31="flat2",
            score_25="off",
            flush_in_play=True,
            game_target=31,
        )

    @classmethod
    def willughby(cls) -> NoddeRules:
        """The historical reconstructions (du Coeur 1996; Guilde of St Ives):
        runs 1 per card, no 31 in hand, no 25."""
        return dataclasses.replace(cls.mwynwen(), run_points="per_card", hand_31="off")


# ---------------------------------------------------------------------------
# scoring


class ScoreItem(_facade.ScoreItem):
    """One scoring combination: its kind (see :data:`ITEM_KINDS`), cards and points."""


class HandScore(ItemizedScore):
    """The itemized score of a hand with the turn-up (docs/nodde.rst, Scoring the hand)."""


class PlayScore(ItemizedScore):
    """What the last card of a play sequence makes (docs/nodde.rst, The play)."""


def score_hand(
    hand: CardsLike, turnup: Card | int | str, rules: NoddeRules | None = None
) -> HandScore:
    """The itemized score of a 3-card ``hand`` with the ``turnup`` (docs/nodde.rst).

    Items come in the order fifteens, pairs, runs, flush, knave noddy, 31, 25.

    >>> score_hand("TH 5S 5C", "KD").total
    10
    """
    mask = to_mask52(hand, "hand")
    up = card_arg(turnup, "turnup", Card)
    if bin(mask).count("1") != 3:
        raise InvalidCardError(f"a Nodde hand has 3 cards, got {CardSet(mask)}")
    if mask & up.bit:
        raise InvalidCardError(f"the turn-up {up} is in the hand")
    raw = _core.nodde_score_hand(mask, int(up), as_rules(rules, NoddeRules).to_params())
    return itemized(HandScore, ScoreItem, raw, ITEM_KINDS)


def score_play(
    sequence: Iterable[Card | int | str] | str, rules: NoddeRules | None = None
) -> PlayScore:
    """What the last card of ``sequence`` (the cards played this deal, in order)
    makes: fifteen, pairs, runs in any order, flushes, 31, and 25 when on.

    The last-card point (1, when the deal ends below 31) is pegged by the game.

    >>> [str(i) for i in score_play("7H 8S 9H 6C").items]
    ['run 6C 7H 9H 8S: 4']
    """
    cards = card_list_arg(sequence, "sequence", Card)
    if len(set(cards)) != len(cards):
        raise InvalidCardError(f"a card is played twice in {' '.join(map(str, cards))}")
    # the engine checks the length and the total (its message names card ids)
    params = as_rules(rules, NoddeRules).to_params()
    try:
        raw = _core.nodde_score_play([int(c) for c in cards], params)
    except ValueError as exc:
        raise ValueError(f"score_play {' '.join(map(str, cards))}: {exc}") from None
    return itemized(PlayScore, ScoreItem, raw, ITEM_KINDS)


def batch_score_hands(
    hands: npt.NDArray[np.uint64],
    turnups: npt.NDArray[np.uint8],
    rules: NoddeRules | None = None,
    *,
    out: npt.NDArray[np.int32] | None = None,
    threads: int = 1,
) -> npt.NDArray[np.int32]:
    """Hand scores of many deals: ``hands`` are 3-card bitsets (uint64, 1-D),
    ``turnups`` card ids (uint8, same length).  Computed in C without the GIL.

    ``out`` and ``threads`` are those of :mod:`pycards.batch`: the int32 array
    to write the scores to (returned), and the threads to spread the batch
    over (0: every core).

    >>> h = np.array([int(CardSet("6H 6S 9C"))], dtype=np.uint64)
    >>> batch_score_hands(h, np.array([Card.parse("KD")], dtype=np.uint8)).tolist()
    [8]
    """
    result: npt.NDArray[np.int32] = _core.nodde_batch_score_hand(
        hands, turnups, as_rules(rules, NoddeRules).to_params(), out=out, threads=threads
    )
    return result


def hand_score_distribution(rules: NoddeRules | None = None) -> npt.NDArray[np.int64]:
    """The exact number of the 22,100 x 49 (hand, turn-up) deals scoring each
    number of points (index = points, trailing zeros trimmed); the counts sum
    to 1,082,900.  Milliseconds in C; the pure-Python backend takes about a
    minute.
    """
    params = as_rules(rules, NoddeRules).to_params()
    hist = np.asarray(_core.nodde_hand_distribution(params), dtype=np.int64)
    nonzero = np.flatnonzero(hist)
    return hist[: int(nonzero[-1]) + 1] if len(nonzero) else hist[:1]


# ---------------------------------------------------------------------------
# the game


@dataclasses.dataclass(frozen=True)
class NoddeObservation:
    """What one player knows: one field per segment of the observation
    tensor (docs/nodde.rst, Observation tensor), seats absolute.

    :ivar player: the observer.
    :ivar hand: the observer's unplayed cards.
    :ivar turnup: the turned-up card (its suit is trumps).
    :ivar played: the cards each seat has played this deal.
    :ivar play_order: per card id, its place (1..12) in this deal's play, 0 if
        not played (:attr:`play` lists the cards in order).
    :ivar total: the running total.
    :ivar scores: the points of each seat's side.
    :ivar to_act: the seat to play, ``None`` when the game is over.
    :ivar dealer: the dealer of this deal.
    :ivar gone: 1 for each seat that said go this deal.
    :ivar hand_called: 1 for each seat that has pegged its hand this deal.
    :ivar hand_scores: what each seat pegged for its hand (0 if not yet).
    :ivar game_over: 1 when the game is over.
    """

    player: int
    hand: CardSet
    turnup: Card | None
    played: tuple[CardSet | None, ...]
    play_order: tuple[int, ...]
    total: int
    scores: tuple[int | None, ...]
    to_act: int | None
    dealer: int | None
    gone: tuple[int | None, ...]
    hand_called: tuple[int | None, ...]
    hand_scores: tuple[int | None, ...]
    game_over: int

    @property
    def play(self) -> tuple[Card, ...]:
        """The cards played this deal, in order."""
        placed = sorted((k, c) for c, k in enumerate(self.play_order) if k)
        return tuple(Card(c) for _, c in placed)

    @property
    def current_player(self) -> int:
        """The seat to act, or ``TERMINAL``."""
        return TERMINAL if self.to_act is None else self.to_act


# ---------------------------------------------------------------------------
# the story (pycards.narrate, pycards.summary)

#: How each event kind is told (:mod:`pycards.narrate`).
NARRATION: dict[str, Template] = {
    "new_deal": "{player} deals (deal {value})",
    "deal_card": "{player} is dealt {card}",
    "turnup": "{player} turns up {card}",
    "turned_knave": "{player} pegs {points} for a Jack turned up",
    "hand_score": "{player} pegs {value} for their hand{reason}",
    "play": By(
        "extra",
        {0: "{player} plays {card} (total {target_seat})"},
        "{player} plays {card} (total {target_seat}) and pegs {extra}: {reason}",
    ),
    "go": "{player} says go (total {target_seat})",
    "last_card": "{player} pegs {points} for the last card (total {target_seat})",
    "game_over": "{player} makes the winning points and wins with {value}",
}


class NoddeNarrator(PeggingNarrator):
    """The reasons of the play and of the hands, from :func:`score_play` and
    :func:`score_hand`."""

    SHOWS: ClassVar[dict[str, str]] = {"hand_score": "hand"}
    SCORING: ClassVar[frozenset[str]] = frozenset({"turned_knave", "hand_score", "last_card"})

    def score_count(self, cards: list[int]) -> tuple[_facade.ScoreItem, ...]:
        return score_play(cards, as_rules(self.game.rules, NoddeRules)).items

    def score_show(
        self, cards: list[int], turnup: int, crib: bool
    ) -> tuple[_facade.ScoreItem, ...]:
        del crib
        return score_hand(cards, turnup, as_rules(self.game.rules, NoddeRules)).items


class NoddeSummarizer(PeggingSummarizer):
    """Each deal's summary (:class:`pycards.games._pegging.DealSummary`: the hands
    item by item, the pegging) and the game's (who reached the target, how)."""

    HOW: ClassVar[dict[str, str]] = {
        "play": "during the play",
        "last_card": "during the play",
        "hand_score": "in the show",
        "turned_knave": "for a Jack turned up",
    }
    LABELS: ClassVar[dict[str, str]] = {
        "last_card": "the last card",
        "turned_knave": "a Jack turned up",
        "play": "the play",
    }


class NoddeGame(Game[NoddeRules, NoddeObservation]):
    """Nodde Knave for 2 to 4 players (docs/nodde.rst).

    The only decision is the play: an action is the dense id (0..51) of a
    card in hand that keeps the total at 31 or below (names ``"play 7H"``).
    Dealing, the turned knave, hand scoring, go and the next deal happen
    inside :meth:`State.apply`, logged as events.  The first dealer is drawn
    from the seed unless ``rules.first_dealer`` names him; the first deal
    can come from a given deck (``new_initial_state(seed, deck=...)``, see
    :meth:`stacked_deck` for the positions).

    >>> game = NoddeGame(NoddeRules.willughby(), num_players=3)
    >>> game.tensor_size
    332
    >>> game.action_name(Card.parse("7H"))
    'play 7H'
    """

    NAME = "nodde"
    TITLE = "Nodde Knave"
    DEAL_KINDS: ClassVar[frozenset[str]] = frozenset({"new_deal", "deal_card", "turnup"})
    #: The search bots' defaults (docs/search.rst, "Defaults").
    SEARCH_DEFAULTS: ClassVar[SearchDefaults] = {
        "reward": "win",
        "horizon": "deal",
        "rollout": "heuristic",
    }
    #: The bot ``best`` plays (docs/bots.rst, "The best bot").
    BEST_BOT: ClassVar[str] = "pimc:solve=12:simulations=2000:samples=200"
    RACE_TARGET = "game_target"
    RULES_TYPE = NoddeRules
    OBSERVATION_TYPE = NoddeObservation
    CARD_TYPE = Card
    NARRATION = NARRATION
    NARRATOR = NoddeNarrator
    SUMMARIZER = NoddeSummarizer

    def stacked_deck(
        self,
        hands: Sequence[str | Iterable[Card | int | str]],
        turnup: Card | int | str,
        dealer: int | None = None,
        rest: str | Iterable[Card | int | str] = (),
    ) -> list[Card]:
        """A whole deck, top first, that deals ``hands[seat]`` (3 cards each,
        by seat) and turns up ``turnup`` when ``dealer`` deals; for
        :meth:`~pycards.game.Game.new_initial_state` ``(seed, deck=...)``.

        The cards are placed as the deal takes them (docs/nodde.rst): one at a
        time from the elder round to the dealer, the k-th card of each hand in
        round k, then the turn-up; then the cards of ``rest`` in that order (the
        next deals without reshuffling), then every other card, ascending.
        ``dealer`` defaults to the rules' ``first_dealer``; the state deals as
        planned only if that is who deals (so fix ``first_dealer`` in the rules,
        or pass the seat the seed draws).

        >>> game = NoddeGame(NoddeRules(first_dealer=1), num_players=2)
        >>> deck = game.stacked_deck(["6H 6S 9C", "TH 5S 5C"], "3D")
        >>> " ".join(str(c) for c in deck[:7])
        '6H TH 6S 5S 9C 5C 3D'
        >>> state = game.new_initial_state(0, deck=deck)
        >>> [e.value for e in state.events() if e.kind == "hand_score"]
        [8, 6]
        """
        n = self.num_players
        dealer = self._stacking_dealer(dealer)
        cards = stacked_hands(hands, n, 3)
        order = [cards[(dealer + 1 + i) % n][k] for k in range(3) for i in range(n)]
        order += [card_arg(turnup, "turnup", Card), *card_list_arg(rest, "rest", Card)]
        return complete_deck(order)

    def score_distribution(
        self, query: HandQuery | None = None, progress: Callable[[int], None] | None = None
    ) -> tuple[npt.NDArray[np.int64], str]:
        """Exact: :func:`hand_score_distribution` of every 3-card hand with
        every turn-up."""
        return hand_score_distribution(self.rules), (
            "exact, every 3-card hand with every turn-up: 1,082,900 deals"
        )

    def render(self, state: State[NoddeObservation], viewer: int | None = None) -> str:
        """The table as ``viewer`` sees it (``None``: the referee, every hand):
        each seat's known cards, the play so far and the total, the scores,
        whose turn it is and the deal.

        >>> game = NoddeGame(NoddeRules(first_dealer=1), num_players=2)
        >>> deck = game.stacked_deck(["6H 6S 9C", "TH 5S 5C"], "3D")
        >>> print(game.render(game.new_initial_state(0, deck=deck), viewer=0))
        deal 1, dealer seat 1, turn-up 3D
        seat 0: hand 9C 6H 6S   played -          hand score 8   score 8  <- to play
        seat 1: hand ? ? ?      played -          hand score 6   score 6
        play: -  (total 0)
        """
        n = self.num_players
        ref = state.observation(0 if viewer is None else viewer)
        deal_no = sum(1 for e in state.events() if e.kind == "new_deal")
        lines = [f"deal {deal_no}, dealer seat {ref.dealer}, turn-up {ref.turnup}"]
        rows = []
        for q in range(n):
            played = ref.played[q] or CardSet()
            if viewer is None or viewer == q:
                hand = str(state.observation(q).hand) or "-"
            else:
                hand = " ".join("?" * (3 - len(played))) or "-"
            called = f"{ref.hand_scores[q]}" if ref.hand_called[q] else "-"
            mark = "  <- to play" if ref.to_act == q else ""
            if ref.gone[q]:
                mark += "  (go)"
            rows.append(
                f"seat {q}: hand {hand:<10} played {str(played) or '-':<10}"
                f" hand score {called:<3} score {ref.scores[q]}{mark}"
            )
        lines += [r.rstrip() for r in rows]
        play = " ".join(str(c) for c in ref.play) or "-"
        lines.append(f"play: {play}  (total {ref.total})")
        if ref.game_over:
            lines.append("game over")
        return "\n".join(lines)
