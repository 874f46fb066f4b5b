"""Root-parallel search at equal time: ``ismcts`` with ``threads=2`` against
``threads=1``, each given the same wall-clock budget per move (``seconds``,
no cap on simulations), with the game's other defaults.

For each registered game (its first match of ``search_defaults.py``, or the
matches named by ``--only``) the script prints

- the speed-up: simulations per second of wall-clock time with 2 trees over
  1, on fixed positions (``_search_positions``), each the median of 5 moves
  per position;
- the strength: the points margin of ``threads=2`` over ``threads=1`` with
  its 95% interval, and its win rate, over duplicate deals in the arena.

The second thread needs a free core: on a busy machine (see the load
average printed first) both figures say less than on a quiet one, and a
time budget makes the games depend on the load (the one exception to the
search's determinism).

Usage: ``python benchmarks/studies/search_threads.py
[--deals N] [--seconds S] [--only LABEL]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import _here  # noqa: F401
from _search_positions import positions
from search_defaults import MATCHES, Setting

from pycards.arena import Match
from pycards.bots import make_bot


def _settings(only: list[str]) -> list[Setting]:
    """Each registered game's first match of ``search_defaults.MATCHES`` (or
    the matches named in ``only``)."""
    if only:
        return [s for s in MATCHES if s.label in only]
    first: dict[str, Setting] = {}
    for s in MATCHES:
        first.setdefault(s.game, s)
    return list(first.values())


def rate(name: str, players: int, threads: int, seconds: float, count: int = 6) -> float:
    """Simulations per wall-clock second, the median over positions and moves."""
    states = positions(name, players, count)
    bot = make_bot(f"ismcts:simulations=0:seconds={seconds}:threads={threads}", seed=1)
    rates = []
    for state in states:
        view = state.view(state.current_player)
        for _ in range(5):
            t0 = time.perf_counter()
            bot.act(view)
            rates.append(bot.last_simulations / (time.perf_counter() - t0))
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> int:
    """Print the speed-up and the strength of 2 threads over 1 in each game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="deal groups per match")
    parser.add_argument("--seconds", type=float, default=0.005, help="time per move")
    parser.add_argument("--seed", type=int, default=2026, help="the arena seed")
    parser.add_argument("--only", action="append", default=[], help="a match label (repeatable)")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    head = f"{'game':<20} {'sims/s 1t':>10} {'sims/s 2t':>10} {'speed-up':>8}"
    print(f"{head} {'deals':>5} {'margin 2t ±95%':>16} {'win 2t':>7}")
    for setting in _settings(args.only):
        label, name, players = setting.label, setting.game, setting.players
        r1 = rate(name, players, 1, args.seconds)
        r2 = rate(name, players, 2, args.seconds)
        spec = f"ismcts:simulations=0:seconds={args.seconds}"
        bots = [f"{spec}:threads=2", f"{spec}:threads=1"]
        game = setting.load()
        result = Match(game, bots, games=2 * args.deals, seed=args.seed).run(progress=False)
        b = result.bots[0]
        half = (b.margin_ci[1] - b.margin_ci[0]) / 2
        print(
            f"{label:<20} {r1:10.0f} {r2:10.0f} {r2 / r1:8.2f} {args.deals:5d} "
            f"{b.margin:+9.2f} ±{half:<5.2f} {100 * b.win_rate:6.1f}%",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
