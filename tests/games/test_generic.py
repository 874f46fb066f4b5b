"""Generic checks run over every registered game (OpenSpiel-style).

Each game is played with seeded random legal actions for every supported
player count; at every step the generic promises are checked: rejected
actions leave the state exactly as it was, clones are independent, JSON
round-trips, observations have the documented size, the event log hides what
it must, and information-set samples look the same to the sampling player.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from cardcore import _core
from pycards import IllegalActionError, InvalidCardError
from pycards.game import TERMINAL, Game, State, game_names, load_game

GAMES = game_names()
CASES = [
    (name, n)
    for name in GAMES
    for n in range(_core.game_info(name)["min_players"], _core.game_info(name)["max_players"] + 1)
]


def _snapshot(state: State[Any]) -> tuple[Any, ...]:
    """Everything observable about a state, for 'unchanged' comparisons."""
    return (
        state.current_player,
        state.legal_actions(),
        state.returns(),
        [state.observation_tensor(p).tobytes() for p in range(state.num_players)],
        state.engine_state.events(),
        state.history,
    )


def _play(game: Game[Any, Any], seed: int, max_steps: int = 400) -> list[State[Any]]:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    states = [state.clone()]
    steps = 0
    while not state.is_terminal and steps < max_steps:
        state.apply(rng.choice(state.legal_actions()))
        states.append(state.clone())
        steps += 1
    return states


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_play_keeps_the_promises(name: str, players: int) -> None:
    game = load_game(name, num_players=players)
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        steps = 0
        while not state.is_terminal and steps < 300:
            legal = state.legal_actions()
            assert legal, "a non-terminal state has legal actions"
            mask = state.legal_action_mask()
            assert mask.shape == (game.num_actions,) and mask.dtype == np.bool_
            assert list(np.flatnonzero(mask)) == legal
            assert len(state.legal_action_names()) == len(legal)
            for a in legal[:3]:
                assert state.can_apply(a)
                assert game.action_from_name(game.action_name(a)) == a
            # an illegal action is refused and changes nothing
            illegal = [a for a in range(game.num_actions) if a not in set(legal)]
            before = _snapshot(state)
            for a in [*rng.sample(illegal, min(3, len(illegal))), -1, game.num_actions, 2**40]:
                assert not state.can_apply(a)
                with pytest.raises(IllegalActionError):
                    state.apply(a)
            other = (state.current_player + 1) % players
            with pytest.raises(IllegalActionError, match="not your turn"):
                state.apply(legal[0], player=other)
            assert _snapshot(state) == before
            # clones are independent
            twin = state.clone()
            action = rng.choice(legal)
            state.apply(action)
            assert _snapshot(twin) == before
            steps += 1
        for p in range(players):
            assert state.observation_tensor(p).shape == (game.tensor_size,)
        if state.is_terminal:
            assert state.current_player == TERMINAL
            assert state.legal_actions() == []
            with pytest.raises(IllegalActionError, match="game over"):
                state.apply(0)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_json_round_trip_and_determinism(name: str, players: int) -> None:
    game = load_game(name, num_players=players)
    for seed in (1, 2):
        states = _play(game, seed, max_steps=120)
        for s in [*states[:: max(1, len(states) // 6)], states[-1]]:
            again = State.from_json(s.to_json())
            assert _snapshot(again) == _snapshot(s)
        # same seed, same actions: same game
        replay = game.new_initial_state(seed)
        for a in states[-1].history:
            replay.apply(a)
        assert _snapshot(replay) == _snapshot(states[-1])


@pytest.mark.parametrize(("name", "players"), CASES)
def test_events_are_redacted_per_viewer(name: str, players: int) -> None:
    game = load_game(name, num_players=players)
    final = _play(game, 7, max_steps=200)[-1]
    raw = final.engine_state.events()
    assert raw, "the event log records the game"
    public = final.events()
    for ev, (kind, who, target, value, extra, seen_by) in zip(public, raw, strict=True):
        assert (ev.kind_id, ev.player, ev.target, ev.extra) == (kind, who, target, extra)
        assert ev.value == (value if seen_by == 0xFFFFFFFF else None)
    for p in range(players):
        for ev, (*_, value, _extra, seen_by) in zip(final.events(p), raw, strict=True):
            assert ev.value == (value if seen_by & (1 << p) else None)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_infoset_samples_look_the_same_to_the_player(name: str, players: int) -> None:
    game = load_game(name, num_players=players)
    states = _play(game, 11, max_steps=150)
    for s in states[:: max(1, len(states) // 5)]:
        if s.is_terminal:
            continue
        for p in range(players):
            sample = s.sample_infoset(p, seed=99)
            assert np.array_equal(sample.observation_tensor(p), s.observation_tensor(p))
            assert sample.events(p) == s.events(p)
            assert sample.current_player == s.current_player
            assert sample.returns() == s.returns()
            again = s.sample_infoset(p, seed=99)
            assert _snapshot(again) == _snapshot(sample)
            # the sample is a playable state
            if not sample.is_terminal:
                sample.apply(sample.legal_actions()[0])


@pytest.mark.parametrize(("name", "players"), CASES)
def test_native_playouts_match_backend(name: str, players: int) -> None:
    game = load_game(name, num_players=players)
    steps, points = _core.random_playouts(name, game.params, players, 5, 3)
    assert steps > 0 and len(points) == players


def test_unknown_game() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        load_game("no_such_game")


@pytest.mark.parametrize(("name", "players"), CASES)
def test_native_playouts_are_reproducible(name: str, players: int) -> None:
    """Same seed, same games; the games are whole (each ends; a different seed
    plays other games)."""
    game = load_game(name, num_players=players)
    first = _core.random_playouts(name, game.params, players, 3, 4)
    assert first == _core.random_playouts(name, game.params, players, 3, 4)
    assert first != _core.random_playouts(name, game.params, players, 4, 4)
    one = _core.random_playouts(name, game.params, players, 3, 1)
    assert 0 < one[0] < first[0]


@pytest.mark.parametrize("name", GAMES)
def test_game_names_are_exact(name: str) -> None:
    """A name with a NUL does not find the game named by its prefix (C strings)."""
    for bad in (name + "\x00", name + "\x00x", "\x00" + name):
        with pytest.raises(ValueError, match="unknown game"):
            _core.game_info(bad)
        with pytest.raises(ValueError, match="unknown game"):
            _core.new_state(bad, load_game(name).params, _core.game_info(name)["min_players"], 0)
    with pytest.raises((TypeError, ValueError)):
        _core.game_info(None)


def test_c_state_made_without_new_state() -> None:
    """A C GameState not made by new_state() (GameState(), GameState.__new__)
    raises on use instead of handing a NULL state to the engine."""
    core = pytest.importorskip("cardcore._core")
    calls: list[tuple[str, tuple[int, ...]]] = [
        ("current_player", ()), ("num_actions", ()), ("tensor_size", ()),
        ("legal_actions", ()), ("legal_mask", ()), ("verify", (0,)), ("reason_text", (1,)),
        ("apply", (0,)), ("returns", ()), ("observe_tensor", (0,)), ("events", ()),
        ("clone", ()), ("sample_infoset", (0, 1)), ("raw", ()),
    ]  # fmt: skip
    for empty in (core.GameState(), core.GameState.__new__(core.GameState)):
        for method, args in calls:
            with pytest.raises(ValueError, match="new_state"):
                getattr(empty, method)(*args)


@pytest.mark.parametrize("name", GAMES)
def test_stacked_deck(name: str) -> None:
    """A first deal from a given deck: deterministic, validated, replayable."""
    info = _core.game_info(name)
    game = load_game(name, num_players=info["min_players"])
    size = _core.game_info(name)["deck_size"]
    deck = list(range(size))[::-1]
    try:
        state = game.new_initial_state(5, deck=deck)
    except ValueError as exc:
        assert "cannot be dealt from a given deck" in str(exc)
        return
    again = game.new_initial_state(5, deck=deck)
    assert _snapshot(again) == _snapshot(state)
    assert _snapshot(State.from_json(state.to_json())) == _snapshot(state)
    assert state.deck == deck
    for bad in (deck[:-1], [*deck[:-1], deck[0]], [*deck, size]):
        with pytest.raises(InvalidCardError):
            game.new_initial_state(5, deck=bad)


@pytest.mark.parametrize("name", GAMES)
def test_stacked_deck_from_one_string(name: str) -> None:
    """A deck given as one string of card names equals the same deck as a list."""
    game = load_game(name, num_players=_core.game_info(name)["min_players"])
    size = _core.game_info(name)["deck_size"]
    card = game.CARD_TYPE
    names = [str(card(i)) for i in reversed(range(size))]
    try:
        by_list = game.new_initial_state(3, deck=names)
    except ValueError as exc:
        assert "cannot be dealt from a given deck" in str(exc)
        return
    by_text = game.new_initial_state(3, deck=" ".join(names))
    assert by_text.deck == by_list.deck
    if hasattr(card(0), "name"):  # a deck whose cards have full names too
        full = ", ".join(card(i).name for i in reversed(range(size)))
        assert game.new_initial_state(3, deck=full).deck == by_list.deck


@pytest.mark.parametrize("name", GAMES)
def test_sample_seed_must_be_an_integer(name: str) -> None:
    game = load_game(name, num_players=_core.game_info(name)["min_players"])
    state = game.new_initial_state(1)
    for bad in (-1, 2**64):
        with pytest.raises(ValueError, match="seed"):
            state.sample_infoset(0, bad)
    for wrong in (1.5, True, None, "1", np.float64(1.0)):
        with pytest.raises(TypeError, match="seed"):
            state.sample_infoset(0, wrong)  # type: ignore[arg-type]
