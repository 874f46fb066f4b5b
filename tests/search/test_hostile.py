"""Hostile hooks, inputs and interrupts against the search and the exact
solver (hardening round 4).

- a hook's result is converted to a C integer (or C doubles) before it is
  checked: an int subclass whose comparisons lie is read by its value, a
  numpy integer is taken, a bool, a float or None is refused naming the
  hook, a value past the engine's limit is refused naming the hook and the
  limit;
- the C search and the replays of inference hold their own references to
  the states they read with the GIL released: another thread (or a lying
  sequence) that empties or refills the caller's list frees nothing they
  read;
- one stop flag per search: a hook's exception (KeyboardInterrupt
  included) stops every tree of a root-parallel search, and a pending
  signal stops ``State.solve`` (its state unchanged);
- weights near the largest float give the same means as weights of 1;
- a read-only win table is taken by the solver;
- the solver's convention at three seats (paranoid: the mover maximizes,
  every other seat minimizes the mover's value), against a small minimax
  written here over the engine's own apply.
"""

from __future__ import annotations

import _thread
import subprocess
import sys
import textwrap
import threading
from typing import Any

import numpy as np
import pytest
from _games import GAMES, ROOT

from cardcore import _core
from pycards.bots.infer import infer_applies, observer_record
from pycards.bots.value import race_games, win_probability_table
from pycards.game import State, load_game

NAMES = list(GAMES)


def _position(name: str, seed: int = 3, players: int | None = None) -> tuple[Any, Any]:
    """A state of ``name`` (the fewest players, or ``players``) with a choice."""
    n = players if players is not None else GAMES[name].tables[0]
    game = load_game(name, num_players=n)
    state = game.new_initial_state(seed=seed)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return game, state


# ---- 1 and 3: a hook's result, converted to C first ------------------------


class Liar(int):
    """An int whose comparisons all say yes."""

    def __lt__(self, other: object) -> bool:
        return True

    def __le__(self, other: object) -> bool:
        return True

    def __gt__(self, other: object) -> bool:
        return True

    def __ge__(self, other: object) -> bool:
        return True


class Denier(int):
    """An int whose comparisons all say no."""

    def __lt__(self, other: object) -> bool:
        return False

    def __le__(self, other: object) -> bool:
        return False

    def __gt__(self, other: object) -> bool:
        return False

    def __ge__(self, other: object) -> bool:
        return False


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
@pytest.mark.parametrize("value", [2**31 - 1, -1, -(2**31), 2**40, 1 << 70])
def test_a_lying_int_from_the_policy_is_read_by_value(name: str, kind: str, value: int) -> None:
    game, state = _position(name)
    liar = Liar(value)
    s = _core.Searcher(game._setup, kind, simulations=4, samples=2, rollout=lambda o, m, p: liar)
    with pytest.raises(ValueError, match=r"rollout policy hook returned -?\d+, not a legal action"):
        s.act(state.engine_state)


@pytest.mark.parametrize("name", NAMES)
def test_a_legal_int_whose_comparisons_deny_it_is_taken(name: str) -> None:
    game, state = _position(name)
    picked: list[int] = []
    rng = np.random.default_rng(0)

    def policy(obs: Any, mask: Any, player: int) -> int:
        a = int(rng.choice(np.flatnonzero(mask)))
        picked.append(a)
        return Denier(a)

    s = _core.Searcher(game._setup, "ismcts", simulations=4, rollout=policy, horizon="deal")
    assert s.act(state.engine_state) in state.legal_actions()
    assert picked


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "make",
    [np.int64, np.int32, np.int16, np.uint8, np.uint16, np.uint32, np.uint64, np.int8, int],
)
def test_numpy_integer_actions_are_taken(name: str, make: Any) -> None:
    game, state = _position(name)
    top = np.iinfo(make).max if make is not int else 1 << 62
    rng = np.random.default_rng(0)
    made: list[Any] = []

    def policy(obs: Any, mask: Any, player: int) -> Any:
        legal = np.flatnonzero(mask)
        fits = legal[legal <= top]
        a = make(rng.choice(fits)) if len(fits) else int(rng.choice(legal))
        made.append(a)
        return a

    s = _core.Searcher(game._setup, "ismcts", simulations=8, rollout=policy, horizon="deal")
    assert s.act(state.engine_state) in state.legal_actions()
    assert any(type(a) is make for a in made)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("value", [True, np.bool_(False), 1.0, np.float64(2.0), None, "1", [1]])
