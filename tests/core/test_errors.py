"""Errors name the function and the argument at fault, with one error type
per kind of fault: the actions of :class:`pycards.envs.vector.VectorEnv`, in
every registered game (a game's scoring functions: its own tests,
``tests/test_<name>_*.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _games import GAMES, game_params

from pycards.envs.vector import VectorEnv
from pycards.errors import IllegalActionError

# ---------------------------------------------------------------------------
# VectorEnv actions

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize(("name", "players"), game_params())
@pytest.mark.parametrize(
    "dtype", ["m8[s]", "M8[s]", np.float32, np.float64, np.bool_, np.complex64, object, "U2"]
)
def test_vector_actions_of_another_dtype_are_refused(name: str, players: int, dtype: Any) -> None:
    venv = VectorEnv(name, 4, players, seed=1)
    before = venv.observations.copy()
    actions = np.zeros(4, dtype=dtype)
    with pytest.raises(TypeError, match=r"^actions: expected an integer dtype"):
        venv.step(actions)
    np.testing.assert_array_equal(venv.observations, before)


#: each game with each integer dtype that holds its action ids
GAME_DTYPES = [
    pytest.param(name, players, dtype, id=f"{np.dtype(dtype).name}-{name}-{players}p")
    for name, case in GAMES.items()
    for players in case.tables[:1]
    for dtype in INT_DTYPES
    if np.iinfo(dtype).max >= case.game(players).num_actions - 1
]


@pytest.mark.parametrize(("name", "players", "dtype"), GAME_DTYPES)
def test_an_action_out_of_range_is_the_same_error_for_every_dtype(
    name: str, players: int, dtype: Any
) -> None:
    venv = VectorEnv(name, 4, players, seed=1)
    before = venv.observations.copy()
    top = venv.num_actions - 1
    legal = venv.sample_actions(np.random.default_rng(0))
    for bad in (venv.num_actions, np.iinfo(dtype).max, -1, np.iinfo(dtype).min):
        if not np.iinfo(dtype).min <= bad <= np.iinfo(dtype).max:
            continue
        if 0 <= bad <= top:
            continue
        actions = legal.astype(dtype)
        actions[2] = bad
        with pytest.raises(ValueError) as info:
            venv.step(actions)
        assert type(info.value) is ValueError  # not IllegalActionError: an id
        assert str(info.value) == (
            f"actions[2] (game 2): {int(actions[2])} is not an action id (0..{top}); "
            "nothing was applied"
        )
        np.testing.assert_array_equal(venv.observations, before)
    # a legal step in every dtype works, and an illegal id in range names its game
    illegal = legal.astype(dtype)
    illegal[1] = int(np.flatnonzero(venv.action_masks[1] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 1 of the vector"):
        venv.step(illegal)
    venv.step(legal.astype(dtype))
