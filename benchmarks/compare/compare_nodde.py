"""Nodde Knave throughput, measured in one run: random playouts through the
Python API and natively in C (GIL released), batch hand scoring, against the
pure-Python reference (the test oracle in ``tests/reference``; its playouts
shuffle with its own generator) and, when ``pyspiel`` (open-spiel, the ``bench-peers``
extra) is importable, OpenSpiel's cribbage measured the same way.

Usage: ``python benchmarks/compare/compare_nodde.py [--quick]``.

OpenSpiel's steps include its chance steps (every dealt card is one); ours are
the decisions only (the deal happens inside ``apply``), so games/s is printed
next to steps/s.  OpenSpiel exposes no plain native playout loop to Python:
its native figure is ``pyspiel.random_sim_test`` (a C++ random-playout loop
that also checks every state it visits), reported as such.
"""

from __future__ import annotations

import random

import _here  # noqa: F401
import numpy as np
import reference as _reference
from _timing import QUICK
from _timing import rate as counts_per_second

from cardcore import _core
from pycards.cards import CardSet
from pycards.games.nodde import NoddeGame, NoddeRules

BUDGET = 0.5 if QUICK else 2.0  # seconds per measurement
PARAMS = NoddeRules().to_params()


def python_api() -> tuple[float, float]:
    game = NoddeGame(num_players=2)
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def one() -> tuple[int, int]:
        state = game.new_initial_state(next(seeds))
        steps = 0
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        return steps, 1

    return counts_per_second(one, BUDGET)


def reference_api() -> tuple[float, float]:
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def one() -> tuple[int, int]:
        state = _reference.new_state("nodde", PARAMS, 2, next(seeds))
        steps = 0
        while state.current_player() != -4:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        return steps, 1

    return counts_per_second(one, BUDGET)


def native() -> tuple[float, float]:
    n = 20000 if QUICK else 100000
    seeds = iter(range(0, 10**12, n))

    def run() -> tuple[int, int]:
        steps, _ = _core.random_playouts("nodde", PARAMS, 2, next(seeds), n)
        return steps, n

    return counts_per_second(run, BUDGET)


def batch() -> float:
    n = 1_000_000 if QUICK else 4_000_000
    rng = np.random.default_rng(0)
    cards = np.argsort(rng.random((n // 100, 52)), axis=1)[:, :4]
    hands = np.array([int(CardSet(r[:3].tolist())) for r in cards], dtype=np.uint64)
    hands = np.tile(hands, 100)
    turnups = np.tile(cards[:, 3].astype(np.uint8), 100)
    _core.nodde_batch_score_hand(hands, turnups, PARAMS)  # warm up
    rate, _ = counts_per_second(
        lambda: (len(_core.nodde_batch_score_hand(hands, turnups, PARAMS)), 0), BUDGET
    )
    return rate


def reference_batch() -> float:
    hands = np.array([int(CardSet([0, 14, 27]))] * 2000, dtype=np.uint64)
    turnups = np.full(2000, 40, dtype=np.uint8)
    rate, _ = counts_per_second(
        lambda: (len(_reference.nodde_batch_score_hand(hands, turnups, PARAMS)), 0), BUDGET
    )
    return rate


def openspiel() -> tuple[tuple[float, float], tuple[float, float]] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("cribbage")
    rng = random.Random(0)

    def one() -> tuple[int, int]:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            steps += 1
        return steps, 1

    py = counts_per_second(one, BUDGET)
    per_game = py[0] / py[1]
    sims = 20 if QUICK else 100

    def sim() -> tuple[int, int]:
        pyspiel.random_sim_test(game, sims, False, False)
        return int(sims * per_game), sims

    return py, counts_per_second(sim, BUDGET)


def main() -> None:
    rows: list[tuple[str, float, float]] = []
    rows.append(("nodde Python API", *python_api()))
    rows.append(("nodde reference", *reference_api()))
    rows.append(("nodde native C loop", *native()))
    peers = openspiel()
    if peers is not None:
        rows.append(("OpenSpiel cribbage Python API", *peers[0]))
        rows.append(("OpenSpiel cribbage random_sim_test (C++)", *peers[1]))
    print(f"{'random playouts, 2 players':44s} {'steps/s':>12s} {'games/s':>12s}")
    for name, steps, games in rows:
        print(f"{name:44s} {steps:12,.0f} {games:12,.0f}")
    api, ref, nat = rows[0][1], rows[1][1], rows[2][1]
    print(f"Python API / reference: {api / ref:.1f}x; native / Python API: {nat / api:.1f}x")
    if peers is not None:
        print(
            f"vs OpenSpiel cribbage: Python API {api / peers[0][0]:.2f}x steps/s "
            f"({rows[0][2] / peers[0][1]:.1f}x games/s); native {nat / peers[1][0]:.1f}x steps/s"
        )
    else:
        print("OpenSpiel not installed (pip install '.[bench-peers]'): no peer figures")
    b, rb = batch(), reference_batch()
    print(
        f"batch hand scoring: {b:,.0f} deals/s (C), {rb:,.0f} deals/s (reference), {b / rb:,.0f}x"
    )


if __name__ == "__main__":
    main()
