"""pytest-benchmark: the information-set samplers, one group per game and
player count, on random positions of random games, each sampled for the player
to act (the seat a search samples for) with a fresh seed per round.

Targets per sample (issue "Bots and the arena"): Nodde <= 5 us, No Takers <= 10
us, Nancy 4 players <= 5 us, Nancy 6 players with ``face_up_count=0`` <= 50 us.
These calls go through the binding (a new engine state per sample);
``benchmarks/compare/compare_samplers.py`` prints the per-sample figures in C as well,
next to the targets.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pycards.game import load_game
from pycards.nancy import NancyRules

CASES = [
    pytest.param("nodde", 2, None, id="nodde-2"),
    pytest.param("nodde", 4, None, id="nodde-4"),
    pytest.param("notakers", 4, None, id="notakers-4"),
    pytest.param("nancy", 4, None, id="nancy-4"),
    pytest.param("nancy", 6, NancyRules(face_up_count=0), id="nancy-6-face_up_count=0"),
]


def positions(name: str, players: int, rules: Any, count: int = 50) -> list[Any]:
    """Engine states at random points of random games (not terminal)."""
    game = load_game(name, rules, num_players=players)
    rng = random.Random(3)
    out = []
    seed = 0
    while len(out) < count:
        state = game.new_initial_state(seed)
        seed += 1
        for _ in range(rng.randint(0, 250)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal:
            out.append(state._s)
    return out


@pytest.mark.parametrize(("name", "players", "rules"), CASES)
def test_sample_infoset(benchmark: Any, name: str, players: int, rules: Any) -> None:
    states = positions(name, players, rules)
    label = "" if rules is None else f", {rules!r}"
    benchmark.group = f"samplers: {name}, {players} players{label} (per {len(states)} samples)"
    seeds = iter(range(10**9))

    def run() -> int:
        seed = next(seeds) * len(states)
        for i, s in enumerate(states):
            s.sample_infoset(s.current_player(), seed + i)
        return len(states)

    assert benchmark(run) == len(states)
