"""The games in OpenSpiel: its random simulation test on every game and player
count, its ISMCTS and MCTS bots playing whole games (the Python ones, and the C++
MCTSBot in the C++ evaluate_bots), evaluate_bots with a pycards bot, resampling,
serialization, and an OpenSpiel bot seated in pycards."""

from __future__ import annotations

import base64
import builtins
import json
import pickle
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from _games import GAMES  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

from pycards.envs.openspiel import (  # noqa: E402
    OpenSpielBot,
    PycardsBot,
    deserialize,
    game_names,
    information_state_string,
    serialize,
)
from pycards.errors import IllegalActionError, RecordError, RulesError  # noqa: E402
from pycards.game import game_names as pycards_game_names  # noqa: E402
from pycards.game import load_game  # noqa: E402

# Rules that keep a game short enough for OpenSpiel's per-step checks (every
# string and tensor of every seat at every step), from each game's profile
# (a turn cap, a single deal).  Full games at the default rules: -m slow.
SHORT: dict[str, dict[str, Any]] = {
    f"pycards_{name}": case.profile.short_params for name, case in GAMES.items()
}
# every game of the registry, at every player count it supports
CONFIGS = [
    (name, n)
    for name in game_names()
    for n in range(
        load_game(name[len("pycards_") :]).info.min_players,
        load_game(name[len("pycards_") :]).info.max_players + 1,
    )
]


def load(name: str, players: int, **extra: Any) -> Any:
    return pyspiel.load_game(name, {"players": players, **SHORT.get(name, {}), **extra})


def test_game_names() -> None:
    assert game_names() == [f"pycards_{name}" for name in pycards_game_names()]
    assert "pycards_nodde" in game_names()
    assert set(game_names()) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_random_sim_test(name: str, players: int) -> None:
    pyspiel.random_sim_test(load(name, players), num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pycards_notakers", "pycards_nancy"])
def test_random_sim_test_default_rules(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_game_type_and_parameters() -> None:
    game = pyspiel.load_game("pycards_notakers", {"players": 4, "max_turns": 9, "seed": 3})
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 4 and game.num_distinct_actions() == 315
    assert game.pycards_game.rules.max_turns == 9
    state = game.new_initial_state()
    assert state.pycards_state.seed == 3  # the k-th state is dealt from seed + k
    assert game.new_initial_state().pycards_state.seed == 4
    assert game.observation_tensor_size() == game.pycards_game.tensor_size
    assert game.information_state_tensor_size() == game.pycards_game.tensor_size
    with pytest.raises(RulesError, match="9 players"):
        pyspiel.load_game("pycards_nodde", {"players": 9})


def test_views_are_the_pycards_views_and_resampling_keeps_the_infostate() -> None:
    game = load("pycards_nancy", 4)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(40):
        p = state.current_player()
        ps = state.pycards_state
        assert state.observation_string(p) == ps.table(p)
        np.testing.assert_array_equal(state.observation_tensor(p), ps.observation_tensor(p))
        assert state.information_state_string(p) == information_state_string(ps, p)
        sample = state.resample_from_infostate(p, sampler)
        assert sample.information_state_string(p) == state.information_state_string(p)
        assert sample.legal_actions() == state.legal_actions()
        action = int(rng.choice(state.legal_actions()))
        assert state.action_to_string(p, action) == ps.game.action_name(action)
        state.apply_action(action)


def test_illegal_action_raises_and_changes_nothing() -> None:
    state = load("pycards_nodde", 2).new_initial_state()
    before = str(state)
    illegal = next(a for a in range(52) if a not in state.legal_actions())
    with pytest.raises((IllegalActionError, pyspiel.SpielError, RuntimeError)):
        state.apply_action(illegal)
    assert str(state) == before


def test_serialization_and_pickle() -> None:
    game = load("pycards_notakers", 3)
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    again = deserialize(serialize(state))
    assert str(again) == str(state) and again.history() == state.history()
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.returns() == state.returns()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_pyspiel_serialize_game_and_state_round_trip(name: str, players: int) -> None:
    game = load(name, players, seed=7)
    game.new_initial_state()  # the game's generator moves on: state 1 is dealt from seed + 1
    state = game.new_initial_state()
    rng = np.random.default_rng(players)
    for _ in range(9):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    assert "[GameRNGState]\n2\n" in text
    new_game, new_state = pyspiel.deserialize_game_and_state(text)
    assert str(new_game) == str(game)
    assert str(new_state) == str(state) and new_state.history() == state.history()
    assert new_state.information_state_string(0) == state.information_state_string(0)
    # the same future: the state's moves and deals, and the game's next deal
    while not state.is_terminal() and len(state.history()) < 40:
        a = int(rng.choice(state.legal_actions()))
        state.apply_action(a)
        new_state.apply_action(a)
        assert str(new_state) == str(state)
    assert str(new_game.new_initial_state()) == str(game.new_initial_state())
    # pickling a game keeps its generator state (OpenSpiel's sampled-stochastic test)
    twin = pickle.loads(pickle.dumps(game))
    assert str(twin.new_initial_state()) == str(game.new_initial_state())


def test_other_games_still_use_openspiel_serialization() -> None:
    game = pyspiel.load_game("kuhn_poker")
    state = game.new_initial_state()
    state.apply_action(0)
    text = pyspiel.serialize_game_and_state(game, state)
    new_game, new_state = pyspiel.deserialize_game_and_state(text)
    assert str(new_game) == str(game) and str(new_state) == str(state)
    with pytest.raises(ValueError, match="count of states"):
        load("pycards_nodde", 2).set_rng_state("x")


def play_full_game(game: Any, bots: list[Any]) -> list[float]:
    """evaluate_bots' loop for bots that cannot restart_at (OpenSpiel's Python
    ISMCTS and MCTS bots): each bot steps on its turn."""
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    returns: list[float] = state.returns()
    return returns


@pytest.mark.parametrize(
    ("name", "players"),
    [("pycards_nodde", 2), ("pycards_nancy", 3), ("pycards_notakers", 2), ("pycards_cribbage", 2)],
)
def test_ismcts_and_mcts_play_full_games(name: str, players: int) -> None:
    game = load(name, players)
    rs = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    is_bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rs)
    mc_bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rs)
    others = [PycardsBot("random", p, seed=p) for p in range(2, players)]
    returns = play_full_game(game, [is_bot, mc_bot, *others])
    assert len(returns) == players


