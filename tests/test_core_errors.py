"""Errors name the function and the argument at fault, with one error type
per kind of fault: the scoring functions of ``cardcore._core`` and the
actions of :class:`pycards.envs.vector.VectorEnv`."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardcore import _core
from pycards.envs.vector import VectorEnv
from pycards.errors import IllegalActionError, InvalidCardError

NODDE = [p["default"] for p in _core.game_info("nodde")["params"]]
CRIBBAGE = [p["default"] for p in _core.game_info("cribbage")["params"]]
OUTSIDE = 1 << 13  # a bit outside the 52-card deck

CASES: list[tuple[str, tuple[Any, ...], type[Exception], str]] = [
    # bits outside the deck
    ("nodde_score_hand", (0x7 | OUTSIDE, 5, NODDE), InvalidCardError, "nodde_score_hand: hand: "),
    (
        "cribbage_score_show",
        (0xF | OUTSIDE, 5, False, CRIBBAGE),
        InvalidCardError,
        "cribbage_score_show: hand: ",
    ),
    (
        "cribbage_crib_exact",
        (0x3F | OUTSIDE, CRIBBAGE),
        InvalidCardError,
        "cribbage_crib_exact: hand: ",
    ),
    # the wrong number of cards
    (
        "nodde_score_hand",
        (0xF, 20, NODDE),
        ValueError,
        "nodde_score_hand: hand: 0xf must be 3 cards (it holds 4)",
    ),
    (
        "cribbage_score_show",
        (0x7, 20, False, CRIBBAGE),
        ValueError,
        "cribbage_score_show: hand: 0x7 must be 4 cards (it holds 3)",
    ),
    (
        "cribbage_crib_exact",
        (0xF, CRIBBAGE),
        ValueError,
        "cribbage_crib_exact: hand: 0xf must be 6 cards (it holds 4)",
    ),
    # the turn-up or starter at fault
    ("nodde_score_hand", (0x7, 60, NODDE), ValueError, "nodde_score_hand: turnup: 60 must be"),
    ("nodde_score_hand", (0x7, 1, NODDE), ValueError, "nodde_score_hand: turnup: 1 must be"),
    (
        "cribbage_score_show",
        (0xF, -3, False, CRIBBAGE),
        ValueError,
        "cribbage_score_show: starter: -3 must be",
    ),
]


@pytest.mark.parametrize(("fn", "args", "error", "start"), CASES)
def test_scoring_errors_name_function_and_argument(
    fn: str, args: tuple[Any, ...], error: type[Exception], start: str
) -> None:
    with pytest.raises(error) as info:
        getattr(_core, fn)(*args)
    assert str(info.value).startswith(start), str(info.value)


def test_good_hands_still_score() -> None:
    assert _core.nodde_score_hand(0x7, 20, NODDE) == _core.nodde_score_hand(0x7, 20, NODDE)
    assert isinstance(_core.cribbage_score_show(0xF, 20, False, CRIBBAGE), list)
    assert _core.cribbage_crib_exact(0x3F, CRIBBAGE).shape == (15,)


# ---------------------------------------------------------------------------
# VectorEnv actions

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize(
    "dtype", ["m8[s]", "M8[s]", np.float32, np.float64, np.bool_, np.complex64, object, "U2"]
)
def test_vector_actions_of_another_dtype_are_refused(dtype: Any) -> None:
    venv = VectorEnv("nodde", 4, 2, seed=1)
    before = venv.observations.copy()
    actions = np.zeros(4, dtype=dtype)
    with pytest.raises(TypeError, match=r"^actions: expected an integer dtype"):
        venv.step(actions)
    np.testing.assert_array_equal(venv.observations, before)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_an_action_out_of_range_is_the_same_error_for_every_dtype(dtype: Any) -> None:
    venv = VectorEnv("nodde", 4, 2, seed=1)
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
