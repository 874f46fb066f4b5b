"""Game of Nancy benchmarks (pytest-benchmark): playouts and batch kernels.

Equal workloads share a group: 3- or 4-player matches through the Python API,
the native loop and the reference oracle (which shuffles its own decks: the
same rules and number of matches, not the engine's very deals); the batch
kernels on the same 65,536 rows; information-set samples of 50 engine states
(the oracle has no sampler).  Ratios against OpenSpiel:
``python benchmarks/compare/compare_nancy.py``.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import numpy as np
import pytest
import reference as _reference

from cardcore import _core
from pycards.games.nancy import NancyGame, NancyRules

PARAMS = NancyRules().to_params()


def _api_games(n: int, games: int) -> int:
    game = NancyGame(NancyRules(), n)
    rng = random.Random(0)
    steps = 0
    for seed in range(games):
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
    return steps


@pytest.mark.parametrize("n", [3, 4])
def test_playouts_python_api(benchmark: Any, n: int) -> None:
    benchmark.group = f"nancy playouts, {n} players, 2 matches"
    assert benchmark(_api_games, n, 2) > 0


@pytest.mark.parametrize("n", [3, 4])
def test_playouts_native(benchmark: Any, n: int) -> None:
    benchmark.group = f"nancy playouts, {n} players, 2 matches"
    steps, _ = benchmark(_core.random_playouts, "nancy", PARAMS, n, 0, 2)
    assert steps > 0


@pytest.mark.parametrize("n", [3, 4])
def test_playouts_reference(benchmark: Any, n: int) -> None:
    benchmark.group = f"nancy playouts, {n} players, 2 matches"
    steps, _ = benchmark.pedantic(
        _reference.random_playouts, args=("nancy", PARAMS, n, 0, 2), rounds=1, iterations=1
    )
    assert steps > 0


def _rows() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    rows = 1 << 16
    holdings = np.zeros((rows, 2), dtype=np.uint64)
    tricks = np.full((rows, 3), -1, dtype=np.int8)
    for i in range(rows):
        deck = rng.permutation(78)
        for c in (int(x) for x in deck[:18]):
            if c < 56:
                holdings[i, 0] |= np.uint64(1 << (16 * (c // 14) + c % 14))
            else:
                holdings[i, 1] |= np.uint64(1 << (0 if c == 77 else c - 55))
        k = int(rng.integers(0, 4))
        tricks[i, :k] = deck[18 : 18 + k]
    return holdings, tricks


HOLDINGS, TRICKS = _rows()


def test_batch_legal_cards(benchmark: Any) -> None:
    benchmark.group = "nancy batch kernels, 65,536 rows"
    out = benchmark(_core.nancy_batch_legal_cards, HOLDINGS, TRICKS)
    assert out.shape == HOLDINGS.shape


def test_batch_trick_winner(benchmark: Any) -> None:
    benchmark.group = "nancy batch kernels, 65,536 rows"
    out = benchmark(_core.nancy_batch_trick_winner, TRICKS)
    assert out.shape == (len(TRICKS),)


def test_batch_objectives(benchmark: Any) -> None:
    benchmark.group = "nancy batch kernels, 65,536 rows"
    out = benchmark(_core.nancy_batch_objectives, HOLDINGS, 1)
    assert out.shape == (len(HOLDINGS),)


@functools.cache
def _infoset_states(n: int, face_up: int) -> list[tuple[Any, int]]:
    """50 engine (state, observer) pairs: 5 states at random from each random
    single-deal game, each with a random seat."""
    params = NancyRules(face_up_count=face_up, match_rounds=1).to_params()
    rng = random.Random(n * 100 + face_up)
    out: list[tuple[Any, int]] = []
    game = 0
    while len(out) < 50:
        state = _core.new_state("nancy", params, n, game)
        game += 1
        trajectory = []
        while state.current_player() >= 0:
            trajectory.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        out += [(s, rng.randrange(n)) for s in rng.sample(trajectory, 5)]
    return out


def _sample_all(states: list[tuple[Any, int]]) -> int:
    for i, (state, player) in enumerate(states):
        state.sample_infoset(player, i)
    return len(states)


INFOSET_CASES = [(4, 6), (4, 0), (6, 6), (6, 0)]


@pytest.mark.parametrize(("n", "face_up"), INFOSET_CASES)
def test_sample_infoset(benchmark: Any, n: int, face_up: int) -> None:
    benchmark.group = f"nancy info-set samples, {n} players, face_up_count={face_up}, 50 states"
    assert benchmark(_sample_all, _infoset_states(n, face_up)) == 50