@pytest.mark.parametrize(
    ("name", "players"),
    [("pycards_nodde", 3), ("pycards_nancy", 4), ("pycards_notakers", 2), ("pycards_cribbage", 2)],
)
def test_cpp_mcts_bots_play_full_games_in_evaluate_bots(name: str, players: int) -> None:
    """OpenSpiel's C++ MCTSBot in its C++ evaluate_bots, which keeps the GIL
    (the bot's own ``step`` binding releases it, and a Python game cannot be
    called without it): every seat searches, every move is checked by apply."""
    game = load(name, players)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 7)
    bots = [
        pyspiel.MCTSBot(game, evaluator, 2.0, 6, 64, False, 11 + p, False) for p in range(players)
    ]
    state = game.new_initial_state()
    returns = pyspiel.evaluate_bots(state, bots, 1)  # plays state to its end
    assert state.is_terminal() and list(returns) == state.returns()
    assert len(state.history()) > 2 * players
    assert all(float(r).is_integer() for r in returns) and any(returns)


def test_cpp_ismcts_bot_needs_a_resampler_pyspiel_does_not_pass_on() -> None:
    """OpenSpiel's C++ ISMCTSBot asks the C++ state to ResampleFromInfostate,
    which pyspiel's Python-game state does not forward to Python (and the
    bot's resampler callback is not bound): a clear SpielError, no crash.
    Called through step_with_policy, which keeps the GIL.  (If a pyspiel
    release forwards it, this fails: the bot then works on our games.)"""
    game = load("pycards_nodde", 2)
    bot = pyspiel.ISMCTSBot(5, pyspiel.RandomRolloutEvaluator(1, 7), 2.0, 8)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        state.apply_action(outcomes[0][0] if outcomes else state.legal_actions()[0])
    with pytest.raises(pyspiel.SpielError, match="ResampleFromInfostate"):
        bot.step_with_policy(state)
    # our own resampling answers the same question through Python
    assert state.resample_from_infostate(state.current_player(), lambda: 0.5) is not None


def test_evaluate_bots_pycards_bot_against_openspiel_bot() -> None:
    game = load("pycards_nodde", 2)
    ours = PycardsBot("random", 0, seed=3)
    theirs = pyspiel.make_uniform_random_bot(1, 5)
    totals = np.zeros(2)
    for seed in range(3):
        state = game.new_initial_state()
        totals += evaluate_bots.evaluate_bots(state, [ours, theirs], np.random.RandomState(seed))
    assert totals.sum() > 0


def test_openspiel_bot_in_pycards_acts_from_a_resampled_state() -> None:
    game = load("pycards_nodde", 2)
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = OpenSpielBot(game, ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rs))
    bot.reset(0)
    state = game.pycards_game.new_initial_state(5)
    while not state.is_terminal:
        p = state.current_player
        action = bot.act(state.view(p))
        assert action in state.legal_actions()
        state.apply(action)


# ---------------------------------------------------------------------------
# the state's text: never unpickled, and checked


def test_openspiel_state_text_is_never_unpickled() -> None:
    game = pyspiel.load_game("pycards_nodde")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    text = pyspiel.serialize_game_and_state(game, state)
    assert "__dict__" not in text and "[State]\npycards={" in text

    class Payload:
        def __reduce__(self) -> tuple[Any, ...]:
            return (exec, ("import builtins; builtins._pycards_pwned = True",))

    blob = base64.b64encode(pickle.dumps(Payload())).decode()
    head = text.split("[State]\n")[0]
    crafted = f"{head}[State]\nhistory=1:18\nmove_number=1\n__dict__={blob}\n"
    try:
        with pytest.raises(RecordError, match="a pickled state is not read"):
            pyspiel.deserialize_game_and_state(crafted)
        with pytest.raises(RecordError, match="a pickled state is not read"):
            game.deserialize_state(f"history=1:18\nmove_number=1\n__dict__={blob}")
        assert not hasattr(builtins, "_pycards_pwned")
    finally:
        if hasattr(builtins, "_pycards_pwned"):
            del builtins._pycards_pwned


def test_openspiel_state_text_is_checked() -> None:
    game = pyspiel.load_game("pycards_notakers", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[-1])
    text = serialize(state)
    assert str(deserialize(text)) == str(state)
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)
    data = json.loads(text)
    with pytest.raises(RecordError, match="given twice"):
        deserialize(text.replace('"game": ', '"game": "x", "game": ', 1))
    with pytest.raises(RecordError, match="not a pycards game"):
        deserialize(json.dumps({**data, "game": "kuhn_poker"}))
    other = pyspiel.load_game("pycards_notakers", {"players": 4})
    with pytest.raises(RecordError, match="not of this game"):
        other.deserialize_state(state.serialize())
    with pytest.raises(ValueError, match="count of states"):
        game.set_rng_state("\uff12")
