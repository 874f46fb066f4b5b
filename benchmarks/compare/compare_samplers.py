"""Per-sample cost of the information-set samplers next to their targets.

Two measurements over random positions of random games, each sampled for the
player to act with a fresh seed per sample:

* **C**: ``benchmarks/c/sampler_bench.c``, compiled here against the engine's
  sources, calls each game's ``sample_infoset`` into a reused buffer (what a
  search written in C pays); each position is timed as the minimum over 3 runs
  of its samples.
* **binding**: ``GameState.sample_infoset`` from Python (a new engine state per
  sample, so the allocation and the call's overhead are included); each
  position is timed as the minimum over 3 runs.

Printed per case: mean and median over the positions of the per-sample
microseconds, the mean of the worst decile, and the target (each game's
profile, ``tests/profiles/<name>.py``, ``sampler_bench``).  Timings on a shared machine are
noisy: compare runs made in the same conditions.

Usage: ``python benchmarks/compare/compare_samplers.py [--quick] [--no-c]``.
"""

from __future__ import annotations

import importlib.util
import pathlib
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from typing import Any

import _here  # noqa: F401
from _games import GAMES
from _timing import QUICK

from pycards.game import load_game

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORE = ROOT / "src" / "cardcore"
HARNESS = ROOT / "benchmarks" / "c" / "sampler_bench.c"

CASES: list[tuple[str, int, Any, str, float]] = [
    (name, *sampler_case) for name, case in GAMES.items() for sampler_case in case.sampler_cases()
]


def summary(per: list[float]) -> tuple[float, float, float]:
    """Mean, median and worst-decile mean."""
    per = sorted(per)
    tail = per[-max(1, len(per) // 10) :]
    return statistics.fmean(per), statistics.median(per), statistics.fmean(tail)


def binding(name: str, players: int, rules: Any, count: int, samples: int) -> list[float]:
    """Per-sample microseconds of ``GameState.sample_infoset`` per position."""
    game = load_game(name, rules, num_players=players)
    rng = random.Random(1)
    per: list[float] = []
    seed, sseed = 0, 0
    while len(per) < count:
        state = game.new_initial_state(seed)
        seed += 1
        for _ in range(rng.randint(0, 250)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal:
            continue
        s, p = state.engine_state, state.current_player
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            for k in range(samples):
                s.sample_infoset(p, sseed + k)
            best = min(best, time.perf_counter() - t0)
            sseed += samples
        per.append(best / samples * 1e6)
    return per


def c_figures(count: int, samples: int) -> str | None:
    """The C harness's table, or None without a C compiler."""
    configured = shlex.split(sysconfig.get_config_var("CC") or "")
    cc = next((c for c in (configured, ["cc"], ["gcc"]) if c and shutil.which(c[0])), None)
    if cc is None:
        return None
    spec = importlib.util.spec_from_file_location("_cardcore_sources", CORE / "sources.py")
    assert spec is not None and spec.loader is not None
    build_list = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_list)  # the one list of C sources (src/cardcore/sources.py)
    sources = build_list.c_sources()
    with tempfile.TemporaryDirectory() as tmp:
        exe = str(pathlib.Path(tmp) / "sampler_bench")
        build = [
            *cc,
            "-std=c11",
            "-O3",
            *(f"-I{d}" for d in build_list.include_dirs()),
            str(HARNESS),
            *sources,
            "-o",
            exe,
            "-lm",
            "-pthread",
        ]
        subprocess.run(build, check=True, capture_output=True, text=True)
        cases = [
            f"{name}/{players}/{target}/{label.replace(' ', '')}/"
            + ",".join(str(v) for v in (rules.to_params() if rules is not None else ()))
            for name, players, rules, label, target in CASES
        ]
        run = subprocess.run([exe, str(count), str(samples), *cases], check=True,
                             capture_output=True, text=True)  # fmt: skip
        return run.stdout


def main() -> int:
    count = 40 if QUICK else 200
    if "--no-c" not in sys.argv:
        out = c_figures(count, 20)
        print("C, per sample into a reused buffer (microseconds over positions):")
        print(out if out is not None else "  (no C compiler)")
    print("binding, GameState.sample_infoset (microseconds per sample over positions):")
    head = ("game", "rules", "n", "mean", "median", "worst10%", "target")
    print("{:8} {:18} {:>2}  {:>8} {:>8} {:>9} {:>7}".format(*head))
    for name, players, rules, label, target in CASES:
        mean, median, tail = summary(binding(name, players, rules, count, 10))
        row = f"{name:8} {label:18} {players:2d}  {mean:8.2f} {median:8.2f} {tail:9.2f}"
        print(f"{row} {target:7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
