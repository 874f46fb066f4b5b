"""The built-in search bots (bots.c): determinism, legality, budgets, the C match
loop against the Python loop, bad arguments, and strength against random play."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from cardcore import _core
from pycards.bots import RandomBot, make_bot
from pycards.bots.native import HeuristicBot, ISMCTSBot, NativeBot, PIMCBot
from pycards.errors import IllegalActionError, RulesError
from pycards.game import Game, load_game

GAMES = [("nodde", 2), ("nodde", 4), ("notakers", 2), ("notakers", 3), ("nancy", 4)]
GAMES += [("cribbage", 2), ("cribbage", 3)]


def _searcher(game: Game[Any, Any], kind: str, **kw: Any) -> _core.Searcher:
    return _core.Searcher(game._setup, kind, **kw)


def _advance(game: Game[Any, Any], seed: int, steps: int) -> Any:
    """A position ``steps`` random actions into the game dealt from ``seed``
    (fewer if the game ends; never a finished one)."""
    state = game.new_initial_state(seed)
    bot = RandomBot(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        before = state.clone()
        state.apply(bot.act(state.view(state.current_player)))
        if state.is_terminal:
            return before
    return state


def _rank_reward(ret: np.ndarray, seat: int) -> float:
    """The search's reward of a finished game for ``seat`` (docs/search.rst)."""
    others = np.delete(ret, seat)
    below = float((others < ret[seat]).sum())
    equal = float((others == ret[seat]).sum())
    return (below + 0.5 * equal) / len(others)


# ---------------------------------------------------------------------------
# determinism and legality


@pytest.mark.parametrize(("name", "n"), GAMES)
@pytest.mark.parametrize("kind", ["heuristic", "pimc", "ismcts"])
def test_same_seed_same_action_and_legal(name: str, n: int, kind: str) -> None:
    game = load_game(name, num_players=n)
    for pos in range(3):
        state = _advance(game, 100 + pos, 7 * pos)
        s = _searcher(game, kind, simulations=40, samples=4)
        chosen = []
        for _ in range(2):
            s.reset(99)
            chosen.append(s.act(state._s))
        assert chosen[0] == chosen[1]
        assert chosen[0] in state.legal_actions()
        # the search never changes the state it is given
        raw = state._s.raw()
        s.act(state._s)
        assert state._s.raw() == raw


@pytest.mark.parametrize(("name", "n"), GAMES)
def test_whole_games_are_legal_and_deterministic(name: str, n: int) -> None:
    game = load_game(name, num_players=n)
    specs = ["ismcts:simulations=8", "pimc:simulations=8:samples=2", "heuristic", "random"]
    results = []
    for _ in range(2):
        bots = [make_bot(specs[p % len(specs)], seed=p) for p in range(n)]
        for p, bot in enumerate(bots):
            bot.reset(1000 + p)
        state = game.new_initial_state(3)
        while not state.is_terminal:
            seat = state.current_player
            action = bots[seat].act(state.view(seat))
            assert action in state.legal_actions()
            state.apply(action)
        results.append((state.returns(), state.history))
    assert results[0] == results[1]


def test_different_seeds_explore_differently() -> None:
    game = load_game("nodde", num_players=2)
    state = _advance(game, 5, 3)
    s = _searcher(game, "random")
    seen = set()
    for seed in range(40):
        s.reset(seed)
        seen.add(s.act(state._s))
    assert seen == set(state.legal_actions())


# ---------------------------------------------------------------------------
# budgets


@pytest.mark.parametrize(("name", "n"), GAMES)
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_simulation_budget_is_exact(name: str, n: int, kind: str) -> None:
    game = load_game(name, num_players=n)
    for pos in range(4):
        state = _advance(game, 7 + pos, 5 * pos)
        s = _searcher(game, kind, simulations=37, samples=3)
        s.act(state._s)
        expected = 37 if len(state.legal_actions()) > 1 else 0
        assert s.last_simulations == expected
        if kind == "ismcts" and expected:
            assert 1 < s.last_nodes <= 38


def test_single_legal_action_is_played_without_search() -> None:
    game = load_game("nodde", num_players=2)
    for seed in range(200):
        state = _advance(game, seed, seed % 20)
        if len(state.legal_actions()) == 1:
            s = _searcher(game, "ismcts", simulations=50)
            assert s.act(state._s) == state.legal_actions()[0]
            assert s.last_simulations == 0
            return
    pytest.skip("no position with a single legal action found")


