"""Cribbage scoring, written for obviousness (docs/cribbage.rst).

Brute force over subsets with :mod:`itertools`, sharing nothing with the C
engine: the oracle of the show, the play and the discard analysis.  Cards are
dense ids ``suit * 13 + rank`` (rank 0 = Ace .. 12 = King).
"""

from __future__ import annotations

import itertools
import random as _random
from collections.abc import Sequence
from typing import Any

import numpy as np

from .game import ERR_GAME_OVER, SEEN_ALL, TERMINAL, RefState, register

__all__ = [
    "Chance",
    "ChanceFromEngine",
    "CribbageState",
    "crib_expectation",
    "expected_hand",
    "play_points",
    "show_points",
]

JACK = 10


def _rank(card: int) -> int:
    return card % 13


def _suit(card: int) -> int:
    return card // 13


def _pips(card: int) -> int:
    return min(_rank(card) + 1, 10)


def _is_run(cards: Sequence[int]) -> bool:
    ranks = sorted(_rank(c) for c in cards)
    return all(b == a + 1 for a, b in itertools.pairwise(ranks))


def show_points(
    hand: Sequence[int], starter: int, crib: bool = False, crib_four_flush: bool = False
) -> dict[str, int]:
    """Points by kind of a 4-card hand (or crib) with the starter."""
    assert len(hand) == 4 and len(set(hand)) == 4 and starter not in hand
    five = [*hand, starter]
    points = {"fifteen": 0, "pair": 0, "run": 0, "flush": 0, "nobs": 0}
    for size in range(2, 6):
        for combo in itertools.combinations(five, size):
            if sum(_pips(c) for c in combo) == 15:
                points["fifteen"] += 2
    for a, b in itertools.combinations(five, 2):
        if _rank(a) == _rank(b):
            points["pair"] += 2
    # runs: the longest length that has any run; every combination of that length
    for size in (5, 4, 3):
        runs = [c for c in itertools.combinations(five, size) if _is_run(c)]
        if runs:
            points["run"] = size * len(runs)
            break
    suits = {_suit(c) for c in hand}
    if len(suits) == 1:
        if _suit(starter) in suits:
            points["flush"] = 5
        elif not crib or crib_four_flush:
            points["flush"] = 4
    for c in hand:
        if _rank(c) == JACK and _suit(c) == _suit(starter):
            points["nobs"] = 1
    return points


