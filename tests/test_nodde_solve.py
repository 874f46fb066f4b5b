"""The Nodde Knave solver (games/nodde/nodde_solve.c) against a brute-force
minimax written here over the public State API (clone, apply, returns,
legal_actions, events), on random positions of the play: 2 to 4 players,
partners and individual, the play scoring variants (runs, 25, flushes in
play), short targets (a game ending in the play), the margin and win-table
valuations; and its errors.

The brute force values a deal where its play ends: when a move deals the
next deal, the points that deal pegs as it is dealt (a turned Knave, the
hands) are taken back off the returns.  The full run (10,000 positions and
more) is ``-m slow``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from pycards.game import State, load_game
from pycards.nodde import NoddeRules

NEXT_DEAL_PEGS = ("turned_knave", "hand_score")


def _sides(n: int, rules: NoddeRules) -> list[int]:
    if n == 4 and rules.four_player_mode == "partners":
        return [0, 1, 0, 1]
    return list(range(n))


def _value(ret: list[int], root: int, over: bool, dealer: int, table: Any, target: int) -> float:
    if table is None:
        others = [r for q, r in enumerate(ret) if q != root]
        return ret[root] - sum(others) / len(others)
    if over:
        return 1.0 if ret[root] >= target else 0.0
    t = table.shape[0]
    x = min(ret[dealer], t - 1)
    y = min(ret[1 - dealer], t - 1)
    w = float(table[x, y])
    return w if root == dealer else 1.0 - w


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
            out[a] = _value(ret, root, False, events[deal[0]].player, table, target)
        elif c.is_terminal:
            out[a] = _value(c.returns(), root, True, -1, table, target)
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
        state = game.new_initial_state(seed * 1000 + g)
        g += 1
        while not state.is_terminal and len(out) < count:
            if rng.random() < 0.4:
                out.append(state.clone())
            if rng.random() < 0.5:
                action = state._s.heuristic_action(rng.getrandbits(64))
            else:
                action = rng.choice(state.legal_actions())
            state.apply(action)
    return out


def _check(n: int, rules: NoddeRules, seed: int, count: int, win: bool) -> int:
    rng = np.random.default_rng(seed)
    sides = _sides(n, rules)
    checked = 0
    for state in _positions(n, rules, seed, count):
        assert 0 < state.solve_depth <= 3 * n
        table = None
        if win:
            t = rules.game_target - int(rng.integers(0, 3))
            table = rng.random((t, t))
        want = _brute(state, state.current_player, sides, table, rules.game_target)
        got = state.solve(win_table=table)
        assert set(got) == set(want)
        for a, v in want.items():
            assert got[a] == pytest.approx(v, abs=1e-9), (state.to_json(), a)
        checked += 1
    return checked


@pytest.mark.parametrize(("n", "rules"), CASES)
def test_solver_agrees_with_brute_force_margin(n: int, rules: NoddeRules) -> None:
    assert _check(n, rules, 1 + n, 30, False) == 30


@pytest.mark.parametrize(("n", "rules"), [c for c in CASES if c[0] == 2])
def test_solver_agrees_with_brute_force_win_table(n: int, rules: NoddeRules) -> None:
    assert _check(n, rules, 7, 40, True) == 40


@pytest.mark.slow
@pytest.mark.parametrize(("n", "rules"), CASES)
def test_solver_agrees_with_brute_force_many(n: int, rules: NoddeRules) -> None:
    count = 1500
    done = _check(n, rules, 100 + n, count, False)
    if n == 2:
        done += _check(n, rules, 200, count, True)
    assert done >= count


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