def test_time_budget_runs_and_respects_its_cap() -> None:
    game = load_game("nodde", num_players=2)
    state = game.new_initial_state(11)
    s = _searcher(game, "ismcts", simulations=0, seconds=0.02)
    assert s.act(state._s) in state.legal_actions()
    assert s.last_simulations >= 1
    capped = _searcher(game, "ismcts", simulations=5, seconds=30.0)
    capped.act(state._s)
    assert capped.last_simulations == 5
    p = _searcher(game, "pimc", simulations=7, seconds=30.0, samples=2)
    p.act(state._s)
    assert p.last_simulations == 7


# ---------------------------------------------------------------------------
# play_match: the C loop equals the Python loop


def _python_match(
    game: Game[Any, Any], bots: list[Any], deal_seeds: list[int], bot_seeds: list[list[int]]
) -> tuple[np.ndarray, np.ndarray]:
    returns = []
    moves = np.zeros(game.num_players, dtype=np.int64)
    for g, seed in enumerate(deal_seeds):
        state = game.new_initial_state(seed)
        for p, bot in enumerate(bots):
            bot.reset(bot_seeds[g][p])
        while not state.is_terminal:
            seat = state.current_player
            state.apply(bots[seat].act(state.view(seat)))
            moves[seat] += 1
        returns.append(state.returns())
    return np.array(returns, dtype=np.int32).reshape(len(deal_seeds), -1), moves


@pytest.mark.parametrize(
    ("name", "n", "games"), [("nodde", 2, 6), ("nodde", 4, 3), ("notakers", 3, 2), ("nancy", 4, 2)]
)
def test_play_match_equals_python_loop(name: str, n: int, games: int) -> None:
    game = load_game(name, num_players=n)
    specs = ["ismcts:simulations=10", "random", "pimc:simulations=6:samples=2", "heuristic"]
    bots = [make_bot(specs[p % len(specs)]) for p in range(n)]
    deal_seeds = [1000 + 17 * g for g in range(games)]
    bot_seeds = [[(g * 31 + p * 7) % 2**64 for p in range(n)] for g in range(games)]
    expected, expected_moves = _python_match(game, bots, deal_seeds, bot_seeds)

    def native(bot: Any) -> _core.Searcher:
        if isinstance(bot, NativeBot):
            return bot.native_searcher(game)
        assert isinstance(bot, RandomBot)
        return _core.Searcher(game._setup, "random")

    searchers = [native(b) for b in bots]
    returns, moves, seconds = _core.play_match(game._setup, searchers, deal_seeds, bot_seeds)
    assert returns.dtype == np.int32 and returns.shape == (games, n)
    np.testing.assert_array_equal(returns, expected)
    np.testing.assert_array_equal(moves, expected_moves)
    assert seconds.shape == (n,) and (seconds >= 0).all()
    # numpy seed arrays give the same games
    again = _core.play_match(
        game._setup,
        searchers,
        np.array(deal_seeds, dtype=np.uint64),
        np.array(bot_seeds, dtype=np.int64),
    )
    np.testing.assert_array_equal(again[0], expected)


def test_play_match_shares_one_searcher_between_seats() -> None:
    game = load_game("nodde", num_players=2)
    s = _core.Searcher(game._setup, "ismcts", simulations=10)
    t = _core.Searcher(game._setup, "ismcts", simulations=10)
    a = _core.play_match(game._setup, [s, s], [1, 2], [[3, 4], [5, 6]])
    b = _core.play_match(game._setup, [s, t], [1, 2], [[3, 4], [5, 6]])
    np.testing.assert_array_equal(a[0], b[0])
    empty = _core.play_match(game._setup, [s, t], [], np.zeros((0, 2), dtype=np.uint64))
    assert empty[0].shape == (0, 2) and list(empty[1]) == [0, 0]


# ---------------------------------------------------------------------------
# bad arguments


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
    s = _searcher(game, "ismcts", simulations=5)
    state = game.new_initial_state(1)
    other = load_game("nodde", num_players=3).new_initial_state(1)
    with pytest.raises(ValueError, match="another game"):
        s.act(other._s)
    with pytest.raises(TypeError):
        s.act(state)  # the pycards State, not the engine's
    cp = state.current_player
    with pytest.raises(ValueError, match="not the player to act"):
        s.act(state._s, 1 - cp)
    with pytest.raises(ValueError, match="player"):
        s.act(state._s, 2)
    with pytest.raises(TypeError, match="player"):
        s.act(state._s, True)
    assert s.act(state._s, cp) in state.legal_actions()
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError):
        s.act(state._s)
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


