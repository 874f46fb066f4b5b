"""The timing helpers of the benchmark scripts: ``--quick`` and three clocks."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TypeVar

__all__ = ["QUICK", "best_time", "rate", "rate_once"]

#: ``--quick`` on the command line: the scripts' short run (CI, a smoke test).
QUICK = "--quick" in sys.argv

Counts = TypeVar("Counts", int, tuple[int, int])


def rate(run: Callable[[], Counts], budget: float) -> float | tuple[float, ...]:
    """Repeat ``run`` for ``budget`` seconds of wall time; it returns a count
    (steps) or a tuple of counts (steps, games): the counts per second."""
    totals: list[int] | None = None
    start = time.perf_counter()
    while True:
        got = run()
        counts = [got] if isinstance(got, int) else list(got)
        totals = counts if totals is None else [a + b for a, b in zip(totals, counts, strict=True)]
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            per_second = tuple(t / elapsed for t in totals)
            return per_second[0] if isinstance(got, int) else per_second


def best_time(
    fn: Callable[[], object], repeat: int = 5, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Best time of ``repeat`` runs (seconds) on ``clock`` (wall by default)."""
    best = float("inf")
    for _ in range(repeat):
        t = clock()
        fn()
        best = min(best, clock() - t)
    return best


def rate_once(run: Callable[[], int], clock: Callable[[], float]) -> float:
    """Steps per second of one run of ``run`` (which returns its steps) on ``clock``."""
    t0 = clock()
    steps = run()
    return steps / max(clock() - t0, 1e-9)
