"""pytest-benchmark: the generic state API's hot calls for every game
(``observation``, ``observation_tensor``, ``clone``, ``apply``), one group per
game and call, on the same random positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pycards.game import State, game_names, load_game

GAMES = game_names()


def _positions(name: str) -> list[State[Any]]:
    game = load_game(name)
    rng = random.Random(2)
    out = []
    for seed in range(40):
        state = game.new_initial_state(seed)
        for _ in range(rng.randint(0, 60)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal:
            out.append(state)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_observation(benchmark: Any, name: str) -> None:
    states = _positions(name)
    benchmark.group = f"{name}: observation (per {len(states)} states)"
    result = benchmark(lambda: [s.observation(s.current_player) for s in states])
    assert len(result) == len(states)


@pytest.mark.parametrize("name", GAMES)
def test_observation_tensor(benchmark: Any, name: str) -> None:
    states = _positions(name)
    benchmark.group = f"{name}: observation tensor (per {len(states)} states)"
    result = benchmark(lambda: [s.observation_tensor(s.current_player) for s in states])
    assert all(t.shape == (s.game.tensor_size,) for t, s in zip(result, states, strict=True))


@pytest.mark.parametrize("name", GAMES)
def test_clone(benchmark: Any, name: str) -> None:
    states = _positions(name)
    benchmark.group = f"{name}: clone (per {len(states)} states)"
    result = benchmark(lambda: [s.clone() for s in states])
    assert [c.history for c in result] == [s.history for s in states]
