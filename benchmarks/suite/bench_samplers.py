"""pytest-benchmark: the information-set samplers, one group per game and
player count, on random positions of random games, each sampled for the player
to act (the seat a search samples for) with a fresh seed per round.

The cases and their targets per sample are each game's profile
(``tests/profiles/<name>.py``, ``sampler_bench``).  These calls go through the
binding (a new engine state per sample); ``benchmarks/compare/compare_samplers.py``
prints the per-sample figures in C as well, next to the targets.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from _games import GAMES

from pycards.game import load_game

CASES = [
    pytest.param(
        name, players, rules, id=f"{name}-{players}" + ("" if rules is None else f"-{label}")
    )
    for name, case in GAMES.items()
    for players, rules, label, _ in case.sampler_cases()
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
            out.append(state.engine_state)
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
