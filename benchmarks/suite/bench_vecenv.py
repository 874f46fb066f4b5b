"""pytest-benchmark: one call of the vector environment's step (256 games, random
learner actions drawn in C), per game and thread count, next to the same number of
learner steps in a Python loop over the state API."""

from __future__ import annotations

import random
from typing import Any

import pytest
from _games import GAMES as REGISTRY

from pycards.envs.vector import VectorEnv
from pycards.game import State, load_game

#: every game at its usual table
GAMES = [(name, case.tables[0]) for name, case in REGISTRY.items()]
N = 256


@pytest.mark.parametrize(("name", "players"), GAMES)
@pytest.mark.parametrize("threads", [1, 2])
def test_vector_step(benchmark: Any, name: str, players: int, threads: int) -> None:
    venv = VectorEnv(name, N, players, seed=1, threads=threads)
    benchmark.group = f"{name} {players}p: {N} learner steps"
    benchmark(lambda: venv.step(venv.random_actions()))
    assert venv.observations.shape == (N, venv.tensor_size)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_python_loop(benchmark: Any, name: str, players: int) -> None:
    game = load_game(name, None, players)
    rng = random.Random(0)
    seeds = iter(range(1 << 40))

    def advance(s: State[Any]) -> None:
        while not s.is_terminal and s.current_player != 0:
            s.apply(rng.choice(s.legal_actions()))

    def fresh() -> State[Any]:
        while True:
            s = game.new_initial_state(next(seeds))
            advance(s)
            if s.current_player == 0:
                return s

    states = [fresh() for _ in range(N)]

    def run() -> None:
        for i, s in enumerate(states):
            s.apply(rng.choice(s.legal_actions()))
            advance(s)
            if s.is_terminal:
                s = states[i] = fresh()
            s.observation_tensor(0)
            s.legal_action_mask()

    benchmark.group = f"{name} {players}p: {N} learner steps"
    benchmark(run)
