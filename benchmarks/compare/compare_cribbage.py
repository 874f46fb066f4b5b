"""Cribbage throughput against its peers, measured in one run: random playouts
through the Python API and natively in C (the GIL released) against
OpenSpiel's ``cribbage`` through pyspiel (its Python API and its C++
``random_sim_test``), batch show scoring against the PyPI package
``cribbage-scorer`` and the plain-Python brute force of tests/reference, and
the discard analysis.  Peers that are not installed are skipped.

Usage: ``python benchmarks/compare/compare_cribbage.py [--quick]``.

Steps: ours are decisions only (the deal, go and the show happen inside
``apply``); OpenSpiel's include a chance step per dealt card and a step per
pass, so games/s is the comparable figure.  ``random_sim_test`` also checks
every state it visits: it is OpenSpiel's only native playout loop reachable
from Python, reported as such.
"""

from __future__ import annotations

import random

import _here  # noqa: F401
import numpy as np
from _timing import QUICK
from _timing import rate as counts_per_second
from reference import cribbage as ref_cribbage

from cardcore import _core
from pycards.games.cribbage import CribbageGame, CribbageRules, batch_discards, batch_score_show

BUDGET = 0.5 if QUICK else 2.0  # seconds per measurement
PARAMS = CribbageRules().to_params()


def python_api() -> tuple[float, float]:
    game = CribbageGame(num_players=2)
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


def native() -> tuple[float, float]:
    n = 2000 if QUICK else 10000
    seeds = iter(range(0, 10**12, n))

    def run() -> tuple[int, int]:
        steps, _ = _core.random_playouts("cribbage", PARAMS, 2, next(seeds), n)
        return steps, n

    return counts_per_second(run, BUDGET)


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
    sims = 5 if QUICK else 20

    def sim() -> tuple[int, int]:
        pyspiel.random_sim_test(game, sims, False, False)
        return int(sims * per_game), sims

    return py, counts_per_second(sim, BUDGET)


def _hands(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    ids = np.argsort(rng.random((n, 52)), axis=1)[:, :6]
    bits = np.left_shift(np.uint64(1), (16 * (ids // 13) + ids % 13).astype(np.uint64))
    return ids, np.bitwise_or.reduce(bits[:, :4], axis=1), ids[:, 4].astype(np.uint8)


def batch_show() -> float:
    n = 1_000_000 if QUICK else 4_000_000
    _, hands, starters = _hands(n // 10)
    hands, starters = np.tile(hands, 10), np.tile(starters, 10)
    batch_score_show(hands, starters)  # warm up
    rate, _ = counts_per_second(lambda: (len(batch_score_show(hands, starters)), 0), BUDGET)
    return rate


def scorer_peer() -> float | None:
    try:
        from cribbage_scorer import cribbage_scorer as cs  # type: ignore[import-not-found]
    except ImportError:
        return None
    suits = "CDHS"
    ids, _, _ = _hands(2000, 1)

    def card(c: int) -> tuple[int, str]:
        return int(c) % 13 + 1, suits[int(c) // 13]

    deals = [(card(r[4]), [card(c) for c in r[:4]]) for r in ids]

    def run() -> tuple[int, int]:
        for starter, hand in deals:
            cs.show_calc_score(starter, hand)
        return len(deals), 0

    rate, _ = counts_per_second(run, BUDGET)
    return rate


def reference_show() -> float:
    ids, _, _ = _hands(2000, 2)
    deals = [([int(c) for c in r[:4]], int(r[4])) for r in ids]

    def run() -> tuple[int, int]:
        for hand, starter in deals:
            ref_cribbage.show_points(hand, starter)
        return len(deals), 0

    rate, _ = counts_per_second(run, BUDGET)
    return rate


def discards(with_crib: bool) -> float:
    n = 100_000 if QUICK else 400_000
    rng = np.random.default_rng(3)
    ids = np.argsort(rng.random((n, 52)), axis=1)[:, :6]
    bits = np.left_shift(np.uint64(1), (16 * (ids // 13) + ids % 13).astype(np.uint64))
    hands = np.bitwise_or.reduce(bits, axis=1)
    rate, _ = counts_per_second(
        lambda: (len(batch_discards(hands, with_crib=with_crib)[0]), 0), BUDGET
    )
    return rate


def main() -> None:
    rows: list[tuple[str, float, float]] = []
    rows.append(("cribbage Python API", *python_api()))
    rows.append(("cribbage native C loop", *native()))
    peers = openspiel()
    if peers is not None:
        rows.append(("OpenSpiel cribbage Python API", *peers[0]))
        rows.append(("OpenSpiel cribbage random_sim_test (C++)", *peers[1]))
    print(f"{'random playouts, 2 players, game to 121':44s} {'steps/s':>12s} {'games/s':>12s}")
    for name, steps, games in rows:
        print(f"{name:44s} {steps:12,.0f} {games:12,.0f}")
    if peers is not None:
        print(
            f"games/s vs OpenSpiel: Python API {rows[0][2] / peers[0][1]:.1f}x, "
            f"native {rows[1][2] / peers[1][1]:.1f}x"
        )
    else:
        print("OpenSpiel not installed (pip install open-spiel): no peer figures")
    b, r = batch_show(), reference_show()
    print(f"show scoring: {b:,.0f} hands/s (C batch), {r:,.0f} hands/s (brute force)")
    peer = scorer_peer()
    if peer is not None:
        print(f"cribbage-scorer show_calc_score: {peer:,.0f} hands/s; C batch {b / peer:,.0f}x")
    else:
        print("cribbage-scorer not installed: no peer figure")
    print(
        f"discard analysis: {discards(False):,.0f} six-card hands/s (hand part, 690 "
        f"scorings each), {discards(True):,.0f} with the table-model crib"
    )


if __name__ == "__main__":
    main()
