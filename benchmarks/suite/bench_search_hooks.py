"""The cost of the search's Python hooks (pytest-benchmark): ISMCTS moves whose
rollouts call a Python policy, and whose leaves go to a Python evaluator in
batches of 1, 16 and 64, on fixed positions of every registered game
(``_search_positions``); beside the rollout hook, the same search with the
engine's random rollouts.

Each benchmark records in ``extra_info`` how often its hook ran in one pass
over the positions (``calls``; ``leafs`` for the evaluator) and the time of
each (``ns_per_call``, ``ns_per_leaf``: the pass's mean time over that count,
so it includes the search's own work around each call, small beside a
Python call).  The policy draws a legal action with Python's ``random`` (a
fixed choice such as the first legal action can pass forever in a
bidding) and the evaluator returns zeros: the figures are the price
of the crossing (taking the GIL, the observation tensor, the numpy arrays,
reading the answer), not of the bot builder's code.  The guard keeps two
such paths per game (``<game>.ismcts_rollout_hook``,
``<game>.ismcts_evaluate_hook``).

Run: ``python -m pytest benchmarks/suite/bench_search_hooks.py``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from _games import GAMES as REGISTERED
from _search_positions import positions

from cardcore import _core

#: Every registered game at its usual table.
GAMES = [(name, case.tables[0]) for name, case in REGISTERED.items()]

SIMULATIONS = 200
POSITIONS = 4
#: Rollout simulations per move (each rollout calls the policy at every
#: action to the end of the deal) and positions.
ROLLOUT_SIMULATIONS = 20
ROLLOUT_POSITIONS = 2
BATCHES = (1, 16, 64)


class _Counter:
    """A hook that counts its calls (and the leaves it was given)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.calls = 0
        self.leaves = 0
        self.rng = random.Random(0)

    def policy(self, obs: Any, mask: Any, player: int) -> int:
        self.calls += 1
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.randrange(len(legal))])

    def evaluate(self, obs: Any, masks: Any, players: Any) -> Any:
        self.calls += 1
        self.leaves += len(players)
        return np.zeros((len(players), self.players))


def _moves(searcher: _core.Searcher, states: list[Any], hook: _Counter | None = None) -> None:
    for state in states:
        searcher.reset(1)
        if hook is not None:
            hook.rng.seed(1)  # every pass makes the same calls
        searcher.act(state.engine_state)


def _per_call(benchmark: Any, calls: int, unit: str) -> None:
    """Record ``calls`` hook calls (or leaves) per pass and the time of each."""
    benchmark.extra_info[f"{unit}s"] = calls
    if benchmark.stats is not None and calls:
        benchmark.extra_info[f"ns_per_{unit}"] = benchmark.stats.stats.mean * 1e9 / calls


@pytest.mark.parametrize(("name", "n"), GAMES)
def test_rollout_policy_hook(benchmark: Any, name: str, n: int) -> None:
    benchmark.group = f"hook-rollout-{name}-{n}p"
    states = positions(name, n, ROLLOUT_POSITIONS)
    hook = _Counter(n)
    setup = states[0].game._setup
    searcher = _core.Searcher(
        setup, "ismcts", simulations=ROLLOUT_SIMULATIONS, rollout=hook.policy, horizon="deal"
    )
    _moves(searcher, states, hook)  # one pass to count the calls of a pass
    calls, hook.calls = hook.calls, 0
    benchmark(_moves, searcher, states, hook)
    assert calls > 0 and hook.calls % calls == 0
    _per_call(benchmark, calls, "call")


@pytest.mark.parametrize(("name", "n"), GAMES)
def test_rollout_in_c(benchmark: Any, name: str, n: int) -> None:
    """The same search with the engine's random rollouts, beside the hook."""
    benchmark.group = f"hook-rollout-{name}-{n}p"
    states = positions(name, n, ROLLOUT_POSITIONS)
    setup = states[0].game._setup
    searcher = _core.Searcher(setup, "ismcts", simulations=ROLLOUT_SIMULATIONS, horizon="deal")
    benchmark(_moves, searcher, states)


@pytest.mark.parametrize(("name", "n"), GAMES)
@pytest.mark.parametrize("batch", BATCHES)
def test_leaf_evaluator_hook(benchmark: Any, name: str, n: int, batch: int) -> None:
    benchmark.group = f"hook-evaluate-{name}-{n}p"
    states = positions(name, n, POSITIONS)
    hook = _Counter(n)
    searcher = _core.Searcher(
        states[0].game._setup,
        "ismcts",
        simulations=SIMULATIONS,
        evaluate=hook.evaluate,
        batch=batch,
    )
    _moves(searcher, states)
    leaves, hook.leaves = hook.leaves, 0
    benchmark(_moves, searcher, states)
    assert leaves > 0 and hook.leaves % leaves == 0
    _per_call(benchmark, leaves, "leaf")
