"""Bad input on the Nodde functions of cardcore._core and of pycards.games.nodde."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardcore import _core
from pycards.cards import CardSet
from pycards.errors import InvalidCardError
from pycards.game import load_game
from pycards.games.nodde import NoddeRules, score_hand, score_play

P = (0, 1, 0, 0, 0, 1, 0, 1, 31, -1)
HAND = int(CardSet("6H 6S 9C"))


@pytest.mark.parametrize("bad", [True, 1.0, None, np.float64(1.0), "1"])
def test_core_refuses_non_int_params(bad: Any) -> None:
    params = list(P)
    params[1] = bad
    with pytest.raises((TypeError, ValueError), match="reshuffle_each_deal"):
        _core.nodde_score_hand(HAND, 1, params)


@pytest.mark.parametrize(("index", "value"), [(0, 2), (3, -1), (5, 3), (8, 0), (8, 122), (9, 4)])
def test_core_names_the_out_of_range_param(index: int, value: int) -> None:
    params = list(P)
    params[index] = value
    for call in (
        lambda: _core.nodde_score_hand(HAND, 1, params),
        lambda: _core.nodde_score_play([1, 2], params),
        lambda: _core.nodde_hand_distribution(params),
        lambda: _core.nodde_batch_score_hand(
            np.array([HAND], dtype=np.uint64), np.array([1], dtype=np.uint8), params
        ),
    ):
        with pytest.raises(ValueError, match=f"parameter {index}"):
            call()


def test_core_accepts_numpy_ints_and_refuses_bools_floats_none() -> None:
    assert _core.nodde_score_hand(np.uint64(HAND), np.int8(1), [np.int32(v) for v in P])
    for hand, turnup in [
        (True, 1),
        (float(HAND), 1),
        (None, 1),
        (HAND, True),
        (HAND, 1.0),
        (HAND, None),
    ]:
        with pytest.raises(TypeError):
            _core.nodde_score_hand(hand, turnup, P)
    for seq in [[True, 2], [1.0, 2], [None], "12"]:
        with pytest.raises(TypeError):
            _core.nodde_score_play(seq, P)


@pytest.mark.parametrize(
    ("hand", "turnup"), [(HAND, 52), (HAND, -1), (HAND, 2**40), (HAND | 1 << 13, 1), (7, 1)]
)
def test_core_refuses_bad_cards(hand: int, turnup: int) -> None:
    with pytest.raises(ValueError):
        _core.nodde_score_hand(hand, turnup, P)


@pytest.mark.parametrize("seq", [[], list(range(13)), [1, 1], [52], [-1], [256], [9, 22, 35, 48]])
def test_core_refuses_bad_sequences(seq: list[int]) -> None:
    with pytest.raises(ValueError):
        _core.nodde_score_play(seq, P)


def test_public_api_refuses_bad_input() -> None:
    with pytest.raises(TypeError):
        score_hand("6H 6S 9C", True)
    with pytest.raises(TypeError):
        score_hand("6H 6S 9C", 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        score_hand("6H 6S 9C", "KD", rules="mwynwen")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="3 cards"):
        score_hand("6H 6S", "KD")
    with pytest.raises(ValueError, match="twice"):
        score_play("KH KH")
    assert score_hand("6H 6S 9C", np.int64(51)).total >= 0
    with pytest.raises(ValueError):
        NoddeRules(run_points="seed")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# errors name the function and the argument at fault, one type per kind of fault

NODDE = [p["default"] for p in _core.game_info("nodde")["params"]]
OUTSIDE = 1 << 13  # a bit outside the 52-card deck

ERROR_CASES: list[tuple[tuple[Any, ...], type[Exception], str]] = [
    ((0x7 | OUTSIDE, 5, NODDE), InvalidCardError, "nodde_score_hand: hand: "),
    ((0xF, 20, NODDE), ValueError, "nodde_score_hand: hand: 0xf must be 3 cards (it holds 4)"),
    ((0x7, 60, NODDE), ValueError, "nodde_score_hand: turnup: 60 must be"),
    ((0x7, 1, NODDE), ValueError, "nodde_score_hand: turnup: 1 must be"),
]


@pytest.mark.parametrize(("args", "error", "start"), ERROR_CASES)
def test_score_hand_errors_name_function_and_argument(
    args: tuple[Any, ...], error: type[Exception], start: str
) -> None:
    with pytest.raises(error) as info:
        _core.nodde_score_hand(*args)
    assert str(info.value).startswith(start), str(info.value)


def test_good_hands_still_score() -> None:
    assert _core.nodde_score_hand(0x7, 20, NODDE) == _core.nodde_score_hand(0x7, 20, NODDE)


# ---------------------------------------------------------------------------
# action names


@pytest.mark.parametrize(
    "name",
    [
        "play \u212aH",  # Kelvin sign, lower()s to "k"
        "play\u3000KH",  # ideographic space, split() by str.split
        "play K\u029c",
        "play\x1fKH",  # an ASCII control char str.split() takes as a blank
    ],
)
def test_look_alike_action_names_are_refused(name: str) -> None:
    g = load_game("nodde", num_players=2)
    with pytest.raises(ValueError, match="not an ASCII"):
        g.action_from_name(name)
    state = g.new_initial_state(1)
    assert not state.can_apply(name)
