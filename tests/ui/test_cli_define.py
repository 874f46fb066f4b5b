"""Defined games by name on the command line: a port of
:data:`pycards.define.PORTS` is registered the first time its name is asked
for, and ``--define FILE.py[:NAME]`` registers a user's description (each run
in a process of its own: a registered game stays listed)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

import pycards

pytest.importorskip("scipy")  # the arena extra

# the pycards this test imports: the checkout's src, or the installed package
_SRC = pathlib.Path(pycards.__file__).resolve().parents[1]

#: a variant written as the tutorial shows (docs/tutorial_define.rst)
_VARIANT = """
from pycards.define import Passing, TrickGame

OMNIBUS = TrickGame(
    name="omnibus",
    title="Omnibus",
    players=4,
    deals=0,
    target=-100,
    passing=Passing(count=3, directions=(1, 3, 2, 0)),
    lead="card",
    lead_card="2C",
    break_suit="H",
    card_points={"H": -1, "QS": -13, "JD": 10},
)
"""


def _pycards(*args: str, cwd: pathlib.Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(_SRC), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "pycards", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
    )


def _played(out: str, games: int, bots: tuple[str, ...]) -> None:
    assert f"{games} games" in out, out
    for bot in bots:
        assert any(line.lstrip().startswith(bot) for line in out.splitlines()), (bot, out)


@pytest.mark.parametrize("port", ["hearts", "spades"])
def test_a_port_plays_in_the_arena_by_name(port: str) -> None:
    out = _pycards("arena", port, "--bots", "best,random", "--games", "2")
    assert out.returncode == 0, out.stderr[-2000:]
    _played(out.stdout, 2, ("best", "random"))


def test_a_port_is_a_game_of_the_one_rules_parser() -> None:
    out = _pycards("playouts", "oh_hell", "--players", "3", "--games", "3")
    assert out.returncode == 0, out.stderr[-2000:]
    bad = _pycards("playouts", "hearts", "--players", "3")
    assert bad.returncode == 2 and "4 to 4 players, got 3" in bad.stderr, bad.stderr


def test_a_description_file_plays_in_the_arena(tmp_path: pathlib.Path) -> None:
    (tmp_path / "omnibus.py").write_text(_VARIANT, encoding="utf-8")
    out = _pycards(
        "--define",
        "omnibus.py:OMNIBUS",
        "arena",
        "omnibus",
        "--bots",
        "best,random",
        "--games",
        "2",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    _played(out.stdout, 2, ("best", "random"))


def test_a_bad_description_file_is_named(tmp_path: pathlib.Path) -> None:
    (tmp_path / "omnibus.py").write_text(_VARIANT, encoding="utf-8")
    for spec, words in (
        ("omnibus.py:QUEEN", "omnibus.py has no TrickGame named 'QUEEN'"),
        ("nowhere.py", "no Python file 'nowhere.py'"),
    ):
        out = _pycards("--define", spec, "games", cwd=tmp_path)
        assert out.returncode == 2, out.stdout
        assert f"pycards: --define: define: {words}" in out.stderr, out.stderr
