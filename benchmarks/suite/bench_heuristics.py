"""The heuristic bots (each game's docs page, "The heuristic bot"): one call of
``GameState.heuristic_action`` on each of 500 positions from random play.

Run: ``python -m pytest benchmarks/suite/bench_heuristics.py``.  The C-only figure
(no Python per call) comes from ``benchmarks/c/heuristic_speed.c``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from _games import GAMES

from cardcore import _core

#: every game at the table sizes its profile benchmarks
TABLES = [(name, n) for name, case in GAMES.items() for n in case.bench_tables]


def _positions(name: str, players: int, count: int = 500) -> list[Any]:
    params = [p["default"] for p in _core.game_info(name)["params"]]
    rng = random.Random(1)
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        state = _core.new_state(name, params, players, seed)
        seed += 1
        for _ in range(400):
            if state.current_player() < 0:
                break
            if rng.random() < 0.3:
                out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return out[:count]


def _decide(positions: list[Any]) -> int:
    total = 0
    for state in positions:
        total += state.heuristic_action(0)
    return total


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_heuristic_500_positions(benchmark: pytest.FixtureRequest, name: str, players: int) -> None:
    positions = _positions(name, players)
    benchmark.group = f"heuristic-{name}-{players}p-500-calls"  # type: ignore[attr-defined]
    total = benchmark(_decide, positions)  # type: ignore[operator]
    assert total > 0
