"""The cribbage solver (games/cribbage/cribbage_solve.c, core/play_solve.c)
against a brute-force minimax written here over the engine's own moves
(clone, apply, returns, legal_actions), on random positions of the play:
every player count, the partnerships, the crib flush rule, short targets (a
game ending in the play or the show), the margin and win-table valuations;
and its errors.

The brute force values a deal where it is scored: a state back in the
discard (the next deal) has the deal's scores, a finished one the game's.
The full run (10,000 positions and more) is ``-m slow``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from _play import mixed_moves
from _solve import brute_force_tests, check_solver, deal_value

from pycards.game import State, load_game
from pycards.games.cribbage import CribbageRules

PLAY = 52  # the first play action; below it, the discards


def _sides(state: State[Any]) -> list[int]:
    """Each seat's side: with 4 players from the partners events."""
    n = state.num_players
    if n != 4:
        return list(range(n))
    side = [0] * n
    for e in state.events():
        if e.kind == "partners":
            side[e.player] = side[e.target] = e.value if e.value is not None else 0
    return side


def _brute(s: Any, root: int, sides: list[int], table: Any, target: int) -> dict[int, float]:
    """Minimax value to root's side of each legal action of the raw state s."""
    out = {}
    for a in s.legal_actions():
        c = s.clone()
        c.apply(a)
        out[a] = _node(c, root, sides, table, target)
    return out


def _node(s: Any, root: int, sides: list[int], table: Any, target: int) -> float:
    p = s.current_player()
    if p < 0:
        return deal_value(list(s.returns()), root, True, -1, table, target)
    legal = s.legal_actions()
    if min(legal) < PLAY:  # the next deal's discards: the deal is scored
        dealer = 1 - p if len(sides) == 2 else -1
        return deal_value(list(s.returns()), root, False, dealer, table, target)
    vals = _brute(s, root, sides, table, target).values()
    return max(vals) if sides[p] == sides[root] else min(vals)


def _positions(n: int, rules: CribbageRules, seed: int, count: int, max_left: int) -> list[Any]:
    """Play positions from games of heuristic and random moves."""
    game = load_game("cribbage", rules=rules, num_players=n)
    rng = random.Random(seed)
    out: list[Any] = []
    g = 0
    while len(out) < count:
        take = rng.random() < 0.5
        for state in mixed_moves(game.new_initial_state(seed * 1000 + g), rng):
            if len(out) == count:
                break
            depth = state.solve_depth
            if 0 < depth <= max_left and take:
                out.append(state.clone())
            take = rng.random() < 0.3
        g += 1
    return out


CASES = [
    (2, CribbageRules()),
    (2, CribbageRules(game_target=31)),
    (2, CribbageRules(game_target=61, crib_four_flush=True)),
    (3, CribbageRules()),
    (3, CribbageRules(game_target=25, crib_four_flush=True)),
    (4, CribbageRules()),
    (4, CribbageRules(partnership="seats", game_target=31)),
]


def _check(n: int, rules: CribbageRules, seed: int, count: int, win: bool) -> int:
    max_left = {2: 8, 3: 9, 4: 8}[n]
    target = rules.game_target
    return check_solver(
        _positions(n, rules, seed, count, max_left),
        lambda state, table: _brute(
            state.engine_state, state.current_player, _sides(state), table, target
        ),
        target,
        seed,
        win,
    )


(
    test_solver_agrees_with_brute_force_margin,
    test_solver_agrees_with_brute_force_win_table,
    test_solver_agrees_with_brute_force_many,
) = brute_force_tests(CASES, _check, 25)


def test_depth_and_errors() -> None:
    game = load_game("cribbage")
    state = game.new_initial_state(3)
    assert state.solve_depth == -1  # the discard
    with pytest.raises(ValueError):
        state.solve()
    while state.solve_depth < 0:
        state.apply(state.legal_actions()[0])
    assert state.solve_depth == 8
    with pytest.raises(RuntimeError):
        state.solve(max_nodes=3)
    with pytest.raises(ValueError):
        state.solve(win_table=np.full((121, 121), 1.5))
    with pytest.raises(ValueError):
        state.solve(win_table=np.full((121, 121), np.nan))
    values = state.solve()
    assert set(values) == set(state.legal_actions())
    table = np.random.default_rng(0).random((121, 121))
    assert all(0.0 <= v <= 1.0 for v in state.solve(win_table=table).values())
    three = load_game("cribbage", num_players=3).new_initial_state(3)
    while three.solve_depth < 0:
        three.apply(three.legal_actions()[0])
    with pytest.raises(ValueError):
        three.solve(win_table=table)


def test_muggins_play_is_not_taken() -> None:
    game = load_game("cribbage", rules=CribbageRules(muggins=True))
    state = game.new_initial_state(3)
    for _ in range(60):
        if state.is_terminal:
            break
        assert state.solve_depth == -1
        state.apply(state.legal_actions()[0])


def test_threads_solve_at_once_alike() -> None:
    # the solver keeps nothing between calls (its table is its own): solving
    # in threads at once (the binding lets go of the GIL) gives the same values
    from concurrent.futures import ThreadPoolExecutor

    states = _positions(3, CribbageRules(), 11, 12, 12)
    alone = [s.solve() for s in states]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda s: s.solve(), states * 3))
    assert together == alone * 3