def test_a_policy_result_that_is_not_an_int_is_refused(name: str, value: Any) -> None:
    game, state = _position(name)
    s = _core.Searcher(game._setup, "pimc", simulations=4, samples=2, rollout=lambda o, m, p: value)
    with pytest.raises(TypeError, match="rollout policy hook must return an int"):
        s.act(state.engine_state)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", [1e301, -1e301, np.inf, np.nan])
def test_evaluate_past_the_limit_names_the_hook(name: str, bad: float) -> None:
    game, state = _position(name)
    n = game.num_players

    def evaluate(obs: Any, masks: Any, players: Any) -> Any:
        v = np.zeros((len(players), n))
        v[0, -1] = bad
        return v

    s = _core.Searcher(game._setup, "ismcts", simulations=8, evaluate=evaluate)
    with pytest.raises(ValueError, match=r"evaluate hook returned \S+, must be finite and within"):
        s.act(state.engine_state)
    # the limit is the engine's: the largest value it takes is taken
    ok = _core.Searcher(
        game._setup,
        "ismcts",
        simulations=8,
        evaluate=lambda o, m, p: np.full((len(p), n), 1e300),
    )
    assert ok.act(state.engine_state) in state.legal_actions()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", [1e301, -1.0, np.inf, np.nan])
def test_priors_past_the_limit_name_the_hook(name: str, bad: float) -> None:
    game, state = _position(name)

    def priors(obs: Any, mask: Any, player: int) -> Any:
        p = mask.astype(np.float64)
        p[np.flatnonzero(mask)[0]] = bad
        return p

    s = _core.Searcher(game._setup, "ismcts", simulations=8, priors=priors)
    with pytest.raises(ValueError, match=r"priors hook returned \S+ for action \d+, must be"):
        s.act(state.engine_state)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("hook", ["evaluate", "priors"])
def test_array_hooks_refuse_what_is_not_numbers(name: str, hook: str) -> None:
    game, state = _position(name)
    n = game.num_players
    answers = {
        "evaluate": lambda o, m, p: np.zeros((len(p), n), dtype=bool),
        "priors": lambda o, m, p: m,
    }
    s = _core.Searcher(game._setup, "ismcts", simulations=8, **{hook: answers[hook]})
    with pytest.raises(TypeError, match=f"{hook} hook must return an array of numbers"):
        s.act(state.engine_state)


# ---- 2: the C search and the replays hold what they read -------------------


def _worlds(state: State[Any], k: int, seed: int = 0) -> list[Any]:
    cp = state.current_player
    return [state.engine_state.sample_infoset(cp, seed + i) for i in range(k)]


@pytest.mark.parametrize("name", NAMES)
def test_act_worlds_holds_its_worlds_while_another_thread_clears_the_list(name: str) -> None:
    game, state = _position(name)
    cp = state.current_player
    legal = state.legal_actions()
    k = 300
    size = game.info.state_size
    s = _core.Searcher(game._setup, "pimc", simulations=len(legal), samples=k)
    ran = 0
    for rep in range(12):
        worlds = _worlds(state, k, seed=rep * k)
        go = threading.Event()
        junk: list[bytearray] = []

        def clear(box: list[Any] = worlds, go: threading.Event = go, junk: Any = junk) -> None:
            go.wait()
            box.clear()  # the last references to the worlds
            # and their memory, if freed, taken again and filled with junk
            junk.extend(bytearray(b"\xa5" * size) for _ in range(2 * k))

        t = threading.Thread(target=clear)
        t.start()
        go.set()
        try:
            action, _means = s.act_worlds(state.engine_state, worlds, [1.0] * k, cp)
        except ValueError as exc:
            # cleared before the call read it: refused as an empty list, cleanly
            assert "worlds: expected" in str(exc)
        else:
            assert action in legal
            ran += 1
        finally:
            t.join()
        del worlds
    assert ran > 0


