"""Every long call of the binding stops on a signal (hardening round 4).

Each long call that runs with the GIL released (a search, a match in C,
random playouts, a vector environment's call, a batch kernel) is started,
in a child process, with a budget far too long to finish, and interrupted
after 0.3 s (a vector call: sooner, at a quarter of its
expected time) by a SIGALRM whose handler raises, or by
``_thread.interrupt_main()`` (KeyboardInterrupt).  The call must raise that
exception (the child's timeout is a guard against a call that goes on, not
a measure), and leave its inputs and outputs as documented
(``docs/search.rst``, "Stopping a long call"): a state unchanged, a
searcher that searches again, a match's games discarded, a vector whose
games are each done or untouched (an untouched game's outputs not
written) and that steps on, a batch output written for the pieces done
only.  ``tests/search/test_hostile.py`` does the same for ``State.solve``.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from _games import ROOT

_PRELUDE = textwrap.dedent(
    """
    import _thread, signal, sys, threading, time
    import numpy as np
    from cardcore import _core
    from pycards import batch
    from pycards.game import game_names, load_game

    class Alarm(Exception):
        pass

    NAME = game_names()[0]

    def position(name=NAME, players=None):
        game = load_game(name) if players is None else load_game(name, num_players=players)
        state = game.new_initial_state(seed=3)
        while len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        return game, state

    def interrupt(call, delay=0.3):
        # the signal `delay` s from now, then the call: what it raised
        if sys.argv[1] == "alarm":
            def on_alarm(signum, frame):
                raise Alarm("the alarm")
            signal.signal(signal.SIGALRM, on_alarm)
            signal.setitimer(signal.ITIMER_REAL, delay)
        else:
            threading.Timer(delay, _thread.interrupt_main).start()
        try:
            call()
        except KeyboardInterrupt:
            print("KeyboardInterrupt")
        except Alarm as exc:
            print("Alarm", exc)
        else:
            print("finished")
    """
)

_CASES = {
    # a search by time, one tree: the state unchanged, the searcher searches again
    "act_seconds": """
        game, state = position()
        before = state.to_json()
        s = _core.Searcher(game._setup, "ismcts", simulations=0, seconds=3600)
        interrupt(lambda: s.act(state.engine_state))
        print("same" if state.to_json() == before else "changed")
        again = _core.Searcher(game._setup, "ismcts", simulations=20)
        print("again" if again.act(state.engine_state) in state.legal_actions() else "wrong")
    """,
    # a search by simulations on two trees: every tree stops
    "act_threads": """
        game, state = position()
        before = state.to_json()
        s = _core.Searcher(game._setup, "pimc", simulations=10**8, samples=4, threads=2)
        interrupt(lambda: s.act(state.engine_state))
        print("same" if state.to_json() == before else "changed")
        print("again" if _core.Searcher(game._setup, "pimc", simulations=20, samples=2,
                                        threads=2).act(state.engine_state)
              in state.legal_actions() else "wrong")
    """,
    # PIMC over the caller's worlds: the worlds unchanged too
    "act_worlds": """
        game, state = position()
        p = state.current_player
        worlds = [state.engine_state.sample_infoset(p, k) for k in range(4)]
        before = (state.to_json(), [w.raw() for w in worlds])
        s = _core.Searcher(game._setup, "pimc", simulations=10**8, samples=4)
        interrupt(lambda: s.act_worlds(state.engine_state, worlds, [1.0] * 4, p))
        after = (state.to_json(), [w.raw() for w in worlds])
        print("same" if after == before else "changed")
        s2 = _core.Searcher(game._setup, "pimc", simulations=20, samples=4)
        action, _ = s2.act_worlds(state.engine_state, worlds, [1.0] * 4, p)
        print("again" if action in state.legal_actions() else "wrong")
    """,
    # a match of one game between search bots, each move an hour: the
    # searchers are free again afterwards
    "match_search": """
        game, _ = position()
        s = _core.Searcher(game._setup, "ismcts", simulations=0, seconds=3600)
        n = game.num_players
        out = []
        interrupt(lambda: out.append(_core.play_match(game._setup, [s] * n, [1], [[2] * n])))
        print("same" if not out else "returned")
        quick = _core.Searcher(game._setup, "heuristic")
        r, _, _ = _core.play_match(game._setup, [quick] * n, [1], [[2] * n])
        print("again" if r.shape == (1, n) else "wrong")
        # no game: the searcher is claimed and freed (busy, it would be refused)
        _core.play_match(game._setup, [s] * n, [], np.zeros((0, n), dtype=np.uint64))
        print("free")
    """,
    # a match of very many quick games
    "match_games": """
        game, _ = position()
        n = game.num_players
        s = _core.Searcher(game._setup, "heuristic")
        k = 10**6
        out = []
        interrupt(lambda: out.append(_core.play_match(
            game._setup, [s] * n, np.arange(k, dtype=np.uint64),
            np.zeros((k, n), dtype=np.uint64))))
        print("same" if not out else "returned")
        r, _, _ = _core.play_match(game._setup, [s] * n, [1], [[2] * n])
        print("again" if r.shape == (1, n) else "wrong")
    """,
    # the arena's native loop, a bot's move an hour: Ctrl-C ends the match
    # with the games finished (none), flagged interrupted
    "arena": """
        from pycards.arena import Match
        game, _ = position()
        bots = ["heuristic"] * (game.num_players - 1) + ["ismcts:seconds=3600:simulations=0"]
        m = Match(NAME, bots, 4, players=game.num_players, seed=1, native=True)
        out = []
        interrupt(lambda: out.append(m.run(progress=False)))
        r = out[0] if out else None
        print("interrupted" if r is not None and r.interrupted and r.native else "not")
        print(r.games_played if r is not None else None)
    """,
    # random playouts of 2**40 games
    "playouts": """
        game, _ = position()
        params = game.rules.to_params()
        out = []
        interrupt(lambda: out.append(_core.random_playouts(
            NAME, params, game.num_players, 0, 1 << 40)))
        print("same" if not out else "returned")
        steps, _ = _core.random_playouts(NAME, params, game.num_players, 0, 2)
        print("again" if steps > 0 else "wrong")
    """,
    # a vector environment's reset and step over enough games to last
    # seconds (the slowest game per byte at its most players, heuristic
    # opponents, sized from a small vector's timing): the games past the
    # stop untouched (their rows not written), the vector valid
    "vector": """
        def make(name, n, k):
            game = load_game(name, num_players=n)
            v = _core.VecEnv(game._setup, k, 1, 0, "heuristic", int(sys.argv[3]), False)
            o = np.full((k, v.tensor_size), np.nan, np.float32)
            m = np.zeros((k, v.num_actions), np.int8)
            r = np.zeros(k, np.float32)
            t = np.zeros(k, bool)
            a = np.zeros(k, np.int32)
            return v, o, m, r, t, a

        def calls(v, o, m, r, t, a):
            # the reset, then a random step: the time per game of each, in
            # this process's CPU time (a loaded machine stretches the wall
            # clock of this measure and of the call alike, not by one ratio)
            t0 = time.process_time()
            v.reset(o, m)
            t1 = time.process_time()
            v.random_actions(a)
            v.step(a, o, m, r, t)
            return t1 - t0, time.process_time() - t1

        best = None
        for name in game_names():
            n = load_game(name).info.max_players
            each = min(calls(*make(name, n, 400))) / 400
            v = make(name, n, 1)[0]
            size = v.bytes_per_game + 4 * v.tensor_size + v.num_actions
            if best is None or each / size > best[0] / best[3]:
                best = (each, name, n, size)
        each, name, n, size = best
        # 3 s of work at the measured pace, within 1 GB; the memory may
        # bound the call first (a game's step takes microseconds), so the
        # signal comes at a quarter of the call's expected time at most
        k = int(min(3.0 / each, 1e9 / size, 16_000_000))
        delay = min(0.3, k * each / int(sys.argv[3]) / 4)
        v, o, m, r, t, a = make(name, n, k)
        if sys.argv[2] == "reset":
            interrupt(lambda: v.reset(o, m), delay)
        else:
            v.reset(o, m)
            v.random_actions(a)
            o[:] = np.nan
            interrupt(lambda: v.step(a, o, m, r, t), delay)
        print("untouched" if np.isnan(o[-1]).all() else "written")
        print("valid" if not np.isnan(o[0]).any() else "first-not-written")
        v.observe(o, m)
        print("observed" if not np.isnan(o).any() else "not-observed")
    """,
    # a batch kernel over millions of long sets, on two threads: the output
    # written for the pieces done, not past them
    "batch": """
        hands = _core.random_hands(4000, 26, 1)
        t0 = time.process_time()
        batch.count_fifteens(hands)
        each = (time.process_time() - t0) / 4000
        k = int(min(4.0 / each, 16_000_000))
        hands = np.resize(hands, k)
        out = np.full(k, -7, dtype=np.int64)
        interrupt(lambda: _core.batch_count_fifteens(hands, out=out, threads=2))
        print("untouched" if out[-1] == -7 else "written")
        print("valid" if out[0] == batch.count_fifteens(hands[:1])[0] else "first-not-written")
    """,
}

_WANT = {
    "act_seconds": ["same", "again"],
    "act_threads": ["same", "again"],
    "act_worlds": ["same", "again"],
    "match_search": ["same", "again", "free"],
    "match_games": ["same", "again"],
    "arena": ["interrupted", "0"],
    "playouts": ["same", "again"],
    "vector": ["untouched", "valid", "observed"],
    "batch": ["untouched", "valid"],
}


def _run(case: str, how: str, *extra: str) -> list[str]:
    code = _PRELUDE + textwrap.dedent(_CASES[case])
    try:
        out = subprocess.run(
            [sys.executable, "-c", code, how, *extra],
            capture_output=True,
            text=True,
            timeout=60,  # a guard against a call that goes on, not a measure
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{case}: the call went on after the signal")
    assert out.returncode == 0, out.stderr
    return out.stdout.split("\n")[:-1]


@pytest.mark.parametrize("how", ["alarm", "interrupt"])
@pytest.mark.parametrize("case", [c for c in _CASES if c not in ("vector", "arena")])
def test_a_signal_stops_a_long_call(case: str, how: str) -> None:
    lines = _run(case, how)
    want = "KeyboardInterrupt" if how == "interrupt" else "Alarm the alarm"
    assert lines == [want, *_WANT[case]], lines


@pytest.mark.parametrize("how", ["alarm", "interrupt"])
@pytest.mark.parametrize(("call", "threads"), [("reset", "1"), ("step", "1"), ("step", "2")])
def test_a_signal_stops_a_vector_call(call: str, threads: str, how: str) -> None:
    lines = _run("vector", how, call, threads)
    want = "KeyboardInterrupt" if how == "interrupt" else "Alarm the alarm"
    assert lines == [want, *_WANT["vector"]], lines


def test_ctrl_c_stops_the_arenas_native_loop() -> None:
    # the arena takes Ctrl-C for "stop the match": it returns what it has
    assert _run("arena", "interrupt") == ["finished", *_WANT["arena"]]
