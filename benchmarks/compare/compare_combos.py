"""Throughput of the combination primitives: C batch kernels, C scalar calls
from Python, and the pure-Python reference, with ratios, measured in one run.

Workload: random 5-card hands (``random_hands(n, 5, seed)``); "all four" is
fifteens + pairs + run score + suit counts of each hand.  Each figure is the
best of several repeats, on one core.  The fused kernel is also timed on each
of its paths this CPU runs (portable, popcnt, BMI2, AVX2, AVX-512).

Usage: ``python benchmarks/compare/compare_combos.py [--quick]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import _here  # noqa: F401
import reference as ref

from cardcore import _core as core

# the kernel paths of cc_combos.h (CC_PATH_*); the fused kernel takes the best
PATH_NAMES = {1: "portable", 2: "popcnt", 3: "popcnt+BMI2", 4: "AVX2", 5: "AVX-512"}


def best_rate(fn: Callable[[], Any], items: int, repeats: int) -> float:
    """Items per second of the fastest of ``repeats`` calls of ``fn``."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return items / best


def scalar_all_four(m: Any, hands: list[int]) -> Callable[[], None]:
    fifteens, pairs, runs, suits = m.count_fifteens, m.count_pairs, m.runs, m.suit_counts

    def go() -> None:
        for h in hands:
            fifteens(h, 15)
            pairs(h)
            runs(h)
            suits(h)

    return go


def scalar_one(fn: Callable[..., Any], hands: list[int]) -> Callable[[], None]:
    def go() -> None:
        for h in hands:
            fn(h)

    return go


def fmt(rate: float) -> str:
    return f"{rate / 1e6:10.3f} M hands/s"


def main() -> int:
    quick = "--quick" in sys.argv
    n_batch = 200_000 if quick else 1_000_000
    n_scalar = 20_000 if quick else 200_000
    n_ref = 500 if quick else 5_000
    repeats = 3 if quick else 7
    hands = core.random_hands(n_batch, 5, 2024)
    listed = [int(h) for h in hands[:n_scalar]]
    ref_hands = listed[:n_ref]
    ref_array = hands[:n_ref].copy()

    rows: dict[str, float] = {}
    rows["C batch: hand_stats (all four, fused)"] = best_rate(
        lambda: core.batch_hand_stats(hands), n_batch, repeats
    )
    for path in core._combos_paths()[1:]:
        rows[f"C batch: hand_stats, {PATH_NAMES.get(path, path)} path"] = best_rate(
            lambda path=path: core._batch_hand_stats_path(path, hands), n_batch, repeats
        )

    def four_kernels() -> None:
        core.batch_count_fifteens(hands)
        core.batch_count_pairs(hands)
        core.batch_run_score(hands)
        core.batch_suit_counts(hands)

    rows["C batch: four kernels one after another"] = best_rate(four_kernels, n_batch, repeats)
    for name in ("batch_count_fifteens", "batch_count_pairs", "batch_run_score",
                 "batch_suit_counts", "batch_longest_suit_run"):  # fmt: skip
        fn = getattr(core, name)
        rows[f"C batch: {name}"] = best_rate(lambda fn=fn: fn(hands), n_batch, repeats)
    rows["C scalar from Python: all four"] = best_rate(
        scalar_all_four(core, listed), n_scalar, repeats
    )
    for name in ("count_fifteens", "count_pairs", "runs", "suit_counts"):
        rows[f"C scalar from Python: {name}"] = best_rate(
            scalar_one(getattr(core, name), listed), n_scalar, repeats
        )
    rows["reference batch: hand_stats"] = best_rate(
        lambda: ref.batch_hand_stats(ref_array), n_ref, 3
    )
    rows["reference scalar: all four"] = best_rate(scalar_all_four(ref, ref_hands), n_ref, 3)

    width = max(len(k) for k in rows)
    print(f"random 5-card hands; batch n = {n_batch:,}, scalar n = {n_scalar:,}, "
          f"reference n = {n_ref:,}")  # fmt: skip
    for name, rate in rows.items():
        print(f"  {name:<{width}}  {fmt(rate)}")
    fused = rows["C batch: hand_stats (all four, fused)"]
    scalar = rows["C scalar from Python: all four"]
    reference = rows["reference scalar: all four"]
    print("ratios (all four per hand):")
    print(f"  C batch fused / C scalar calls      {fused / scalar:10.1f} x")
    print(f"  C batch fused / reference           {fused / reference:10.1f} x")
    print(f"  C scalar calls / reference          {scalar / reference:10.1f} x")
    print(f"  fused / four separate kernels       "
          f"{fused / rows['C batch: four kernels one after another']:10.2f} x")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