def test_registry_and_repr() -> None:
    assert isinstance(make_bot("heuristic", seed=2), HeuristicBot)
    bot = make_bot("ismcts:simulations=200:rollout=heuristic", seed=4)
    assert isinstance(bot, ISMCTSBot)
    assert bot.options["simulations"] == 200 and bot.options["rollout"] == "heuristic"
    assert "simulations=200" in repr(bot)
    assert isinstance(make_bot("pimc:samples=3"), PIMCBot)
    assert bot.name == "ismcts" and bot.last_simulations == 0


def test_searcher_follows_a_new_game() -> None:
    bot = ISMCTSBot(simulations=10)
    for name, n in [("nodde", 2), ("notakers", 2), ("nodde", 2)]:
        state = load_game(name, num_players=n).new_initial_state(1)
        bot.reset(1)
        assert bot.act(state.view(state.current_player)) in state.legal_actions()


# ---------------------------------------------------------------------------
# strength: ISMCTS against random play (fixed seeds; thresholds far from chance)


def _ismcts_vs_random(name: str, n: int, sims: int, games: int) -> list[float]:
    """The ISMCTS seat's rank rewards, the seat rotated over the games."""
    game = load_game(name, num_players=n)
    ismcts = _core.Searcher(game._setup, "ismcts", simulations=sims)
    rand = _core.Searcher(game._setup, "random")
    rewards = []
    for seat in range(n):
        seats = [ismcts if p == seat else rand for p in range(n)]
        deals = [seat * 100_000 + g for g in range(games // n)]
        bots = [[7 * g + p for p in range(n)] for g in range(games // n)]
        returns, _, _ = _core.play_match(game._setup, seats, deals, bots)
        rewards += [_rank_reward(r, seat) for r in returns]
    return rewards


def _significant(rewards: list[float], floor: float) -> None:
    """Mean reward above ``floor``, and above the 0.5 of an even match with a
    one-sided Hoeffding p-value below 0.005 (rewards lie in [0, 1]:
    P(mean >= 0.5 + t) <= exp(-2 n t**2) for an even match)."""
    n, mean = len(rewards), float(np.mean(rewards))
    assert mean > floor, mean
    assert math.exp(-2 * n * (mean - 0.5) ** 2) < 0.005, (n, mean)


def test_ismcts_beats_random_nodde() -> None:
    _significant(_ismcts_vs_random("nodde", 2, 200, 200), 0.6)


def test_ismcts_beats_random_notakers() -> None:
    _significant(_ismcts_vs_random("notakers", 2, 10, 16), 0.8)


def test_ismcts_beats_random_nancy() -> None:
    _significant(_ismcts_vs_random("nancy", 4, 10, 32), 0.7)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "n", "sims", "games", "floor"),
    [("nodde", 2, 1000, 200, 0.65), ("notakers", 3, 30, 30, 0.75), ("nancy", 4, 100, 40, 0.7)],
)
def test_ismcts_beats_random_more(name: str, n: int, sims: int, games: int, floor: float) -> None:
    _significant(_ismcts_vs_random(name, n, sims, games), floor)


# ---------------------------------------------------------------------------
# a forced win: positions where one legal action ends the game at once with
# the mover ahead of everyone (found by brute force over the legal actions),
# and every other action wins at most 90% of random playouts from states the
# mover cannot tell from the real one (not another sure win as far as the
# mover can know)


def _playout_reward(state: Any, action: int, seat: int, games: int) -> float:
    total = 0.0
    for r in range(games):
        after = state.sample_infoset(seat, r)
        after.apply(action)
        bot = RandomBot(r)
        while not after.is_terminal:
            after.apply(bot.act(after.view(after.current_player)))
        total += _rank_reward(np.array(after.returns()), seat)
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
                won = after.is_terminal and _rank_reward(np.array(after.returns()), seat) == 1
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
        s = _searcher(game, kind, simulations=400, samples=8)
        s.reset(0)
        assert s.act(state._s) == win, (state.history, win)
