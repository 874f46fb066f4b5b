"""The Gymnasium environment on Nodde Knave: Gymnasium's whole checker meets
the documented illegal-action error, and the game's environment id."""

from __future__ import annotations

import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from pycards.envs.gymnasium import env_ids  # noqa: E402
from pycards.errors import IllegalActionError  # noqa: E402


def test_check_env_as_a_whole_meets_the_clear_error() -> None:
    # check_step_determinism's action, drawn in another deal, is illegal in the
    # seed-123 deal: the default environment answers with the documented error
    env = gymnasium.make("pycards/nodde-v0", num_players=2).unwrapped
    with pytest.raises(IllegalActionError, match="illegal action"):
        check_env(env)


def test_env_id() -> None:
    assert "pycards/nodde-v0" in env_ids()