class _SwappingWeights:
    """Weights that refill the worlds' list with other objects when read."""

    def __init__(self, worlds: list[Any], n: int, junk: Any) -> None:
        self.worlds = worlds
        self.n = n
        self.junk = junk

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> float:
        if i == self.n - 1:
            self.worlds[:] = [self.junk] * self.n
        return 1.0


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("junk", [None, 7, "x"])
def test_act_worlds_reads_its_worlds_once(name: str, junk: Any) -> None:
    game, state = _position(name)
    cp = state.current_player
    k = 4
    s = _core.Searcher(game._setup, "pimc", simulations=8, samples=k)
    s.reset(5)
    want, want_means = s.act_worlds(state.engine_state, _worlds(state, k), [1.0] * k, cp)
    worlds = _worlds(state, k)
    s.reset(5)
    got, means = s.act_worlds(state.engine_state, worlds, _SwappingWeights(worlds, k, junk), cp)
    assert got == want
    assert np.array_equal(means, want_means, equal_nan=True)


def _infer_case() -> tuple[State[Any], int, list[int], Any]:
    for name in NAMES:
        game = load_game(name, num_players=GAMES[name].tables[0])
        for seed in range(20):
            state = game.new_initial_state(seed=seed)
            for _ in range(6):
                if state.is_terminal:
                    break
                state.apply(state.legal_actions()[-1])
            if state.is_terminal or not infer_applies(state):
                continue
            p = state.current_player
            actions, record = observer_record(state, p)
            if any(a == -1 for a in actions):
                return state, p, actions, record
    raise AssertionError("no game whose worlds can be weighed")


class _SwappingActions(list):  # type: ignore[type-arg]
    """Actions that refill the samples' list with None when read."""

    def __init__(self, actions: list[int], samples: list[Any]) -> None:
        super().__init__(actions)
        self.samples = samples

    def __getitem__(self, i: Any) -> Any:
        self.samples[:] = [None] * len(self.samples)
        return super().__getitem__(i)


def test_infer_weights_reads_its_samples_once() -> None:
    state, p, actions, record = _infer_case()
    samples = [state.engine_state.sample_infoset(p, k) for k in range(6)]
    want, _ = _core.infer_weights(list(samples), 0, p, actions, record, 0.2, 4, 0)
    swapping = _SwappingActions(actions, samples)
    got, _ = _core.infer_weights(samples, 0, p, swapping, record, 0.2, 4, 0)
    assert np.array_equal(got, want)


def test_infer_weights_holds_its_samples_while_another_thread_clears_the_list() -> None:
    state, p, actions, record = _infer_case()
    k = 40
    want, _ = _core.infer_weights(
        [state.engine_state.sample_infoset(p, i) for i in range(k)],
        0,
        p,
        actions,
        record,
        0.2,
        4,
        0,
    )
    for _rep in range(4):
        samples = [state.engine_state.sample_infoset(p, i) for i in range(k)]
        go = threading.Event()

        def clear(box: list[Any] = samples, go: threading.Event = go) -> None:
            go.wait()
            box.clear()

        t = threading.Thread(target=clear)
        t.start()
        go.set()
        try:
            got, _ = _core.infer_weights(samples, 0, p, actions, record, 0.2, 4, 0)
        finally:
            t.join()
        # the samples the call was handed are weighed, all of them
        assert len(got) in (0, k)
        if len(got):
            assert np.array_equal(got, want)
        del samples


# ---- 4: one stop flag for every tree; a signal stops the solver -------------


class _OverrunError(Exception):
    pass


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
@pytest.mark.parametrize("how", ["exception", "interrupt"])
def test_a_hook_error_stops_every_tree(name: str, kind: str, how: str) -> None:
    game, state = _position(name)
    main = threading.get_ident()
    n = game.num_players
    limit = 2000  # calls after the failure: a stopped search makes a few
    seen = {"stopped": False, "after": 0, "overrun": False}
    rng = np.random.default_rng(0)

    class BoomError(Exception):
        pass

    def note() -> None:
        if seen["stopped"]:
            seen["after"] = int(seen["after"]) + 1
            if int(seen["after"]) > limit:
                seen["overrun"] = True
                raise _OverrunError
            return
        if threading.get_ident() == main:
            return  # the other tree fails (or, interrupted, makes the main one fail)
        seen["stopped"] = True
        if how == "interrupt":
            _thread.interrupt_main()
            return
        raise BoomError

    def policy(obs: Any, mask: Any, player: int) -> int:
        note()
        return int(rng.choice(np.flatnonzero(mask)))

    def evaluate(obs: Any, masks: Any, players: Any) -> Any:
        note()
        return np.zeros((len(players), n))

    hooks: dict[str, Any] = {"rollout": policy} if kind == "pimc" else {"evaluate": evaluate}
    s = _core.Searcher(game._setup, kind, simulations=10**7, samples=4, threads=2, **hooks)
    want = KeyboardInterrupt if how == "interrupt" else BoomError
    with pytest.raises(want):
        s.act(state.engine_state)
    assert seen["stopped"] and not seen["overrun"], seen
    # the searcher searches again afterwards
    again = _core.Searcher(game._setup, kind, simulations=20, samples=2, threads=2)
    assert again.act(state.engine_state) in state.legal_actions()


