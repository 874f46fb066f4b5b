"""Everything a user keeps from a game pickles and unpickles to an equal value
(states, rules, games, observations, events), and states replay: an
unpickled state is the same engine state, byte for byte.  A game's own
results (scores, splits) are pickled in its own tests."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from pycards.game import Game, State, game_names, load_game

PROTOCOLS = range(2, pickle.HIGHEST_PROTOCOL + 1)


def _round_trip(value: Any, protocol: int) -> Any:
    return pickle.loads(pickle.dumps(value, protocol=protocol))


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_games_states_observations_events(name: str, protocol: int) -> None:
    game: Game[Any, Any] = load_game(name)
    rng = random.Random(protocol)
    state = game.new_initial_state(protocol)
    for _ in range(12):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    back: State[Any] = _round_trip(state, protocol)
    assert back.engine_state.raw() == state.engine_state.raw() and back.history == state.history
    assert back.game == game and back.seed == state.seed
    for preset in type(game.rules).presets().values():
        assert _round_trip(preset, protocol) == preset
    assert _round_trip(game, protocol) == game
    p = state.current_player if not state.is_terminal else 0
    assert _round_trip(state.observation(p), protocol) == state.observation(p)
    assert _round_trip(state.events(p), protocol) == state.events(p)
