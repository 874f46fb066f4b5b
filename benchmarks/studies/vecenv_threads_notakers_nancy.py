"""Wall-clock learner steps per second of the vector environment with 1 and 2
threads (``pycards.envs.vector``), for 256 and 4,096 games of No Takers (2
players) and Nancy (4 players), and the cost of one call on 2 games (where
stepping is next to nothing, so the figure is the call's own overhead: the
binding and, with 2 threads, handing a range to a worker and waiting for it).

Each figure is the best of 5 runs of about 400,000 learner steps (the learner's
actions drawn by ``VectorEnv.random_actions``, inside the timing), timed by the
wall clock (``time.perf_counter``): CPU time would count both threads.  The
second thread needs a free core: on a busy machine the 2-thread figures say
little.  ``compare_vecenv.py`` compares every game with a Python loop.

Usage: ``python benchmarks/studies/vecenv_threads_notakers_nancy.py``.
"""

from __future__ import annotations

import sys
import time

from pycards.envs.vector import VectorEnv

CASES = [("notakers", 2), ("nancy", 4)]
SIZES = [256, 4096]


def rate(name: str, players: int, n: int, threads: int, steps: int = 400_000) -> float:
    """Learner steps per second, best of 5 runs."""
    venv = VectorEnv(name, n, players, seed=1, threads=threads)
    calls = max(steps // n, 20)
    for _ in range(5):  # warm-up (the workers start here)
        venv.step(venv.random_actions())
    best = 0.0
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(calls):
            venv.step(venv.random_actions())
        best = max(best, calls * n / (time.perf_counter() - t0))
    return best


def call_cost(threads: int, calls: int = 20_000) -> float:
    """Microseconds per call (``random_actions`` and ``step``) on a vector of
    2 games, best of 5 runs."""
    venv = VectorEnv("notakers", 2, 2, seed=1, threads=threads)
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(calls):
            venv.step(venv.random_actions())
        best = min(best, (time.perf_counter() - t0) / calls * 1e6)
    return best


def main() -> int:
    print("learner steps per second, millions (wall clock, best of 5)")
    print(f"{'game':9} {'players':>7} {'games':>6} {'1 thread':>9} {'2 threads':>9} {'2t/1t':>6}")
    for name, players in CASES:
        for n in SIZES:
            one = rate(name, players, n, 1)
            two = rate(name, players, n, 2)
            print(
                f"{name:9} {players:7d} {n:6d} {one / 1e6:9.2f} {two / 1e6:9.2f} {two / one:6.2f}"
            )
    one, two = call_cost(1), call_cost(2)
    print(
        f"a call on 2 games (random_actions and step): {one:.1f} us with 1 thread, "
        f"{two:.1f} us with 2"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
