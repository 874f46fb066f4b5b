"""Cribbage benchmarks (pytest-benchmark): playouts through the Python API and
natively in C, batch show scoring, the exact distribution, discard analysis.

Run: ``python -m pytest benchmarks/suite/bench_cribbage.py``.  Equal workloads share
a group; ``python benchmarks/compare/compare_cribbage.py`` prints the ratios against
OpenSpiel and cribbage-scorer measured in the same run.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardcore import _core
from pycards.games.cribbage import (
    CribbageGame,
    CribbageRules,
    batch_discards,
    batch_score_show,
    show_score_distribution,
)

PARAMS = CribbageRules().to_params()


def _python_api_games(ngames: int) -> int:
    game = CribbageGame(num_players=2)
    rng = random.Random(0)
    steps = 0
    for seed in range(ngames):
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return steps


@pytest.mark.benchmark(group="cribbage-playouts-20-games")
def test_python_api_playouts(benchmark: pytest.FixtureRequest) -> None:
    steps = benchmark(_python_api_games, 20)  # type: ignore[operator]
    assert steps > 1000


@pytest.mark.benchmark(group="cribbage-playouts-20-games")
def test_native_playouts(benchmark: pytest.FixtureRequest) -> None:
    steps, _ = benchmark(_core.random_playouts, "cribbage", PARAMS, 2, 0, 20)  # type: ignore[operator]
    assert steps > 1000


def _cards(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    ids = np.argsort(rng.random((n, 52)), axis=1)[:, :k]
    bits = np.left_shift(np.uint64(1), (16 * (ids // 13) + ids % 13).astype(np.uint64))
    return ids, bits


@pytest.mark.benchmark(group="cribbage-show-100000-hands")
def test_batch_score_show(benchmark: pytest.FixtureRequest) -> None:
    ids, bits = _cards(100000, 5)
    hands = np.bitwise_or.reduce(bits[:, :4], axis=1)
    out = benchmark(batch_score_show, hands, ids[:, 4].astype(np.uint8))  # type: ignore[operator]
    assert out.shape == (100000,)


@pytest.mark.benchmark(group="cribbage-distribution")
def test_show_distribution(benchmark: pytest.FixtureRequest) -> None:
    dist = benchmark(show_score_distribution)  # type: ignore[operator]
    assert int(dist.sum()) == 12_994_800


@pytest.mark.benchmark(group="cribbage-discards-100000-hands")
def test_batch_discards_hand_part(benchmark: pytest.FixtureRequest) -> None:
    _, bits = _cards(100000, 6)
    hands = np.bitwise_or.reduce(bits, axis=1)
    hand, crib = benchmark(batch_discards, hands, with_crib=False)  # type: ignore[operator]
    assert hand.shape == (100000, 15) and crib is None
