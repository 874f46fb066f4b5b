"""Nodde Knave benchmarks (pytest-benchmark): playouts through the Python API,
native playouts in C, batch hand scoring, the exact distribution.

Run: ``python -m pytest benchmarks/suite/bench_nodde.py``.  Equal workloads share a group.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardcore import _core
from pycards.cards import CardSet
from pycards.games.nodde import NoddeGame, NoddeRules, batch_score_hands, hand_score_distribution

PARAMS = NoddeRules().to_params()


def _python_api_games(ngames: int) -> int:
    game = NoddeGame(num_players=2)
    rng = random.Random(0)
    steps = 0
    for seed in range(ngames):
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return steps


@pytest.mark.benchmark(group="nodde-playouts-100-games")
def test_python_api_playouts(benchmark: pytest.FixtureRequest) -> None:
    steps = benchmark(_python_api_games, 100)  # type: ignore[operator]
    assert steps > 1000


@pytest.mark.benchmark(group="nodde-playouts-100-games")
def test_native_playouts(benchmark: pytest.FixtureRequest) -> None:
    steps, _ = benchmark(_core.random_playouts, "nodde", PARAMS, 2, 0, 100)  # type: ignore[operator]
    assert steps > 1000


def _deals(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :4]
    hands = np.array([int(CardSet(row[:3].tolist())) for row in cards], dtype=np.uint64)
    return hands, cards[:, 3].astype(np.uint8)


@pytest.mark.benchmark(group="nodde-batch-20000-deals")
def test_batch_score_hands(benchmark: pytest.FixtureRequest) -> None:
    hands, turnups = _deals(20000)
    out = benchmark(batch_score_hands, hands, turnups)  # type: ignore[operator]
    assert out.shape == (20000,)


@pytest.mark.benchmark(group="nodde-distribution")
def test_hand_score_distribution(benchmark: pytest.FixtureRequest) -> None:
    d = benchmark(hand_score_distribution)  # type: ignore[operator]
    assert d.sum() == 22100 * 49
