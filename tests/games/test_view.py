"""The player's view: everything public on it is a function of what its seat
may know, and its samples carry none of the truth.

The property behind most checks: if a state S is consistent with what seat p
knows of the real state T (S drawn by T's sampler for p), then p's view of S
and p's view of T are indistinguishable, in every public output.  A view
that leaked a hidden card would differ somewhere, since S's hidden cards are
drawn afresh.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import numpy as np
import pytest
from _games import GAMES, game_params
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore import _core
from pycards import PycardsError
from pycards.bots import RandomBot, bot_names, make_bot, parse_bot_spec
from pycards.game import State, game_names, load_game
from pycards.view import PlayerView

CASES = [
    (name, n, preset)
    for name in game_names()
    for n in range(_core.game_info(name)["min_players"], _core.game_info(name)["max_players"] + 1)
    for preset in [None, *sorted(load_game(name).RULES_TYPE.presets())]
]


def _public(view: PlayerView[Any]) -> tuple[Any, ...]:
    """Every public output of a view."""
    return (
        view.seat,
        view.current_player,
        view.is_terminal,
        view.observation,
        view.observation_tensor().tobytes(),
        [(e.kind, e.player, e.target, e.value, e.extra) for e in view.events()],
        view.returns(),
        view.legal_actions(),
        view.legal_action_mask().tobytes(),
        view.legal_action_names(),
        view.table(),
        repr(view),
    )


def _position(name: str, players: int, preset: str | None, seed: int, steps: int) -> State[Any]:
    rules = None if preset is None else load_game(name).RULES_TYPE.presets()[preset]
    state = load_game(name, rules, players).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@settings(max_examples=12, deadline=None)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 160),
    draw=st.integers(0, 2**64 - 1),
)
def test_a_sample_looks_the_same_to_its_seat(
    case: tuple[str, int, str | None], seed: int, steps: int, draw: int
) -> None:
    state = _position(*case, seed, steps)
    for seat in range(state.num_players):
        view = state.view(seat)
        world = view.sample(draw)
        assert _public(world.view(seat)) == _public(view)
        # and it follows the same rules from here on: same legal actions for the
        # seat to act when that is the viewing seat
        assert world.is_terminal == state.is_terminal


@settings(max_examples=12, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32), steps=st.integers(0, 160))
def test_a_sample_carries_none_of_the_truth(
    case: tuple[str, int, str | None], seed: int, steps: int
) -> None:
    state = _position(*case, seed, steps)
    seat = seed % state.num_players
    world = state.view(seat).sample(random.Random(seed))
    assert world.seed is None and world.deck is None and world.history == ()
    assert world.is_sample
    assert "sampled" in repr(world) and "0 actions" in repr(world)
    with pytest.raises(PycardsError):
        world.to_json()
    with pytest.raises(PycardsError):
        pickle.dumps(world)


#: every registered game at its usual table, with its quick preset
QUICK = game_params(extra=("quick_preset",))
#: the game of the tests that need one (any registered game does)
GAME = next(iter(GAMES.values()))


@pytest.mark.parametrize(("name", "players", "preset"), QUICK)
def test_samples_vary_with_the_rng(name: str, players: int, preset: str) -> None:
    # late enough that other hands are unknown: samples must not be all the same
    state = _position(name, players, preset, 11, 3)
    view = state.view(0)
    hands = {tuple(view.sample(k).observation(1).hand) for k in range(8)}
    assert len(hands) > 1
    # the three kinds of rng are accepted and an int is the seed itself
    assert view.sample(5).observation(1) == view.sample(5).observation(1)
    view.sample(random.Random(1))
    view.sample(np.random.default_rng(1))


@pytest.mark.parametrize("bad", [1.0, True, None, "3", -1, 2**64])
def test_sample_refuses_a_bad_rng(bad: object) -> None:
    view = _position(GAME.name, GAME.tables[0], None, 1, 2).view(0)
    with pytest.raises((TypeError, ValueError)):
        view.sample(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "players", "preset"), QUICK)
def test_the_view_follows_the_game_and_shows_actions_only_on_its_turn(
    name: str, players: int, preset: str
) -> None:
    state = _position(name, players, preset, 4, 0)
    views = [state.view(p) for p in range(players)]
    rng = random.Random(4)  # random moves: the first legal one may never end a game
    while not state.is_terminal:
        me = state.current_player
        for p, v in enumerate(views):
            assert v.is_my_turn == (p == me)
            if p == me:
                assert v.legal_actions() == state.legal_actions()
                assert v.legal_action_names() == state.legal_action_names()
            else:
                assert v.legal_actions() == [] and not v.legal_action_mask().any()
        state.apply(rng.choice(state.legal_actions()))
    assert all(v.is_terminal for v in views)


def test_the_view_cannot_carry_the_real_game_away() -> None:
    view = _position(GAME.name, GAME.tables[0], None, 3, 4).view(1)
    with pytest.raises(PycardsError):
        pickle.dumps(view)
    with pytest.raises(PycardsError):
        copy.deepcopy(view)
    with pytest.raises(TypeError):
        json.dumps(view)
    assert not any(not a.startswith("_") and "state" in a for a in dir(view))


@pytest.mark.parametrize("seat", [-1, GAME.tables[0], 1.0, True, None])
def test_a_bad_seat_is_refused(seat: object) -> None:
    state = _position(GAME.name, GAME.tables[0], None, 3, 0)
    with pytest.raises((TypeError, ValueError)):
        state.view(seat)  # type: ignore[arg-type]


# ---- the random bot and the registry --------------------------------------------


@pytest.mark.parametrize(("name", "players", "preset"), QUICK)
def test_random_bot_draws_as_the_engine_generator(name: str, players: int, preset: str) -> None:
    state = _position(name, players, preset, 8, 0)
    bot = RandomBot(seed=42)
    rng = _core.Rng(42)
    # the k-th legal action with k = below(n), as the native random policy
    while not state.is_terminal:
        legal = state.legal_actions()
        action = bot.act(state.view(state.current_player))
        assert action == legal[rng.below(len(legal))]
        state.apply(action)


def test_random_bot_reset_replays_the_same_game() -> None:
    def play(bot: RandomBot, seed: int) -> tuple[int, ...]:
        bot.reset(seed)
        state = GAME.game(GAME.tables[-1]).new_initial_state(5)
        while not state.is_terminal:
            state.apply(bot.act(state.view(state.current_player)))
        return state.history

    bot = RandomBot()
    first = play(bot, 9)
    play(bot, 10)
    assert play(bot, 9) == first


def test_rng_matches_the_engine_sequence() -> None:
    rng = _core.Rng(123)
    assert [rng.next() for _ in range(5)] == _core.rng_sequence(123, 5)
    with pytest.raises(ValueError):
        rng.below(0)
    with pytest.raises(TypeError):
        rng.below(2.0)


def test_registry() -> None:
    assert "random" in bot_names()
    assert isinstance(make_bot("random", seed=1), RandomBot)
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        make_bot("nobody")
    with pytest.raises(ValueError, match="not key=value"):
        parse_bot_spec("ismcts:simulations")
    with pytest.raises(ValueError, match="repeated or reserved"):
        parse_bot_spec("ismcts:seed=3")
    with pytest.raises(ValueError, match="bot spec"):
        make_bot("random:depth=3")
    assert parse_bot_spec("x:a=1:b=0.5:c=z") == ("x", {"a": 1, "b": 0.5, "c": "z"})


def test_the_core_imports_no_optional_extra() -> None:
    """The core (games, view, bots, records, batch) needs numpy alone: importing
    it must not pull in any ecosystem extra."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import pycards, pycards.game, pycards.view, pycards.bots, pycards.record\n"
        "import pycards.batch, pycards.combos\n"
        "from pycards.game import game_names, load_game\n"
        "for name in game_names():\n"
        "    load_game(name).new_initial_state(1).view(0).sample(2)\n"
        "pycards.bots.make_bot('ismcts')\n"
        "extras = ('starlette', 'uvicorn', 'rich', 'dask', 'distributed', 'gymnasium',\n"
        "          'pettingzoo', 'matplotlib', 'pyspiel', 'pexpect')\n"
        "print(sorted(m for m in extras if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
