"""Instructions per learner step of the vector environment and of a Python loop
over the state API doing the same work (see ``compare_vecenv.py``), counted with
``valgrind --tool=callgrind``: steadier than timings on a shared machine.

Each figure is a difference of two runs, ``(I(k2) - I(k1)) / (k2 - k1)``, so the
interpreter's start, imports and setup cancel out.  The vector steps 256 games
per call with random learner actions drawn in C (``VectorEnv.random_actions``),
one thread, through the Python API; the Python loop steps 16 ``State`` objects
with ``random.choice``.  Two settings make the count follow the real cost:
``GLIBC_TUNABLES=glibc.cpu.x86_rep_stosb_threshold=...`` keeps glibc's memset
from ``rep stosb``, which callgrind counts one instruction per byte (an
observation tensor of several KB is cleared on every step on both sides), and
``OPENBLAS_NUM_THREADS=1`` keeps numpy's idle BLAS threads from spinning into the
count.

Usage: ``python benchmarks/compare/count_vecenv.py [name players ...]``
(default: every game of ``compare_vecenv.GAMES``).  Several minutes per game.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

from compare_vecenv import GAMES, NUM_ENVS, python_run, vector_run  # this script's folder


def child(mode: str, name: str, players: int, steps: int) -> None:
    """Run ``steps`` learner steps (the process that callgrind counts): the
    vector or the Python loop of ``compare_vecenv.py``, exactly."""
    if mode == "vector":
        run, _ = vector_run(name, players, 1, steps // NUM_ENVS)
    else:
        run = python_run(name, players, steps)
    run()


def count(mode: str, name: str, players: int, steps: int) -> int:
    """Instructions of a child run under callgrind."""
    env = dict(os.environ)
    env["GLIBC_TUNABLES"] = "glibc.cpu.x86_rep_stosb_threshold=1000000000"
    env["OPENBLAS_NUM_THREADS"] = "1"
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        mode,
        name,
        str(players),
        str(steps),
    ]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stderr
    m = re.search(r"Collected : (\d+)", out)
    if m is None:
        raise RuntimeError(f"no callgrind total in:\n{out[-2000:]}")
    return int(m.group(1))


def per_step(mode: str, name: str, players: int) -> float:
    k1, k2 = (10 * NUM_ENVS, 40 * NUM_ENVS) if mode == "vector" else (400, 2400)
    return (count(mode, name, players, k2) - count(mode, name, players, k1)) / (k2 - k1)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        child(argv[1], argv[2], int(argv[3]), int(argv[4]))
        return 0
    parser = argparse.ArgumentParser(
        description="Instructions per learner step of the vector environment and of a "
        "Python loop over the state API, counted with valgrind's callgrind (several "
        "minutes per game).",
    )
    parser.add_argument(
        "games",
        nargs="*",
        metavar="NAME PLAYERS",
        help="pairs of a game's name and a player count (default: every game of "
        "compare_vecenv.GAMES)",
    )
    args = parser.parse_args(argv)
    if len(args.games) % 2:
        parser.error("give pairs: a game's name and a player count")
    games = []
    for i in range(0, len(args.games), 2):
        try:
            games.append((args.games[i], int(args.games[i + 1])))
        except ValueError:
            parser.error(f"a player count is a whole number, got {args.games[i + 1]!r}")
    games = games or GAMES
    print("instructions per learner step (callgrind, 1 thread)")
    print(f"{'game':9} {'players':>7} {'vector':>9} {'python':>9} {'ratio':>6}")
    for name, players in games:
        vec = per_step("vector", name, players)
        py = per_step("python", name, players)
        print(f"{name:9} {players:7d} {vec:9,.0f} {py:9,.0f} {py / vec:6.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
