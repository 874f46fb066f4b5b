"""Benchmarks of the arena's own cost per game (pytest-benchmark).

One group, one workload: 200 games of Nodde between two random bots (100
deals x 2 seatings), played by the Python loop (``native=False``: a view and
a Python call per move) and, when the engine has it, by the native loop
(``native=True``: one ``play_match`` call per game), statistics included.

Run: ``python -m pytest benchmarks/suite/bench_nodde_arena.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardcore import _core
from pycards.arena import Match

LOOPS = [False, *([True] if hasattr(_core, "play_match") else [])]


@pytest.mark.benchmark(group="arena-200-nodde-games-random")
@pytest.mark.parametrize("native", LOOPS, ids=lambda n: "native" if n else "python")
def test_match(benchmark: Any, native: bool) -> None:
    match = Match("nodde", ["random", "random"], 200, players=2, seed=1, native=native)
    result = benchmark(match.run, progress=False)
    assert result.games_played == 200
    assert result.native == native
