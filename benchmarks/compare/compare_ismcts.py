"""ISMCTS speed: simulations per second with random rollouts, one core.

pycards' ISMCTS (C, ``cardcore._core.Searcher``) on each game whose profile
gives a table and a target (``tests/profiles/<name>.py``, ``search_bench``),
and, when ``pyspiel`` is importable
(``pip install open-spiel``), OpenSpiel's C++ ``ISMCTSBot`` (one random
rollout per simulation, a fresh world sample per simulation) on euchre and
oh_hell, measured in the same run the same way: positions reached by random
play from seeded deals to seeded random points, one move searched from each,
the best of ``--repeats`` runs.  Times are the process's CPU time
(``time.process_time``), so that a loaded machine inflates them less than
wall time would.

Run: ``python benchmarks/compare/compare_ismcts.py [--simulations N]``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import _here  # noqa: F401
from _search_positions import GAMES, TARGETS, positions

from cardcore import _core


def ours(name: str, n: int, sims: int, count: int, repeats: int) -> float:
    states = positions(name, n, count)
    searcher = _core.Searcher(states[0].game._setup, "ismcts", simulations=sims)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        for i, state in enumerate(states):
            searcher.reset(i)
            searcher.act(state.engine_state)
        best = min(best, time.process_time() - t0)
    return sims * len(states) / best


def _openspiel_positions(pyspiel: Any, name: str, count: int) -> tuple[Any, list[Any]]:
    game = pyspiel.load_game(name)
    rng = random.Random(0)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        path = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                a = rng.choices(outcomes, probs)[0]
            else:
                legal = state.legal_actions()
                a = legal[rng.randrange(len(legal))]
            path.append(a)
            state.apply_action(a)
        stop = rng.randrange(len(path))
        state = game.new_initial_state()
        for a in path[:stop]:
            state.apply_action(a)
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            out.append(state)
    return game, out


def openspiel(pyspiel: Any, name: str, sims: int, count: int, repeats: int) -> float:
    _, states = _openspiel_positions(pyspiel, name, count)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        for i, state in enumerate(states):
            evaluator = pyspiel.RandomRolloutEvaluator(1, i)
            bot = pyspiel.ISMCTSBot(
                i,
                evaluator,
                2.0,
                sims,
                -1,
                pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
                False,
                False,
            )
            bot.step(state)
        best = min(best, time.process_time() - t0)
    return sims * len(states) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=1000, help="per move")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(
        f"ISMCTS, random rollouts, {args.simulations} simulations a move, "
        f"{args.positions} positions, best of {args.repeats}"
    )
    print(f"{'engine':10} {'game':16} {'simulations/s':>14} {'target':>9}")
    for name, n in GAMES:
        rate = ours(name, n, args.simulations, args.positions, args.repeats)
        target = TARGETS[name]
        flag = "ok" if rate >= target else "short"
        print(f"{'pycards':10} {f'{name} {n}p':16} {rate:14,.0f} {target:9,} {flag}")
    try:
        import pyspiel
    except ImportError:
        print("(pyspiel not importable: pip install open-spiel for OpenSpiel's ISMCTSBot)")
        return
    for name in ("euchre", "oh_hell"):
        rate = openspiel(pyspiel, name, args.simulations, args.positions, args.repeats)
        print(f"{'openspiel':10} {name:16} {rate:14,.0f}")


if __name__ == "__main__":
    main()
