"""pytest-benchmark: ``State.undo`` for every game, against the replay of
``history[:-1]`` it replaces: the first undo of a long game (a replay from the
deal that leaves snapshots) and ten undos in a row (from the snapshots)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from _games import GAMES

from pycards.game import State, load_game


def _long_game(name: str) -> State[Any]:
    game = load_game(name, None, max(3, GAMES[name].tables[0]))  # 3 seats at least
    state = game.new_initial_state(7)
    rng = random.Random(7)
    while not state.is_terminal and len(state.history) < 400:
        state.apply(rng.choice(state.legal_actions()))
    state.undo()  # the game is still on, and has a history to take back
    return state


@pytest.mark.parametrize("name", GAMES)
def test_replay_history(benchmark: Any, name: str) -> None:
    state = _long_game(name)
    benchmark.group = f"{name}: take back ten actions"

    def run() -> State[Any]:
        again = state.game.new_initial_state(7)
        for a in state.history[:-10]:
            again.apply(a)
        return again

    assert benchmark(run).history == state.history[:-10]


@pytest.mark.parametrize("name", GAMES)
def test_undo_ten(benchmark: Any, name: str) -> None:
    state = _long_game(name)
    benchmark.group = f"{name}: take back ten actions"

    def run() -> State[Any]:
        s = state.clone()
        for _ in range(10):
            s.undo()
        return s

    run()  # the snapshots are made once, as by a table's first undo
    assert benchmark(run).history == state.history[:-10]
