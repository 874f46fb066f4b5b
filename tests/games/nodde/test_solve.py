"""The Nodde Knave solver (games/nodde/nodde_solve.c, core/play_solve.c)
against a brute-force minimax written here over the public State API (clone,
apply, returns, legal_actions, events), on random positions of the play: 2
to 4 players, partners and individual, the play scoring variants (runs, 25,
flushes in play), short targets (a game ending in the play), the margin and
win-table valuations; and its errors.

The brute force values a deal where its play ends: when a move deals the
next deal, the points that deal pegs as it is dealt (a turned Knave, the
hands) are taken back off the returns.  The full run (10,000 positions and
more) is ``-m slow``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from _play import mixed_moves
from _solve import brute_force_tests, check_solver, deal_value

from pycards.game import State, load_game
from pycards.games.nodde import NoddeRules

NEXT_DEAL_PEGS = ("turned_knave", "hand_score")


def _sides(n: int, rules: NoddeRules) -> list[int]:
    if n == 4 and rules.four_player_mode == "partners":
        return [0, 1, 0, 1]
    return list(range(n))


def _brute(
    state: State[Any], root: int, sides: list[int], table: Any, target: int
) -> dict[int, float]:
    out = {}
    for a in state.legal_actions():
        c = state.clone()
        cursor = c.event_count
        c.apply(a)
        events = c.events(since=cursor)
        deal = [i for i, e in enumerate(events) if e.kind == "new_deal"]
        if deal:
            ret = c.returns()
            for e in events[deal[0] :]:
                if e.kind in NEXT_DEAL_PEGS and e.value is not None:
                    for q in range(len(ret)):
                        if sides[q] == sides[e.player]:
                            ret[q] -= e.value
            out[a] = deal_value(ret, root, False, events[deal[0]].player, table, target)
        elif c.is_terminal:
            out[a] = deal_value(c.returns(), root, True, -1, table, target)
        else:
            vals = _brute(c, root, sides, table, target).values()
            p = c.current_player
            out[a] = max(vals) if sides[p] == sides[root] else min(vals)
    return out


CASES = [
    (2, NoddeRules()),
    (2, NoddeRules(game_target=12, score_25="per_card", run_points="per_card")),
    (2, NoddeRules(reshuffle_each_deal=False, flush_in_play=False, score_25="flat4")),
    (3, NoddeRules(hand_31="flat4", turned_knave_scorer="elder")),
    (3, NoddeRules(game_target=15, score_25="per_card")),
    (4, NoddeRules()),
    (4, NoddeRules(four_player_mode="individual", run_points="per_card", game_target=20)),
]


def _positions(n: int, rules: NoddeRules, seed: int, count: int) -> list[State[Any]]:
    game = load_game("nodde", rules=rules, num_players=n)
    rng = random.Random(seed)
    out: list[State[Any]] = []
    g = 0
    while len(out) < count:
        for state in mixed_moves(game.new_initial_state(seed * 1000 + g), rng):
            if len(out) == count:
                break
            if rng.random() < 0.4:
                out.append(state.clone())
        g += 1
    return out


def _check(n: int, rules: NoddeRules, seed: int, count: int, win: bool) -> int:
    sides = _sides(n, rules)
    target = rules.game_target
    return check_solver(
        _positions(n, rules, seed, count),
        lambda state, table: _brute(state, state.current_player, sides, table, target),
        target,
        seed,
        win,
        max_depth=3 * n,
    )


(
    test_solver_agrees_with_brute_force_margin,
    test_solver_agrees_with_brute_force_win_table,
    test_solver_agrees_with_brute_force_many,
) = brute_force_tests(CASES, _check, 30)


def test_depth_and_errors() -> None:
    game = load_game("nodde")
    state = game.new_initial_state(3)
    assert state.solve_depth == 6 - len([a for a in state.history])
    with pytest.raises(RuntimeError):
        state.solve(max_nodes=2)
    with pytest.raises(ValueError):
        state.solve(win_table=np.full((31, 31), -0.5))
    table = np.random.default_rng(0).random((31, 31))
    assert all(0.0 <= v <= 1.0 for v in state.solve(win_table=table).values())
    three = load_game("nodde", num_players=3).new_initial_state(3)
    with pytest.raises(ValueError):
        three.solve(win_table=table)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert state.solve_depth == -1
    with pytest.raises(ValueError):
        state.solve()
