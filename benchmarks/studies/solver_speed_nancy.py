"""The Game of Nancy's exact solver on replayed positions: per player count
and tricks left, the median and 99th percentile of the solve time and of the
positions visited (docs/nancy.rst, "The solver").

The positions come from heuristic self-play (fixed seeds), taken at the
start of a trick with the given number of tricks left.  A solve that visits
more than ``--max-nodes`` positions is counted as out of reach.  Each
position's time is the least of ``--repeat`` solves (the machine's load
only ever adds time).

    python benchmarks/studies/solver_speed_nancy.py
    python benchmarks/studies/solver_speed_nancy.py --players 4 --tricks 3 4 5 --games 40 --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import _here  # noqa: F401  (the benchmarks/ and tests/ folders on sys.path)

from pycards.games.nancy import NancyGame, NancyRules

EACH = {2: 36, 3: 24, 4: 18, 5: 15, 6: 12}


def positions(n: int, tricks_left: int, games: int, seed0: int) -> list:
    """States of heuristic self-play at the start of the trick with
    tricks_left tricks to go, one per game (deals thrown in are skipped)."""
    game = NancyGame(NancyRules(match_rounds=1), n)
    out = []
    seed = seed0
    while len(out) < games:
        state = game.new_initial_state(seed)
        step = 0
        while not state.is_terminal:
            depth = state.solve_depth
            if depth == tricks_left * n and state.legal_actions()[0] < 244:
                out.append(state)
                break
            state.apply(state.engine_state.heuristic_action(seed * 7919 + step))
            step += 1
        seed += 1
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    ap.add_argument("--tricks", type=int, nargs="+", default=[1, 2, 3, 4, 5, 6])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--max-nodes", type=int, default=2_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print("players tricks_left cards positions  median_ms  p99_ms  median_nodes  p99_nodes  out")
    for n in args.players:
        for t in args.tricks:
            if t > EACH[n]:
                continue
            times, nodes, out = [], [], 0
            for state in positions(n, t, args.games, 1000 * n + t):
                best = float("inf")
                try:
                    for _ in range(args.repeat):
                        t0 = time.perf_counter()
                        _values, k = state.engine_state.solve(args.max_nodes, None)
                        best = min(best, time.perf_counter() - t0)
                except RuntimeError:
                    out += 1
                    continue
                times.append(best * 1e3)
                nodes.append(float(k))
            if not times:
                print(f"{n:7d} {t:11d} {t * n:5d} {0:9d}  (all out of reach)  out {out}")
                continue
            print(
                f"{n:7d} {t:11d} {t * n:5d} {len(times):9d} {statistics.median(times):10.3f}"
                f" {pct(times, 0.99):7.3f} {statistics.median(nodes):13.0f}"
                f" {pct(nodes, 0.99):10.0f} {out:4d}"
            )


if __name__ == "__main__":
    main()
