"""The Game of Nancy, written plainly: the test oracle of the C engine.

Cards are dense ids (suit ``s`` rank ``r`` is ``s * 14 + r``, trump ``n`` is
``55 + n``, the Outsider 77) kept in Python sets; a card set crosses the API
as a 128-bit integer (suit cards at bit ``s * 16 + r``, trump ``n`` at bit
``64 + n``, the Outsider at bit 64).  The rules follow docs/nancy.rst.

Chance is not copied from the engine: the first dealer, each deal's deck
order (and the Hound's places in it) and each random exchange card come from
a :class:`Chance` (by default one drawing from Python's ``random``; the
differential tests pass one that reads what the C engine dealt, so the oracle
still works out on its own who gets which card and everything after).
"""

from __future__ import annotations

import random as _random
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import numpy as np

from ._checks import int8_tricks, u64_rows
from .game import SEEN_ALL, TERMINAL, RefState, register

__all__ = [
    "NancyState",
    "nancy_base_score",
    "nancy_batch_legal_cards",
    "nancy_batch_objectives",
    "nancy_batch_trick_winner",
    "nancy_legal_cards",
    "nancy_objectives",
    "nancy_settlement",
    "nancy_trick_winner",
]

OUTSIDER = 77
NUM_ACTIONS = 322
A_PASS, A_CALL, A_DISCARD, A_PLAY, A_PICK = 0, 10, 88, 166, 244
BID, CALL, DISCARD, PLAY, PICK, OVER = range(6)
NANCY_PILE, OPP_PILE = 0, 1

EV_DEALER, EV_DEAL, EV_BID, EV_TAKER, EV_CALL, EV_HOUND, EV_DISCARD = range(7)
EV_PLAY, EV_PARTNER, EV_FLIP, EV_TRICK, EV_DEBT, EV_EXCHANGE = range(7, 13)
EV_RESULT, EV_SCORE, EV_GAME_OVER = 13, 14, 15
PLACE_HAND, PLACE_FACE_UP, PLACE_TABLE_DOWN, PLACE_HOUND = range(4)
EVENT_CAPACITY = 320

# parameter indices
(
    FACE_UP_COUNT,
    HOUND_POSITION_RULE,
    BIDDING_STYLE,
    MIN_BID,
    ALL_PASS,
    SELF_CALL_ALLOWED,
    REVEAL_HOUND,
    OVERTRUMP_ON_TRUMP_LEAD,
    PARTNER_TRICKS_TO,
    OUTSIDER_EXCHANGE_MODE,
    EXCHANGE_FROM_DISCARD,
    DEFERRED_EXCHANGE_PICK,
    OUTSIDER_LAST_TRICK,
    ARCANE_SUM_MODE,
    FAT_NANCY_OUTSIDER_EXCEPTION,
    MATCH_ROUNDS,
    FIRST_DEALER,
) = range(17)
PARAM_RANGES = [
    (0, 12),
    (0, 1),
    (0, 1),
    (1, 9),
    (0, 1),
    (0, 1),
    (0, 1),
    (0, 1),
    (0, 1),
    (0, 1),
    (0, 1),
    (0, 2),
    (0, 1),
    (0, 2),
    (0, 1),
    (0, 1000),  # 0: None
    (-1, 5),  # -1: None
]
CARDS_EACH = {2: 36, 3: 24, 4: 18, 5: 15, 6: 12}

JACK, COMMONER, QUEEN, KING = 10, 11, 12, 13


# ---------------------------------------------------------------------------
# cards


def is_trump(card: int) -> bool:
    return 56 <= card <= 76


def trump_number(card: int) -> int:
    return card - 55


def suit_of(card: int) -> int:
    """0..3 for a suit card, 4 for a trump (the Outsider has no suit)."""
    return card // 14 if card < 56 else 4


def rank_of(card: int) -> int:
    return card % 14


def is_face(card: int) -> bool:
    return card < 56 and rank_of(card) >= JACK


def is_king(card: int) -> bool:
    return card < 56 and rank_of(card) == KING


