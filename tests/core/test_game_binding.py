"""The generic game binding (``cardcore._core``'s GameState and game functions)
on bad input: every argument is type-checked (a bool, a float or None is not an
int), the engine refuses what is invalid with a status code mapped to a typed
exception, and a refused call changes nothing."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardcore import _core
from pycards.errors import InvalidCardError, RulesError

GAMES = _core.game_names()


def _defaults(name: str) -> tuple[int, ...]:
    return tuple(p["default"] for p in _core.game_info(name)["params"])


@pytest.mark.parametrize("name", GAMES)
def test_game_info_describes_the_game(name: str) -> None:
    info = _core.game_info(name)
    assert info["name"] == name and info["deck_size"] in (52, 78)
    assert 2 <= info["min_players"] <= info["max_players"] <= 8
    assert len(info["params"]) == info["num_params"]
    assert info["event_kinds"] and info["action_ranges"]


@pytest.mark.parametrize("name", GAMES)
def test_unknown_and_malformed_game_names(name: str) -> None:
    for bad in ("no_such_game", f"{name}\x00x", f"{name[:-1]}\u00e9", ""):
        with pytest.raises(ValueError, match="unknown game"):
            _core.game_info(bad)
    for wrong in (None, 1, name.encode()):
        with pytest.raises(TypeError):
            _core.game_info(wrong)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_check_params_names_the_parameter(name: str) -> None:
    info = _core.game_info(name)
    good = _defaults(name)
    _core.check_params(name, good, info["min_players"])
    for i, p in enumerate(info["params"]):
        bad = list(good)
        bad[i] = (
            p["max"] + 1
            if p["kind"] != "optional" or p["none_value"] != p["max"] + 1
            else p["max"] + 2
        )
        with pytest.raises(RulesError, match=p["name"]):
            _core.check_params(name, bad, info["min_players"])
    with pytest.raises(ValueError, match="players"):  # RulesError, or out of 0..8
        _core.check_params(name, good, info["max_players"] + 1)
    with pytest.raises(RulesError, match="parameters"):
        _core.check_params(name, good[:-1], info["min_players"])
    for wrong in (1.0, True, None):
        bad = [wrong, *good[1:]]
        with pytest.raises(TypeError, match="parameter 0"):
            _core.check_params(name, bad, info["min_players"])
        with pytest.raises(TypeError, match="nplayers"):
            _core.check_params(name, good, wrong)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="parameter 0"):
        _core.check_params(name, [2**31, *good[1:]], info["min_players"])


@pytest.mark.parametrize("name", GAMES)
def test_new_state_refuses_bad_arguments(name: str) -> None:
    info = _core.game_info(name)
    params, n = _defaults(name), info["min_players"]
    for seed in (1.0, True, None, "1", np.float32(1)):
        with pytest.raises(TypeError, match="seed"):
            _core.new_state(name, params, n, seed)
    for seed in (-1, 2**64):
        with pytest.raises(ValueError, match="seed"):
            _core.new_state(name, params, n, seed)
    state = _core.new_state(name, params, n, np.uint64(2**64 - 1))
    assert state.history == []
    with pytest.raises(RulesError):
        _core.new_state(name, params, 0, 1)
    deck = list(range(info["deck_size"]))
    if info["can_stack_deck"]:
        _core.new_state(name, params, n, 1, deck)
        for bad_deck in ([*deck[:-1], deck[0]], deck[:-1]):
            with pytest.raises(InvalidCardError):
                _core.new_state(name, params, n, 1, bad_deck)
        for wrong in ([True, *deck[1:]], [0.0, *deck[1:]], [None, *deck[1:]]):
            with pytest.raises(TypeError, match=r"deck\[0\]"):
                _core.new_state(name, params, n, 1, wrong)
        with pytest.raises(ValueError, match=r"deck\[0\]"):
            _core.new_state(name, params, n, 1, [info["deck_size"], *deck[1:]])
        with pytest.raises(TypeError, match="deck"):
            _core.new_state(name, params, n, 1, "AS 2S")
        with pytest.raises(InvalidCardError):
            _core.new_state(name, params, n, 1, deck + deck)


@pytest.mark.parametrize("name", GAMES)
def test_state_methods_refuse_bad_types_and_change_nothing(name: str) -> None:
    info = _core.game_info(name)
    state = _core.new_state(name, _defaults(name), info["min_players"], 3)
    before = state.raw()
    for wrong in (1.0, True, None, "0", np.float64(0)):
        for method in (state.apply, state.verify):
            with pytest.raises(TypeError, match="action"):
                method(wrong)
        with pytest.raises(TypeError, match="player"):
            state.observe_tensor(wrong)
        with pytest.raises(TypeError, match="player"):
            state.observation_values(wrong)
        with pytest.raises(TypeError):
            state.sample_infoset(0, wrong)
    for big in (2**31, -(2**31) - 1):
        with pytest.raises(ValueError, match="action"):
            state.apply(big)
    for out_of_range in (-1, state.num_actions(), 2**31 - 1):
        assert state.verify(out_of_range) > 0
        assert state.apply(out_of_range) > 0
    with pytest.raises(ValueError, match="player"):
        state.observe_tensor(info["max_players"])
    assert state.raw() == before and state.history == []
    legal = state.legal_actions()
    assert state.apply(np.int16(legal[0])) == 0 and state.history == [legal[0]]
    assert type(state.history[0]) is int


@pytest.mark.parametrize("name", GAMES)
def test_an_empty_game_state_is_refused_not_crashed(name: str) -> None:
    empty: Any = _core.GameState.__new__(_core.GameState)
    for call in (empty.current_player, empty.legal_actions, empty.clone, empty.events, empty.raw):
        with pytest.raises(ValueError, match="no state"):
            call()


@pytest.mark.parametrize("name", GAMES)
def test_clone_copies_the_used_bytes_and_the_history(name: str) -> None:
    info = _core.game_info(name)
    state = _core.new_state(name, _defaults(name), info["min_players"], 5)
    for _ in range(6):
        if state.current_player() < 0:
            break
        state.apply(state.legal_actions()[0])
    other = state.clone()
    assert other.raw() == state.raw() and other.history == state.history
    assert len(other.raw()) <= info["state_size"]
    other.apply(other.legal_actions()[0])
    assert other.history != state.history
    sample = state.sample_infoset(0, 1)
    assert sample.history is None


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_refuse_bad_arguments(name: str) -> None:
    info = _core.game_info(name)
    params, n = _defaults(name), info["min_players"]
    for wrong in (1.0, True, None):
        with pytest.raises(TypeError, match="ngames"):
            _core.random_playouts(name, params, n, 1, wrong)
    with pytest.raises(ValueError, match="ngames"):
        _core.random_playouts(name, params, n, 1, -1)
    with pytest.raises(ValueError, match="ngames"):
        _core.random_playouts(name, params, n, 1, 2**62)
