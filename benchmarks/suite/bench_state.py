"""pytest-benchmark: the generic state API's hot calls for every game
(``observation``, ``observation_tensor``, ``clone``, ``sample_infoset``), one
group per game and call, on the same random positions."""

from __future__ import annotations

import random
from typing import Any

import pytest
from _games import GAMES as REGISTRY

from pycards.game import State, game_names, load_game

GAMES = game_names()


def _positions(name: str, players: int = 2, rules: Any = None) -> list[State[Any]]:
    game = load_game(name, rules, num_players=players)
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


# 2 and 4 players of every game, and the hard sampling problems of the games'
# profiles (the sampler benchmarks' cases with rules)
SAMPLER_CASES = [
    pytest.param(name, players, None, id=f"{name}-{players}")
    for name in GAMES
    for players in (2, 4)
]
SAMPLER_CASES += [
    pytest.param(name, players, rules, id=f"{name}-{players}-{label}")
    for name, case in REGISTRY.items()
    for players, rules, label, _ in case.sampler_cases()
    if rules is not None
]


@pytest.mark.parametrize(("name", "players", "rules"), SAMPLER_CASES)
def test_sample_infoset(benchmark: Any, name: str, players: int, rules: Any) -> None:
    """One sample per state for the player to act, a new seed each round."""
    states = _positions(name, players, rules)
    label = "" if rules is None else f", {rules!r}"
    benchmark.group = f"{name}: sample_infoset, {players} players{label} (per {len(states)} states)"
    seeds = iter(range(10**9))

    def run() -> list[State[Any]]:
        seed = next(seeds)
        return [s.sample_infoset(s.current_player, seed) for s in states]

    result = benchmark(run)
    assert [c.current_player for c in result] == [s.current_player for s in states]