def card_bit(card: int) -> int:
    if card < 56:
        return 1 << (16 * (card // 14) + card % 14)
    if card < 77:
        return 1 << (64 + card - 55)
    return 1 << 64


def cards_of_int(cards: int) -> set[int]:
    """The set of card ids in a 128-bit Nancy bitset (ValueError on stray bits)."""
    if cards < 0 or cards >> 128:
        raise ValueError(f"card set {cards!r} is not a 128-bit Nancy bitset")
    out = {c for c in range(78) if cards & card_bit(c)}
    if sum(card_bit(c) for c in out) != cards:
        raise ValueError(f"card set {cards:#x} has bits outside the Nancy deck")
    return out


def int_of_cards(cards: Iterable[int]) -> int:
    total = 0
    for c in cards:
        total |= card_bit(c)
    return total


def rank_cards(rank: int) -> set[int]:
    return {s * 14 + rank for s in range(4)}


# ---------------------------------------------------------------------------
# trick rules and scoring


def _check_trick(trick: Sequence[int], distinct: bool = True) -> list[int]:
    """Card ids of a trick; -1 is padding allowed only at the end."""
    cards: list[int] = []
    ended = False
    for c in trick:
        c = int(c)
        if c == -1:
            ended = True
            continue
        if ended or not 0 <= c <= 77 or (distinct and c in cards):
            raise ValueError(f"bad trick {list(trick)!r}")
        cards.append(c)
    return cards


def _legal(holding: set[int], trick: list[int], overtrump: bool) -> set[int]:
    real = [c for c in trick if c != OUTSIDER]
    if not real:
        return set(holding)
    led = suit_of(real[0])
    highest = max((trump_number(c) for c in real if is_trump(c)), default=0)
    trumps = {c for c in holding if is_trump(c)}
    higher = {c for c in trumps if trump_number(c) > highest}
    excuse = {OUTSIDER} & holding
    if led < 4:
        follow = {c for c in holding if c < 56 and suit_of(c) == led}
        if follow:
            return follow | excuse
        if higher:
            return higher | excuse
        if trumps:
            return trumps | excuse
        return set(holding)
    if trumps:
        if overtrump and higher:
            return higher | excuse
        return trumps | excuse
    return set(holding)


def _winner(trick: list[int]) -> int:
    real = [(i, c) for i, c in enumerate(trick) if c != OUTSIDER]
    if not real:
        return -1
    trumps = [(c, i) for i, c in real if is_trump(c)]
    if trumps:
        return max(trumps)[1]
    led = suit_of(real[0][1])
    return max((rank_of(c), i) for i, c in real if suit_of(c) == led)[1]


def nancy_legal_cards(holding: int, trick: Sequence[int], overtrump: bool = True) -> int:
    """Cards of ``holding`` playable to ``trick`` (rules 8 and 9)."""
    if len(trick) > 5:
        raise ValueError("a trick holds at most 5 cards before the last player")
    return int_of_cards(_legal(cards_of_int(holding), _check_trick(trick), overtrump))


def nancy_trick_winner(trick: Sequence[int]) -> int:
    """Position of the winning card, -1 if only the Outsider was played."""
    if len(trick) > 6:
        raise ValueError("a trick holds at most 6 cards")
    return _winner(_check_trick(trick))


def _objectives(nancy: set[int], arcane_mode: int) -> int:
    mask = 0
    if 56 in nancy and 76 in nancy:
        mask |= 1
    for s in range(4):
        if all(s * 14 + r in nancy for r in range(14)):
            mask |= 2 << s
    if sum(1 for c in nancy if is_face(c)) >= 8:
        mask |= 32
    numbers = [trump_number(c) for c in nancy if is_trump(c)]
    if arcane_mode == 0:
        arcane = sum(numbers) == 22
    elif arcane_mode == 2:
        arcane = sum(numbers) >= 22
    else:
        sums = {0}
        for v in numbers:
            sums |= {x + v for x in sums}
        arcane = 22 in sums
    if arcane:
        mask |= 64
    return mask


def nancy_objectives(nancy: int, arcane_sum_mode: int = 0) -> int:
    """Bit mask of objectives 1..7 met by the Nancy (bit k-1 for objective k)."""
    if arcane_sum_mode not in (0, 1, 2):
        raise ValueError(f"arcane_sum_mode must be 0, 1 or 2, got {arcane_sum_mode}")
    return _objectives(cards_of_int(nancy), arcane_sum_mode)


def nancy_base_score(bid: int, completed: int, won: bool) -> int:
    """2c - 3 max(0, bid - c) + (5 if won else -5) - (10 if c == 0) (docs/nancy.rst,
    Result and score)."""
    if not (1 <= bid <= 9 and 0 <= completed <= 9):
        raise ValueError(f"bid must be 1..9 and completed 0..9, got {bid}, {completed}")
    score = 2 * completed - 3 * max(0, bid - completed) + (5 if won else -5)
    if completed == 0:
        score -= 10
    return score


def nancy_settlement(
    nplayers: int, taker: int, partner: int, bid: int, completed: int, won: bool
) -> list[int]:
    """Points of each player: every opponent pays ``base`` to each member of the Taker's side."""
    if not 2 <= nplayers <= 6 or not 0 <= taker < nplayers or not -1 <= partner < nplayers:
        raise ValueError("nancy_settlement: argument out of range")
    base = nancy_base_score(bid, completed, won)
    side = {taker} if partner in (-1, taker) else {taker, partner}
    opponents = [p for p in range(nplayers) if p not in side]
    out = [0] * nplayers
    for opp in opponents:
        for member in side:
            out[member] += base
            out[opp] -= base
    return out


def _row_int(row: Any) -> int:
    return int(row[0]) | (int(row[1]) << 64)


def nancy_batch_legal_cards(holdings: Any, tricks: Any, overtrump: bool = True) -> Any:
    """Row-wise :func:`nancy_legal_cards`: (n, 2) uint64 and (n, k) int8 -> (n, 2) uint64."""
    u64_rows(holdings, "holdings")
    int8_tricks(tricks, "tricks", 5)
    if tricks.shape[0] != holdings.shape[0]:
        raise ValueError(f"holdings has {holdings.shape[0]} rows but tricks has {tricks.shape[0]}")
    out = np.empty((holdings.shape[0], 2), dtype=np.uint64)
    for i in range(holdings.shape[0]):
        try:
            held = cards_of_int(_row_int(holdings[i]))
        except ValueError:
            raise ValueError(f"holdings row {i} has bits outside the Nancy deck") from None
        try:
            trick = _check_trick(tricks[i], distinct=False)  # as the C kernel: not looked for
        except ValueError:
            raise ValueError(
                f"tricks row {i}: card ids must be 0..77, -1 only as padding at the end"
            ) from None
        legal = int_of_cards(_legal(held, trick, overtrump))
        out[i, 0] = legal & ((1 << 64) - 1)
        out[i, 1] = legal >> 64
    return out


def nancy_batch_trick_winner(tricks: Any) -> Any:
    """Row-wise :func:`nancy_trick_winner`: (n, k) int8 -> (n,) int8."""
    int8_tricks(tricks, "tricks", 6)
    out = np.empty(tricks.shape[0], dtype=np.int8)
    for i in range(tricks.shape[0]):
        try:
            out[i] = _winner(_check_trick(tricks[i]))
        except ValueError:
            raise ValueError(
                f"tricks row {i}: card ids must be 0..77, distinct, -1 only as padding at the end"
            ) from None
    return out


def nancy_batch_objectives(nancies: Any, arcane_sum_mode: int = 0) -> Any:
    """Row-wise :func:`nancy_objectives`: (n, 2) uint64 -> (n,) uint16."""
    u64_rows(nancies, "nancies")
    if arcane_sum_mode not in (0, 1, 2):
        raise ValueError(f"arcane_sum_mode must be 0, 1 or 2, got {arcane_sum_mode}")
    out = np.empty(nancies.shape[0], dtype=np.uint16)
    for i in range(nancies.shape[0]):
        try:
            out[i] = _objectives(cards_of_int(_row_int(nancies[i])), arcane_sum_mode)
        except ValueError:
            raise ValueError(f"nancies row {i} has bits outside the Nancy deck") from None
    return out


# ---------------------------------------------------------------------------
# the game


REASONS = {
    1: "action out of range",
    2: "not an action of the current phase",
    3: "bid not higher than the highest bid",
    4: "bid below the minimum bid",
    5: "the last player may not pass when all others passed (all_pass=dealer_forced)",
    6: "that card may not be called",
    7: "the Taker does not hold that card",
    8: "Trumps I and XXI, Kings and the Outsider may never be discarded",
    9: "trumps may be discarded only when short of other cards",
    10: "you do not hold that card (or it is face-down)",
    11: "must follow the led suit",
    12: "must play a higher trump",
    13: "must play a trump",
    14: "that card is not eligible for the exchange",
}


class Chance:
    """Where the oracle's chance comes from (Python's ``random`` by default)."""

    def __init__(self, seed: int) -> None:
        self.random = _random.Random(seed)

    def first_dealer(self, nplayers: int) -> int:
        return self.random.randrange(nplayers)

    def deck(self, npackets: int, hsize: int, enforce: bool) -> tuple[list[int], set[int]]:
        """A deck, top first, and the packets a single Hound card goes before."""
        deck = list(range(78))
        self.random.shuffle(deck)
        before = set(self.random.sample(range(1, npackets), hsize)) if enforce else set()
        return deck, before

    def exchange(self, eligible: list[int]) -> int:
        return self.random.choice(eligible)


@register
class NancyState(RefState):
    """A Game of Nancy match (a sequence of deals), plainly."""

    NAME: ClassVar[str] = "nancy"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 6
    NUM_PARAMS: ClassVar[int] = 17
    REASONS: ClassVar[dict[int, str]] = REASONS
    DECK_SIZE: ClassVar[int] = 78

    @classmethod
    def check_params(cls, params: tuple[int, ...], nplayers: int) -> str | None:
        for i, (lo, hi) in enumerate(PARAM_RANGES):
            if not lo <= params[i] <= hi:
                return f"parameter {i} must be {lo}..{hi}, got {params[i]}"
        if params[FIRST_DEALER] >= nplayers:
            return f"first_dealer {params[FIRST_DEALER]} is not a seat of {nplayers} players"
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
        n = nplayers
        self.n = n
        self.each = CARDS_EACH[n]
        self.hound_size = 3 if n == 5 else 6
        self.packet = 4 if n == 2 else 3
        self.rounds_total = params[MATCH_ROUNDS] or n
        drawn = self.chance.first_dealer(n)
        self.dealer = drawn if params[FIRST_DEALER] < 0 else params[FIRST_DEALER]
        self.rounds_done = 0
        self.thrown_in = 0
        self.scores = [0] * n
        # the event log: a ring keeping the last EVENT_CAPACITY events
        self.log: list[tuple[int, int, int, int, int, int]] = []
        self._deal(None if deck is None else list(deck))

    # -- helpers ------------------------------------------------------------
    def _event(
        self, kind: int, player: int, target: int, value: int, extra: int, seen: int
    ) -> None:
        self.log.append((kind, player, target, value, extra, seen))
        del self.log[:-EVENT_CAPACITY]

    def _next(self, p: int) -> int:
        return (p + 1) % self.n

    def _pile_of(self, p: int) -> int:
        if p == self.taker:
            return NANCY_PILE
        if p == self.partner and self.params[PARTNER_TRICKS_TO] == 1:
            return NANCY_PILE
        return OPP_PILE

    def _holding(self, p: int) -> set[int]:
        return self.hand[p] | self.up[p]

    # -- the deal -----------------------------------------------------------
    def _deal(self, stacked: list[int] | None = None) -> None:
        """Deal from a shuffled deck, or from ``stacked`` (78 card ids, top first)."""
        n = self.n
        self.hand: list[set[int]] = [set() for _ in range(n)]
        self.up: list[set[int]] = [set() for _ in range(n)]
        # 2 players: pile i of player q has top[q][i] (face-up) over bottom[q][i] (face-down)
        self.top: list[list[int]] = [[-1] * 8 for _ in range(2)]
        self.bottom: list[list[int]] = [[-1] * 8 for _ in range(2)]
        self.flip_pending: list[set[int]] = [set(), set()]
        self.hound: set[int] = set()
        self.bids = [-1] * n
        self.high_bid = 0
        self.high_bidder = -1
        self.nacted = 0
        self.passed: set[int] = set()
        self.taker = -1
        self.partner = -1
        self.called = -1
        self.partner_revealed = False
        self.required_taker_cards: set[int] = set()
        # the Taker's face-down cards at the call plus the Hound, less the required ones:
        # the cards that may have been the Hound (information-set samples)
        self.call_free = 0
        self.discards: set[int] = set()
        self.shown: set[int] = set()
        self.public_discards: set[int] = set()
        self.piles: list[set[int]] = [set(), set()]
        self.played: set[int] = set()
        self.leader = 0
        self.trick: list[tuple[int, int]] = []  # (player, card)
        self.trick_index = 0
        self.last_winner = -1
        self.taker_won_all = True
        self.outsider_player = -1
        self.debt: dict[str, int] | None = None
        self.pick: dict[str, Any] | None = None
        self.chosen_pending = False
        self.chosen = False
        self.rule13 = -1
        self.voids: list[set[int]] = [set() for _ in range(n)]
        self.ceiling = [21] * n

        self._event(EV_DEALER, self.dealer, -1, self.rounds_done, self.thrown_in, SEEN_ALL)
        hsize = self.hound_size
        npackets = (78 - hsize) // self.packet
        enforce = self.params[HOUND_POSITION_RULE] == 1
        if stacked is None:
            deck, hound_before = self.chance.deck(npackets, hsize, enforce)
        else:
            deck = stacked
            # the dealer's fixed schedule for a stacked deck (docs/nancy.rst):
            # the j-th Hound card goes just before packet j * npackets // (hsize + 1)
            hound_before = (
                {j * npackets // (hsize + 1) for j in range(1, hsize + 1)} if enforce else set()
            )
        position = 0
        dealt = [0] * n
        for k in range(npackets):
            if k in hound_before:
                self._to_hound(deck[position])
                position += 1
            q = (self.dealer + 1 + k) % n
            for _ in range(self.packet):
                self._place(q, deck[position], dealt[q])
                dealt[q] += 1
                position += 1
        while position < 78:
            self._to_hound(deck[position])
            position += 1
        self.phase = BID
        self.cur = self._next(self.dealer)

    def _to_hound(self, card: int) -> None:
        self.hound.add(card)
        self._event(EV_DEAL, -1, PLACE_HOUND, card, -1, 0)

    def _place(self, q: int, card: int, index: int) -> None:
        if self.n == 2:
            if index < 8:
                self.bottom[q][index] = card
                self._event(EV_DEAL, q, PLACE_TABLE_DOWN, card, index, 0)
            elif index < 16:
                self.top[q][index - 8] = card
                self.up[q].add(card)
                self._event(EV_DEAL, q, PLACE_FACE_UP, card, index - 8, SEEN_ALL)
            else:
                self.hand[q].add(card)
                self._event(EV_DEAL, q, PLACE_HAND, card, -1, 1 << q)
        elif index < self.params[FACE_UP_COUNT]:
            self.up[q].add(card)
            self._event(EV_DEAL, q, PLACE_FACE_UP, card, -1, SEEN_ALL)
        else:
            self.hand[q].add(card)
            self._event(EV_DEAL, q, PLACE_HAND, card, -1, 1 << q)

    # -- what is legal -------------------------------------------------------
    def _dealer_forced(self) -> bool:
        if self.params[ALL_PASS] != 1 or self.high_bid > 0:
            return False
        return all(q in self.passed for q in range(self.n) if q != self.cur)

    def _callable(self) -> tuple[set[int], set[int]]:
        """(cards the Taker may name, cards he must have held for that call)."""
        held = self._holding(self.taker)
        ladder = [QUEEN, JACK] if self.params[SELF_CALL_ALLOWED] else [QUEEN, JACK, COMMONER, KING]
        required: set[int] = set()
        for i, rank in enumerate(ladder):
            cards = rank_cards(rank)
            if not cards <= held or i == len(ladder) - 1:
                if self.params[SELF_CALL_ALLOWED]:
                    return cards, required
                return cards - held, required
            required |= cards
        raise AssertionError("unreachable")

    def _discardable(self) -> set[int]:
        held = self._holding(self.taker)
        others = {c for c in held if c < 56 and not is_king(c)}
        remaining = self.hound_size - len(self.discards)
        if len(others) >= remaining:
            return others
        return others | {c for c in held if 57 <= c <= 75}

    def _playable(self) -> set[int]:
        return _legal(
            self._holding(self.cur),
            [c for _, c in self.trick],
            bool(self.params[OVERTRUMP_ON_TRUMP_LEAD]),
        )

    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.cur

    def num_actions(self) -> int:
        return NUM_ACTIONS

    def legal_actions(self) -> list[int]:
        if self.phase == BID:
            low = max(self.params[MIN_BID], self.high_bid + 1)
            bids = list(range(low, 10))
            return bids if self._dealer_forced() else [A_PASS, *bids]
        if self.phase == CALL:
            return sorted(A_CALL + c for c in self._callable()[0])
        if self.phase == DISCARD:
            return sorted(A_DISCARD + c for c in self._discardable())
        if self.phase == PLAY:
            return sorted(A_PLAY + c for c in self._playable())
        if self.phase == PICK:
            assert self.pick is not None
            return sorted(A_PICK + c for c in self.pick["cards"])
        return []

    def verify(self, action: int) -> int:
        if self.phase == OVER:
            return -3
        if not 0 <= action < NUM_ACTIONS:
            return 1
        if self.phase == BID:
            if action >= A_CALL:
                return 2
            if action == A_PASS:
                return 5 if self._dealer_forced() else 0
            if action < self.params[MIN_BID]:
                return 4
            return 3 if action <= self.high_bid else 0
        if self.phase == CALL:
            if not A_CALL <= action < A_DISCARD:
                return 2
            return 0 if action - A_CALL in self._callable()[0] else 6
        if self.phase == DISCARD:
            if not A_DISCARD <= action < A_PLAY:
                return 2
            card = action - A_DISCARD
            if card not in self._holding(self.taker):
                return 7
            if card in (OUTSIDER, 56, 76) or is_king(card):
                return 8
            if is_trump(card) and card not in self._discardable():
                return 9
            return 0
        if self.phase == PLAY:
            if not A_PLAY <= action < A_PICK:
                return 2
            card = action - A_PLAY
            held = self._holding(self.cur)
            if card not in held:
                return 10
            if card in self._playable():
                return 0
            real = [c for _, c in self.trick if c != OUTSIDER]
            led = suit_of(real[0])
            if led < 4 and any(c < 56 and suit_of(c) == led for c in held):
                return 11
            if not is_trump(card):
                highest = max((trump_number(c) for c in real if is_trump(c)), default=0)
                has_higher = any(is_trump(c) and trump_number(c) > highest for c in held)
                return 12 if led < 4 and has_higher else 13
            return 12
        if self.phase == PICK:
            if action < A_PICK:
                return 2
            assert self.pick is not None
            return 0 if action - A_PICK in self.pick["cards"] else 14
        return 2

    # -- transitions -----------------------------------------------------------
    def _apply(self, action: int) -> None:
        if self.phase == BID:
            self._bid(action)
        elif self.phase == CALL:
            self._call(action - A_CALL)
        elif self.phase == DISCARD:
            self._discard(action - A_DISCARD)
        elif self.phase == PLAY:
            self._play(action - A_PLAY)
        else:
            assert self.pick is not None
            self._exchange(action - A_PICK, self.cur)
            self._next_trick()

    def _bid(self, action: int) -> None:
        p = self.cur
        self.bids[p] = action
        if action == A_PASS:
            self.passed.add(p)
        else:
            self.high_bid = action
            self.high_bidder = p
        self.nacted += 1
        self._event(EV_BID, p, -1, action, 0, SEEN_ALL)
        if self.params[BIDDING_STYLE] == 0:
            if self.nacted == self.n:
                self._finish_bidding()
            else:
                self.cur = self._next(p)
            return
        still_in = self.n - len(self.passed)
        if still_in == 0 or (self.high_bid > 0 and still_in == 1):
            self._finish_bidding()
            return
        q = self._next(p)
        while q in self.passed:
            q = self._next(q)
        self.cur = q

    def _finish_bidding(self) -> None:
        if self.high_bid == 0:
            self.thrown_in += 1
            self.dealer = self._next(self.dealer)
            self._deal()
            return
        self.taker = self.high_bidder
        self._event(EV_TAKER, self.taker, -1, self.high_bid, 0, SEEN_ALL)
        if self.n >= 5:
            self.phase = CALL
            self.cur = self.taker
        else:
            self._take_hound()

    def _call(self, card: int) -> None:
        self.called = card
        self.required_taker_cards = self._callable()[1]
        hand = self.hand[self.taker]
        self.call_free = len(hand) + self.hound_size - len(hand & self.required_taker_cards)
        self.partner = -1
        for q in range(self.n):
            if q != self.taker and card in self._holding(q):
                self.partner = q
        self._event(EV_CALL, self.taker, -1, card, 0, SEEN_ALL)
        self._take_hound()

    def _take_hound(self) -> None:
        shown = self.params[REVEAL_HOUND] == 1
        for card in sorted(self.hound):
            self._event(
                EV_HOUND, self.taker, -1, card, int(shown), SEEN_ALL if shown else 1 << self.taker
            )
        self.hand[self.taker] |= self.hound
        self.phase = DISCARD
        self.cur = self.taker

    def _remove(self, p: int, card: int) -> None:
        if card in self.up[p]:
            self.up[p].discard(card)
            if self.n == 2:
                for i in range(8):
                    if self.top[p][i] == card:
                        self.flip_pending[p].add(i)
        else:
            self.hand[p].discard(card)

    def _flip(self) -> None:
        if self.n != 2:
            return
        for q in range(2):
            for i in sorted(self.flip_pending[q]):
                card = self.bottom[q][i]
                self.top[q][i] = card
                self.bottom[q][i] = -1
                if card >= 0:
                    self.up[q].add(card)
                    self._event(EV_FLIP, q, -1, card, i, SEEN_ALL)
            self.flip_pending[q] = set()

    def _discard(self, card: int) -> None:
        t = self.taker
        face_up = card in self.up[t]
        self._remove(t, card)
        self.discards.add(card)
        self.piles[NANCY_PILE].add(card)
        shown = is_trump(card)
        if shown:
            self.shown.add(card)
        if shown or face_up:
            self.public_discards.add(card)
        self._event(
            EV_DISCARD,
            t,
            -1,
            card,
            int(shown) | (int(face_up) << 1),
            SEEN_ALL if shown or face_up else 1 << t,
        )
        if len(self.discards) == self.hound_size:
            self._flip()
            self.phase = PLAY
            self.leader = self.cur = self._next(self.dealer)
            self.trick = []
            self.trick_index = 0

    def _play(self, card: int) -> None:
        p = self.cur
        real = [c for _, c in self.trick if c != OUTSIDER]
        if card != OUTSIDER and real:
            led = suit_of(real[0])
            highest = max((trump_number(c) for c in real if is_trump(c)), default=0)
            if led < 4:
                if suit_of(card) != led:
                    self.voids[p].add(led)
                    if not is_trump(card):
                        self.ceiling[p] = 0
                    elif trump_number(card) < highest:
                        self.ceiling[p] = min(self.ceiling[p], highest)
            elif not is_trump(card):
                self.ceiling[p] = 0
            elif self.params[OVERTRUMP_ON_TRUMP_LEAD] and trump_number(card) < highest:
                self.ceiling[p] = min(self.ceiling[p], highest)
        self._remove(p, card)
        self.played.add(card)
        self.trick.append((p, card))
        self._event(EV_PLAY, p, -1, card, self.trick_index, SEEN_ALL)
        if card == self.called and not self.partner_revealed:
            self.partner_revealed = True
            self._event(EV_PARTNER, p, -1, card, int(p != self.taker), SEEN_ALL)
        if card == OUTSIDER:
            self.outsider_player = p
        if len(self.trick) < self.n:
            self.cur = self._next(p)
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        cards = [c for _, c in self.trick]
        last = self.trick_index == self.each - 1
        first_player, first_card = self.trick[0]
        slam = (
            last
            and self.params[FAT_NANCY_OUTSIDER_EXCEPTION] == 1
            and first_card == OUTSIDER
            and first_player == self.taker
            and self.taker_won_all
        )
        winner = self.taker if slam else self.trick[_winner(cards)][0]
        win_pile = self._pile_of(winner)
        won_cards = {c for c in cards if c != OUTSIDER}
        self.piles[win_pile] |= won_cards
        if winner != self.taker:
            self.taker_won_all = False
        self.last_winner = winner
        self._event(EV_TRICK, winner, -1, self.trick_index, win_pile, SEEN_ALL)
        self._flip()
        waiting = False
        if OUTSIDER in cards and not last:
            owner = self.outsider_player
            owner_pile = self._pile_of(owner)
            self.piles[owner_pile].add(OUTSIDER)
            if owner_pile != win_pile:
                self.chosen_pending = owner != self.taker and winner == self.taker
                eligible = self.piles[owner_pile] - {OUTSIDER}
                if not (owner_pile == NANCY_PILE and self.params[EXCHANGE_FROM_DISCARD] == 1):
                    eligible -= self.discards
                if not eligible:
                    self.debt = {
                        "from": owner_pile,
                        "to": win_pile,
                        "winner": winner,
                        "owner": owner,
                    }
                    self._event(EV_DEBT, owner, winner, 0, 0, SEEN_ALL)
                else:
                    chooser = self.taker if owner_pile == NANCY_PILE else owner
                    waiting = self._start_exchange(
                        owner_pile,
                        win_pile,
                        eligible,
                        False,
                        self.params[OUTSIDER_EXCHANGE_MODE] == 0,
                        chooser,
                    )
        elif OUTSIDER in cards:
            self.piles[win_pile].add(OUTSIDER)
            if self.params[OUTSIDER_LAST_TRICK] == 0 and not slam:
                owner = self.outsider_player
                if owner in (self.taker, self.partner):
                    self.rule13 = 0
                else:
                    self.rule13 = int(winner in (self.taker, self.partner))
        elif self.debt is not None and win_pile == self.debt["from"]:
            debt = self.debt
            self.debt = None
            mode = self.params[DEFERRED_EXCHANGE_PICK]
            if mode == 0:  # winner_choice: the creditor side chooses
                chooser = self.taker if debt["to"] == NANCY_PILE else debt["winner"]
            else:  # owner_choice (or random, where nobody chooses)
                chooser = self.taker if debt["from"] == NANCY_PILE else debt["owner"]
            waiting = self._start_exchange(
                debt["from"], debt["to"], won_cards, True, mode == 1, chooser
            )
        if not waiting:
            self._next_trick()

    def _start_exchange(
        self, source: int, dest: int, eligible: set[int], deferred: bool, random: bool, chooser: int
    ) -> bool:
        self.pick = {"from": source, "to": dest, "deferred": deferred, "cards": set(eligible)}
        if random:
            self._exchange(self.chance.exchange(sorted(eligible)), -1)
            return False
        self.phase = PICK
        self.cur = chooser
        return True

    def _exchange(self, card: int, chooser: int) -> None:
        assert self.pick is not None
        self.piles[self.pick["from"]].discard(card)
        self.piles[self.pick["to"]].add(card)
        self._event(
            EV_EXCHANGE, chooser, self.pick["to"], card, int(self.pick["deferred"]), SEEN_ALL
        )
        if self.pick["to"] == NANCY_PILE and self.chosen_pending:
            self.chosen = is_face(card)
            self.chosen_pending = False
        self.pick = None

    def _next_trick(self) -> None:
        self.trick_index += 1
        self.trick = []
        if self.trick_index == self.each:
            self._end_round()
            return
        self.phase = PLAY
        self.leader = self.cur = self.last_winner

    def _end_round(self) -> None:
        objectives = _objectives(self.piles[NANCY_PILE], self.params[ARCANE_SUM_MODE])
        if self.taker_won_all:
            objectives |= 128
        if self.chosen:
            objectives |= 256
        completed = bin(objectives).count("1")
        if self.rule13 >= 0:
            won = bool(self.rule13)
        else:
            won = completed > 0 and completed >= self.high_bid
        delta = nancy_settlement(self.n, self.taker, self.partner, self.high_bid, completed, won)
        if self.partner >= 0 and not self.partner_revealed:
            self.partner_revealed = True
            self._event(EV_PARTNER, self.partner, -1, self.called, 1, SEEN_ALL)
        self._event(
            EV_RESULT,
            self.taker,
            completed,
            objectives,
            int(won) | (int(self.rule13 >= 0) << 1),
            SEEN_ALL,
        )
        for p in range(self.n):
            self.scores[p] += delta[p]
            self._event(EV_SCORE, p, -1, delta[p], self.scores[p], SEEN_ALL)
        self.rounds_done += 1
        self.thrown_in = 0
        self.dealer = self._next(self.dealer)
        if self.rounds_done >= self.rounds_total:
            self.phase = OVER
            self.cur = TERMINAL
            self._event(EV_GAME_OVER, -1, -1, 0, 0, SEEN_ALL)
            return
        self._deal()

    # -- outputs -------------------------------------------------------------
    def returns(self) -> list[int]:
        return list(self.scores)

    def events(self) -> list[tuple[int, int, int, int, int, int]]:
        return list(self.log)

    def tensor_size(self) -> int:
        return len(self.observe_tensor(0))

    def observe_tensor(self, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """docs/nancy.rst, "Observation tensor": per-seat parts are relative to
        ``player`` (block r is seat ``player + r``)."""
        n = self.n
        if not 0 <= player < n:
            raise ValueError(f"player {player} out of range 0..{n - 1}")
        parts: list[list[float]] = []
        seats = [(player + r) % n for r in range(n)]

        def one_hot(size: int, index: int) -> list[float]:
            v = [0.0] * size
            if 0 <= index < size:
                v[index] = 1.0
            return v

        def seat(q: int) -> list[float]:
            return one_hot(n, (q - player) % n if q >= 0 else -1)

        def card_set(cards: Iterable[int]) -> list[float]:
            v = [0.0] * 78
            for c in cards:
                v[c] = 1.0
            return v

        in_play = self.phase == PLAY
        parts.append(card_set(self.hand[player]))  # hand
        parts += [card_set(self.up[q]) for q in seats]  # face_up
        parts.append(
            [float(sum(1 for c in self.bottom[q] if c >= 0)) if n == 2 else 0.0 for q in seats]
        )
        parts += [card_set(c for who, c in self.trick if who == q and in_play) for q in seats]
        parts.append(seat(self.leader if in_play else -1))  # leader
        parts.append(card_set(self.played))
        parts.append([float(self.bids[q]) for q in seats])  # bids
        parts.append(seat(self.dealer))
        parts.append(seat(self.taker))
        parts.append(one_hot(78, self.called))
        parts.append([float(self.partner_revealed)])
        parts.append(seat(self.partner if self.partner_revealed else -1))
        hound_known = (
            self.taker >= 0
            and self.phase not in (BID, CALL)
            and (self.params[REVEAL_HOUND] == 1 or player == self.taker)
        )
        parts.append(card_set(self.hound if hound_known else ()))
        parts.append(card_set(self.discards if player == self.taker else ()))
        parts.append(card_set(self.shown))
        hidden = self.discards - self.public_discards
        parts.append(
            card_set(
                self.piles[NANCY_PILE] if player == self.taker else self.piles[NANCY_PILE] - hidden
            )
        )
        parts.append(card_set(self.piles[OPP_PILE]))
        for suit in range(4):  # void_rats .. void_pistols
            parts.append([1.0 if suit in self.voids[q] else 0.0 for q in seats])
        parts.append([float(self.ceiling[q]) for q in seats])
        parts.append(one_hot(6, self.phase))
        parts.append(seat(self.cur if self.phase != OVER else -1))
        parts.append([float(self.scores[q]) for q in seats])
        parts.append(
            [
                float(self.trick_index),
                float(self.rounds_done),
                float(self.debt is not None),
                float(self.outsider_player >= 0),
            ]
        )
        flat = [x for part in parts for x in part]
        return np.array(flat, dtype=np.float32)


class ChanceFromEngine(Chance):
    """The chance a C engine state drew, read from its referee's event log:
    the first dealer, each deal's deck order and Hound places, each random
    exchange card.  The engine must have dealt (or drawn) before the oracle
    asks, i.e. apply each action to the engine first."""

    def __init__(self, engine: Any) -> None:
        super().__init__(0)
        self.engine = engine

    def _events(self) -> list[tuple[int, int, int, int, int, int]]:
        return [tuple(e) for e in self.engine.events()]  # type: ignore[misc]

    def first_dealer(self, nplayers: int) -> int:
        dealers = [e for e in self._events() if e[0] == EV_DEALER]
        return int(dealers[0][1])

    def deck(self, npackets: int, hsize: int, enforce: bool) -> tuple[list[int], set[int]]:
        events = self._events()
        start = max(i for i, e in enumerate(events) if e[0] == EV_DEALER)
        deck: list[int] = []
        before: set[int] = set()
        packet = (78 - hsize) // npackets
        dealt = 0
        for e in events[start + 1 :]:
            if e[0] != EV_DEAL:
                break
            deck.append(e[3])
            if e[2] == PLACE_HOUND and dealt < npackets * packet:
                before.add(dealt // packet)
            elif e[2] != PLACE_HOUND:
                dealt += 1
        return deck, before

    def exchange(self, eligible: list[int]) -> int:
        card = [e for e in self._events() if e[0] == EV_EXCHANGE and e[1] == -1][-1][3]
        assert card in eligible, (card, eligible)
        return int(card)
