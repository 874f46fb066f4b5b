"""Nodde Knave (docs/nodde.rst): the plain-Python reference.

Written for obviousness from the rule book, sharing no code with
``src/cardcore/games/nodde/``: same names and encodings as the C backend.

Chance is not copied from the engine: the first dealer (when the rules do
not fix him) and the cards of each deal dealt from a shuffled deck come from
a :class:`Chance` (by default one drawing from Python's ``random``; the
differential tests pass :class:`ChanceFromEngine`, which reads what the C
engine dealt, so the oracle still works out on its own who gets which card,
when the deck is reshuffled, and everything after).  A stacked first deck is
dealt in order by the oracle itself.  The oracle has no information-set
sampler: tests/games/nodde/test_sampler.py checks the engine's against brute force.

Rules parameters (ints, in this order): four_player_mode (0 partners,
1 individual), reshuffle_each_deal, turned_knave_scorer (0 dealer, 1 elder),
run_points (0 mwynwen, 1 per_card), flush_rule (0 any3_of_4, 1 hand3_required),
hand_31 (0 off, 1 flat2, 2 flat4), score_25 (0 off, 1 flat4, 2 per_card),
flush_in_play, game_target (1..121), first_dealer (-1 drawn by chance, or a
seat).
"""

from __future__ import annotations

import random as _random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

import numpy as np

from .game import ERR_GAME_OVER, SEEN_ALL, TERMINAL, RefState, register

__all__ = [
    "Chance",
    "ChanceFromEngine",
    "NoddeState",
    "nodde_batch_score_hand",
    "nodde_hand_distribution",
    "nodde_score_hand",
    "nodde_score_play",
]

NUM_PARAMS = 10
MAX_TARGET = 121
MAX_PLAY = 12
HIST_SIZE = 128
LOG_CAP = 1024

# item kinds
FIFTEEN, PAIR, RUN, FLUSH, KNAVE_NODDY, THIRTY_ONE, TWENTY_FIVE, LAST_CARD, TURNED_KNAVE = range(9)
# event kinds
EV_NEW_DEAL, EV_DEAL_CARD, EV_TURNUP, EV_TURNED_KNAVE, EV_HAND_SCORE = range(5)
EV_PLAY, EV_GO, EV_LAST_CARD, EV_GAME_OVER = range(5, 9)
# reasons
R_INVALID, R_NOT_HELD, R_OVER_31 = 1, 2, 3

JACK = 10

Item = tuple[int, int, int]  # (kind, cards bitset, points)


def _rank(card: int) -> int:
    return card % 13


def _suit(card: int) -> int:
    return card // 13


def _pip(card: int) -> int:
    return min(_rank(card) + 1, 10)


def _bit(card: int) -> int:
    return 1 << (16 * _suit(card) + _rank(card))


def _bits(cards: Sequence[int]) -> int:
    out = 0
    for c in cards:
        out |= _bit(c)
    return out


def _ids(cards: int) -> list[int]:
    """Dense ids of a bitset, ascending."""
    return [s * 13 + r for s in range(4) for r in range(13) if cards >> (16 * s + r) & 1]


def _check_params(params: Sequence[int]) -> str | None:
    params = tuple(params)
    if len(params) != NUM_PARAMS:
        return f"expected {NUM_PARAMS} rules parameters, got {len(params)}"
    limits = [1, 1, 1, 1, 1, 2, 2, 1]
    for i, top in enumerate(limits):
        if not 0 <= params[i] <= top:
            return f"parameter {i} must be 0..{top}, got {params[i]}"
    if not 1 <= params[8] <= MAX_TARGET:
        return f"game_target must be 1..{MAX_TARGET}, got {params[8]}"
    if not -1 <= params[9] <= 3:
        return f"first_dealer must be -1 (drawn) or a seat 0..3, got {params[9]}"
    return None


def _params(params: Sequence[int]) -> tuple[int, ...]:
    params = tuple(int(p) for p in params)
    problem = _check_params(params)
    if problem:
        raise ValueError(f"nodde: invalid rules parameters {params!r}: {problem}")
    return params


def _run_value(params: Sequence[int], length: int) -> int:
    return 2 * (length - 2) if params[3] == 0 else length


