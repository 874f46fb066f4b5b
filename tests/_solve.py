"""What the tests of the games' exact solvers of the play share: the value
of a deal's end (the margin, or a win table's chance) and the check of
``State.solve`` against a test's brute force on a list of positions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from pycards.game import State

__all__ = ["brute_force_tests", "check_solver", "deal_value"]

#: a brute force: each legal action's value to the player to act's side of
#: a state, with a win table (or ``None``: the margin)
Brute = Callable[[State[Any], Any], dict[int, float]]


def deal_value(
    ret: list[int], root: int, over: bool, dealer: int, table: Any, target: int
) -> float:
    """The value to ``root`` of the returns ``ret`` of a finished game
    (``over``) or of a deal's end (``dealer`` the next deal's dealer): the
    margin over the others' mean without a table, else 1 or 0 for a game won
    or lost and the table's chance ``table[dealer's points, other's]`` for
    a deal."""
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


def check_solver(
    states: Sequence[State[Any]],
    brute: Brute,
    target: int,
    seed: int,
    win: bool,
    max_depth: int | None = None,
) -> int:
    """Solve each state (with a random win table of side ``target`` less 0
    to 2 when ``win``) and compare with ``brute``: the same actions, the same
    values.  ``max_depth``: the most cards left a state may report.  Returns
    the number of states checked."""
    rng = np.random.default_rng(seed)
    checked = 0
    for state in states:
        if max_depth is not None:
            assert 0 < state.solve_depth <= max_depth
        table = None
        if win:
            t = target - int(rng.integers(0, 3))
            table = rng.random((t, t))
        want = brute(state, table)
        got = state.solve(win_table=table)
        assert set(got) == set(want)
        for a, v in want.items():
            assert got[a] == pytest.approx(v, abs=1e-9), (state.to_json(), a)
        checked += 1
    return checked


#: a test's check: ``(players, rules, seed, count, win)`` to the number of
#: positions checked (see :func:`check_solver`)
Check = Callable[[int, Any, int, int, bool], int]


def brute_force_tests(
    cases: Sequence[tuple[int, Any]], check: Check, count: int
) -> tuple[Callable[[int, Any], None], ...]:
    """A solver's tests against its brute force, for a test module to bind
    to its names: ``count`` positions of each case (players, rules) with the
    margin; 40 of each two-player case with win tables; and ``-m slow``,
    1,500 of each (and as many with win tables at two players)."""

    @pytest.mark.parametrize(("n", "rules"), cases)
    def test_solver_agrees_with_brute_force_margin(n: int, rules: Any) -> None:
        assert check(n, rules, 1 + n, count, False) == count

    @pytest.mark.parametrize(("n", "rules"), [c for c in cases if c[0] == 2])
    def test_solver_agrees_with_brute_force_win_table(n: int, rules: Any) -> None:
        assert check(n, rules, 7, 40, True) == 40

    @pytest.mark.slow
    @pytest.mark.parametrize(("n", "rules"), cases)
    def test_solver_agrees_with_brute_force_many(n: int, rules: Any) -> None:
        many = 1500
        done = check(n, rules, 100 + n, many, False)
        if n == 2:
            done += check(n, rules, 200, many, True)
        assert done >= many

    return (
        test_solver_agrees_with_brute_force_margin,
        test_solver_agrees_with_brute_force_win_table,
        test_solver_agrees_with_brute_force_many,
    )
