"""The cribbage scoring functions of ``cardcore._core`` name the function and
the argument at fault, with one error type per kind of fault (the shared
errors of the engine: tests/core/test_errors.py)."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore import _core
from pycards.errors import InvalidCardError
from pycards.game import load_game

CRIBBAGE = [p["default"] for p in _core.game_info("cribbage")["params"]]
OUTSIDE = 1 << 13  # a bit outside the 52-card deck

CASES: list[tuple[str, tuple[Any, ...], type[Exception], str]] = [
    # bits outside the deck
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
    # the starter at fault
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
    assert isinstance(_core.cribbage_score_show(0xF, 20, False, CRIBBAGE), list)
    assert _core.cribbage_crib_exact(0x3F, CRIBBAGE).shape == (15,)


# ---------------------------------------------------------------------------
# action names (docs/games.rst)


def test_action_names_are_case_insensitive_ascii() -> None:
    # decided: names are case-insensitive, as card names are (docs/games.rst)
    game = load_game("cribbage")
    assert game.action_from_name("Pass") == game.action_from_name("pass")
    assert game.action_from_name("PLAY 5h") == game.action_from_name("play 5H")
    assert game.action_from_name("play\t5H") == game.action_from_name("play 5H")
