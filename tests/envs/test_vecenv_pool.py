"""The vector environment's worker threads (vecenv.c): kept from the first call
that needs them until the vector is freed, they must give the games of one
thread bit for bit whatever the number of threads and however it changes,
be joined when the vector goes, and be started again in a forked child.

``tests/c/vecenv_pool_check.c`` checks the same in C (a reference vector on
one thread against a twin whose thread count changes at every call, the
workers' lifecycle by the process's thread count), and is the program run
under ThreadSanitizer (opt-in: ``-m slow``).
"""

from __future__ import annotations

import gc
import hashlib
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time
import warnings

import numpy as np
import pytest
from _cbuild import ROOT, c_compiler, engine_sources, include_flags
from _games import GAMES, game_params

from pycards.envs.vector import VectorEnv

HARNESS = ROOT / "tests" / "c" / "vecenv_pool_check.c"
#: every registered game at its usual table, as the C check takes them
TABLES = [f"{name}:{case.tables[0]}" for name, case in GAMES.items()]
LINUX_TASKS = pathlib.Path("/proc/self/task")
#: two registered games for the checks of the workers' lifecycle (any do)
ONE, OTHER = next(iter(GAMES.values())), list(GAMES.values())[-1]


def os_threads() -> int:
    """The threads of this process (Linux)."""
    return len(os.listdir(LINUX_TASKS))