_SOLVE_CHILD = textwrap.dedent(
    """
    import _thread, random, signal, sys, threading
    from pycards.game import game_names, load_game

    class Alarm(Exception):
        pass

    def first_card(name, n):
        game = load_game(name, num_players=n)
        state = game.new_initial_state(seed=1)
        rng = random.Random(0)
        for _ in range(3000):
            if state.is_terminal or state.solve_depth >= 0:
                break
            state.apply(rng.choice(state.legal_actions()))
        return state if state.solve_depth >= 0 else None

    # the longest play any game's solver takes: far too long to finish
    best = None
    for name in game_names():
        info = load_game(name).info
        for n in range(info.min_players, info.max_players + 1):
            try:
                st = first_card(name, n)
            except Exception:
                continue
            if st is not None and (best is None or st.solve_depth > best.solve_depth):
                best = st
    assert best is not None and best.solve_depth >= 60, best
    before = best.to_json()
    how = sys.argv[1]
    if how == "alarm":
        def on_alarm(signum, frame):
            raise Alarm("the alarm")
        signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, 0.3)
    else:
        threading.Timer(0.3, _thread.interrupt_main).start()
    try:
        best.solve()
    except KeyboardInterrupt:
        print("KeyboardInterrupt")
    except Alarm as exc:
        print("Alarm", exc)
    else:
        print("finished")
    print("same" if best.to_json() == before else "changed")
    # the solver solves again after a stop: a small budget, past it an error
    try:
        best.solve(max_nodes=1000)
    except RuntimeError as exc:
        print("limit" if "limit of 1000" in str(exc) else exc)
    """
)


