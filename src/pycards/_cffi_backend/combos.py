"""Combination primitives through the cffi binding: the names of ``_combos.pxi``.

Conversion and validation only; every count is done by ``combos.c``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import check, ffi, lib, mask52, u64_array

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


def _check_target(target: int) -> None:
    if not 1 <= target <= lib.CC_MAX_PIP_TOTAL:
        raise ValueError(f"target must be 1..{lib.CC_MAX_PIP_TOTAL}, got {target}")


def _ptr(ctype: str, arr: Any) -> Any:
    return ffi.cast(ctype, ffi.from_buffer(arr)) if arr.size else ffi.NULL


def _batch_check(rc: int, name: str, arr: Any, bad: Any) -> None:
    if rc == lib.CC_E_CARDS:
        i = int(bad[0])
        value = int(arr[i])
        raise ValueError(
            f"{name}: element {i} ({value:#x}) has bits outside the 52-card deck "
            f"({value & ~lib.CC_DECK52_MASK:#x})"
        )
    check(rc, name)


def count_fifteens(cards: int, target: int = 15) -> int:
    """Subsets of 2 or more cards whose pips total ``target`` (1..340)."""
    m = mask52(cards)
    _check_target(target)
    return int(lib.cc_count_fifteens(m, target))


def count_pairs(cards: int) -> int:
    """Same-rank pairs."""
    return int(lib.cc_count_pairs(mask52(cards)))


def rank_counts(cards: int) -> tuple[int, ...]:
    """Cards per rank (13 counts, Ace first)."""
    out = ffi.new("uint8_t[13]")
    lib.cc_rank_counts(mask52(cards), out)
    return tuple(out)


def suit_counts(cards: int) -> tuple[int, ...]:
    """Cards per suit (clubs, diamonds, hearts, spades)."""
    out = ffi.new("uint8_t[4]")
    lib.cc_suit_counts(mask52(cards), out)
    return tuple(out)


def runs(cards: int) -> list[tuple[int, int, int]]:
    """Maximal runs of 3+ consecutive ranks: (length, multiplicity, lowest rank)."""
    length, mult, low = ffi.new("uint8_t[4]"), ffi.new("uint32_t[4]"), ffi.new("uint8_t[4]")
    n = lib.cc_runs(mask52(cards), length, mult, low)
    check(n, "runs")
    return [(length[i], mult[i], low[i]) for i in range(n)]


def longest_suit_run(cards: int) -> int:
    """Longest run of consecutive ranks within one suit."""
    return int(lib.cc_longest_suit_run(mask52(cards)))


def _single(name: str, arr: Any, dtype: Any, shape: tuple[int, ...], call: Any) -> Any:
    a = u64_array(arr, name)
    out = np.empty(shape, dtype=dtype)
    bad = ffi.new("int64_t *", -1)
    rc = call(_ptr("const uint64_t *", a), len(a), out, bad)
    _batch_check(rc, name, a, bad)
    return out


def batch_count_fifteens(arr: Any, target: int = 15) -> Any:
    """count_fifteens of each bitset (int64)."""
    u64_array(arr, "batch_count_fifteens")
    _check_target(target)
    return _single(
        "batch_count_fifteens", arr, np.int64, (len(arr),),
        lambda p, n, out, bad: lib.cc_batch_count_fifteens(
            p, n, target, _ptr("int64_t *", out), bad),
    )  # fmt: skip


def batch_count_pairs(arr: Any) -> Any:
    """count_pairs of each bitset (int32)."""
    return _single(
        "batch_count_pairs", arr, np.int32, (len(arr),),
        lambda p, n, out, bad: lib.cc_batch_count_pairs(p, n, _ptr("int32_t *", out), bad),
    )  # fmt: skip


def batch_suit_counts(arr: Any) -> Any:
    """suit_counts of each bitset (uint8, shape (n, 4))."""
    return _single(
        "batch_suit_counts", arr, np.uint8, (len(arr), 4),
        lambda p, n, out, bad: lib.cc_batch_suit_counts(p, n, _ptr("uint8_t *", out), bad),
    )  # fmt: skip


def batch_run_score(arr: Any) -> Any:
    """Run score of each bitset (int32)."""
    return _single(
        "batch_run_score", arr, np.int32, (len(arr),),
        lambda p, n, out, bad: lib.cc_batch_run_score(p, n, _ptr("int32_t *", out), bad),
    )  # fmt: skip


def batch_longest_suit_run(arr: Any) -> Any:
    """longest_suit_run of each bitset (int32)."""
    return _single(
        "batch_longest_suit_run", arr, np.int32, (len(arr),),
        lambda p, n, out, bad: lib.cc_batch_longest_suit_run(
            p, n, _ptr("int32_t *", out), bad),
    )  # fmt: skip


def batch_hand_stats(arr: Any, target: int = 15) -> tuple[Any, Any, Any, Any]:
    """Fifteens, pairs, run score and suit counts of each bitset in one pass."""
    a = u64_array(arr, "batch_hand_stats")
    _check_target(target)
    n = len(a)
    f = np.empty(n, dtype=np.int64)
    p = np.empty(n, dtype=np.int32)
    r = np.empty(n, dtype=np.int32)
    s = np.empty((n, 4), dtype=np.uint8)
    bad = ffi.new("int64_t *", -1)
    if n:
        rc = lib.cc_batch_hand_stats(
            _ptr("const uint64_t *", a), n, target, _ptr("int64_t *", f),
            _ptr("int32_t *", p), _ptr("int32_t *", r), _ptr("uint8_t *", s), bad,
        )  # fmt: skip
        _batch_check(rc, "batch_hand_stats", a, bad)
    return f, p, r, s


def random_hands(n: int, k: int, seed: int) -> Any:
    """``n`` random ``k``-card bitsets (uint64)."""
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if not 0 <= k <= 52:
        raise ValueError(f"k must be 0..52, got {k}")
    out = np.empty(n, dtype=np.uint64)
    check(lib.cc_random_hands(seed, k, n, _ptr("uint64_t *", out)), "random_hands")
    return out
