"""Combination primitives, written plainly: the reference twin of ``combos.c``.

A card set is an ``int`` bitset (bit ``suit * 16 + rank``, see
``docs/internals.rst``).  Everything here works on the explicit list of the
cards of the set and follows the definitions word for word:

* fifteens: the subsets of 2 or more cards whose pips total the target,
  listed with ``itertools.combinations`` for up to 12 cards, and counted by a
  dictionary over (total, number of cards so far, capped at 2) for more;
* pairs: the 2-card subsets whose two cards have the same rank;
* runs: the maximal stretches of 3 or more consecutive ranks held, each with
  its length, the product of the number of cards of each of its ranks, and
  its lowest rank;
* the longest same-suit run: the longest stretch of consecutive ranks held in
  one suit.

Batch functions loop over the scalar ones and return numpy arrays of the same
dtypes and shapes as the C backend.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import numpy.typing as npt

from ._checks import u64_array
from .rng import Rng

__all__ = [
    "batch_count_fifteens",
    "batch_count_pairs",
    "batch_hand_stats",
    "batch_longest_suit_run",
    "batch_run_score",
    "batch_suit_counts",
    "count_fifteens",
    "count_pairs",
    "longest_suit_run",
    "random_hands",
    "rank_counts",
    "runs",
    "suit_counts",
]

DECK52_MASK = 0x1FFF1FFF1FFF1FFF
MAX_PIP_TOTAL = 340
#: Pip value of each rank: A = 1, 2..10 face value, J Q K = 10.
PIPS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
#: Up to this many cards, fifteens are counted by listing the subsets.
LISTING_LIMIT = 12


def _cards(cards: int) -> list[tuple[int, int]]:
    """The (rank, suit) pairs of a validated 52-card bitset."""
    if not isinstance(cards, (int, np.integer)):
        raise TypeError(f"card set must be an int bitset, got {type(cards).__name__}")
    cards = int(cards)
    if cards < 0 or cards > 0xFFFFFFFFFFFFFFFF:
        raise ValueError(f"card set {cards!r} is not a 64-bit bitset")
    if cards & ~DECK52_MASK:
        raise ValueError(
            f"card set {cards:#x} has bits outside the 52-card deck ({cards & ~DECK52_MASK:#x})"
        )
    out = []
    for suit in range(4):
        for rank in range(13):
            if cards >> (suit * 16 + rank) & 1:
                out.append((rank, suit))
    return out


def _check_target(target: int) -> None:
    if not 1 <= target <= MAX_PIP_TOTAL:
        raise ValueError(f"target must be 1..{MAX_PIP_TOTAL}, got {target}")


def _fifteens_by_listing(pips: list[int], target: int) -> int:
    count = 0
    for size in range(2, len(pips) + 1):
        for subset in itertools.combinations(pips, size):
            if sum(subset) == target:
                count += 1
    return count


def _fifteens_by_counting(pips: list[int], target: int) -> int:
    # ways[(total, size)]: subsets of the cards seen so far with that total
    # and that many cards, the size capped at 2 ("2 or more").
    ways = {(0, 0): 1}
    for pip in pips:
        new_ways = dict(ways)
        for (total, size), n in ways.items():
            if total + pip <= target:
                key = (total + pip, min(size + 1, 2))
                new_ways[key] = new_ways.get(key, 0) + n
        ways = new_ways
    return ways.get((target, 2), 0)


def count_fifteens(cards: int, target: int = 15) -> int:
    """Subsets of 2 or more cards whose pips total ``target`` (1..340)."""
    pips = [PIPS[rank] for rank, _ in _cards(cards)]
    _check_target(target)
    if len(pips) <= LISTING_LIMIT:
        return _fifteens_by_listing(pips, target)
    return _fifteens_by_counting(pips, target)


def count_pairs(cards: int) -> int:
    """2-card subsets of the same rank."""
    hand = _cards(cards)
    return sum(1 for a, b in itertools.combinations(hand, 2) if a[0] == b[0])


def rank_counts(cards: int) -> tuple[int, ...]:
    """Cards of each rank, Ace first (13 counts)."""
    hand = _cards(cards)
    return tuple(sum(1 for rank, _ in hand if rank == r) for r in range(13))


def suit_counts(cards: int) -> tuple[int, ...]:
    """Cards of each suit: clubs, diamonds, hearts, spades."""
    hand = _cards(cards)
    return tuple(sum(1 for _, suit in hand if suit == s) for s in range(4))


def _stretches(ranks: set[int]) -> list[list[int]]:
    """The maximal stretches of consecutive ranks in ``ranks`` (Ace low, no wrap)."""
    out: list[list[int]] = []
    for rank in range(13):
        if rank in ranks:
            if out and out[-1][-1] == rank - 1:
                out[-1].append(rank)
            else:
                out.append([rank])
    return out


def runs(cards: int) -> list[tuple[int, int, int]]:
    """Maximal runs of 3+ consecutive ranks: (length, multiplicity, lowest rank)."""
    counts = rank_counts(cards)
    out = []
    for stretch in _stretches({r for r in range(13) if counts[r] > 0}):
        if len(stretch) >= 3:
            multiplicity = 1
            for rank in stretch:
                multiplicity *= counts[rank]
            out.append((len(stretch), multiplicity, stretch[0]))
    return out


def longest_suit_run(cards: int) -> int:
    """Longest stretch of consecutive ranks held in one suit (0 for no cards)."""
    hand = _cards(cards)
    best = 0
    for suit in range(4):
        held = {rank for rank, s in hand if s == suit}
        for stretch in _stretches(held):
            best = max(best, len(stretch))
    return best


# ---------------------------------------------------------------------------
# batch


def _u64_list(arr: Any, name: str, target: int | None = None) -> list[int]:
    """Check a batch input (then the target, if any) and return its values."""
    u64_array(arr, name)
    if target is not None:
        _check_target(target)
    values = [int(x) for x in arr]
    for i, value in enumerate(values):
        if value & ~DECK52_MASK:
            raise ValueError(
                f"{name}: element {i} ({value:#x}) has bits outside the 52-card deck "
                f"({value & ~DECK52_MASK:#x})"
            )
    return values


def batch_count_fifteens(arr: Any, target: int = 15) -> npt.NDArray[np.int64]:
    """count_fifteens of each bitset (int64 array)."""
    values = _u64_list(arr, "batch_count_fifteens", target)
    return np.array([count_fifteens(v, target) for v in values], dtype=np.int64)


def batch_count_pairs(arr: Any) -> npt.NDArray[np.int32]:
    """count_pairs of each bitset (int32 array)."""
    values = _u64_list(arr, "batch_count_pairs")
    return np.array([count_pairs(v) for v in values], dtype=np.int32)


def batch_suit_counts(arr: Any) -> npt.NDArray[np.uint8]:
    """suit_counts of each bitset (uint8 array of shape (n, 4))."""
    values = _u64_list(arr, "batch_suit_counts")
    return np.array([suit_counts(v) for v in values], dtype=np.uint8).reshape(len(values), 4)


def _run_score(cards: int) -> int:
    return sum(length * multiplicity for length, multiplicity, _ in runs(cards))


def batch_run_score(arr: Any) -> npt.NDArray[np.int32]:
    """Sum over maximal runs of length * multiplicity, per bitset (int32 array)."""
    values = _u64_list(arr, "batch_run_score")
    return np.array([_run_score(v) for v in values], dtype=np.int32)


def batch_longest_suit_run(arr: Any) -> npt.NDArray[np.int32]:
    """longest_suit_run of each bitset (int32 array)."""
    values = _u64_list(arr, "batch_longest_suit_run")
    return np.array([longest_suit_run(v) for v in values], dtype=np.int32)


def batch_hand_stats(
    arr: Any, target: int = 15
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.uint8]
]:
    """Fifteens, pairs, run score and suit counts of each bitset."""
    values = _u64_list(arr, "batch_hand_stats", target)
    return (
        np.array([count_fifteens(v, target) for v in values], dtype=np.int64),
        np.array([count_pairs(v) for v in values], dtype=np.int32),
        np.array([_run_score(v) for v in values], dtype=np.int32),
        np.array([suit_counts(v) for v in values], dtype=np.uint8).reshape(len(values), 4),
    )


def random_hands(n: int, k: int, seed: int) -> npt.NDArray[np.uint64]:
    """``n`` random ``k``-card bitsets from the engine's generator.

    One generator seeded with ``seed`` and one deck of the card ids 0..51,
    ascending, kept from hand to hand; each hand is a partial Fisher-Yates
    shuffle from the front: for ``j`` in ``0..k-1`` swap ``deck[j]`` with
    ``deck[j + below(52 - j)]``; the hand is ``deck[0:k]``.
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if not 0 <= k <= 52:
        raise ValueError(f"k must be 0..52, got {k}")
    rng = Rng(seed)
    deck = list(range(52))
    out = []
    for _ in range(n):
        for j in range(k):
            r = j + rng.below(52 - j)
            deck[j], deck[r] = deck[r], deck[j]
        out.append(sum(1 << (16 * (card // 13) + card % 13) for card in deck[:k]))
    return np.array(out, dtype=np.uint64)
