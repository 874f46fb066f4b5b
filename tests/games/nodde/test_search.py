"""The search bots on Nodde Knave positions: exploration, budgets, bad
arguments and a forced win (the checks over every game are in test_search.py)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from _play import advance, rank_reward, searcher

from cardcore import _core
from pycards.bots import RandomBot, make_bot
from pycards.bots.native import ISMCTSBot, PIMCBot
from pycards.errors import IllegalActionError, RulesError
from pycards.game import Game, load_game


def test_different_seeds_explore_differently() -> None:
    game = load_game("nodde", num_players=2)
    state = advance(game, 5, 3)
    s = searcher(game, "random")
    seen = set()
    for seed in range(40):
        s.reset(seed)
        seen.add(s.act(state.engine_state))
    assert seen == set(state.legal_actions())


def test_single_legal_action_is_played_without_search() -> None:
    game = load_game("nodde", num_players=2)
    for seed in range(200):
        state = advance(game, seed, seed % 20)
        if len(state.legal_actions()) == 1:
            s = searcher(game, "ismcts", simulations=50)
            assert s.act(state.engine_state) == state.legal_actions()[0]
            assert s.last_simulations == 0
            return
    pytest.skip("no position with a single legal action found")


def test_time_budget_runs_and_respects_its_cap() -> None:
    game = load_game("nodde", num_players=2)
    state = game.new_initial_state(11)
    s = searcher(game, "ismcts", simulations=0, seconds=0.02)
    assert s.act(state.engine_state) in state.legal_actions()
    assert s.last_simulations >= 1
    capped = searcher(game, "ismcts", simulations=5, seconds=30.0)
    capped.act(state.engine_state)
    assert capped.last_simulations == 5
    p = searcher(game, "pimc", simulations=7, seconds=30.0, samples=2)
    p.act(state.engine_state)
    assert p.last_simulations == 7


def test_play_match_shares_one_searcher_between_seats() -> None:
    game = load_game("nodde", num_players=2)
    s = _core.Searcher(game._setup, "ismcts", simulations=10)
    t = _core.Searcher(game._setup, "ismcts", simulations=10)
    a = _core.play_match(game._setup, [s, s], [1, 2], [[3, 4], [5, 6]])
    b = _core.play_match(game._setup, [s, t], [1, 2], [[3, 4], [5, 6]])
    np.testing.assert_array_equal(a[0], b[0])
    empty = _core.play_match(game._setup, [s, t], [], np.zeros((0, 2), dtype=np.uint64))
    assert empty[0].shape == (0, 2) and list(empty[1]) == [0, 0]


def test_bad_searcher_arguments() -> None:
    setup = load_game("nodde", num_players=2)._setup
    with pytest.raises(TypeError, match="kind"):
        _core.Searcher(setup, 3)
    with pytest.raises(ValueError, match="kind"):
        _core.Searcher(setup, "mcts")
    with pytest.raises(ValueError, match="rollout"):
        _core.Searcher(setup, "ismcts", rollout="greedy")
    for bad in (True, 1.5, None, "10"):
        with pytest.raises(TypeError, match="simulations"):
            _core.Searcher(setup, "ismcts", simulations=bad)
    for value in (0, -1, 10**9, 2**70):
        with pytest.raises(ValueError, match="simulations"):
            _core.Searcher(setup, "ismcts", simulations=value)
    for value in (0, -0.5, math.nan, math.inf, 1e9):
        with pytest.raises(ValueError, match="seconds"):
            _core.Searcher(setup, "ismcts", seconds=value)
    with pytest.raises(TypeError, match="seconds"):
        _core.Searcher(setup, "ismcts", seconds=True)
    for value in (-1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match="exploration"):
            _core.Searcher(setup, "ismcts", exploration=value)
    with pytest.raises(TypeError, match="exploration"):
        _core.Searcher(setup, "ismcts", exploration="0.7")
    for value in (0, -3, 10**6):
        with pytest.raises(ValueError, match="samples"):
            _core.Searcher(setup, "pimc", samples=value)
    with pytest.raises(TypeError):
        _core.Searcher(None, "ismcts")  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        _core.Searcher(_core.GameSetup("nodde", setup_params("nodde"), 0), "random")


def setup_params(name: str) -> list[int]:
    return [p["default"] for p in _core.game_info(name)["params"]]


def test_bad_act_arguments() -> None:
    game = load_game("nodde", num_players=2)
    s = searcher(game, "ismcts", simulations=5)
    state = game.new_initial_state(1)
    other = load_game("nodde", num_players=3).new_initial_state(1)
    with pytest.raises(ValueError, match="another game"):
        s.act(other.engine_state)
    with pytest.raises(TypeError):
        s.act(state)  # the pycards State, not the engine's
    cp = state.current_player
    with pytest.raises(ValueError, match="not the player to act"):
        s.act(state.engine_state, 1 - cp)
    with pytest.raises(ValueError, match="player"):
        s.act(state.engine_state, 2)
    with pytest.raises(TypeError, match="player"):
        s.act(state.engine_state, True)
    assert s.act(state.engine_state, cp) in state.legal_actions()
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError):
        s.act(state.engine_state)
    for bad in (-1, 2**64, 1.0, None):
        with pytest.raises((TypeError, ValueError), match="seed"):
            s.reset(bad)


def test_bad_play_match_arguments() -> None:
    game = load_game("nodde", num_players=2)
    setup = game._setup
    s = _core.Searcher(setup, "random")
    other = _core.Searcher(load_game("nodde", num_players=3)._setup, "random")
    with pytest.raises(ValueError, match="one per seat"):
        _core.play_match(setup, [s], [1], [[1, 2]])
    with pytest.raises(TypeError, match=r"searchers\[1\]"):
        _core.play_match(setup, [s, "random"], [1], [[1, 2]])
    with pytest.raises(ValueError, match=r"searchers\[1\]"):
        _core.play_match(setup, [s, other], [1], [[1, 2]])
    with pytest.raises(ValueError, match="bot_seeds"):
        _core.play_match(setup, [s, s], [1, 2], [[1, 2]])
    with pytest.raises(ValueError, match=r"bot_seeds\[0\]"):
        _core.play_match(setup, [s, s], [1], [[1, 2, 3]])
    with pytest.raises(ValueError, match=r"deal_seeds\[0\]"):
        _core.play_match(setup, [s, s], [-1], [[1, 2]])
    with pytest.raises(TypeError, match=r"deal_seeds\[0\]"):
        _core.play_match(setup, [s, s], [1.0], [[1, 2]])
    with pytest.raises(TypeError, match="deal_seeds"):
        _core.play_match(setup, [s, s], np.array([1.0]), [[1, 2]])
    with pytest.raises(ValueError, match="bot_seeds"):
        _core.play_match(setup, [s, s], [1], np.array([[1, -2]]))
    with pytest.raises(TypeError, match="deal_seeds"):
        _core.play_match(setup, [s, s], 5, [[1, 2]])


def test_bad_bot_options() -> None:
    with pytest.raises(ValueError, match="simulations"):
        ISMCTSBot(simulations=0)
    with pytest.raises(TypeError, match="simulations"):
        PIMCBot(simulations=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rollout"):
        make_bot("ismcts:rollout=smart")
    with pytest.raises(ValueError, match="samples"):
        make_bot("pimc:samples=0")
    with pytest.raises(ValueError):
        make_bot("heuristic:simulations=5")
    with pytest.raises(TypeError, match="seed"):
        ISMCTSBot(seed=1.0)  # type: ignore[arg-type]
    bot = ISMCTSBot(simulations=5)
    state = load_game("nodde", num_players=2).new_initial_state(2)
    waiting = 1 - state.current_player
    with pytest.raises(ValueError, match="not its turn"):
        bot.act(state.view(waiting))
    with pytest.raises(TypeError, match="PlayerView"):
        bot.act(state)  # type: ignore[arg-type]


def _playout_reward(state: Any, action: int, seat: int, games: int) -> float:
    total = 0.0
    for r in range(games):
        after = state.sample_infoset(seat, r)
        after.apply(action)
        bot = RandomBot(r)
        while not after.is_terminal:
            after.apply(bot.act(after.view(after.current_player)))
        total += rank_reward(np.array(after.returns()), seat)
    return total / games


def _winning_moves(game: Game[Any, Any], count: int) -> list[tuple[Any, int]]:
    out: list[tuple[Any, int]] = []
    for seed in range(2000):
        state = game.new_initial_state(seed)
        bot = RandomBot(seed)
        while not state.is_terminal:
            seat = state.current_player
            legal = state.legal_actions()
            wins, others = [], []
            for a in legal:
                after = state.clone()
                after.apply(a)
                won = after.is_terminal and rank_reward(np.array(after.returns()), seat) == 1
                (wins if won else others).append(a)
            if len(wins) == 1 and others:
                if all(_playout_reward(state, a, seat, 50) <= 0.9 for a in others):
                    out.append((state.clone(), wins[0]))
                break
            state.apply(bot.act(state.view(seat)))
        if len(out) >= count:
            break
    return out


@pytest.mark.parametrize("kind", ["ismcts", "pimc"])
def test_search_finds_the_winning_move(kind: str) -> None:
    game = load_game("nodde", num_players=2)
    cases = _winning_moves(game, 6)
    assert len(cases) == 6
    for state, win in cases:
        s = searcher(game, kind, simulations=400, samples=8)
        s.reset(0)
        assert s.act(state.engine_state) == win, (state.history, win)
