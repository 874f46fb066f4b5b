"""The house by role: a game's name (each of ``game_names()``, as a word)
appears only in files that belong to that game (whose file name contains the
name), so that adding a game touches no shared file (docs/internals.rst,
"Adding a game").

A docs page is scanned in its prose only (:func:`rst_prose`): a page whose
examples use a game (literal ``::`` blocks, ``code-block`` and doctest
directives, ``>>>`` doctest blocks) is fine, since an example needs some game
and the page stays true when a game is added.  Prose that names or
enumerates games belongs on the game's page or in the games index.

Two lists say where else a name may appear.  ``ALLOWED`` is by design and
short, each with its reason: the games index and table of contents, the
pages of per-game data tables, the guard's list of paths with its baseline
figures, and a game's comparison whose peer is another game.  (The API index
lists the games' modules from the registry: docs/conf.py, ``game_modules``.)
``DEBT`` is what is left to move: shared files that still name games, each
with the names it holds today.  The test fails for any other place, for a
name added to a debt file, and for a debt entry that is paid (remove it):
the list only shrinks.
"""

from __future__ import annotations

import re

import pytest
from _games import ROOT

from pycards.game import game_names

#: where the scan looks
SCANNED = ("tests", "benchmarks", "docs")

#: shared files that name games by design
ALLOWED = {
    "docs/index.rst": "the table of contents lists each game's page",
    "docs/games.rst": "the games index",
    "docs/envs.rst": "a table of each game's tensor and action sizes",
    "docs/benchmarks.rst": "the measured figures of each game",
    "docs/strength.rst": "the measured strength table, a row per game",
    "docs/bots.rst": "what the bot best is in each game, and how it was measured",
    "benchmarks/guard/paths.py": "the guard's list of paths (game-specific kernels by name)",
    "benchmarks/guard/baseline.json": "the guard's baseline figures, one per path",
    "benchmarks/compare/compare_nodde.py": "its peer is OpenSpiel's cribbage (it has no Nodde)",
    "tests/test_layout.py": "this file's DEBT list",
}

#: shared files that still name games: move the per-game parts to the game's
#: own files (tests/test_<name>_*.py, tests/profiles/<name>.py, docs/<name>.rst);
#: each with why it stays ("to move": nothing stops it but the work)
DEBT: dict[str, set[str]] = {
    # calls each game's own C entry points, which cffi knows by name only
    "tests/test_c_api_null.py": {"cribbage", "nodde", "notakers"},
    # fuzzes every public binding function, the games' own ones by name
    "tests/test_fuzz_core.py": {"cribbage", "nancy", "nodde", "notakers"},
    # exact counts on named small positions and variants (a few games)
    "tests/test_sampler_exact.py": {"nancy", "nodde", "notakers"},
    # the search bots' area (another change owns tests/test_search*.py)
    "tests/test_search_hooks.py": {"nancy", "nodde", "notakers"},
    # needs an action no position allows (a king call at 4 seats)
    "tests/test_vecenv_threads.py": {"nancy"},
    # a fixed recipe: its hashes compare with every earlier run's
    "benchmarks/studies/output_hash.py": {"cribbage", "nodde", "notakers"},
    # the search bots' area: per-game defaults and figures
    "docs/search.rst": {"cribbage", "nancy", "nodde"},
}


def _files() -> list[str]:
    out = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix in (".pyc", ".so"):
                continue
            out.append(path.relative_to(ROOT).as_posix())
    return out


_DIRECTIVE = re.compile(r"^(\s*)\.\. (code-block|code|sourcecode|doctest|testcode|testoutput)::")


def rst_prose(text: str) -> str:
    """The prose of a reStructuredText page: its literal blocks (the indented
    block after a paragraph ending in ``::``), its code, doctest and testcode
    directives, and its doctest blocks (from a ``>>>`` line to the next blank
    line) are blanked out, line for line."""
    out = []
    pending: int | None = None  # a block may open: the indent of its opener
    parent: int | None = None  # inside a literal block: its opener's indent
    doctest = False
    for line in text.split("\n"):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if parent is not None:
            if not stripped or indent > parent:
                out.append("")
                continue
            parent = None
        if pending is not None and stripped:
            opener, pending = pending, None
            if indent > opener:
                parent = opener
                out.append("")
                continue
        if doctest or stripped.startswith(">>>"):
            doctest = bool(stripped)
            out.append("")
            continue
        directive = _DIRECTIVE.match(line)
        if directive:
            pending = indent
            out.append("")
            continue
        if stripped.endswith("::") and not stripped.startswith(".. "):
            pending = indent
        out.append(line)
    return "\n".join(out)


def names_in_shared_files(files: list[str], names: list[str]) -> dict[str, set[str]]:
    """For each file, the game names it holds as words that are not in its own
    file name (for a ``.rst`` page, in its prose: :func:`rst_prose`)."""
    found: dict[str, set[str]] = {}
    for rel in files:
        try:
            text = (ROOT / rel).read_text()
        except UnicodeDecodeError:
            continue
        if rel.endswith(".rst"):
            text = rst_prose(text)
        base = rel.rsplit("/", 1)[-1]
        here = {
            name
            for name in names
            if name not in base and re.search(rf"\b{name}\b", text, re.IGNORECASE)
        }
        if here:
            found[rel] = here
    return found


FOUND = names_in_shared_files(_files(), game_names())


def test_no_shared_file_names_a_game() -> None:
    unexpected = {
        rel: sorted(names - DEBT.get(rel, set()))
        for rel, names in FOUND.items()
        if rel not in ALLOWED and names - DEBT.get(rel, set())
    }
    assert not unexpected, f"game names in shared files (move them to the game's): {unexpected}"


@pytest.mark.parametrize("rel", sorted(DEBT))
def test_debt_entries_are_not_stale(rel: str) -> None:
    assert FOUND.get(rel, set()) == DEBT[rel], f"{rel}: update or remove its DEBT entry"


@pytest.mark.parametrize("rel", sorted(ALLOWED))
def test_allowed_files_exist(rel: str) -> None:
    assert (ROOT / rel).is_file(), rel


def test_rst_prose_drops_examples_only() -> None:
    name = game_names()[0]
    page = (
        f"Prose names {name}.\n\nAn example::\n\n    load_game({name!r})\n\n"
        f"Back to prose.\n\n>>> load_game({name!r})\n<state>\n\n"
        f".. code-block:: python\n   :caption: x\n\n   {name}\n\nThe end, {name}.\n"
    )
    prose = rst_prose(page)
    assert prose.split("\n")[0] == f"Prose names {name}."
    assert prose.count(name) == 2 and "Back to prose." in prose and "The end" in prose
    assert len(prose.split("\n")) == len(page.split("\n"))


def test_the_scan_sees_a_name() -> None:
    # the scan itself: a shared file naming a game is found, one of the game's own is not
    names = game_names()
    probe = ROOT / "tests" / "_layout_probe.py"
    own = ROOT / "tests" / f"_layout_probe_{names[0]}.py"
    try:
        probe.write_text(f"# plays {names[0]}\n")
        own.write_text(f"# plays {names[0]}\n")
        found = names_in_shared_files(["tests/_layout_probe.py", f"tests/{own.name}"], names)
    finally:
        probe.unlink(missing_ok=True)
        own.unlink(missing_ok=True)
    assert found == {"tests/_layout_probe.py": {names[0]}}
