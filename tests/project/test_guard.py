"""The benchmark guard (benchmarks/guard/harness.py, docs/benchmarks.rst).

The fast tests check the guard's logic with paths made up here: what a
missing or malformed baseline says, that an erroring path fails the run and
a path missing from the build is listed, never dropped, and the verdicts at
the thresholds.  No time is asserted: a figure against a baseline of 1e-9 is
a regression and against 1e9 is not, on any machine.

The slow test proves the guard catches a real slowdown of the engine: it
builds a debug copy of the repository (``PYCARDS_DEBUG=1``, which honours
``PYCARDS_SLOW_PATH``), records a baseline of the fused kernel's paths and
their neighbours, then runs the guard with ``PYCARDS_SLOW_PATH=batch_hand_stats``
(it must exit 1 naming exactly the fused kernel's paths) and without it (it
must pass).  Run it with ``python -m pytest -m slow tests/project/test_guard.py``.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
from typing import Any

import _paths
import pytest
from _cbuild import engine_sources
from _games import GAMES

ROOT = _paths.ROOT
GUARD = ROOT / "benchmarks" / "guard"


def _load_guard() -> Any:
    # the harness as its own command imports it: ``paths.py`` beside it imports it too
    if str(GUARD) not in sys.path:
        sys.path.insert(0, str(GUARD))
    import harness

    return harness


guard = _load_guard()

#: a registered game, for the tests that need one game's guarded paths
ONE = next(iter(GAMES))


def _ok_setup() -> Any:
    return lambda: sum(range(50))


def _raising_setup() -> Any:
    def op() -> None:
        raise RuntimeError("boom in the hot path")

    return op


def _broken_setup() -> Any:
    raise KeyError("setup broke")


def _not_built_setup() -> Any:
    raise guard.NotBuiltError("cardcore._core.future_thing missing")


def _not_on_cpu_setup() -> Any:
    raise guard.NotBuiltError("kernel path avx512 not on this CPU/build", cpu=True)


FAKE = {
    "fake.ok": ("python", _ok_setup),
    "fake.c": ("c", _ok_setup),
    "fake.raises": ("python", _raising_setup),
    "fake.setup_breaks": ("c", _broken_setup),
    "fake.future": ("c", _not_built_setup),
    "fake.avx512": ("c", _not_on_cpu_setup),
}


@pytest.fixture
def fake_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [guard.GuardPath(n, k, s, "a made-up path") for n, (k, s) in FAKE.items()]
    monkeypatch.setattr(guard, "paths", lambda: paths)


def _write(path: pathlib.Path, figures: dict[str, float], kinds: dict[str, str] | None = None):
    table = {
        name: {"kind": (kinds or {}).get(name, FAKE[name][0]), "figure": f}
        for name, f in figures.items()
    }
    guard.write_baseline(path, table)


def _only(names: list[str]) -> list[str]:
    return [a for n in names for a in ("--only", n)]


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = guard.main(["--repeats", "3", *args])
    out, err = capsys.readouterr()
    return rc, out, err


# ---- baseline file --------------------------------------------------------


def test_missing_baseline_names_the_command(tmp_path: pathlib.Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(guard.BaselineError) as e:
        guard.load_baseline(missing)
    assert "no baseline file" in str(e.value)
    assert f"benchmarks/guard/harness.py --update --baseline {missing}" in str(e.value)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{not json", "not readable JSON"),
        ("[1, 2]", '"format"'),
        ('{"format": "something-else/9", "paths": {}}', '"format"'),
        (json.dumps({"format": guard.FORMAT, "paths": [1]}), '"paths" must be an object'),
        (json.dumps({"format": guard.FORMAT, "paths": {"a": 2.0}}), "path 'a'"),
        (json.dumps({"format": guard.FORMAT, "paths": {"a": {"kind": "c"}}}), "path 'a'"),
        (
            json.dumps({"format": guard.FORMAT, "paths": {"a": {"kind": "c", "figure": -1}}}),
            "positive finite",
        ),
        (
            json.dumps({"format": guard.FORMAT, "paths": {"a": {"kind": "c", "figure": True}}}),
            "positive finite",
        ),
        (
            json.dumps(
                {"format": guard.FORMAT, "paths": {"a": {"kind": "c", "figure": 1}}}
            ).replace("1}", "NaN}"),
            "positive finite",
        ),
        (
            json.dumps({"format": guard.FORMAT, "paths": {"a": {"kind": "go", "figure": 1}}}),
            "kind",
        ),
    ],
)
def test_malformed_baseline(tmp_path: pathlib.Path, text: str, says: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(guard.BaselineError) as e:
        guard.load_baseline(bad)
    assert says in str(e.value)
    assert "--update" in str(e.value)


def test_main_refuses_a_bad_baseline_before_measuring(
    tmp_path: pathlib.Path, fake_paths: None, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    rc, out, err = _main(capsys, "--baseline", str(bad))
    assert rc == 2
    assert "not readable JSON" in err and "--update" in err
    assert "fake.ok" not in out  # nothing was measured


def test_baseline_round_trip(tmp_path: pathlib.Path) -> None:
    f = tmp_path / "b.json"
    _write(f, {"fake.ok": 2.5, "fake.c": 0.125})
    assert guard.load_baseline(f) == {
        "fake.c": {"kind": "c", "figure": 0.125},
        "fake.ok": {"kind": "python", "figure": 2.5},
    }


# ---- verdicts -------------------------------------------------------------


@pytest.mark.parametrize(
    ("figure", "expected"),
    [(1.0, "ok"), (1.2, "ok"), (1.25, "WARN"), (1.99, "WARN"), (2.0, "FAIL"), (9.0, "FAIL"),
     (0.85, "ok"), (0.8, "faster"), (0.1, "faster")],
)  # fmt: skip
def test_verdict_thresholds(figure: float, expected: str) -> None:
    assert guard.verdict(figure, 1.0) == expected


# ---- runs with made-up paths ---------------------------------------------


def test_update_refuses_when_a_path_errors(
    tmp_path: pathlib.Path, fake_paths: None, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "b.json"
    rc, out, _ = _main(capsys, "--update", "--baseline", str(f))
    assert rc == 1
    assert "not updating" in out and "fake.raises" in out and "fake.setup_breaks" in out
    assert not f.exists()


def test_errors_fail_and_missing_code_is_listed(
    tmp_path: pathlib.Path, fake_paths: None, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "b.json"
    four = ["fake.ok", "fake.c", "fake.future", "fake.avx512"]
    rc, out, _ = _main(capsys, "--update", "--baseline", str(f), *_only(four))
    assert rc == 0, out
    assert set(guard.load_baseline(f)) == {"fake.ok", "fake.c"}
    assert "not built: cardcore._core.future_thing missing" in out

    _write(f, {"fake.ok": 1e9, "fake.c": 1e9})  # (no noise can make these fail)
    rc, out, _ = _main(capsys, "--baseline", str(f))
    assert rc == 1
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("fake.")}
    assert "FAILED" in lines["fake.raises"] and "boom in the hot path" in out
    assert "FAILED" in lines["fake.setup_breaks"] and "setup broke" in out
    assert "not built" in lines["fake.future"]
    assert "not built" in lines["fake.avx512"]
    failed = re.search(r"guard: FAILED: (.*) \(", out)
    assert failed is not None
    assert set(failed.group(1).split(", ")) == {"fake.raises", "fake.setup_breaks"}


def test_a_guarded_path_that_disappears_fails(
    tmp_path: pathlib.Path, fake_paths: None, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "b.json"
    _write(f, {"fake.ok": 1e9, "fake.future": 1.0, "fake.avx512": 1.0})
    rc, out, _ = _main(
        capsys, "--baseline", str(f), *_only(["fake.ok", "fake.future", "fake.avx512"])
    )
    assert rc == 1
    assert "GONE: cardcore._core.future_thing missing" in out
    assert "guard: FAILED: fake.future (" in out  # not on this CPU is not a failure


def test_regression_fails_and_names_the_path(
    tmp_path: pathlib.Path, fake_paths: None, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "b.json"
    # no machine runs a path in 1e-9 calibration units, and none takes 1e9
    _write(f, {"fake.ok": 1e-9, "fake.c": 1e9})
    rc, out, _ = _main(capsys, "--baseline", str(f), "--only", "fake.ok", "--only", "fake.c")
    assert rc == 1
    assert "guard: FAILED: fake.ok (" in out
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("fake.")}
    assert " FAIL " in lines["fake.ok"] and " faster " in lines["fake.c"]

    _write(f, {"fake.ok": 1e9, "fake.c": 1e9})
    rc, out, _ = _main(capsys, "--baseline", str(f), "--only", "fake.ok", "--only", "fake.c")
    assert rc == 0 and "guard: OK" in out


def test_a_worse_figure_is_measured_again_in_fresh_processes(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "b.json"
    guard.write_baseline(f, {f"{ONE}.clone": {"kind": "python", "figure": 1e-9}})
    rc, out, _ = _main(capsys, "--baseline", str(f), "--only", f"{ONE}.clone")
    assert rc == 1
    assert f"re-measured in {guard.CONFIRM_RUNS} fresh processes (lowest kept): {ONE}.clone" in out
    assert f"guard: FAILED: {ONE}.clone (" in out
    rc, out, _ = _main(capsys, "--baseline", str(f), "--only", f"{ONE}.clone", "--no-confirm")
    assert rc == 1 and "re-measured" not in out


def test_a_path_without_baseline_is_a_warning(
    tmp_path: pathlib.Path, fake_paths: None, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "b.json"
    _write(f, {"fake.ok": 1e9})
    rc, out, _ = _main(capsys, "--baseline", str(f), "--only", "fake.ok", "--only", "fake.c")
    assert rc == 0
    assert "NO BASELINE" in out and "warning" in out and "fake.c" in out
    # ... named, with the command that records it
    assert "no baseline figure for fake.c: not guarded until recorded" in out
    assert guard.RECORD_CMD in out and "fake.ok:" not in out


def test_record_missing_measures_and_adds_only_the_missing_paths(
    tmp_path: pathlib.Path, fake_paths: None, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "b.json"
    _write(f, {"fake.ok": 123.0})
    three = ["fake.ok", "fake.c", "fake.future"]
    rc, out, _ = _main(capsys, "--record-missing", "--baseline", str(f), *_only(three))
    assert rc == 0, out
    measured = [line.split()[0] for line in out.splitlines() if line.startswith("fake.")]
    assert measured == ["fake.c", "fake.future"]  # fake.ok has a figure: not measured
    assert "not built" in out and "recorded 1 new figures (fake.c)" in out
    table = guard.load_baseline(f)
    assert set(table) == {"fake.ok", "fake.c"} and table["fake.ok"]["figure"] == 123.0
    assert table["fake.c"]["kind"] == "c"
    written = f.read_text(encoding="utf-8")
    rc, out, _ = _main(capsys, "--record-missing", "--baseline", str(f), *_only(three))
    assert rc == 0 and "nothing to record: no path without a figure was measured" in out
    rc, out, _ = _main(capsys, "--record-missing", "--baseline", str(f), *_only(three[:2]))
    assert rc == 0 and "every selected path has a baseline figure; nothing to record" in out
    assert f.read_text(encoding="utf-8") == written


def test_record_missing_refuses_errors_another_machine_and_update(
    tmp_path: pathlib.Path, fake_paths: None, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "b.json"
    _write(f, {"fake.ok": 123.0})
    before = f.read_text(encoding="utf-8")
    rc, out, _ = _main(capsys, "--record-missing", "--baseline", str(f))
    assert rc == 1 and "not updating" in out and "fake.raises" in out
    assert f.read_text(encoding="utf-8") == before
    data = json.loads(before)
    data["machine"] = "another machine"
    f.write_text(json.dumps(data), encoding="utf-8")
    rc, out, err = _main(capsys, "--record-missing", "--baseline", str(f), "--only", "fake.c")
    assert rc == 2 and "measured on another machine" in err and "fake.c" not in out
    assert guard.load_baseline(f) == {"fake.ok": {"kind": "python", "figure": 123.0}}
    with pytest.raises(SystemExit):
        guard.main(["--record-missing", "--update", "--baseline", str(f)])
    assert "give one" in capsys.readouterr().err
    rc, _, err = _main(capsys, "--record-missing", "--baseline", str(tmp_path / "none.json"))
    assert rc == 2 and "no baseline file" in err and "--update" in err


def test_update_shows_old_and_new(
    tmp_path: pathlib.Path, fake_paths: None, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "b.json"
    _write(f, {"fake.ok": 123.0, "fake.c": 456.0})
    rc, out, _ = _main(capsys, "--update", "--baseline", str(f), "--only", "fake.ok")
    assert rc == 0
    line = next(x for x in out.splitlines() if x.startswith("fake.ok"))
    assert "123.000" in line and "updated" in line
    table = guard.load_baseline(f)
    assert table["fake.c"]["figure"] == 456.0  # --only keeps the others
    assert table["fake.ok"]["figure"] != 123.0


def test_every_registered_path_has_a_unique_name_and_a_kind() -> None:
    paths = guard.paths()
    names = [p.name for p in paths]
    assert len(names) == len(set(names))
    assert all(p.kind in guard.KINDS for p in paths)
    from pycards.game import game_names

    for game in game_names():  # every game gets the per-game paths
        for call in ("step", "playouts", "observation", "clone", "sample_infoset"):
            assert f"{game}.{call}" in names


def test_the_committed_baseline_is_valid_and_names_guarded_paths() -> None:
    table = guard.load_baseline(guard.BASELINE)
    names = {p.name: p.kind for p in guard.paths()}
    for name, entry in table.items():
        assert name in names, f"{name} in the baseline is no guarded path"
        assert entry["kind"] == names[name]


def test_python_calibration_is_fixed_work() -> None:
    assert guard.python_calibration(1000) == guard.python_calibration(1000)


def test_the_c_calibration_is_fixed_work_outside_the_engine() -> None:
    # benchmarks/c/calibrate.c, built by the harness; the engine ships no yardstick
    from cardcore import _core

    calibrate = guard._c_calibration()
    assert calibrate(1000) == calibrate(1000) != calibrate(1001)
    assert guard.calibration_library().is_relative_to(ROOT / "build")
    assert not hasattr(_core, "_calibrate")
    engine = "\n".join(pathlib.Path(p).read_text() for p in engine_sources())
    assert "cc_calibrate" not in engine


# ---- the slow-path switch -------------------------------------------------

IGNORED = shutil.ignore_patterns(
    ".git", "build", "dist", "*.egg-info", "__pycache__", "*.so", "*.pyd", "*.o",
    "_core.c", "_cffi*.c", ".hypothesis", ".benchmarks", ".*_cache", "_build", ".venv",
)  # fmt: skip
SUBSET = ["batch.hand_stats*", "batch.count_*", f"{ONE}.playouts", f"{ONE}.clone"]


@pytest.mark.slow
def test_guard_fails_on_a_slowed_path_of_a_debug_build(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("Cython", reason="the debug build needs Cython")
    work = tmp_path / "repo"
    shutil.copytree(ROOT, work, ignore=IGNORED)
    env = {k: v for k, v in os.environ.items() if k != "PYCARDS_SLOW_PATH"}
    build = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=work, env={**env, "PYCARDS_DEBUG": "1"}, capture_output=True, text=True,
    )  # fmt: skip
    assert build.returncode == 0, build.stdout + build.stderr
    env["PYTHONPATH"] = str(work / "src")
    base = tmp_path / "debug-baseline.json"
    only = [a for pattern in SUBSET for a in ("--only", pattern)]

    def guard_run(*args: str, slow: str | None = None) -> subprocess.CompletedProcess[str]:
        e = dict(env) if slow is None else {**env, "PYCARDS_SLOW_PATH": slow}
        return subprocess.run(
            [sys.executable, "benchmarks/guard/harness.py", "--short", "--baseline", str(base),
             *only,
             *args],
            cwd=work, env=e, capture_output=True, text=True,
        )  # fmt: skip

    made = guard_run("--update")
    assert made.returncode == 0, made.stdout + made.stderr
    assert "honoured" not in made.stdout

    slowed = guard_run(slow="batch_hand_stats")
    assert slowed.returncode == 1, slowed.stdout + slowed.stderr
    assert "PYCARDS_SLOW_PATH=batch_hand_stats (honoured: debug build)" in slowed.stdout
    failed = re.search(r"guard: FAILED: (.*) \(", slowed.stdout)
    assert failed is not None, slowed.stdout
    names = set(failed.group(1).split(", "))
    assert "batch.hand_stats" in names and "batch.hand_stats[plain]" in names
    assert all(n.startswith("batch.hand_stats") for n in names), slowed.stdout

    clean = guard_run()
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "guard: OK" in clean.stdout


def test_the_binding_says_whether_it_honours_the_slow_path() -> None:
    # the guard's harness asks it (a release build does not honour it)
    from cardcore import _core

    assert _core._slow_switch_built() is False or os.environ.get("PYCARDS_DEBUG")