def play_points(count: Sequence[int]) -> dict[str, int]:
    """Points by kind the last card of a count makes (no go or last card)."""
    points = {"fifteen": 0, "pair": 0, "run": 0, "thirty_one": 0}
    total = sum(_pips(c) for c in count)
    assert total <= 31
    if total == 15:
        points["fifteen"] = 2
    same = 1
    while same < len(count) and _rank(count[-1 - same]) == _rank(count[-1]):
        same += 1
    points["pair"] = {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for size in range(len(count), 2, -1):
        tail = count[-size:]
        if len({_rank(c) for c in tail}) == size and _is_run(tail):
            points["run"] = size
            break
    if total == 31:
        points["thirty_one"] = 2
    return points


def expected_hand(kept: Sequence[int], dealt: Sequence[int]) -> float:
    """Mean show score of ``kept`` over the starters outside ``dealt``."""
    starters = [s for s in range(52) if s not in dealt]
    return sum(sum(show_points(kept, s).values()) for s in starters) / len(starters)


def _crib_key(crib: Sequence[int], starter: int) -> tuple[object, ...]:
    """What decides a crib's score: the ranks, whether all five cards share a
    suit, and whether a crib Jack has the starter's suit."""
    return (
        tuple(sorted(_rank(c) for c in crib)),
        _rank(starter),
        len({_suit(c) for c in [*crib, starter]}) == 1,
        any(_rank(c) == JACK and _suit(c) == _suit(starter) for c in crib),
    )


def crib_expectation(discards: Sequence[int], pool: Sequence[int]) -> float:
    """Mean crib score of ``discards`` plus two cards and a starter drawn as a
    uniform 3-subset of ``pool``, the starter uniform among the three (the
    brute force memoized by :func:`_crib_key`)."""
    memo: dict[tuple[object, ...], int] = {}
    total = 0
    count = 0
    for three in itertools.combinations(pool, 3):
        for s in range(3):
            crib = [*discards, *(three[k] for k in range(3) if k != s)]
            key = _crib_key(crib, three[s])
            if key not in memo:
                memo[key] = sum(show_points(crib, three[s], crib=True).values())
            total += memo[key]
            count += 1
    return total / count


# ---------------------------------------------------------------------------
# the game, played out plainly (docs/cribbage.rst)

EV = {
    name: i
    for i, name in enumerate(
        [
            "cut", "new_deal", "deal_card", "crib_dealt", "discard", "starter", "his_heels",
            "play", "go", "last_card", "show_hand", "crib_card", "show_crib", "skunk",
            "game_over", "partners", "claim", "muggins", "no_muggins", "overclaim", "penalty",
        ]
    )
}  # fmt: skip
R_INVALID, R_NOT_DISCARD, R_NOT_PLAY, R_NOT_HELD, R_OVER_31 = 1, 2, 3, 4, 5
R_IN_SHOW, R_NOT_CLAIM, R_NOT_CALL, R_NO_MUGGINS = 6, 7, 8, 9
R_CLAIM_FIRST, R_CLAIM_RANGE = 10, 11
CLAIM, MUGGINS, PASS = 104, 134, 135
MAX_PLAY_CLAIM = 14  # four of a kind (12) making fifteen or 31 (2)
LOG_CAP = 2048


class Chance:
    """Where the oracle's chance comes from (Python's ``random`` by default)."""

    def __init__(self, seed: int) -> None:
        self.random = _random.Random(seed)

    def cut(self, nplayers: int, round_no: int) -> list[int]:
        """One card cut by each seat (distinct), round ``round_no`` of the cut for deal."""
        return self.random.sample(range(52), nplayers)

    def deal(self, deal_no: int, count: int) -> list[int]:
        """The ``count`` cards of a shuffled deal in dealing order (the hands
        round the table from the dealer's left, then the crib card)."""
        self._stock = self.random.sample(range(52), 52)
        return self._stock[:count]

    def starter(self, deal_no: int, dealt: list[int]) -> int:
        """The starter: a card not dealt."""
        return self.random.choice([c for c in range(52) if c not in dealt])


class ChanceFromEngine(Chance):
    """The chance a C engine state drew, read from its referee's event log.
    Apply each action to the engine first."""

    def __init__(self, engine: Any) -> None:
        super().__init__(0)
        self.engine = engine

    def _events(self) -> list[tuple[int, ...]]:
        return [tuple(e) for e in self.engine.events()]

    def cut(self, nplayers: int, round_no: int) -> list[int]:
        cards = [e[3] for e in self._events() if e[0] == EV["cut"] and e[4] == round_no]
        if not cards:  # the rules fix the dealer: the engine logs no cut
            return list(range(nplayers))
        assert len(cards) == nplayers
        return cards

    def deal(self, deal_no: int, count: int) -> list[int]:
        events = self._events()
        start = max(i for i, e in enumerate(events) if e[0] == EV["new_deal"])
        assert events[start][3] == deal_no
        return [e[3] for e in events[start + 1 : start + 1 + count]]

    def starter(self, deal_no: int, dealt: list[int]) -> int:
        return next(e[3] for e in reversed(self._events()) if e[0] == EV["starter"])


@register
class CribbageState(RefState):
    """A game of cribbage, played out plainly."""

    NAME = "cribbage"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    NUM_PARAMS = 6
    DECK_SIZE = 52
    REASONS = {  # noqa: RUF012
        R_INVALID: "not an action id of this game",
        R_NOT_DISCARD: "not the discard: the play has begun",
        R_NOT_PLAY: "not the play: discard to the crib first",
        R_NOT_HELD: "card not held",
        R_OVER_31: "over 31",
        R_IN_SHOW: "the show: claim the points of the hand or crib",
        R_NOT_CLAIM: "nothing is being claimed",
        R_NOT_CALL: "no claim to call muggins on",
        R_NO_MUGGINS: "the muggins rule is not in play",
        R_CLAIM_FIRST: "claim the points of the play first",
        R_CLAIM_RANGE: "more points than a card of the play can make",
    }

    @classmethod
    def check_params(cls, params: tuple[int, ...], nplayers: int) -> str | None:
        target, four, first, muggins, overclaim, partnership = params
        if not 1 <= target <= 121:
            return f"game_target {target} not in 1..121"
        if four not in (0, 1):
            return "crib_four_flush is a bool"
        if first != -1 and not 0 <= first < nplayers:
            return f"first_dealer {first} is not a seat"
        if muggins not in (0, 1):
            return "muggins is a bool"
        if overclaim not in (0, 1):
            return "overclaim is correct (0) or penalty (1)"
        if partnership not in (0, 1):
            return "partnership is cut (0) or seats (1)"
        return None

    def __init__(
        self,
        params: tuple[int, ...],
        nplayers: int,
        seed: int,
        deck: Sequence[int] | None = None,
        chance: Chance | None = None,
    ) -> None:
        super().__init__(params, nplayers, seed)
        self.chance = chance if chance is not None else Chance(seed)
        self.n = nplayers
        self.target, self.four, first, self.muggins, self.overclaim, partnership = params
        by_cut = nplayers == 4 and partnership == 0
        self.size = 6 if nplayers == 2 else 5
        self.ndiscard = 2 if nplayers == 2 else 1
        self.log: list[tuple[int, int, int, int, int, int]] = []
        self.scores = [0, 0] if nplayers == 4 else [0] * nplayers
        self.skunks = [0] * nplayers
        self.stacked = list(deck) if deck is not None else None
        # cut for deal: the lowest rank deals; a tie for lowest cuts again.
        # Partners by the cut: the two lowest against the two highest, and a
        # tie between the second and third lowest cuts again too.
        round_no = 1
        while True:
            cards = self.chance.cut(nplayers, round_no)
            if first == -1 or by_cut:
                for q, c in enumerate(cards):
                    self._log("cut", q, -1, c, round_no)
            ranks = sorted(_rank(c) for c in cards)
            if ranks[0] < ranks[1] and not (by_cut and ranks[1] == ranks[2]):
                break
            round_no += 1
        by_rank = sorted(range(nplayers), key=lambda q: _rank(cards[q]))
        cut_dealer = by_rank[0]
        # the table: play passes from order[i] to order[i + 1]; partners sit
        # opposite, seat 0 first, then the lower seat of the other side
        self.order = list(range(nplayers))
        if nplayers == 4:
            low_side = set(by_rank[:2]) if by_cut else {0, 2}
            mine = low_side if 0 in low_side else set(range(4)) - low_side
            mate = max(mine)
            other = sorted(set(range(4)) - mine)
            self.order = [0, other[0], mate, other[1]]
            self._log("partners", 0, mate, 0, 0)
            self._log("partners", other[0], other[1], 1, 0)
        self.dealer = first if first != -1 else cut_dealer
        self.deal_no = 0
        self._new_deal()

    # -- helpers ------------------------------------------------------------
    def _log(self, kind: str, player: int, target: int, value: int, extra: int,
             seen: int = SEEN_ALL) -> None:  # fmt: skip
        self.log.append((EV[kind], player, target, value, extra, seen))

    def _side(self, seat: int) -> int:
        return self.order.index(seat) % 2 if self.n == 4 else seat

    def _left(self, seat: int, k: int = 1) -> int:
        """The seat ``k`` places to the left of ``seat`` round the table."""
        return self.order[(self.order.index(seat) + k) % self.n]

    def _peg(self, seat: int, points: int) -> bool:
        """Peg; True if that wins the game."""
        if points <= 0:
            return False
        side = self._side(seat)
        self.scores[side] += points
        if self.scores[side] < self.target:
            return False
        self.to_act = TERMINAL
        worst = 0
        for q in self.order:  # round the table from seat 0
            score = self.scores[self._side(q)]
            k = 0
            if self._side(q) != side:
                k = 2 if score <= self.target - 61 else 1 if score <= self.target - 31 else 0
            self.skunks[q] = k
            if k:
                self._log("skunk", q, -1, k, score)
            worst = max(worst, k)
        self._log("game_over", seat, side, self.scores[side], worst)
        return True

    def _new_deal(self) -> None:
        self.deal_no += 1
        n = self.n
        count = self.size * n + (1 if n == 3 else 0)
        if self.deal_no == 1 and self.stacked is not None:
            cards = self.stacked[:count]
        else:
            cards = self.chance.deal(self.deal_no, count)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.crib_card = -1
        self.starter = -1
        self.sequence: list[int] = []  # this deal's play
        self.count: list[int] = []  # the current count
        self.gone: set[int] = set()
        self.last = -1
        self.phase = 0
        self._log("new_deal", self.dealer, -1, self.deal_no, 0)
        self.show_item = 0  # muggins: 1..n the hands from the dealer's left, n + 1 the crib
        self.claim = -1  # muggins: the claim awaiting a call
        # muggins in the play: ("play", points) for a card's points, ("go", 1)
        # for the go or last card, while their owner claims them; else None
        self.play_claim: tuple[str, int] | None = None
        self.crib_shown = False
        for k in range(self.size * n):
            q = self._left(self.dealer, 1 + k % n)
            self.hands[q].append(cards[k])
            self._log("deal_card", q, -1, cards[k], 0, 1 << q)
        if n == 3:
            self.crib_card = cards[-1]
            self._log("crib_dealt", self.dealer, -1, self.crib_card, 0, 0)
        self.dealt_cards = list(cards)
        self.to_act = self._left(self.dealer)

    def _starter(self) -> None:
        if self.deal_no == 1 and self.stacked is not None:
            self.starter = self.stacked[len(self.dealt_cards)]
        else:
            self.starter = self.chance.starter(self.deal_no, self.dealt_cards)
        self._log("starter", self.dealer, -1, self.starter, 0)
        self.phase = 1
        if _rank(self.starter) == JACK:
            self._log("his_heels", self.dealer, -1, 2, 0)
            if self._peg(self.dealer, 2):
                return
        self.to_act = self._left(self.dealer)

    def _total(self) -> int:
        return sum(_pips(c) for c in self.count)

    def _can_play(self, q: int) -> bool:
        return any(_pips(c) <= 31 - self._total() for c in self.hands[q])

    def _after_card(self, seat: int) -> None:
        """A card's points are pegged: a count of 31 ends the count."""
        if self._total() == 31:
            if not any(self.hands):
                self._show()
                return
            self.count, self.gone = [], set()
        self._after_play(seat)

    def _after_go(self) -> None:
        """The go or last-card point is pegged: the show, or a new count."""
        if not any(self.hands):
            self._show()
            return
        self.count, self.gone = [], set()
        self._after_play(self.last)

    def _after_play(self, seat: int) -> None:
        """Whose turn: the next who can play, the others saying go; when no
        one can, the go or last-card point (with muggins, its claim) and a
        new count (or the show)."""
        n = self.n
        for k in range(1, n + 1):
            q = self._left(seat, k)
            if q in self.gone or not self.hands[q]:
                continue
            if self._can_play(q):
                self.to_act = q
                return
            self.gone.add(q)
            self._log("go", q, self._total(), 0, 0)
        done = not any(self.hands)
        if self.muggins:
            self._log("last_card", self.last, self._total(), 0, int(done))
            self.play_claim = ("go", 1)
            self.claim = -1
            self.to_act = self.last
            return
        self._log("last_card", self.last, self._total(), 1, int(done))
        if self._peg(self.last, 1):
            return
        self._after_go()

    def _crib(self) -> list[int]:
        return sorted(
            [c for d in self.discards for c in d] + [c for c in [self.crib_card] if c >= 0]
        )

    def _item_points(self, item: int) -> int:
        """The true points of show item 1..n (hands from the dealer's left) or n + 1 (crib)."""
        if item <= self.n:
            return sum(
                show_points(self.played[self._left(self.dealer, item)], self.starter).values()
            )
        return sum(show_points(self._crib(), self.starter, True, bool(self.four)).values())

    def _show(self) -> None:
        if self.muggins:
            self.phase = 2
            self.show_item = 0
            self._next_item()
            return
        for k in range(1, self.n + 1):
            q = self._left(self.dealer, k)
            points = self._item_points(k)
            self._log("show_hand", q, -1, points, 0)
            if self._peg(q, points):
                return
        for c in self._crib():
            self._log("crib_card", self.dealer, -1, c, 0)
        points = self._item_points(self.n + 1)
        self._log("show_crib", self.dealer, -1, points, 0)
        if self._peg(self.dealer, points):
            return
        self.dealer = self._left(self.dealer)
        self._new_deal()

    # -- muggins (docs/cribbage.rst, "Muggins") --------------------------------
    def _next_item(self) -> None:
        self.show_item += 1
        self.claim = -1
        if self.show_item > self.n + 1:
            self.dealer = self._left(self.dealer)
            self._new_deal()
        elif self.show_item == self.n + 1:
            for c in self._crib():
                self._log("crib_card", self.dealer, -1, c, 0)
            self.crib_shown = True
            self.to_act = self.dealer
        else:
            self.to_act = self._left(self.dealer, self.show_item)

    def _what(self) -> int:
        """What is claimed: 0 a hand, 1 the crib, 2 a card of the play, 3 a go."""
        if self.play_claim is not None:
            return 2 if self.play_claim[0] == "play" else 3
        return int(self.show_item == self.n + 1)

    def _truth(self) -> int:
        if self.play_claim is not None:
            return self.play_claim[1]
        return self._item_points(self.show_item)

    def _settled(self) -> None:
        """The claim (and its call) is over: on with the play or the show."""
        if self.play_claim is None:
            self._next_item()
            return
        kind = self.play_claim[0]
        self.play_claim = None
        self.claim = -1
        if kind == "play":
            self._after_card(self.last)
        else:
            self._after_go()

    def _claim(self, points: int) -> None:
        owner = self.to_act
        what = self._what()
        truth = self._truth()
        caller = self._left(owner)
        show = "show_crib" if what == 1 else "show_hand"
        in_show = self.play_claim is None
        self._log("claim", owner, what, points, truth)
        if points > truth:
            before = self.scores[self._side(owner)]
            false_game = before + points >= self.target > before + truth
            how = 2 if self.overclaim == 1 else 1 if false_game else 0
            self._log("overclaim", owner, caller, points - truth, how)
            if in_show:
                self._log(show, owner, -1, truth, 0)
            if self._peg(owner, truth):
                return
            if how == 1:  # a false claim of game: 15 back, the overclaim to the opponent
                back = min(15, self.scores[self._side(owner)])
                self.scores[self._side(owner)] -= back
                self._log("penalty", owner, owner, -back, 0)
                award = self.target - before - truth
                self._log("penalty", caller, owner, award, 0)
                if self._peg(caller, award):
                    return
            elif how == 2:
                self._log("penalty", caller, owner, points - truth, 0)
                if self._peg(caller, points - truth):
                    return
            self._settled()
            return
        if in_show:
            self._log(show, owner, -1, points, 0)
        if self._peg(owner, points):
            return
        if points < truth:
            self.claim = points
            self.to_act = caller
            return
        self._settled()

    def _call(self, muggins: bool) -> None:
        caller = self.to_act
        owner = self.order[(self.order.index(caller) - 1) % self.n]
        missed = self._truth() - self.claim
        self._log("muggins" if muggins else "no_muggins", caller, owner, missed, self._what())
        if muggins and self._peg(caller, missed):
            return
        self._settled()

    # -- the protocol -------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_act

    def num_actions(self) -> int:
        return 136

    def tensor_size(self) -> int:
        size = 264 + 58 * self.n
        if self.n == 4:
            size += 4  # partner
        if self.muggins:
            size += 52 + self.n + 3
        return size

    def legal_actions(self) -> list[int]:
        return [a for a in range(self.num_actions()) if self.verify(a) == 0]

    def verify(self, action: int) -> int:
        if self.to_act == TERMINAL:
            return ERR_GAME_OVER
        if not 0 <= action < self.num_actions():
            return R_INVALID
        if action >= CLAIM and not self.muggins:
            return R_NO_MUGGINS
        claiming = self.phase == 2 or self.play_claim is not None
        calling = claiming and self.claim >= 0
        if action in (MUGGINS, PASS):
            return 0 if calling else R_NOT_CALL
        if action >= CLAIM:
            if not claiming or calling:
                return R_NOT_CLAIM
            if self.play_claim is not None and action - CLAIM > MAX_PLAY_CLAIM:
                return R_CLAIM_RANGE
            return 0
        if self.phase == 2:
            return R_IN_SHOW
        if self.play_claim is not None:
            return R_CLAIM_FIRST
        card = action % 52
        if action < 52 and self.phase != 0:
            return R_NOT_DISCARD
        if action >= 52 and self.phase != 1:
            return R_NOT_PLAY
        if card not in self.hands[self.to_act]:
            return R_NOT_HELD
        if action >= 52 and self._total() + _pips(card) > 31:
            return R_OVER_31
        return 0

    def _apply(self, action: int) -> None:
        if action >= CLAIM:
            if action >= MUGGINS:
                self._call(action == MUGGINS)
            else:
                self._claim(action - CLAIM)
            return
        seat, card = self.to_act, action % 52
        self.hands[seat].remove(card)
        if action < 52:
            self.discards[seat].append(card)
            self._log("discard", seat, -1, card, 0, 1 << seat)
            if len(self.discards[seat]) < self.ndiscard:
                return
            if seat != self.dealer:
                self.to_act = self._left(seat)
            else:
                self._starter()
            return
        self.played[seat].append(card)
        self.sequence.append(card)
        self.count.append(card)
        self.last = seat
        points = sum(play_points(self.count).values())
        if self.muggins:
            self._log("play", seat, self._total(), card, 0)
            if points:
                self.play_claim = ("play", points)
                self.claim = -1
                return  # the player to act (seat) claims them
        else:
            self._log("play", seat, self._total(), card, points)
            if self._peg(seat, points):
                return
        self._after_card(seat)

    def returns(self) -> list[int]:
        return [self.scores[self._side(q)] for q in range(self.n)]

    def observe_tensor(self, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        n = self.n
        out = np.zeros(self.tensor_size(), dtype=np.float32)
        for c in self.hands[player]:
            out[c] = 1
        for c in self.discards[player]:
            out[52 + c] = 1
        if self.starter >= 0:
            out[104 + self.starter] = 1
        for i in range(n):
            for c in self.played[(player + i) % n]:
                out[156 + 52 * i + c] = 1
        base = 156 + 52 * n
        for k, c in enumerate(self.sequence):
            out[base + c] = k + 1
        for c in self.count:
            out[base + 52 + c] = 1
        values: list[float] = [self._total()]
        seats = [(player + i) % n for i in range(n)]
        values += [self.scores[self._side(q)] for q in seats]
        values += [len(self.hands[q]) for q in seats]
        values += [1 if self.to_act == q else 0 for q in seats]
        values += [1 if self.dealer == q else 0 for q in seats]
        values += [1 if q in self.gone else 0 for q in seats]
        over = self.to_act == TERMINAL
        values += [0, 0] if over or self.phase == 2 else [1 - self.phase, self.phase]
        values += [self.skunks[q] for q in seats]
        values += [1 if over else 0]
        if n == 4:
            mate = self._left(player, 2)
            values += [1 if q == mate else 0 for q in seats]
        out[base + 104 : base + 104 + len(values)] = values
        if self.muggins:
            at = base + 104 + len(values)
            if self.crib_shown:
                for c in self._crib():
                    out[at + c] = 1
            at += 52
            if not over and (self.phase == 2 or self.play_claim is not None):
                calling = self.claim >= 0
                owner = self.order[(self.order.index(self.to_act) - calling) % n]
                out[at + seats.index(owner)] = 1
                out[at + n] = 1 if self.phase == 2 and self.show_item == n + 1 else 0
                out[at + n + 1] = self.claim if calling else 0
                out[at + n + 2] = 1 if calling else 0
        return out

    def events(self) -> list[tuple[int, int, int, int, int, int]]:
        return list(self.log[-LOG_CAP:])
