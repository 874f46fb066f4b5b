"""The engine's networks (pytest-benchmark): one evaluation of a network of
two hidden layers (128, 64) over the observation tensor of every registered
game at its usual table, on each evaluation path this machine has, and an
ISMCTS move whose leaves are valued by the network (no rollout) beside the
same move with random rollouts.

The evaluation benchmark times ``Net.evaluate_loop`` (one call evaluates the
positions' tensors one at a time in C, both heads) and records the time of
one evaluation in ``extra_info["ns_per_eval"]``.  The guard keeps
``nets.evaluate[<path>]`` and ``<game>.ismcts_value_net``.

Run: ``python -m pytest benchmarks/suite/bench_nets.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _games import GAMES as REGISTERED
from _search_positions import positions

from cardcore import _core
from pycards.nets import engine_net, random_network

#: Every registered game at its usual table.
GAMES = [(name, case.tables[0]) for name, case in REGISTERED.items()]
HIDDEN = (128, 64)
POSITIONS = 32
REPEAT = 50
SIMULATIONS = 200


def _net(name: str, players: int) -> tuple[_core.Net, list[Any]]:
    states = positions(name, players, POSITIONS)
    game = states[0].game
    net = engine_net(
        random_network(
            name,
            players,
            input_size=game.tensor_size,
            num_actions=game.num_actions,
            hidden=HIDDEN,
            rng=np.random.default_rng(0),
        )
    )
    return net, states


@pytest.mark.parametrize("path", _core.net_paths())
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_net_evaluate(benchmark: Any, name: str, players: int, path: str) -> None:
    benchmark.group = f"nets-evaluate-{name}"
    net, states = _net(name, players)
    obs = np.stack([s.observation_tensor(s.current_player) for s in states])
    benchmark(net.evaluate_loop, obs, REPEAT, path)
    if benchmark.stats is not None:
        evals = REPEAT * len(states)
        benchmark.extra_info["ns_per_eval"] = benchmark.stats.stats.mean * 1e9 / evals


@pytest.mark.parametrize("leaf", ["value_net", "random_rollout"])
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_ismcts_value_net(benchmark: Any, name: str, players: int, leaf: str) -> None:
    benchmark.group = f"nets-ismcts-{name}"
    net, states = _net(name, players)
    setup = states[0].game._setup
    if leaf == "value_net":
        searcher = _core.Searcher(setup, "ismcts", simulations=SIMULATIONS, value=net)
    else:
        searcher = _core.Searcher(setup, "ismcts", simulations=SIMULATIONS)
    few = states[:4]

    def moves() -> None:
        for state in few:
            searcher.reset(1)
            searcher.act(state.engine_state)

    benchmark(moves)
