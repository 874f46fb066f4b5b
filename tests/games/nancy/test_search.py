"""The solver leaf of the search bots in the Game of Nancy
(games/nancy/nancy_solve.c, search/rollout.c and pimc.c): a solve past
CC_BOT_SOLVE_NODES positions is given up for the rollouts."""

from __future__ import annotations

import numpy as np
import pytest

from cardcore import _core
from pycards.game import load_game


@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_solve_past_the_node_cap_falls_back_to_rollouts(kind: str) -> None:
    """A reach that takes a whole deal of the 4-player Game of Nancy (far
    past CC_BOT_SOLVE_NODES positions) gives the solves up and searches by
    rollouts: a legal move comes back (without the cap this search would
    not end)."""
    game = load_game("nancy", num_players=4)
    state = game.new_initial_state(seed=3)
    rng = np.random.default_rng(3)
    while state.engine_state.solve_depth() < 40:
        state.apply(int(rng.choice(state.legal_actions())))
    searcher = _core.Searcher(game._setup, kind, simulations=40, samples=2, solve=78)
    searcher.reset(1)
    assert searcher.act(state.engine_state) in state.legal_actions()
