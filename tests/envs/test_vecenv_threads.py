"""Threads on one vector: a step applies the actions it was called with, whole,
or nothing.

One thread steps a vector with legal actions (as an int64 array, which the
vector converts, and as an int32 array that another thread scribbles on while
the step runs); other threads meanwhile call ``step`` on the same vector with
actions that are never legal (Nancy's king calls, in a 4-player game) and
must be refused.  Every step that succeeds is replayed on a serial twin: the
outputs after each step and every game at the end must be the twin's, so no
refused or concurrent call has changed a game or part-stepped one.  (Before,
the converted actions of every call went through one buffer shared by all
callers, and the int32 array was read by the engine while the caller could
change it.)
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from pycards.envs.vector import VectorEnv
from pycards.errors import IllegalActionError

GAME, PLAYERS, N = "nancy", 4, 48
#: "call {card}": only a 5-player Taker calls a king; never legal here
NEVER_LEGAL = 10
STEPS = 160


@pytest.fixture(autouse=True)
def _switch_often() -> Iterator[None]:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def _pair(threads: int) -> tuple[VectorEnv, VectorEnv]:
    def make() -> VectorEnv:
        return VectorEnv(GAME, N, PLAYERS, seed=17, opponent="heuristic", threads=threads)

    return make(), make()


def _outputs(venv: VectorEnv) -> list[bytes]:
    return [
        x.tobytes() for x in (venv.observations, venv.action_masks, venv.rewards, venv.terminations)
    ]


def _games(venv: VectorEnv) -> list[bytes]:
    return [venv.state(i).engine_state.raw() for i in range(venv.num_envs)]


def test_never_legal_is_never_legal() -> None:
    venv, _ = _pair(1)
    rng = np.random.default_rng(3)
    for _ in range(200):
        assert not venv.action_masks[:, NEVER_LEGAL].any()
        venv.step(venv.sample_actions(rng))


@pytest.mark.parametrize("threads", [1, 2])
def test_concurrent_steps_never_part_step_a_game(threads: int) -> None:
    venv, twin = _pair(threads)
    rng = np.random.default_rng(5)
    stop = threading.Event()
    failures: list[str] = []
    refused = [0, 0]
    shared = np.zeros(N, dtype=np.int32)  # the legal thread's int32 array

    def disturb(dtype: type[np.integer], k: int) -> None:
        bad = np.full(N, NEVER_LEGAL, dtype=dtype)
        while not stop.is_set():
            try:
                venv.step(bad)
            except (IllegalActionError, RuntimeError):
                refused[k] += 1
            except Exception as exc:
                failures.append(f"disturber {dtype.__name__}: {exc!r}")
                return
            else:
                failures.append(f"disturber {dtype.__name__}: a never-legal step succeeded")
                return

    def scribble() -> None:
        while not stop.is_set():
            shared[:] = NEVER_LEGAL

    others = [
        threading.Thread(target=disturb, args=(np.int64, 0)),
        threading.Thread(target=disturb, args=(np.int32, 1)),
        threading.Thread(target=scribble),
    ]
    for t in others:
        t.start()
    applied = 0
    try:
        for step in range(STEPS):
            actions = venv.sample_actions(rng)
            while True:
                call: npt.NDArray[np.integer[Any]]
                if step % 2:
                    call = actions.astype(np.int64)
                else:
                    shared[:] = actions  # the scribbler may overwrite it at once
                    call = shared
                try:
                    venv.step(call)
                except RuntimeError:
                    continue  # another call was running: nothing applied, try again
                except IllegalActionError:
                    # only the int32 array can hold a scribbled (never legal) action
                    assert call is shared, "a legal int64 step was refused"
                    assert _outputs(venv) == _outputs(twin), "a refused step changed a game"
                    continue
                break
            twin.step(actions)
            applied += 1
            assert _outputs(venv) == _outputs(twin), f"step {step} differs from the serial twin"
    finally:
        stop.set()
        for t in others:
            t.join()
    assert not failures, failures
    assert applied == STEPS
    assert refused[0] > 0 and refused[1] > 0
    assert venv.episodes == twin.episodes
    assert _games(venv) == _games(twin)


def test_a_call_during_another_is_refused_and_changes_nothing() -> None:
    venv, twin = _pair(1)
    rng = np.random.default_rng(9)
    actions = venv.sample_actions(rng)
    errors: list[BaseException] = []
    started = threading.Event()

    def long_call() -> None:
        started.set()
        try:
            venv.step(actions)
        except BaseException as exc:
            errors.append(exc)

    # the refusal is the documented answer whichever call comes second
    seen_refusal = False
    for _ in range(200):
        t = threading.Thread(target=long_call)
        t.start()
        started.wait()
        try:
            venv.step(np.full(N, NEVER_LEGAL, dtype=np.int32))
        except RuntimeError as exc:
            assert "one call at a time" in str(exc)
            seen_refusal = True
        except IllegalActionError:
            pass
        t.join()
        if errors:
            assert isinstance(errors[0], RuntimeError), errors
            errors.clear()
        else:
            twin.step(actions)
        actions = venv.sample_actions(rng)
        started.clear()
        if seen_refusal:
            break
    assert _outputs(venv) == _outputs(twin)
    assert _games(venv) == _games(twin)