def _hand_items(hand: list[int], turnup: int, params: Sequence[int]) -> list[Item]:
    """The rule of docs/nodde.rst.2 step 2, item by item, in canonical order."""
    four = [*hand, turnup]
    items: list[Item] = []
    # fifteens: every subset of 2 or more cards totalling 15
    for size in (2, 3, 4):
        for sub in combinations(four, size):
            if sum(_pip(c) for c in sub) == 15:
                items.append((FIFTEEN, _bits(sub), 2))
    # pairs
    for a, b in combinations(four, 2):
        if _rank(a) == _rank(b):
            items.append((PAIR, _bits((a, b)), 2))
    # runs: the longest length with any run counts, each distinct run once
    for size in (4, 3):
        runs = []
        for sub in combinations(four, size):
            ranks = sorted(_rank(c) for c in sub)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(size - 1)):
                runs.append(sub)
        if runs:
            items += [(RUN, _bits(sub), _run_value(params, size)) for sub in runs]
            break
    # flush
    if params[4] == 0:
        for s in range(4):
            suited = [c for c in four if _suit(c) == s]
            if len(suited) >= 3:
                items.append((FLUSH, _bits(suited), len(suited)))
    elif len({_suit(c) for c in hand}) == 1:
        suited = [c for c in four if _suit(c) == _suit(hand[0])]
        items.append((FLUSH, _bits(suited), len(suited)))
    # knave noddy
    for c in hand:
        if _rank(c) == JACK and _suit(c) == _suit(turnup):
            items.append((KNAVE_NODDY, _bit(c), 1))
    # 31 in hand
    if params[5] and sum(_pip(c) for c in four) == 31:
        items.append((THIRTY_ONE, _bits(four), 2 if params[5] == 1 else 4))
    # 25: every subset of 3 or more cards totalling 25
    if params[6]:
        for size in (3, 4):
            for sub in combinations(four, size):
                if sum(_pip(c) for c in sub) == 25:
                    items.append((TWENTY_FIVE, _bits(sub), 4 if params[6] == 1 else size))
    return sorted(items, key=lambda it: (it[0], it[1]))


def _hand_list(hand: int, turnup: int) -> list[int]:
    if hand < 0 or hand >> 64 or hand & ~0x1FFF1FFF1FFF1FFF:
        raise ValueError(f"card set {hand:#x} has bits outside the 52-card deck")
    cards = _ids(hand)
    if len(cards) != 3 or not 0 <= turnup < 52 or turnup in cards:
        raise ValueError(
            f"nodde_score_hand: hand {hand:#x} must be 3 cards and the turn-up {turnup} "
            "a card id 0..51 not in the hand"
        )
    return cards


def nodde_score_hand(hand: int, turnup: int, params: Sequence[int]) -> list[Item]:
    """Itemized hand score: a list of (kind, cards bitset, points)."""
    params = _params(params)
    return _hand_items(_hand_list(hand, turnup), turnup, params)


def _play_items(seq: list[int], params: Sequence[int]) -> list[Item]:
    """What the last card of ``seq`` makes (docs/nodde.rst, The play)."""
    items: list[Item] = []
    total = sum(_pip(c) for c in seq)
    last = seq[-1]
    if total == 15:
        items.append((FIFTEEN, _bits(seq), 2))
    same = 0
    while same + 1 < len(seq) and _rank(seq[-2 - same]) == _rank(last) and same < 3:
        same += 1
    if same:
        items.append((PAIR, _bits(seq[-1 - same :]), {1: 2, 2: 6, 3: 12}[same]))
    for length in range(len(seq), 2, -1):
        tail = seq[-length:]
        ranks = sorted(_rank(c) for c in tail)
        if all(ranks[i + 1] == ranks[i] + 1 for i in range(length - 1)):
            items.append((RUN, _bits(tail), _run_value(params, length)))
            break
    if params[7]:
        length = 1
        while length < len(seq) and _suit(seq[-1 - length]) == _suit(last):
            length += 1
        if length >= 3:
            items.append((FLUSH, _bits(seq[-length:]), length))
    if total == 31:
        items.append((THIRTY_ONE, _bits(seq), 2))
    if total == 25 and params[6]:
        items.append((TWENTY_FIVE, _bits(seq), 4 if params[6] == 1 else len(seq)))
    return items


