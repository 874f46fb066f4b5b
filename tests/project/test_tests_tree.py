"""The test tree itself.

* It mirrors the source: the test files are in the folders of the layers
  (``tests/core/``, ``tests/games/``...), none directly in ``tests/``; every
  registered game has its folder ``tests/games/<name>/``, and the folders of
  the games use one shared set of file names (``test_game.py``,
  ``test_inputs.py``...).  A file name that only one game uses is listed in
  that game's profile (``own_test_files`` of ``tests/profiles/<name>.py``)
  with the reason it is the game's alone.
* Tests and benchmarks read the engine's state of a
  :class:`~pycards.game.State` through its public ``engine_state``, never the
  private attribute behind it (read from the source with :mod:`ast`: nothing
  is imported).
"""

from __future__ import annotations

import ast

import pytest
from _games import GAMES
from _paths import ROOT, TESTS

#: the folders of tests/ that hold test files, one per layer of the source
TEST_FOLDERS = frozenset({"arena", "core", "envs", "games", "learn", "project", "search", "ui"})

#: the names of the test files of tests/games/<name>/ that several games use
SHARED_GAME_FILES = frozenset(
    {
        "test_arena.py",
        "test_cli.py",
        "test_game.py",
        "test_heuristic.py",
        "test_inputs.py",
        "test_record.py",
        "test_rule_book.py",
        "test_sampler.py",
        "test_scoring.py",
        "test_search.py",
        "test_solve.py",
        "test_stacked.py",
        "test_terminal.py",
    }
)

GAMES_DIR = TESTS / "games"


def _game_files(name: str) -> set[str]:
    return {p.name for p in (GAMES_DIR / name).glob("*.py")}


# ---------------------------------------------------------------------------
# the tree mirrors the source


def test_no_test_file_sits_directly_in_tests() -> None:
    assert not sorted(p.name for p in TESTS.glob("test_*.py"))


def test_test_files_are_in_the_folders_of_the_layers() -> None:
    stray = sorted(
        p.relative_to(TESTS).as_posix()
        for p in TESTS.rglob("test_*.py")
        if p.relative_to(TESTS).parts[0] not in TEST_FOLDERS
    )
    assert not stray, f"test files outside {sorted(TEST_FOLDERS)}: {stray}"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_its_folder(name: str) -> None:
    folder = GAMES_DIR / name
    assert (folder / "__init__.py").is_file(), f"tests/games/{name}/__init__.py"
    assert "test_game.py" in _game_files(name), f"tests/games/{name}/test_game.py"


def test_every_game_folder_is_a_registered_game() -> None:
    folders = {p.name for p in GAMES_DIR.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders <= set(GAMES), f"folders of no registered game: {sorted(folders - set(GAMES))}"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_folder_uses_the_shared_file_names(name: str) -> None:
    own = GAMES[name].profile.own_test_files
    files = _game_files(name) - {"__init__.py"}
    assert all(f.startswith("test_") for f in files), sorted(files)
    unlisted = sorted(files - SHARED_GAME_FILES - set(own))
    assert not unlisted, (
        f"tests/games/{name}/: {unlisted} are no shared name (SHARED_GAME_FILES); "
        "rename them, or list them in own_test_files of its profile with a reason"
    )


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_s_own_files_are_its_alone(name: str) -> None:
    own = GAMES[name].profile.own_test_files
    others = {f for other in GAMES if other != name for f in _game_files(other)}
    for file, reason in own.items():
        assert file in _game_files(name), f"{file}: listed, but not in tests/games/{name}/"
        assert reason.strip(), f"{file}: no reason given"
        assert file not in SHARED_GAME_FILES, f"{file}: a shared name needs no listing"
        assert file not in others, f"{file}: another game uses it too; make it a shared name"


def test_every_shared_name_is_shared() -> None:
    uses = {f: [n for n in GAMES if f in _game_files(n)] for f in SHARED_GAME_FILES}
    alone = {f: n for f, n in uses.items() if len(n) < 2}
    assert not alone, f"shared names fewer than two games use: {alone}"


# ---------------------------------------------------------------------------
# no private read of the engine state

#: the private attribute of pycards.game.State that holds the engine's state
PRIVATE_STATE = "_s"


def private_state_reads(source: str) -> list[int]:
    """The lines of ``source`` that read the private engine state (``x._s``,
    or ``getattr(x, "_s")``)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        attribute = isinstance(node, ast.Attribute) and node.attr == PRIVATE_STATE
        by_name = (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value == PRIVATE_STATE
        )
        if attribute or by_name:
            lines.append(node.lineno)
    return sorted(lines)


SOURCES = sorted(
    p
    for top in (TESTS, ROOT / "benchmarks")
    for p in top.rglob("*.py")
    if "__pycache__" not in p.parts
)


def test_no_test_reads_the_private_engine_state() -> None:
    found = {
        p.relative_to(ROOT).as_posix(): lines
        for p in SOURCES
        if (lines := private_state_reads(p.read_text(encoding="utf-8")))
    }
    assert not found, f"use state.engine_state, not state.{PRIVATE_STATE}: {found}"


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        ("x = state.engine_state.raw()\n", []),
        ("x = state._s.raw()\n", [1]),
        ("f(a)\ny = [w._s for w in worlds]\n", [2]),
        ("z = getattr(state, '_s')\n", [1]),
        ("state._setup\nstate._sx\n", []),
    ],
)
def test_the_scan_sees_a_private_read(source: str, lines: list[int]) -> None:
    assert private_state_reads(source) == lines
