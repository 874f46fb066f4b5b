"""The benchmark guard: every hot path, normalized, against a kept baseline.

Each hot path is one entry of ``paths()`` in ``paths.py`` beside this file (a
name, a setup function that returns the operation to time, and a calibration
kind); this file is the harness that measures them.  The guard times
every path in one process and divides its time per operation by the time of
a fixed calibration workload of the same kind, sampled right after it: a
fixed C loop (``benchmarks/c/calibrate.c``, not part of the engine: compiled
here with the engine's flags and loaded with ctypes) for the paths that spend
their time in the engine, a fixed pure-Python loop for the paths that spend it in
the interpreter.  Times are the thread's CPU time, each the minimum over
many short samples taken in rounds over all the paths.  The quotient (the
path's *figure*) does not depend on how fast or how busy the machine is, to
within the spread given in docs/benchmarks.rst.

The figures are compared with ``benchmarks/guard/baseline.json``: a figure
1.25x its baseline or worse is measured again in fresh processes (the lowest
figure is kept); then 2x or worse fails the run (exit status 1) naming the
path, and 1.25x or worse is a warning.  A path that raises fails the run; a
path whose code is not in this build (a helper not merged yet, a CPU without
the extension) is listed as "not built" with the reason.  A path with no
baseline figure yet (a new game's, whose paths come from the registry) is a
warning naming it and the command that records it, ``--record-missing``,
which measures only those paths and adds them to the file, keeping every
other figure: the baseline is written by this command, never by hand.

Usage (from the repository root, after ``python setup.py build_ext --inplace``)::

    python benchmarks/guard/harness.py            # full run, 10 to 15 s
    python benchmarks/guard/harness.py --short    # CI: fewer samples
    python benchmarks/guard/harness.py --update --runs 5   # the baseline
    python benchmarks/guard/harness.py --record-missing --runs 5   # new paths only
    python benchmarks/guard/harness.py --list     # the paths

The debug build (``PYCARDS_DEBUG=1``) honours ``PYCARDS_SLOW_PATH=<site>``,
which slows one site on purpose, to prove the guard fails (tests/project/test_guard.py).
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "baseline.json"
FORMAT = "pycards-guard-baseline/1"
#: A figure this many times its baseline fails the run...
FAIL_RATIO = 2.0
#: ... and this many times its baseline is a warning.
WARN_RATIO = 1.25
#: A figure below this fraction of its baseline is reported as faster.
FASTER_RATIO = 0.8
#: Calibration kinds: the fixed C loop and the fixed Python loop.
KINDS = ("c", "python")
#: (repeats, target milliseconds per sample) of the two modes.
FULL = (101, 0.25)
SHORT = (51, 0.25)
#: Rounds of the C calibration loop in one calibration unit.
C_UNIT_ROUNDS = 1000
#: Iterations of the Python calibration loop in one calibration unit.
PY_UNIT_ROUNDS = 100
#: Fresh processes that re-measure a figure 1.25x its baseline or worse.
CONFIRM_RUNS = 2
UPDATE_CMD = "python benchmarks/guard/harness.py --update"
RECORD_CMD = "python benchmarks/guard/harness.py --record-missing --runs 5"

Op = Callable[[], object]


class NotBuiltError(Exception):
    """The code of a path is not in this build (``cpu``: not on this CPU)."""

    def __init__(self, reason: str, *, cpu: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.cpu = cpu


@dataclass(frozen=True)
class GuardPath:
    """One guarded hot path: ``setup()`` returns the operation to time (or
    raises :class:`NotBuiltError`); ``kind`` names its calibration workload."""

    name: str
    kind: str
    setup: Callable[[], Op]
    doc: str


# ---------------------------------------------------------------------------
# calibration workloads (fixed: changing them moves every baseline)


class _Cell:
    __slots__ = ("a", "b")

    def __init__(self, a: int, b: int) -> None:
        self.a = a
        self.b = b

    def step(self, x: int) -> int:
        return (self.a * x + self.b) & 0xFFFF


def python_calibration(rounds: int) -> int:
    """The fixed Python loop: method calls, attribute reads, dict and list
    operations and int arithmetic, as the Python API spends its time."""
    table: dict[int, int] = {}
    kept: list[int] = []
    cell = _Cell(3, 7)
    acc = 0
    for i in range(rounds):
        v = cell.step(i ^ acc)
        acc = (acc + table.get(v & 63, v)) & 0xFFFFF
        table[i & 63] = v
        if v & 1:
            kept.append(v)
    return acc + len(kept)


#: The fixed C loop: not part of the engine, compiled here (``_c_calibration``).
CALIBRATE_C = HERE.parent / "c" / "calibrate.c"


def _engine_sources() -> Any:
    """``src/cardcore/sources.py`` (the engine's flags), loaded by path."""
    import importlib.util

    path = HERE.parent.parent / "src" / "cardcore" / "sources.py"
    spec = importlib.util.spec_from_file_location("_cardcore_sources", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def calibration_library() -> Path:
    """``benchmarks/c/calibrate.c`` compiled with the engine's flags into a
    shared library of its own (kept under ``build/guard/``, named by a hash of
    the source and the flags, so every run and every fresh process of one run
    loads the same build)."""
    import hashlib
    import shlex
    import shutil
    import sysconfig

    cflags, ldflags = _engine_sources().compile_args()
    configured = shlex.split(sysconfig.get_config_var("CC") or "")
    cc = next((c for c in (configured, ["cc"], ["gcc"]) if c and shutil.which(c[0])), None)
    if cc is None:
        raise RuntimeError("benchmarks/c/calibrate.c (the C calibration) needs a C compiler")
    cmd = [*cc, *cflags, "-fPIC", "-shared", str(CALIBRATE_C), *ldflags]
    key = hashlib.sha256(CALIBRATE_C.read_bytes() + " ".join(cmd).encode()).hexdigest()[:16]
    out = HERE.parent.parent / "build" / "guard" / f"calibrate-{key}.so"
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f"{out.name}.{os.getpid()}.tmp")
        subprocess.run([*cmd, "-o", str(tmp)], check=True, capture_output=True, text=True)
        os.replace(tmp, out)
    return out


def _c_calibration() -> Callable[[int], object]:
    """The fixed C loop, ``cc_calibrate(rounds)`` (ctypes releases the GIL
    around it)."""
    import ctypes

    lib = ctypes.CDLL(str(calibration_library()))
    fn = lib.cc_calibrate
    fn.argtypes = [ctypes.c_int64]
    fn.restype = ctypes.c_uint64
    return fn  # type: ignore[no-any-return]


def paths() -> list[GuardPath]:
    """Every guarded hot path (``paths.py``)."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import paths as guarded

    return guarded.paths()


# ---------------------------------------------------------------------------
# measurement


@dataclass
class Result:
    """What the guard found for one path."""

    path: GuardPath
    figure: float | None = None  # op time / calibration unit time
    op_ns: float | None = None  # best time per operation
    not_built: NotBuiltError | None = None
    error: str | None = None
    others: list[float] = field(default_factory=list)  # figures of other processes (--runs)
    first: float | None = None  # the figure of this process, before any re-measurement


def _timed(fn: Callable[[], object], n: int) -> float:
    """CPU seconds of this thread for ``n`` calls of ``fn`` (time spent
    preempted by other processes does not count)."""
    t0 = time.thread_time_ns()
    for _ in range(n):
        fn()
    return (time.thread_time_ns() - t0) * 1e-9


def _count_for(fn: Callable[[], object], target: float) -> int:
    """Calls of ``fn`` that take about ``target`` seconds (at least 1)."""
    t = _timed(fn, 1)
    if t >= target:
        return 1
    n = max(1, int(target / max(t, 1e-7)))
    t = _timed(fn, n)
    return max(1, round(n * target / max(t, 1e-9)))


def _calibration_op(kind: str) -> tuple[Callable[[int], object], int]:
    """The calibration function of a kind and the rounds in one unit."""
    if kind == "c":
        return _c_calibration(), C_UNIT_ROUNDS
    return python_calibration, PY_UNIT_ROUNDS


class _Probe:
    """One path being measured: its operation, sample sizes and best times."""

    def __init__(self, path: GuardPath, target: float) -> None:
        self.result = Result(path)
        self.op: Op | None = None
        self.best_op = self.best_cal = math.inf
        try:
            op = path.setup()
        except NotBuiltError as e:
            self.result.not_built = e
            return
        except Exception:
            self.result.error = traceback.format_exc(limit=4).strip()
            return
        try:
            self.cal, unit = _calibration_op(path.kind)
            op()  # warm-up, and any error shows here
            self.n_op = _count_for(op, target)
            per_unit = _timed(lambda: self.cal(unit * 20), 1) / 20
            self.units = max(1, round(target / max(per_unit, 1e-9)))
            self.rounds = unit * self.units
            self.op = op
        except Exception:
            self.result.error = traceback.format_exc(limit=4).strip()

    def sample(self) -> None:
        """One warm-up call, one timed sample of the path, one of its calibration."""
        op = self.op
        if op is None:
            return
        try:
            op()
            self.best_op = min(self.best_op, _timed(op, self.n_op) / self.n_op)
            t0 = time.thread_time_ns()
            self.cal(self.rounds)
            t = (time.thread_time_ns() - t0) * 1e-9 / self.units
            self.best_cal = min(self.best_cal, t)
        except Exception:
            self.result.error = traceback.format_exc(limit=4).strip()
            self.op = None

    def finish(self) -> Result:
        """The result: figure = best time per op / best time per calibration unit."""
        if self.op is not None and self.best_op < math.inf:
            self.result.op_ns = self.best_op * 1e9
            self.result.figure = self.result.first = self.best_op / self.best_cal
        return self.result


def run(
    selected: Sequence[GuardPath], repeats: int, target_ms: float, verbose: bool = False
) -> list[Result]:
    """Measure the paths together: ``repeats`` rounds, each taking one sample of
    every path and of its calibration, so that each path's samples spread over
    the whole run (the minimum then finds its quiet moments); the GC is off."""
    t0 = time.perf_counter()
    probes = [_Probe(p, target_ms / 1000.0) for p in selected]
    if verbose:
        print(f"guard: set up in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    gc_on = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            for probe in probes:
                probe.sample()
    finally:
        if gc_on:
            gc.enable()
    return [probe.finish() for probe in probes]


# ---------------------------------------------------------------------------
# baseline


class BaselineError(Exception):
    """The baseline file is missing or malformed (the message says which)."""


def load_baseline(path: Path) -> dict[str, dict[str, Any]]:
    """The ``paths`` table of a baseline file, checked."""
    how = f"create it with:\n    {UPDATE_CMD}" + (f" --baseline {path}" if path != BASELINE else "")
    if not path.exists():
        raise BaselineError(f"no baseline file {path}; {how}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BaselineError(f"baseline file {path} is not readable JSON ({e}); re-{how}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BaselineError(
            f'baseline file {path}: expected a JSON object with "format": "{FORMAT}"; re-{how}'
        )
    table = data.get("paths")
    if not isinstance(table, dict):
        raise BaselineError(f'baseline file {path}: "paths" must be an object; re-{how}')
    for name, entry in table.items():
        figure = entry.get("figure") if isinstance(entry, dict) else None
        kind = entry.get("kind") if isinstance(entry, dict) else None
        if (
            isinstance(figure, bool)
            or not isinstance(figure, (int, float))
            or not math.isfinite(figure)
            or figure <= 0
            or kind not in KINDS
        ):
            raise BaselineError(
                f'baseline file {path}: path {name!r} needs a positive finite "figure" and '
                f'a "kind" in {KINDS}, got {entry!r}; re-{how}'
            )
    return table


def baseline_machine(path: Path) -> str | None:
    """The ``machine`` field of a baseline file (None if it has none)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    machine = data.get("machine")
    return machine if isinstance(machine, str) else None


def _machine() -> str:
    """The CPU model and count (figures are comparable on the same kind of machine)."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            model = next(
                (x.split(":", 1)[1].strip() for x in f if x.startswith("model name")), model
            )
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} CPUs, {platform.system()}"


def write_baseline(path: Path, table: dict[str, dict[str, Any]]) -> None:
    """Write a baseline file (sorted, one path per line)."""
    data = {
        "format": FORMAT,
        "about": "benchmarks/guard: time per op / calibration unit (docs/benchmarks.rst)",
        "updated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": _machine(),
        "python": platform.python_version(),
        "paths": dict(sorted(table.items())),
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------
# report


def verdict(figure: float, base: float) -> str:
    """ok, faster, WARN or FAIL for a figure against its baseline."""
    r = figure / base
    if r >= FAIL_RATIO:
        return "FAIL"
    if r >= WARN_RATIO:
        return "WARN"
    if r <= FASTER_RATIO:
        return "faster"
    return "ok"


def _fmt_ns(ns: float | None) -> str:
    if ns is None:
        return ""
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} us"
    return f"{ns:.0f} ns"


def report(
    results: Sequence[Result],
    baseline: dict[str, dict[str, Any]],
    out: Any = None,
    updating: bool = False,
) -> tuple[list[str], list[str]]:
    """Print the table (to ``out``, default stdout); return (failed paths, warned paths)."""
    out = sys.stdout if out is None else out
    failed: list[str] = []
    warned: list[str] = []
    width = max([len(r.path.name) for r in results] + [4])
    head = "new" if updating else "now"
    print(
        f"{'path':<{width}}  kind    {'baseline':>9}  {head:>9}  {'change':>7}  "
        f"{'status':<8}  time/op",
        file=out,
    )
    for r in results:
        name = r.path.name
        base = baseline.get(name, {}).get("figure")
        b = f"{base:9.3f}" if base is not None else f"{'-':>9}"
        if r.error is not None:
            failed.append(name)
            print(f"{name:<{width}}  {r.path.kind:<6}  {b}  {'-':>9}  {'':>7}  FAILED", file=out)
            print("    " + r.error.replace("\n", "\n    "), file=out)
            continue
        if r.not_built is not None:
            status = "not built"
            if base is not None and not r.not_built.cpu and not updating:
                status = "GONE"  # guarded before, missing now
                failed.append(name)
            print(
                f"{name:<{width}}  {r.path.kind:<6}  {b}  {'-':>9}  {'':>7}  {status}: "
                f"{r.not_built.reason}",
                file=out,
            )
            continue
        assert r.figure is not None
        if base is None:
            change, status = "", "new" if updating else "NO BASELINE"
            if not updating:
                warned.append(name)
        else:
            change = f"{(r.figure / base - 1) * 100:+6.0f}%"
            status = "updated" if updating else verdict(r.figure, base)
            if status == "FAIL":
                failed.append(name)
            elif status == "WARN":
                warned.append(name)
        print(
            f"{name:<{width}}  {r.path.kind:<6}  {b}  {r.figure:9.3f}  {change:>7}  "
            f"{status:<8}  {_fmt_ns(r.op_ns)}",
            file=out,
        )
    return failed, warned


def select(all_paths: Sequence[GuardPath], patterns: Sequence[str]) -> list[GuardPath]:
    """The paths matching any of the glob patterns (all if none)."""
    if not patterns:
        return list(all_paths)
    return [p for p in all_paths if any(fnmatch.fnmatchcase(p.name, pat) for pat in patterns)]


def _write_figures(path: Path, results: Sequence[Result]) -> None:
    """This run's figures as JSON: ``figures`` (the final ones) and
    ``first_process`` (before any re-measurement in fresh processes)."""
    data = {
        "figures": {r.path.name: r.figure for r in results if r.figure is not None},
        "first_process": {r.path.name: r.first for r in results if r.first is not None},
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _fresh_figures(names: Sequence[str], repeats: int, short: bool) -> dict[str, float]:
    """The figures of the named paths measured by a new process of this script
    (empty if it fails: the figures of this process then stand)."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "figures.json"
        cmd = [sys.executable, str(Path(__file__).resolve()), "--figures-only", "--json", str(out)]
        cmd += ["--repeats", str(repeats), *(["--short"] if short else [])]
        cmd += [a for n in names for a in ("--only", glob_escape(n))]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        try:
            figures: dict[str, float] = json.loads(out.read_text(encoding="utf-8"))["figures"]
        except (OSError, ValueError, KeyError, TypeError):
            return {}
    return figures


def glob_escape(name: str) -> str:
    """A glob pattern matching exactly ``name`` (``[`` and the like escaped)."""
    return "".join(f"[{c}]" if c in "[]*?" else c for c in name)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring. Exit status 0 (pass, perhaps
    with warnings), 1 (a path 2x worse, failed, or gone), 2 (bad baseline or
    arguments)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--short", action="store_true", help="CI mode: fewer repeats")
    ap.add_argument("--update", action="store_true", help="measure and write the baseline")
    ap.add_argument(
        "--record-missing",
        action="store_true",
        help="measure only the paths with no baseline figure and add them to the file",
    )
    ap.add_argument("--baseline", type=Path, default=BASELINE, help="baseline file")
    ap.add_argument("--only", action="append", default=[], metavar="GLOB", help="paths to run")
    ap.add_argument("--list", action="store_true", help="list the paths and exit")
    ap.add_argument("--json", type=Path, help="also write this run's figures to a JSON file")
    ap.add_argument("--repeats", type=int, help="interleaved samples per path")
    ap.add_argument(
        "--runs", type=int, default=1, help="measure N times, keep each path's median figure"
    )
    ap.add_argument("--verbose", action="store_true", help="time of each path on stderr")
    ap.add_argument(
        "--no-confirm", action="store_true", help="do not re-measure worse figures in new processes"
    )
    ap.add_argument("--figures-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    try:
        all_paths = paths()
    except Exception:
        print("guard: FAILED to list the paths (is the extension built?)", file=sys.stderr)
        traceback.print_exc()
        return 1
    if args.list:
        for p in all_paths:
            print(f"{p.name:<40} {p.kind:<7} {p.doc}")
        return 0
    selected = select(all_paths, args.only)
    if not selected:
        print(f"guard: no path matches {args.only}", file=sys.stderr)
        return 2

    if args.figures_only and not args.json:
        ap.error("--figures-only needs --json")
    if args.record_missing and args.update:
        ap.error("--record-missing adds to the baseline, --update replaces it: give one")
    baseline: dict[str, dict[str, Any]] = {}
    if args.figures_only:
        pass
    elif not args.update or args.baseline.exists():
        try:
            baseline = load_baseline(args.baseline)
        except BaselineError as e:
            if not args.update:
                print(f"guard: {e}", file=sys.stderr)
                return 2
            print(f"guard: {e}\n(replacing it)", file=sys.stderr)
    if args.record_missing:
        here, there = _machine(), baseline_machine(args.baseline)
        if there is not None and there != here:
            print(
                f"guard: the baseline was measured on {there}, this is {here}: figures "
                "compare on the same kind of machine only; record the missing figures "
                "there, or measure every path here with --update",
                file=sys.stderr,
            )
            return 2
        selected = [p for p in selected if p.name not in baseline]
        if not selected:
            print("guard: every selected path has a baseline figure; nothing to record")
            return 0
    updating = args.update or args.record_missing

    repeats, target_ms = SHORT if args.short else FULL
    if args.repeats:
        repeats = args.repeats
    from cardcore import _core

    switch = os.environ.get("PYCARDS_SLOW_PATH")
    print(
        f"guard: {len(selected)} paths, {repeats} interleaved samples of ~{target_ms:g} ms each"
        f"{' (short)' if args.short else ''}; baseline {args.baseline.name}"
    )
    if switch:
        honoured = _core._slow_switch_built()
        print(
            f"guard: PYCARDS_SLOW_PATH={switch} "
            f"({'honoured: debug build' if honoured else 'ignored: not a debug build'})"
        )
    t0 = time.perf_counter()
    results = run(selected, repeats, target_ms, args.verbose)
    if args.figures_only:
        _write_figures(args.json, results)
        return 0
    measured = [r for r in results if r.figure is not None]
    for _ in range(args.runs - 1):  # (--update --runs N) the median over N processes
        again = _fresh_figures([r.path.name for r in measured], repeats, args.short)
        for r in measured:
            r.others.append(again.get(r.path.name, math.nan))
    for r in measured:
        r.figure = statistics.median([r.figure, *(f for f in r.others if not math.isnan(f))])
    suspects = [
        r
        for r in measured
        if not updating
        and r.path.name in baseline
        and r.figure / baseline[r.path.name]["figure"] >= WARN_RATIO
    ]
    if suspects and CONFIRM_RUNS and not args.no_confirm:
        # A figure that looks worse is measured again in fresh processes (a new
        # heap, address layout and caches) and its lowest figure kept: a real
        # slowdown shows in every process, a process's bad luck does not.
        names = [r.path.name for r in suspects]
        before = {r.path.name: r.figure for r in suspects}
        for _ in range(CONFIRM_RUNS):
            again = _fresh_figures(names, repeats, args.short)
            for r in suspects:
                r.figure = min(r.figure, again.get(r.path.name, math.inf))  # type: ignore[type-var]
        print(
            f"guard: re-measured in {CONFIRM_RUNS} fresh processes (lowest kept): "
            + ", ".join(
                f"{r.path.name} {before[r.path.name]:.3f} -> {r.figure:.3f}" for r in suspects
            )
        )
    failed, warned = report(results, baseline, updating=updating)
    print(f"guard: {time.perf_counter() - t0:.1f} s")

    if args.json:
        _write_figures(args.json, results)

    errored = [r.path.name for r in results if r.error is not None]
    if updating:
        if errored:
            print(f"guard: not updating: {len(errored)} path(s) FAILED: {', '.join(errored)}")
            return 1
        if args.record_missing and not any(r.figure is not None for r in results):
            print("guard: nothing to record: no path without a figure was measured")
            return 0
        table = dict(baseline) if args.only or args.record_missing else {}
        for r in results:
            if r.figure is not None:
                table[r.path.name] = {"kind": r.path.kind, "figure": round(r.figure, 4)}
            elif args.only:
                table.pop(r.path.name, None)
        write_baseline(args.baseline, table)
        if args.record_missing:
            added = sorted(set(table) - set(baseline))
            print(f"guard: recorded {len(added)} new figures ({', '.join(added)})")
        print(f"guard: wrote {len(table)} figures to {args.baseline}")
        return 0
    if warned:
        print(f"guard: warning ({WARN_RATIO}x or worse, or no baseline): {', '.join(warned)}")
    missing = [r.path.name for r in results if r.figure is not None and r.path.name not in baseline]
    if missing:
        print(
            f"guard: no baseline figure for {', '.join(missing)}: not guarded until "
            f"recorded, on the baseline's machine, with:\n    {RECORD_CMD}"
        )
    if failed:
        print(
            f"guard: FAILED: {', '.join(failed)} "
            f"({FAIL_RATIO:g}x its baseline or worse, raised an error, or gone)"
        )
        return 1
    print("guard: OK")
    return 0


if __name__ == "__main__":
    # run the module ``paths.py`` imports, not a second copy of this file
    sys.path.insert(0, str(HERE))
    import harness

    sys.exit(harness.main())