def nodde_score_play(seq: Sequence[int], params: Sequence[int]) -> list[Item]:
    """What the last card of a play sequence makes: a list of (kind, cards, points)."""
    params = _params(params)
    cards = [int(c) for c in seq]
    if not 1 <= len(cards) <= MAX_PLAY:
        raise ValueError(f"nodde_score_play: 1 to {MAX_PLAY} cards, got {len(cards)}")
    for c in cards:
        if not 0 <= c < 52:
            raise ValueError(f"nodde_score_play: card id {c!r} out of range 0..51")
    if len(set(cards)) != len(cards):
        raise ValueError(f"nodde_score_play: repeated card in {cards!r}")
    if sum(_pip(c) for c in cards) > 31:
        raise ValueError(f"nodde_score_play: {cards!r} totals over 31")
    return _play_items(cards, params)


def nodde_batch_score_hand(hands: Any, turnups: Any, params: Sequence[int]) -> Any:
    """Hand scores of (hands[i], turnups[i]): uint64 bitsets and uint8 card ids -> int32."""
    params = _params(params)
    for name, arr, dtype in (("hands", hands, np.uint64), ("turnups", turnups, np.uint8)):
        if not isinstance(arr, np.ndarray):
            raise TypeError(f"{name}: expected a numpy.ndarray, got {type(arr).__name__}")
        if arr.dtype != dtype:
            raise TypeError(f"{name}: expected dtype {np.dtype(dtype)}, got {arr.dtype}")
        if arr.ndim != 1:
            raise ValueError(f"{name}: expected a 1-D array, got {arr.ndim} dimensions")
        if not arr.flags.c_contiguous:
            raise ValueError(f"{name}: array must be C-contiguous")
        if not arr.flags.aligned:
            raise ValueError(f"{name}: array must be aligned")
    if len(hands) != len(turnups):
        raise ValueError(f"hands and turnups differ in length ({len(hands)} != {len(turnups)})")
    out = np.empty(len(hands), dtype=np.int32)
    for i, (h, t) in enumerate(zip(hands.tolist(), turnups.tolist(), strict=True)):
        try:
            cards = _hand_list(h, t)
        except ValueError:
            raise ValueError(
                f"nodde_batch_score_hand: deal {i}: hand {h:#x} must be 3 cards and the "
                f"turn-up {t} a card id 0..51 not in the hand"
            ) from None
        out[i] = sum(p for _, _, p in _hand_items(cards, t, params))
    return out


def nodde_hand_distribution(params: Sequence[int]) -> Any:
    """Counts of hand scores over all 22,100 x 49 deals (int64 array, index = score).

    Brute force: slow (about a minute); the C backend does it in milliseconds.
    """
    params = _params(params)
    hist = np.zeros(HIST_SIZE, dtype=np.int64)
    for hand in combinations(range(52), 3):
        for turnup in range(52):
            if turnup not in hand:
                hist[sum(p for _, _, p in _hand_items(list(hand), turnup, params))] += 1
    return hist


class Chance:
    """Where the oracle's chance comes from (Python's ``random`` by default)."""

    def __init__(self, seed: int) -> None:
        self.random = _random.Random(seed)

    def first_dealer(self, nplayers: int) -> int:
        """The first dealer, when the rules do not name him."""
        return self.random.randrange(nplayers)

    def deal(self, deal_no: int, stock: list[int], count: int) -> list[int]:
        """The ``count`` cards of deal ``deal_no`` in the order they are dealt
        (round the table from the elder, then the turn-up), drawn from the
        shuffled ``stock`` (the cards not yet dealt from it, ascending)."""
        return self.random.sample(stock, count)


