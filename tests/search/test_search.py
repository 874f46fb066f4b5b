"""The built-in search bots (bots.c): determinism, legality, budgets, the C match
loop against the Python loop, bad arguments, and strength against random play."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from _games import GAMES, game_params
from _play import advance, rank_reward, searcher

from cardcore import _core
from pycards.bots import RandomBot, make_bot, parse_bot_spec
from pycards.bots.native import HeuristicBot, ISMCTSBot, NativeBot, PIMCBot
from pycards.game import Game, load_game

TABLES = game_params("tables")
#: the usual table of the first registered game, for the tests of one game
FIRST = next(iter(GAMES.values()))


# ---------------------------------------------------------------------------
# determinism and legality


@pytest.mark.parametrize(("name", "n"), TABLES)
@pytest.mark.parametrize("kind", ["heuristic", "pimc", "ismcts"])
def test_same_seed_same_action_and_legal(name: str, n: int, kind: str) -> None:
    game = load_game(name, num_players=n)
    for pos in range(3):
        state = advance(game, 100 + pos, 7 * pos)
        s = searcher(game, kind, simulations=40, samples=4)
        chosen = []
        for _ in range(2):
            s.reset(99)
            chosen.append(s.act(state.engine_state))
        assert chosen[0] == chosen[1]
        assert chosen[0] in state.legal_actions()
        # the search never changes the state it is given
        raw = state.engine_state.raw()
        s.act(state.engine_state)
        assert state.engine_state.raw() == raw


@pytest.mark.parametrize(("name", "n"), TABLES)
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


# ---------------------------------------------------------------------------
# budgets


@pytest.mark.parametrize(("name", "n"), TABLES)
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_simulation_budget_is_exact(name: str, n: int, kind: str) -> None:
    game = load_game(name, num_players=n)
    for pos in range(4):
        state = advance(game, 7 + pos, 5 * pos)
        s = searcher(game, kind, simulations=37, samples=3)
        s.act(state.engine_state)
        expected = 37 if len(state.legal_actions()) > 1 else 0
        assert s.last_simulations == expected
        if kind == "ismcts" and expected:
            assert 1 < s.last_nodes <= 38


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


@pytest.mark.parametrize(("name", "n"), TABLES)
def test_play_match_equals_python_loop(name: str, n: int) -> None:
    game = load_game(name, num_players=n)
    games = 3
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


# ---------------------------------------------------------------------------
# bad arguments


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
    names = list(GAMES)
    for name in [*names, names[0]]:
        n = GAMES[name].min_players
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
        rewards += [rank_reward(r, seat) for r in returns]
    return rewards


def _significant(rewards: list[float], floor: float) -> None:
    """Mean reward above ``floor``, and above the 0.5 of an even match with a
    one-sided Hoeffding p-value below 0.005 (rewards lie in [0, 1]:
    P(mean >= 0.5 + t) <= exp(-2 n t**2) for an even match)."""
    n, mean = len(rewards), float(np.mean(rewards))
    assert mean > floor, mean
    assert math.exp(-2 * n * (mean - 0.5) ** 2) < 0.005, (n, mean)


def _matches(slow: bool) -> list[Any]:
    """The ISMCTS matches of the games whose profile sets one."""
    out = []
    for name, case in GAMES.items():
        match = case.profile.ismcts_match_slow if slow else case.profile.ismcts_match
        if match is not None:
            out.append(pytest.param(name, *match, id=name))
    return out


@pytest.mark.parametrize(("name", "n", "sims", "games", "floor"), _matches(slow=False))
def test_ismcts_beats_random(name: str, n: int, sims: int, games: int, floor: float) -> None:
    _significant(_ismcts_vs_random(name, n, sims, games), floor)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "n", "sims", "games", "floor"), _matches(slow=True))
def test_ismcts_beats_random_more(name: str, n: int, sims: int, games: int, floor: float) -> None:
    _significant(_ismcts_vs_random(name, n, sims, games), floor)


# ---------------------------------------------------------------------------
# a forced win: positions where one legal action ends the game at once with
# the mover ahead of everyone (found by brute force over the legal actions),
# and every other action wins at most 90% of random playouts from states the
# mover cannot tell from the real one (not another sure win as far as the
# mover can know)


# ---------------------------------------------------------------------------
# bot specs: look-alike digits and names, the seed's type


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:simulations=\uff12\uff10\uff10",
        "ismcts:simulations=\u0662\u0660\u0660",
        "ismcts:s\u0131mulations=200",  # dotless i: an identifier, not ASCII
        "random\u3000",
        "ismcts: simulations=200",
    ],
)
def test_look_alike_bot_specs_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="bot spec"):
        parse_bot_spec(spec)
    with pytest.raises(ValueError, match="bot spec"):
        make_bot(spec)


def test_bot_spec_numbers_are_ascii_ints_and_floats() -> None:
    assert parse_bot_spec("x:a=200:b=-3:c=0.5:d=1e3:e=nan:f=inf") == (
        "x",
        {"a": 200, "b": -3, "c": 0.5, "d": 1000.0, "e": "nan", "f": "inf"},
    )
    # int() would read "1_0" as 10: here it stays text, which no bot takes as a count
    assert parse_bot_spec("pimc:samples=1_0") == ("pimc", {"samples": "1_0"})
    with pytest.raises(ValueError, match="bot spec"):
        make_bot("pimc:samples=1_0")


@pytest.mark.parametrize("seed", [1.0, None, "1", True, [1]])
def test_make_bot_refuses_a_seed_of_the_wrong_type(seed: object) -> None:
    with pytest.raises(TypeError, match="seed must be an int"):
        make_bot("random", seed=seed)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int"):
        make_bot("heuristic", seed=seed)  # type: ignore[arg-type]


def test_make_bot_refuses_a_seed_out_of_range() -> None:
    with pytest.raises(ValueError, match="seed must be 0"):
        make_bot("random", seed=-1)
    with pytest.raises(ValueError, match="seed must be 0"):
        make_bot("random", seed=1 << 64)