def blocks_sigint(task: str) -> bool:
    """Whether thread ``task`` of this process blocks SIGINT (Linux)."""
    for line in (LINUX_TASKS / task / "status").read_text().splitlines():
        if line.startswith("SigBlk:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGINT - 1) & 1)
    raise AssertionError("no SigBlk line")


def outputs(venv: VectorEnv) -> list[np.ndarray]:
    return [
        venv.observations.copy(),
        venv.action_masks.copy(),
        venv.rewards.copy(),
        venv.terminations.copy(),
    ]


def same_course(ref: VectorEnv, other: VectorEnv, steps: int, threads: list[int]) -> int:
    """Step both with the reference's random actions (a reset at 2/3 of the
    way); ``other`` takes its thread count from ``threads`` in turn; every
    output must be the same bytes.  The number of games finished."""
    for k in range(steps):
        other.threads = threads[k % len(threads)]
        actions = ref.random_actions()
        np.testing.assert_array_equal(other.random_actions(), actions)
        if k == 2 * steps // 3:
            ref.reset()
            other.reset()
        else:
            ref.step(actions)
            other.step(actions)
        for x, y in zip(outputs(ref), outputs(other), strict=True):
            assert x.tobytes() == y.tobytes()
    assert other.episodes == ref.episodes
    return ref.episodes
    for i in range(0, ref.num_envs, max(1, ref.num_envs // 7)):
        assert other.state(i).table(None) == ref.state(i).table(None)


@pytest.mark.parametrize("threads", [2, 3, 7])
@pytest.mark.parametrize(("name", "players"), game_params())
def test_threads_give_the_games_of_one_thread(name: str, players: int, threads: int) -> None:
    n, opponent, finishes = GAMES[name].profile.pool_case
    ref = VectorEnv(name, n, players, seed=77, opponent=opponent, threads=1)
    pooled = VectorEnv(name, n, players, seed=77, opponent=opponent, threads=threads)
    finished = same_course(ref, pooled, 150, [threads])
    # auto-resets were exercised (unless the game's random play is longer)
    assert finished > 0 or not finishes


def test_threads_can_change_between_calls() -> None:
    ref = VectorEnv(ONE.name, 41, ONE.tables[0], seed=5, threads=1)
    venv = VectorEnv(ONE.name, 41, ONE.tables[0], seed=5, threads=1)
    venv.step(venv.random_actions())  # stepped on one thread first
    ref.step(ref.random_actions())
    venv.threads = 2
    assert venv.threads == 2 and "threads=2" in repr(venv)
    # grows to 7, shrinks to 1 and 2, more threads than games (one per game)
    same_course(ref, venv, 90, [2, 2, 7, 1, 3, 64, 2])
    for bad in (0, 65, -1):
        with pytest.raises(ValueError, match="threads"):
            venv.threads = bad
    for junk in (2.0, True, None, "2"):
        with pytest.raises(TypeError, match="threads"):
            venv.threads = junk  # type: ignore[assignment]
    assert venv.threads == 64


@pytest.mark.skipif(not LINUX_TASKS.is_dir(), reason="counts threads in /proc/self/task")
def test_workers_live_with_the_vector_and_are_joined() -> None:
    gc.collect()
    base = os_threads()
    # 64 games: 4 chunks of 16 for 4 threads (a call on 16 games or fewer
    # stays on the calling thread and starts no worker)
    venv = VectorEnv(OTHER.name, 64, OTHER.min_players, seed=1, threads=1)
    venv.step(venv.random_actions())
    assert os_threads() == base  # none before a call needs them
    before = set(os.listdir(LINUX_TASKS))
    venv.threads = 4
    venv.step(venv.random_actions())
    assert os_threads() == base + 3  # the caller steps the first range
    # the workers block signals (they go to the process's own threads)
    workers = set(os.listdir(LINUX_TASKS)) - before
    assert len(workers) == 3 and all(blocks_sigint(t) for t in workers)
    assert not blocks_sigint(str(threading.get_native_id()))
    for _ in range(20):
        venv.step(venv.random_actions())
    assert os_threads() == base + 3  # kept, not started per call
    venv.threads = 2
    venv.step(venv.random_actions())
    assert os_threads() == base + 3  # the others sleep until the vector goes
    del venv
    gc.collect()
    assert os_threads() == base
    for k in range(60):  # many vectors with live workers, dropped
        v = VectorEnv(ONE.name, 33 + k % 5, ONE.min_players, seed=k, threads=2 + k % 3)
        v.step(v.random_actions())
        if k % 2:
            v.reset()
        del v
    gc.collect()
    assert os_threads() == base


def _digest(venv: VectorEnv, steps: int) -> str:
    h = hashlib.sha256()
    for _ in range(steps):
        venv.step(venv.random_actions())
        for x in outputs(venv):
            h.update(x.tobytes())
    h.update(str(venv.episodes).encode())
    return h.hexdigest()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_starts_its_own_workers() -> None:
    venv = VectorEnv(ONE.name, 64, ONE.min_players, seed=11, threads=2)
    dropped = VectorEnv(OTHER.name, 48, OTHER.min_players, seed=1, threads=3)  # 3 chunks: 2 workers
    for _ in range(5):  # the parent's workers exist and have run
        venv.step(venv.random_actions())
        dropped.step(dropped.random_actions())
    read, write = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads (3.12+)
        pid = os.fork()
    if pid == 0:  # the child: only the forking thread exists here
        status = 1
        try:
            os.close(read)
            del dropped  # forgets the parent's workers, joins nothing
            gc.collect()
            line = _digest(venv, 40)
            venv.threads = 3  # more workers, started in the child
            line += " " + _digest(venv, 10)
            # the forking thread and the vector's 2 workers (-1: cannot tell)
            tasks = os_threads() if LINUX_TASKS.is_dir() else -1
            os.write(write, f"{tasks} {line}".encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    deadline = time.monotonic() + 120
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung stepping a vector with threads")
        time.sleep(0.05)
    with os.fdopen(read, "rb") as f:
        tasks, child = f.read().decode().split(" ", 1)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert int(tasks) in ((3,) if LINUX_TASKS.is_dir() else (-1,))
    expected = _digest(venv, 40)
    venv.threads = 3
    expected += " " + _digest(venv, 10)
    assert child == expected
    # and the same as one thread from the same seed
    one = VectorEnv(ONE.name, 64, ONE.min_players, seed=11, threads=1)
    for _ in range(5):
        one.step(one.random_actions())
    assert _digest(one, 40) + " " + _digest(one, 10) == expected


def _build(tmp_path: pathlib.Path, flags: list[str], name: str) -> pathlib.Path | None:
    cc = c_compiler()
    if cc is None:
        pytest.skip("no C compiler")
    exe = tmp_path / name
    cmd = [*cc, "-std=c11", "-Wall", "-Wextra", "-Wno-unused-function", "-pthread", *flags]
    cmd += [*include_flags(), str(HARNESS), *engine_sources(), "-o", str(exe), "-lm"]
    built = subprocess.run(cmd, capture_output=True, text=True)
    if built.returncode != 0:
        if "-fsanitize=thread" in flags:
            return None
        pytest.fail(built.stderr)
    return exe


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX threads")
def test_c_pool_check(tmp_path: pathlib.Path) -> None:
    exe = _build(tmp_path, ["-O2"], "vecenv_pool_check")
    assert exe is not None
    run = subprocess.run([str(exe), "60", *TABLES], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout == f"calls {len(TABLES) * 4 * 60} bad 0 threads 64\n", run.stdout


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX threads")
def test_c_pool_check_under_thread_sanitizer(tmp_path: pathlib.Path) -> None:
    exe = _build(tmp_path, ["-O1", "-g", "-fsanitize=thread"], "vecenv_pool_tsan")
    if exe is None:
        pytest.skip("the compiler does not take -fsanitize=thread")
    env = dict(os.environ, TSAN_OPTIONS="halt_on_error=1")
    run = subprocess.run(
        [str(exe), "20", *TABLES], capture_output=True, text=True, timeout=600, env=env
    )
    assert "ThreadSanitizer" not in run.stderr, run.stderr
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout == f"calls {len(TABLES) * 4 * 20} bad 0 threads 64\n", run.stdout
