"""Every ``python benchmarks/...`` command quoted in the docs, README and the
benchmark scripts' own usage lines works
after README's install (``pip install .``): its script exists and parses, it is
not run with ``src`` on ``PYTHONPATH`` (whose ``cardcore`` has no built
extension after a non-editable install), every option it is given is one the
script reads, and the cheap ones run from another folder with no
``PYTHONPATH`` at all."""

from __future__ import annotations

import ast
import os
import pathlib
import re
import subprocess
import sys

import _paths
import pytest

ROOT = _paths.ROOT
#: the docs, README, and the benchmark scripts (whose docstrings give their usage)
DOCS = [
    *sorted((ROOT / "docs").glob("*.rst")),
    ROOT / "README.md",
    *sorted((ROOT / "benchmarks").rglob("*.py")),
]


def _name(doc: pathlib.Path) -> str:
    return doc.relative_to(ROOT).as_posix()


#: a command: the script's path, then its arguments up to a quote mark, a
#: comment or the end of the line
COMMAND = re.compile(r"python (benchmarks/[\w/]+\.py)([^`#\n]*)")
#: the module every benchmark script reads --quick from
TIMING = ROOT / "benchmarks" / "_timing.py"


def _commands() -> list[tuple[str, str, str]]:
    """(document, script path, arguments) of every command in the docs."""
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8").replace("\\\n", " ")
        for m in COMMAND.finditer(text):
            found.append((_name(doc), m.group(1), m.group(2).strip()))
    return found


COMMANDS = _commands()


def test_the_docs_quote_benchmark_commands() -> None:
    # the extraction itself must find the commands it is meant to check
    scripts = {path for _, path, _ in COMMANDS}
    assert "benchmarks/guard/harness.py" in scripts
    assert "benchmarks/compare/compare_vecenv.py" in scripts
    assert len(COMMANDS) >= 10


@pytest.mark.parametrize("doc", [_name(d) for d in DOCS])
def test_no_command_puts_src_on_the_path(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert not re.search(r"PYTHONPATH=src\s+(\\\s*)?python", text), (
        f"{doc}: a benchmark command with PYTHONPATH=src fails after `pip install .`"
    )


@pytest.mark.parametrize(("doc", "path", "args"), COMMANDS)
def test_command_script_exists_and_takes_its_options(doc: str, path: str, args: str) -> None:
    script = ROOT / path
    assert script.is_file(), f"{doc}: {path} does not exist"
    source = script.read_text(encoding="utf-8")
    ast.parse(source, filename=path)
    read = source + TIMING.read_text(encoding="utf-8")
    for option in re.findall(r"--[\w-]+", args):
        assert f'"{option}"' in read, f"{doc}: {path} does not read {option}"


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, *argv],
        cwd=ROOT.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_guard_lists_its_paths_without_pythonpath() -> None:
    done = _run(str(ROOT / "benchmarks" / "guard" / "harness.py"), "--list")
    assert done.returncode == 0, done.stderr
    assert "batch.hand_stats" in done.stdout


def test_ismcts_comparison_answers_help_without_pythonpath() -> None:
    done = _run(str(ROOT / "benchmarks" / "compare" / "compare_ismcts.py"), "--help")
    assert done.returncode == 0, done.stderr
    assert "--simulations" in done.stdout


def test_strength_table_openspiel_rows_play_whole_games() -> None:
    """Every game's OpenSpiel row: OpenSpiel's ISMCTS at best's time plays its
    games to the end (the script stops on a failed game, whose row would
    read as a tie: so did its single-simulation bot once, in two games)."""
    pytest.importorskip("pyspiel")
    script = ROOT / "benchmarks" / "studies" / "strength_table.py"
    done = _run(str(script), "--quick", "--openspiel-only")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if "openspiel ismcts" in line]
    assert len(rows) == len(list((ROOT / "tests" / "profiles").glob("[a-z]*.py"))), done.stdout
    for line in rows:
        sims = int(line.split("openspiel ismcts (")[1].split(" sims")[0])
        assert sims >= 2, line


def test_strength_table_quick_without_pythonpath() -> None:
    # the smallest run of the strength table: one game, tiny budgets
    script = ROOT / "benchmarks" / "studies" / "strength_table.py"
    game = sorted(p.stem for p in (ROOT / "tests" / "profiles").glob("[a-z]*.py"))[0]
    done = _run(str(script), "--quick", "--no-openspiel", "--games", game)
    assert done.returncode == 0, done.stderr
    assert "| " not in done.stdout and "=====" in done.stdout


def test_vecenv_count_answers_help_without_pythonpath() -> None:
    done = _run(str(ROOT / "benchmarks" / "compare" / "count_vecenv.py"), "--help")
    assert done.returncode == 0, done.stderr
    assert "callgrind" in done.stdout and "NAME PLAYERS" in done.stdout


def test_readme_does_not_hard_code_the_deselected_count() -> None:
    # the count grows with the games; pytest's summary line gives it
    text = (ROOT / "README.md").read_text()
    assert re.search(r"\*deselected\*", text)
    assert not re.search(r"\*deselected\*[^:]*\d", text)


# ---------------------------------------------------------------------------
# the docs say how to run every test


def test_docs_say_how_to_run_every_test() -> None:
    # (the introduction's list of games is made from the registry:
    # tests/project/test_docs_registry.py)

    root = _paths.ROOT
    games = (root / "docs" / "games.rst").read_text(encoding="utf-8")
    assert "``history``" in games.split("What a player may see")[0]
    readme = (root / "README.md").read_text(encoding="utf-8")
    for how in ("-m slow", "-m wheel", "PYCARDS_CFFI=1", "apt-get install chromium", "skipped"):
        assert how in readme, how
