"""The vector environment's 2-thread speed-up, game by game: learner steps per
second of ``pycards.envs.vector.VectorEnv`` with 1 and 2 threads on every
registered game at each table of its profile (``bench_tables``), 256 games per
vector (as ``compare_vecenv.py``), measured in the same run.

Both runs of a game take turns within each round (1 thread, then 2), each
round one timed run of ``CALLS`` calls of ``step(random_actions())`` (the
learner's random actions drawn in C, inside the timing), timed by the wall
clock (``time.perf_counter``: CPU time would count both threads).  Printed per
game: the best round of each (steps per second), the ratio of the two bests,
and the median of the rounds' own ratios (2 threads / 1 thread).  The machine
is shared: a run whose second thread waits for a core counts that wait, so
the load average (``os.getloadavg``) is printed before and after; on a
machine with other runnable threads the ratio says less than the best-of
figures, which take each side's least disturbed round.

Usage: ``python benchmarks/studies/vecenv_threads.py [--quick] [--games N]``
(``--games``: the games per vector, 256 by default).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import _here  # noqa: F401
from _games import GAMES as REGISTERED

from pycards.envs.vector import VectorEnv

#: every registered game at each table its profile gives the speed benchmarks
CASES = [(name, n) for name, case in REGISTERED.items() for n in sorted(case.bench_tables)]


def timed_run(venv: VectorEnv, calls: int) -> float:
    """Learner steps per second of ``calls`` calls, wall clock."""
    t0 = time.perf_counter()
    for _ in range(calls):
        venv.step(venv.random_actions())
    return calls * venv.num_envs / max(time.perf_counter() - t0, 1e-9)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (a smoke test)")
    parser.add_argument("--games", type=int, default=256, help="games per vector")
    parser.add_argument("--rounds", type=int, default=0, help="rounds per game (default 9)")
    args = parser.parse_args()
    rounds = args.rounds or (3 if args.quick else 9)
    steps = 20_000 if args.quick else 200_000  # learner steps per timed run
    calls = max(steps // args.games, 5)
    load = os.getloadavg()
    print(
        f"vector of {args.games} games, {calls} calls per run, {rounds} rounds; "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores"
    )
    print("learner steps per second, millions (wall clock); ratio 2 threads / 1 thread")
    print(
        f"{'game':9} {'players':>7} {'best 1t':>8} {'best 2t':>8} "
        f"{'best/best':>9} {'median ratio':>12}"
    )
    lowest = float("inf")
    for name, players in CASES:
        one = VectorEnv(name, args.games, players, seed=1, threads=1)
        two = VectorEnv(name, args.games, players, seed=1, threads=2)
        for venv in (one, two):  # warm-up (the worker starts here)
            timed_run(venv, calls)
        pairs = [(timed_run(one, calls), timed_run(two, calls)) for _ in range(rounds)]
        b1 = max(p[0] for p in pairs)
        b2 = max(p[1] for p in pairs)
        med = statistics.median(p[1] / p[0] for p in pairs)
        lowest = min(lowest, b2 / b1)
        print(
            f"{name:9} {players:7d} {b1 / 1e6:8.3f} {b2 / 1e6:8.3f} {b2 / b1:9.2f} {med:12.2f}",
            flush=True,
        )
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"lowest best/best ratio: {lowest:.2f} (target >= 1.7)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
