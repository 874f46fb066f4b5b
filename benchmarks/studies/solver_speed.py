"""The speed of the games' exact solvers of the play (``State.solve``) on
positions replayed from real games.

For every registered game whose table has a solver (a game whose
``solve_depth`` stays -1 along its replayed games is skipped) and every
player count it allows, the script replays games of the game's heuristic
against itself (fixed seeds) and takes two positions from each deal: the
start of the play (the first position the solver takes in the deal) and
mid-play (the first one with at most half as many cards left).  It solves
each with the margin valuation and prints, per kind of position, their
number, the cards left, the median and 99th percentile of the wall time per
position (ms) and of the positions visited (nodes).  An anchor: DDS solves
a mid-play bridge position in about 0.31 ms.

Wall times depend on the machine's load (say it with the figures); the
node counts do not.

Usage: ``python benchmarks/studies/solver_speed.py [--quick] [--games N]
[--seed S] [--only NAME]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import _here  # noqa: F401  (the benchmarks/ and tests/ folders on sys.path)
import numpy as np
from _timing import QUICK

from pycards.game import Game, State, game_names, load_game


def _positions(game: Game[Any, Any], games: int, seed: int) -> dict[str, list[State[Any]]]:
    """The start-of-play and mid-play positions of heuristic self-play games."""
    rng = random.Random(seed)
    kinds: dict[str, list[State[Any]]] = {"start": [], "mid": []}
    for g in range(games):
        state = game.new_initial_state(seed + g)
        start = 0  # the cards left at this deal's start of play (0: none yet)
        mid_taken = False
        while not state.is_terminal:
            depth = state.solve_depth
            if depth < 0 or (start and depth > start):
                start, mid_taken = 0, False  # out of the play, or a new deal
            if depth > 0 and not start:
                start = depth
                kinds["start"].append(state.clone())
            elif depth > 0 and not mid_taken and depth <= start // 2:
                mid_taken = True
                kinds["mid"].append(state.clone())
            state.apply(state.engine_state.heuristic_action(rng.getrandbits(64)))
    return kinds


def _measure(states: list[State[Any]]) -> tuple[list[float], list[int], list[int]]:
    times, nodes, depths = [], [], []
    for state in states:
        raw = state.engine_state
        t = time.perf_counter()
        _values, n = raw.solve(0, None)
        times.append((time.perf_counter() - t) * 1e3)
        nodes.append(int(n))
        depths.append(state.solve_depth)
    return times, nodes, depths


def _pct(values: list[float] | list[int], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=np.float64), q))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20 if QUICK else 200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=None, help="one game's name")
    ap.add_argument("--quick", action="store_true", help="a short run")
    args = ap.parse_args()
    print(
        f"{'game':10} {'players':>7} {'kind':>5} {'positions':>9} {'cards':>5} "
        f"{'median ms':>9} {'p99 ms':>8} {'median nodes':>12} {'p99 nodes':>10}"
    )
    for name in game_names():
        if args.only is not None and name != args.only:
            continue
        info = load_game(name).info
        for n in range(info.min_players, info.max_players + 1):
            game = load_game(name, num_players=n)
            kinds = _positions(game, args.games, args.seed)
            if not kinds["start"]:
                break  # no solver (solve_depth always -1)
            for kind, states in kinds.items():
                if not states:
                    continue
                times, nodes, depths = _measure(states)
                print(
                    f"{name:10} {n:>7} {kind:>5} {len(states):>9} "
                    f"{statistics.median(depths):>5.0f} {statistics.median(times):>9.3f} "
                    f"{_pct(times, 99):>8.3f} {statistics.median(nodes):>12.0f} "
                    f"{_pct(nodes, 99):>10.0f}"
                )


if __name__ == "__main__":
    main()
