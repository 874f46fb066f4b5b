"""Search bot benchmarks (pytest-benchmark): one ISMCTS and one PIMC move with
random rollouts on fixed positions of each game (random play from seeded deals
to seeded random points).  Simulations per second are
``simulations * positions / mean time``; ``benchmarks/compare/compare_ismcts.py``
prints them beside OpenSpiel's ISMCTS.

Run: ``python -m pytest benchmarks/suite/bench_search.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
from _search_positions import GAMES, positions

from cardcore import _core

SIMULATIONS = 500
POSITIONS = 8


def _moves(searcher: _core.Searcher, states: list[Any]) -> int:
    sims = 0
    for state in states:
        searcher.reset(1)
        searcher.act(state.engine_state)
        sims += searcher.last_simulations
    return sims


@pytest.mark.parametrize(("name", "n"), GAMES)
@pytest.mark.parametrize("kind", ["ismcts", "pimc"])
def test_search_move(benchmark: Any, name: str, n: int, kind: str) -> None:
    benchmark.group = f"search-{kind}-{SIMULATIONS}-sims"
    states = positions(name, n, POSITIONS)
    searcher = _core.Searcher(states[0].game._setup, kind, simulations=SIMULATIONS, samples=10)
    sims = benchmark(_moves, searcher, states)
    assert sims == SIMULATIONS * POSITIONS