@register
class NoddeState(RefState):
    """A game of Nodde Knave, played out plainly."""

    NAME = "nodde"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    NUM_PARAMS = NUM_PARAMS
    DECK_SIZE = 52
    REASONS = {  # noqa: RUF012
        R_INVALID: "invalid action: not a card id 0..51",
        R_NOT_HELD: "card not held",
        R_OVER_31: "over 31",
    }

    @classmethod
    def check_params(cls, params: tuple[int, ...], nplayers: int) -> str | None:
        problem = _check_params(params)
        if problem:
            return problem
        if params[1] == 0 and nplayers != 2:
            return "playing without reshuffling each deal needs exactly 2 players"
        if params[9] >= nplayers:
            return f"first_dealer {params[9]} is not a seat of {nplayers} players"
        return None

    def __init__(
        self,
        params: tuple[int, ...],
        nplayers: int,
        seed: int,
        deck: Sequence[int] | None = None,
        chance: Chance | None = None,
    ) -> None:
        """The first deal comes from ``deck`` (52 card ids, top first) if
        given, else from a shuffle; ``chance`` deals shuffled decks and draws
        the first dealer when the rules do not fix him."""
        super().__init__(params, nplayers, seed)
        self.chance = chance if chance is not None else Chance(seed)
        self.n = nplayers
        self.partners = nplayers == 4 and params[0] == 0
        self.nsides = 2 if self.partners else nplayers
        self.target = params[8]
        self.scores = [0] * self.nsides
        self.log: list[list[int]] = []
        self.winner = -1
        self.deal_no = 0
        # the undealt cards of the current deck: in dealing order (top first)
        # while it is the stacked deck, else a shuffled deck's cards, ascending
        self.stock: list[int] = list(range(52)) if deck is None else list(deck)
        self.stacked = deck is not None
        self.dealer = params[9] if params[9] >= 0 else self.chance.first_dealer(nplayers)
        self._start_deal()

    # -- helpers -------------------------------------------------------------
    def _event(
        self, kind: int, player: int, target: int, value: int, extra: int, seen_by: int = SEEN_ALL
    ) -> None:
        self.log.append([kind, player, target, value, extra, seen_by])

    def _side(self, seat: int) -> int:
        return seat % 2 if self.partners else seat

    def _peg(self, seat: int, points: int) -> bool:
        """Peg points; True if the game is over (docs/nodde.rst.4: at once)."""
        if points <= 0:
            return False
        side = self._side(seat)
        self.scores[side] += points
        if self.scores[side] >= self.target:
            self.winner = side
            self.to_act = TERMINAL
            self._event(EV_GAME_OVER, seat, side, self.scores[side], 0)
            return True
        return False

    def _start_deal(self) -> None:
        n = self.n
        fresh = 1 if self.deal_no == 0 else 0  # the first deck, shuffled or stacked
        if self.deal_no > 0 and (self.params[1] == 1 or len(self.stock) < 3 * n + 1):
            self.stock = list(range(52))  # a new shuffle
            self.stacked = False
            fresh = 1
        self.deal_no += 1
        self.sequence: list[int] = []
        self.total = 0
        self.gone: set[int] = set()
        self.last_player = -1
        self.announced = [-1] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self._event(EV_NEW_DEAL, self.dealer, -1, self.deal_no, fresh)
        count = 3 * n + 1  # docs/nodde.rst, The deal: three cards each, then the turn-up
        if self.stacked:
            cards = self.stock[:count]
        else:
            cards = list(self.chance.deal(self.deal_no, sorted(self.stock), count))
            assert len(set(cards)) == count and set(cards) <= set(self.stock), cards
        self.stock = [c for c in self.stock if c not in cards]
        for k in range(3):
            for i in range(1, n + 1):
                seat = (self.dealer + i) % n
                card = cards[k * n + i - 1]
                self.hands[seat].append(card)
                self._event(EV_DEAL_CARD, seat, -1, card, 0, 1 << seat)
        self.turnup = cards[-1]
        self.dealt = [sorted(h) for h in self.hands]
        self._event(EV_TURNUP, self.dealer, -1, self.turnup, 0)
        self.to_act = 0
        elder = (self.dealer + 1) % n
        if _rank(self.turnup) == JACK:
            who = self.dealer if self.params[2] == 0 else elder
            self._event(EV_TURNED_KNAVE, who, -1, 2, 0)
            if self._peg(who, 2):
                return
        for i in range(1, n + 1):
            seat = (self.dealer + i) % n
            points = sum(
                p for _, _, p in _hand_items(sorted(self.hands[seat]), self.turnup, self.params)
            )
            self.announced[seat] = points
            self._event(EV_HAND_SCORE, seat, -1, points, 0)
            if self._peg(seat, points):
                return
        self._next_turn(self.dealer)

    def _can_play(self, seat: int) -> bool:
        return any(self.total + _pip(c) <= 31 for c in self.hands[seat])

    def _next_turn(self, after: int) -> None:
        for k in range(1, self.n + 1):
            seat = (after + k) % self.n
            if seat in self.gone:
                continue
            if self._can_play(seat):
                self.to_act = seat
                return
            self.gone.add(seat)
            self._event(EV_GO, seat, self.total, 0, 0)
        self._event(EV_LAST_CARD, self.last_player, self.total, 1, 0)
        if self._peg(self.last_player, 1):
            return
        self._end_deal()

    def _end_deal(self) -> None:
        self.dealer = (self.dealer + 1) % self.n
        self._start_deal()

    # -- the backend state interface ------------------------------------------
    def current_player(self) -> int:
        return self.to_act

    def num_actions(self) -> int:
        return 52

    def tensor_size(self) -> int:
        n = self.n
        return 104 + 52 * n + 52 + 1 + 6 * n + 1

    def legal_actions(self) -> list[int]:
        if self.to_act == TERMINAL:
            return []
        return sorted(c for c in self.hands[self.to_act] if self.total + _pip(c) <= 31)

    def verify(self, action: int) -> int:
        if self.to_act == TERMINAL:
            return ERR_GAME_OVER
        if not 0 <= action < 52:
            return R_INVALID
        if action not in self.hands[self.to_act]:
            return R_NOT_HELD
        if self.total + _pip(action) > 31:
            return R_OVER_31
        return 0

    def _apply(self, action: int) -> None:
        seat = self.to_act
        self.hands[seat].remove(action)
        self.sequence.append(action)
        self.total += _pip(action)
        self.last_player = seat
        points = sum(p for _, _, p in _play_items(self.sequence, self.params))
        self._event(EV_PLAY, seat, self.total, action, points)
        if self._peg(seat, points):
            return
        if self.total == 31:
            self._end_deal()
        else:
            self._next_turn(seat)

    def returns(self) -> list[int]:
        return [self.scores[self._side(seat)] for seat in range(self.n)]

    def observe_tensor(self, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        if not 0 <= player < self.n:
            raise ValueError(f"player {player} out of range 0..{self.n - 1}")
        n = self.n
        out = np.zeros(self.tensor_size(), dtype=np.float32)
        for c in self.hands[player]:
            out[c] = 1
        out[52 + self.turnup] = 1
        for i in range(n):
            seat = (player + i) % n
            for c in self.dealt[seat]:
                if c not in self.hands[seat]:
                    out[104 + 52 * i + c] = 1
        base = 104 + 52 * n
        for k, c in enumerate(self.sequence):
            out[base + c] = k + 1
        pos = base + 52
        values: list[float] = [self.total]
        values += [self.scores[self._side((player + i) % n)] for i in range(n)]
        values += [1 if self.to_act == (player + i) % n else 0 for i in range(n)]
        values += [1 if self.dealer == (player + i) % n else 0 for i in range(n)]
        values += [1 if (player + i) % n in self.gone else 0 for i in range(n)]
        values += [1 if self.announced[(player + i) % n] >= 0 else 0 for i in range(n)]
        values += [max(self.announced[(player + i) % n], 0) for i in range(n)]
        values += [1 if self.to_act == TERMINAL else 0]
        out[pos : pos + len(values)] = values
        return out

    def events(self) -> list[tuple[int, int, int, int, int, int]]:
        return [(e[0], e[1], e[2], e[3], e[4], e[5]) for e in self.log[-LOG_CAP:]]


class ChanceFromEngine(Chance):
    """The chance a C engine state drew, read from its referee's event log:
    the first dealer and the cards of each shuffled deal, in dealing order.
    The engine must have dealt before the oracle asks, i.e. apply each action
    to the engine first."""

    def __init__(self, engine: Any) -> None:
        super().__init__(0)
        self.engine = engine

    def _events(self) -> list[tuple[int, int, int, int, int, int]]:
        return [tuple(e) for e in self.engine.events()]  # type: ignore[misc]

    def first_dealer(self, nplayers: int) -> int:
        first = self._events()[0]
        assert first[0] == EV_NEW_DEAL and first[3] == 1, first
        return int(first[1])

    def deal(self, deal_no: int, stock: list[int], count: int) -> list[int]:
        events = self._events()
        start = max(i for i, e in enumerate(events) if e[0] == EV_NEW_DEAL)
        assert events[start][3] == deal_no, (events[start], deal_no)
        cards = [e[3] for e in events[start + 1 : start + 1 + count]]
        kinds = [e[0] for e in events[start + 1 : start + 1 + count]]
        assert kinds == [EV_DEAL_CARD] * (count - 1) + [EV_TURNUP], kinds
        return cards