@pytest.mark.parametrize("how", ["alarm", "interrupt"])
def test_a_signal_stops_the_solver(how: str) -> None:
    try:
        out = subprocess.run(
            [sys.executable, "-c", _SOLVE_CHILD, how],
            capture_output=True,
            text=True,
            timeout=600,  # a guard against a solve that never stops, not a measure
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("State.solve() went on after the signal")
    assert out.returncode == 0, out.stderr
    want = "KeyboardInterrupt" if how == "interrupt" else "Alarm the alarm"
    assert out.stdout.split("\n")[:3] == [want, "same", "limit"], out.stdout + out.stderr


# ---- 5: weights near the largest float ---------------------------------------


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("big", [1e308, 1.7976931348623157e308])
def test_huge_weights_give_the_means_of_unit_weights(name: str, big: float) -> None:
    game, state = _position(name)
    cp = state.current_player
    legal = state.legal_actions()
    k = 6
    worlds = _worlds(state, k)
    s = _core.Searcher(game._setup, "pimc", simulations=30 * len(legal), samples=k)
    s.reset(4)
    unit_action, unit = s.act_worlds(state.engine_state, worlds, [1.0] * k, cp)
    s.reset(4)
    action, means = s.act_worlds(state.engine_state, worlds, [big] * k, cp)
    assert np.isfinite(means[legal]).all(), means[legal]
    np.testing.assert_allclose(means, unit, rtol=1e-12, equal_nan=True)
    top = sorted((unit[a] for a in legal), reverse=True)
    if top[0] - top[1] > 1e-9:  # not a tie that rounding may break either way
        assert action == unit_action
    best = max(legal, key=lambda a: (means[a], -a))
    assert action == best
    # one huge weight among tiny ones: finite means still
    s.reset(4)
    mixed_action, mixed = s.act_worlds(state.engine_state, worlds, [big] + [1e-300] * (k - 1), cp)
    assert np.isfinite(mixed[legal]).all()
    assert mixed_action == max(legal, key=lambda a: (mixed[a], -a))


@pytest.mark.parametrize("bad", [-1.0, float("inf"), float("nan"), -0.5e-300])
def test_bad_weights_name_the_argument(bad: float) -> None:
    game, state = _position(NAMES[0])
    worlds = _worlds(state, 3)
    s = _core.Searcher(game._setup, "pimc", simulations=8, samples=3)
    with pytest.raises(ValueError, match=r"weights\[1\]"):
        s.act_worlds(state.engine_state, worlds, [1.0, bad, 1.0], state.current_player)


# ---- 6: a read-only win table ------------------------------------------------


def _solver_position(name: str, players: int, seed: int, depth: int) -> State[Any] | None:
    game = load_game(name, num_players=players)
    state = game.new_initial_state(seed=seed)
    for _ in range(400):
        if state.is_terminal:
            return None
        d = state.solve_depth
        if 0 <= d <= depth and len(state.legal_actions()) >= 2:
            return state
        legal = state.legal_actions()
        state.apply(legal[(seed + len(legal)) % len(legal)])
    return None


def _race_solver_games() -> list[str]:
    out = []
    for name in race_games():
        if any(_solver_position(name, 2, s, 8) is not None for s in range(5)):
            out.append(name)
    return out


RACE_SOLVERS = _race_solver_games()


def test_there_are_race_games_with_a_solver() -> None:
    assert RACE_SOLVERS


@pytest.mark.parametrize("name", RACE_SOLVERS)
def test_the_solver_takes_a_read_only_win_table(name: str) -> None:
    state = next(st for s in range(5) if (st := _solver_position(name, 2, s, 8)) is not None)
    game = state.game
    rng = np.random.default_rng(1)
    target = win_probability_table(game, deals=50).shape[0]
    table = rng.random((target, target))
    frozen = table.copy()
    frozen.setflags(write=False)
    assert state.solve(win_table=frozen) == state.solve(win_table=table)
    cached = win_probability_table(game, deals=50)
    assert not cached.flags.writeable
    assert set(state.solve(win_table=cached)) == set(state.legal_actions())


# ---- 7: the solver's convention at three seats, worked out -------------------


def _margin(ret: list[int], root: int) -> float:
    others = [r for q, r in enumerate(ret) if q != root]
    return ret[root] - sum(others) / len(others)


def _minimax(state: State[Any], root: int, paranoid: bool) -> dict[int, float]:
    """Each legal action's value to ``root``: the whole game's returns where
    the solver stops taking the state (the deal's play over, the show scored;
    or the game over), ``root`` maximizing; every other seat minimizing
    ``root``'s value (paranoid) or maximizing its own (max^n)."""
    out = {}
    for a in state.legal_actions():
        c = state.clone()
        c.apply(a)
        out[a] = _leaf(c, root, paranoid)[root]
    return out


def _leaf(state: State[Any], root: int, paranoid: bool) -> list[float]:
    n = state.game.num_players
    if state.is_terminal or state.solve_depth < 0:
        ret = state.returns()
        return [_margin(ret, q) for q in range(n)]
    p = state.current_player
    best: list[float] | None = None
    for a in state.legal_actions():
        c = state.clone()
        c.apply(a)
        v = _leaf(c, root, paranoid)
        if best is None:
            best = v
        elif p == root or not paranoid:
            best = v if v[p] > best[p] else best
        else:
            best = v if v[root] < best[root] else best
    assert best is not None
    return best


def test_the_solver_is_paranoid_at_three_seats() -> None:
    # the play of a three-handed cribbage deal, the show included, a few cards
    # before its end: the solver's values are the paranoid minimax's, and in
    # one position at least they are not those of every seat for itself
    checked = differ = 0
    for seed in range(60):
        state = _solver_position("cribbage", 3, seed, 7)
        if state is None:
            continue
        root = state.current_player
        got = state.solve()
        want = _minimax(state, root, paranoid=True)
        assert set(got) == set(want)
        for a, v in want.items():
            assert got[a] == pytest.approx(v, abs=1e-9), (state.to_json(), a)
        checked += 1
        differ += _minimax(state, root, paranoid=False) != want
        if checked >= 12 and differ:
            break
    assert checked >= 12 and differ >= 1, (checked, differ)
