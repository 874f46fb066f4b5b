"""Benchmarks of the combination primitives (pytest-benchmark).

Groups hold equal workloads only: one random 5-card hand per call for the
scalar functions, 1 M random 5-card hands for the C batch kernels, and
10,000 hands for the C-against-reference batch comparison.

Run: ``python -m pytest benchmarks/suite/bench_combos.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import reference as ref

from cardcore import _core as core

HANDS_1M = core.random_hands(1_000_000, 5, 2024)
HANDS_10K = HANDS_1M[:10_000].copy()
ONE_HAND = int(HANDS_1M[0])

SCALAR = ["count_fifteens", "count_pairs", "runs", "suit_counts", "rank_counts"]
BATCH = [
    "batch_count_fifteens",
    "batch_count_pairs",
    "batch_run_score",
    "batch_suit_counts",
    "batch_hand_stats",
]


@pytest.mark.benchmark(group="combos-scalar-one-hand")
@pytest.mark.parametrize("name", SCALAR)
@pytest.mark.parametrize("module", [core, ref], ids=["c", "reference"])
def test_scalar(benchmark: Any, module: Any, name: str) -> None:
    fn: Callable[[int], Any] = getattr(module, name)
    benchmark(fn, ONE_HAND)


@pytest.mark.benchmark(group="combos-batch-1M-hands")
@pytest.mark.parametrize("name", BATCH)
def test_batch_1m(benchmark: Any, name: str) -> None:
    out = benchmark(getattr(core, name), HANDS_1M)
    first = out[0] if isinstance(out, tuple) else out
    assert first.shape[0] == 1_000_000


@pytest.mark.benchmark(group="combos-batch-1M-hands")
@pytest.mark.parametrize("path", core._combos_paths()[1:])
def test_hand_stats_path_1m(benchmark: Any, path: int) -> None:
    """The fused kernel forced onto each path this CPU runs (cc_combos.h CC_PATH_*)."""
    out = benchmark(core._batch_hand_stats_path, path, HANDS_1M)
    assert out[0].shape[0] == 1_000_000


@pytest.mark.benchmark(group="combos-batch-1M-hands")
def test_four_separate_kernels_1m(benchmark: Any) -> None:
    def four() -> None:
        core.batch_count_fifteens(HANDS_1M)
        core.batch_count_pairs(HANDS_1M)
        core.batch_run_score(HANDS_1M)
        core.batch_suit_counts(HANDS_1M)

    benchmark(four)


@pytest.mark.benchmark(group="combos-random-hands-1M")
def test_random_hands_1m(benchmark: Any) -> None:
    out = benchmark(core.random_hands, 1_000_000, 5, 7)
    assert out.dtype == np.uint64


@pytest.mark.benchmark(group="combos-hand-stats-10k-hands")
@pytest.mark.parametrize("module", [core, ref], ids=["c", "reference"])
def test_hand_stats_10k(benchmark: Any, module: Any) -> None:
    benchmark.pedantic(module.batch_hand_stats, args=(HANDS_10K,), rounds=3, iterations=1)
