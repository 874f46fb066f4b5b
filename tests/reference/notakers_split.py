"""No Takers? scoring, the obvious way: an exhaustive search (docs/notakers.rst, scoring).

Every set the cards can make is listed; the search tries, for the lowest
card left, to leave it out or to put it in each listed set that contains it
and fits, and keeps the best (points, key).  Exact for any hand, fast enough
up to about 13 cards (and for most game-end hands, thanks to memoization).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "notakers_batch_points",
    "notakers_best_split",
    "notakers_points",
    "notakers_splits_exactly",
]

PAIR, TRIPS, RUN, FOUR = 1, 2, 3, 4
ACE_LOW, ACE_HIGH, ACE_BOTH = 0, 1, 2
TIEBREAK_ACE_HIGH, TIEBREAK_ACE_LOW = 0, 1

# Tie-break strength of the engine suits C D H S: Cups (hearts) > Shields
# (diamonds) > Swords (spades) > Skulls (clubs).
SUIT_STRENGTH = {0: 0, 1: 2, 2: 3, 3: 1}
DECK_MASK = 0x1FFF1FFF1FFF1FFF


class _Set(NamedTuple):
    kind: int
    bits: int
    points: int
    position: int
    top: int
    suit: int

    def key_item(self) -> tuple[int, int, int]:
        return (self.position, self.top, SUIT_STRENGTH[self.suit])


def _bit(suit: int, rank: int) -> int:
    return 1 << (16 * suit + rank)


def _held(cards: int, suit: int, rank: int) -> bool:
    return bool(cards & _bit(suit, rank))


def _check(cards: int, ace_in_runs: int) -> None:
    if cards < 0 or cards & ~DECK_MASK:
        raise ValueError(f"card set {cards:#x} has bits outside the 52-card deck")
    if ace_in_runs not in (ACE_LOW, ACE_HIGH, ACE_BOTH):
        raise ValueError(f"ace_in_runs must be 0, 1 or 2, got {ace_in_runs}")


def _rank_value(rank: int, tiebreak_ace: int) -> int:
    """Top value of a same-rank set: 2..13, the Ace 14 or 1."""
    if rank == 0:
        return 14 if tiebreak_ace == TIEBREAK_ACE_HIGH else 1
    return rank + 1


def _strongest(suits: list[int]) -> int:
    return max(suits, key=lambda s: SUIT_STRENGTH[s])


def _run_orders(ace_in_runs: int) -> list[list[tuple[int, int]]]:
    """The rank orders runs follow, as (rank, value as a run's top card)."""
    low = [(r, r + 1) for r in range(13)]  # A 2 .. K, the Ace never on top
    high = [(r, r + 1) for r in range(1, 13)] + [(0, 14)]  # 2 .. K A
    if ace_in_runs == ACE_LOW:
        return [low]
    if ace_in_runs == ACE_HIGH:
        return [high]
    return [low, high]


def _lowest(cards: int) -> int:
    """The bit of the lowest card by rank, then suit (the search order)."""
    for rank in range(13):
        for suit in range(4):
            if _held(cards, suit, rank):
                return _bit(suit, rank)
    raise ValueError("no card")


def _all_sets(cards: int, ace_in_runs: int, tiebreak_ace: int) -> list[_Set]:
    """Every set (pair, trips, four, run) that can be made from the cards."""
    found: dict[int, _Set] = {}
    for rank in range(13):
        suits = [s for s in range(4) if _held(cards, s, rank)]
        for size, kind, points, position in ((2, PAIR, 1, 1), (3, TRIPS, 2, 2), (4, FOUR, 5, 5)):
            for group in combinations(suits, size):
                bits = sum(_bit(s, rank) for s in group)
                found[bits] = _Set(
                    kind,
                    bits,
                    points,
                    position,
                    _rank_value(rank, tiebreak_ace),
                    _strongest(list(group)),
                )
    for order in _run_orders(ace_in_runs):
        for suit in range(4):
            for start in range(len(order)):
                for end in range(start + 2, len(order)):
                    part = order[start : end + 1]
                    if not all(_held(cards, suit, rank) for rank, _ in part):
                        break
                    length = len(part)
                    bits = sum(_bit(suit, rank) for rank, _ in part)
                    position = length if length < 5 else length + 1
                    found[bits] = _Set(RUN, bits, length, position, part[-1][1], suit)
    return list(found.values())


def _search(
    cards: int, ace_in_runs: int, tiebreak_ace: int
) -> tuple[int, tuple[Any, ...], tuple[_Set, ...]]:
    sets = _all_sets(cards, ace_in_runs, tiebreak_ace)

    @cache
    def best(rest: int) -> tuple[int, tuple[Any, ...], tuple[_Set, ...]]:
        if rest == 0:
            return (0, (), ())
        lowest = _lowest(rest)
        result = best(rest & ~lowest)  # the lowest card in no set
        for s in sets:
            if s.bits & lowest and s.bits & rest == s.bits:
                points, key, chosen = best(rest & ~s.bits)
                option = (
                    points + s.points,
                    tuple(sorted((*key, s.key_item()), reverse=True)),
                    (*chosen, s),
                )
                if option[:2] > result[:2]:
                    result = option
        return result

    return best(cards)


def notakers_points(cards: int, ace_in_runs: int) -> int:
    """Maximum points of a split of ``cards`` into disjoint sets."""
    _check(cards, ace_in_runs)
    return _search(cards, ace_in_runs, TIEBREAK_ACE_HIGH)[0]


def notakers_best_split(
    cards: int, ace_in_runs: int, tiebreak_ace: int
) -> tuple[int, list[tuple[int, int, int, int, int, int]]]:
    """The best split: (points, sets best first as (kind, cards, points, position, top, suit))."""
    _check(cards, ace_in_runs)
    if tiebreak_ace not in (TIEBREAK_ACE_HIGH, TIEBREAK_ACE_LOW):
        raise ValueError(f"tiebreak_ace must be 0 or 1, got {tiebreak_ace}")
    points, _, chosen = _search(cards, ace_in_runs, tiebreak_ace)
    ordered = sorted(chosen, key=lambda s: s.key_item(), reverse=True)
    return points, [(s.kind, s.bits, s.points, s.position, s.top, s.suit) for s in ordered]


def notakers_splits_exactly(cards: int, ace_in_runs: int) -> bool:
    """Whether ``cards`` split into sets with no card left over."""
    _check(cards, ace_in_runs)
    sets = _all_sets(cards, ace_in_runs, TIEBREAK_ACE_HIGH)

    @cache
    def cover(rest: int) -> bool:
        if rest == 0:
            return True
        lowest = _lowest(rest)
        return any(
            cover(rest & ~s.bits) for s in sets if s.bits & lowest and s.bits & rest == s.bits
        )

    return cover(cards)


def notakers_batch_points(arr: np.ndarray[Any, Any], ace_in_runs: int) -> np.ndarray[Any, Any]:
    """``notakers_points`` of each card set of a 1-D uint64 array (int32 out)."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"arr: expected a numpy.ndarray of uint64, got {type(arr).__name__}")
    if arr.dtype != np.uint64:
        raise TypeError(f"arr: expected dtype uint64, got {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"arr: expected a 1-D array, got {arr.ndim} dimensions")
    if ace_in_runs not in (ACE_LOW, ACE_HIGH, ACE_BOTH):
        raise ValueError(f"ace_in_runs must be 0, 1 or 2, got {ace_in_runs}")
    out = np.zeros(len(arr), dtype=np.int32)
    for i, cards in enumerate(arr.tolist()):
        if cards & ~DECK_MASK:
            raise ValueError(f"arr[{i}]: card set {cards:#x} has bits outside the 52-card deck")
        out[i] = notakers_points(cards, ace_in_runs)
    return out
