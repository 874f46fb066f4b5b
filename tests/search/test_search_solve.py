"""The solver leaf of the search bots (``solve``, cc_bots.h, docs/search.rst)
and the bot ``best``: the option's checks and errors, and, for every game
with an exact solver, that a search whose determinizations are the true
state plays a solver-optimal move."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from cardcore import _core
from pycards.bots import make_bot
from pycards.game import game_names, load_game


def _has_solver(name: str) -> bool:
    state = load_game(name, num_players=2).new_initial_state(seed=1)
    try:
        state.engine_state.solve()
    except ValueError as exc:
        return "has no solver" not in str(exc)
    return True


@pytest.mark.parametrize(
    ("value", "exc"), [(-1, ValueError), (79, ValueError), (True, TypeError), (2.0, TypeError)]
)
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_bad_solve_named(kind: str, value: Any, exc: type[Exception]) -> None:
    with pytest.raises(exc, match="solve"):
        _core.check_bot(kind, solve=value)


def test_solve_only_for_search() -> None:
    _core.check_bot("pimc", solve=78)
    with pytest.raises(ValueError, match="solve is for the pimc and ismcts bots"):
        _core.check_bot("heuristic", solve=3)


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_game_without_solver_names_solve(name: str, kind: str) -> None:
    if _has_solver(name):
        pytest.skip(f"{name} has a solver")
    game = load_game(name, num_players=2)
    with pytest.raises(ValueError, match=r"solve must be 0 for .*no exact solver"):
        _core.Searcher(game._setup, kind, simulations=10, solve=4)
    state = game.new_initial_state(seed=2)
    bot = make_bot(f"{kind}:simulations=10:solve=4", seed=1)
    with pytest.raises(ValueError, match="solve"):
        bot.act(state.view(state.current_player))


def _within_reach(name: str, seed: int) -> Iterator[Any]:
    """The two-player states of ``name`` that the solver takes, with 2 or
    more legal actions, along one game of random legal moves."""
    game = load_game(name, num_players=2)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        depth = state.engine_state.solve_depth()
        if 0 <= depth <= 8 and len(legal) > 1:
            yield state.clone()
        state.apply(int(rng.choice(legal)))


def _margin(state: Any, seat: int) -> float:
    ret = state.returns()
    return float(ret[seat] - (sum(ret) - ret[seat]) / (len(ret) - 1))


def _deal_reward(state: Any, action: int) -> float:
    """The margin the seat to act gains by ``action`` and the solver's line
    after it, read where the solver stops taking the state (the depth is -1
    or grows, or the game ends)."""
    seat = state.current_player
    start = _margin(state, seat)
    c = state.clone()
    c.apply(action)
    depth = c.engine_state.solve_depth()
    while not c.is_terminal and 0 <= c.engine_state.solve_depth() <= depth:
        depth = c.engine_state.solve_depth()
        legal = c.legal_actions()
        values = c.engine_state.solve()[0] if len(legal) > 1 else None
        c.apply(legal[0] if values is None else max(legal, key=lambda a: values[a]))
    return _margin(c, seat) - start


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_full_information_picks_a_solver_optimal_move(name: str, kind: str) -> None:
    """At a position where every determinization has the true state's solver
    values (the seat may know every card that matters), the searcher picks
    an action of the highest value: with the margin reward and the deal
    horizon, every simulation through an action is worth its solver value
    plus one constant.
    The first such positions are often late in the play (where the other
    hand matters until it is played), so each game is
    walked on; the reach is the state's own depth, so that no later deal's
    whole play is handed to the solver."""
    if not _has_solver(name):
        pytest.skip(f"{name} has no solver")
    found = 0
    for seed in range(60):
        for state in _within_reach(name, seed):
            values, _ = state.engine_state.solve()
            seat = state.current_player
            legal = state.legal_actions()
            # the search reads the deal's end where the next deal is dealt
            # (a game may peg the new hands then, or count a show after the
            # play): every determinization must gain the solver's value
            # plus one constant by each action
            gains = [_deal_reward(state, a) - values[a] for a in legal]
            if len(set(gains)) > 1:
                continue
            same = True
            for k in range(8):
                det = state.sample_infoset(seat, k)
                if not np.array_equal(det.engine_state.solve()[0], values, equal_nan=True) or any(
                    _deal_reward(det, a) - values[a] != gains[0] for a in legal
                ):
                    same = False
                    break
            if not same:
                continue
            searcher = _core.Searcher(
                state.game._setup,
                kind,
                simulations=2000,
                samples=4,
                reward="margin",
                horizon="deal",
                solve=state.engine_state.solve_depth(),
            )
            searcher.reset(seed)
            a = searcher.act(state.engine_state)
            assert values[a] == np.nanmax(values), (seed, a, values)
            found += 1
            break
    assert found > 0


@pytest.mark.parametrize("name", game_names())
def test_best_plays_the_games_best_bot(name: str) -> None:
    """``best`` plays exactly the moves of the game's BEST_BOT spec."""
    game = load_game(name, num_players=2)
    spec = type(game).BEST_BOT
    best, same = make_bot("best", seed=5), make_bot(spec, seed=5)
    state = game.new_initial_state(seed=4)
    for _ in range(6):
        if state.is_terminal:
            break
        view = state.view(state.current_player)
        a = best.act(view)
        assert a == same.act(view)
        state.apply(a)
