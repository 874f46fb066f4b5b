"""The house by role: a game's name (each of ``game_names()``, as a word)
appears only in files that belong to that game (whose file name contains the
name), so that adding a game touches no shared file (docs/internals.rst,
"Adding a game").

Two lists say where else a name may appear.  ``ALLOWED`` is by design and
short: the games index, the pages of per-game data tables, and the guard's
list of paths with its baseline figures.  ``DEBT`` is what is left to move:
shared files that still name games, each with the names it holds today.  The
test fails for any other place, for a name added to a debt file, and for a
debt entry that is paid (remove it): the list only shrinks.
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
    "benchmarks/guard/paths.py": "the guard's list of paths (game-specific kernels by name)",
    "benchmarks/guard/baseline.json": "the guard's baseline figures, one per path",
    "tests/test_layout.py": "this file's DEBT list",
}

#: shared files that still name games: move the per-game parts to the game's
#: own files (tests/test_<name>_*.py, tests/profiles/<name>.py, docs/<name>.rst)
DEBT: dict[str, set[str]] = {
    "tests/test_arena.py": {"nancy", "nodde", "notakers"},
    "tests/test_batch.py": {"notakers"},
    "tests/test_c_api_null.py": {"cribbage", "nodde", "notakers"},
    "tests/test_cards.py": {"nancy"},
    "tests/test_cli.py": {"nancy", "nodde", "notakers"},
    "tests/test_combos.py": {"cribbage"},
    "tests/test_core_errors.py": {"cribbage", "nodde"},
    "tests/test_core_game.py": {"nodde"},
    "tests/test_envs_gymnasium.py": {"nancy", "nodde", "notakers"},
    "tests/test_envs_openspiel.py": {"nancy"},
    "tests/test_envs_pettingzoo.py": {"cribbage", "nancy", "nodde", "notakers"},
    "tests/test_envs_vector.py": {"cribbage", "nancy", "nodde", "notakers"},
    "tests/test_fuzz_core.py": {"cribbage", "nancy", "nodde", "notakers"},
    "tests/test_games_generic.py": {"nancy"},
    "tests/test_guard.py": {"nodde"},
    "tests/test_hardening.py": {"cribbage", "nancy", "nodde", "notakers"},
    "tests/test_input_contract.py": {"nancy"},
    "tests/test_lying_inputs.py": {"nodde"},
    "tests/test_notakers_inputs.py": {"nodde"},
    "tests/test_pickle.py": {"nodde", "notakers"},
    "tests/test_record.py": {"nodde", "notakers"},
    "tests/test_rule_book_examples.py": {"nancy", "nodde", "notakers"},
    "tests/test_sampler_exact.py": {"nancy", "nodde", "notakers"},
    "tests/test_search_hooks.py": {"nancy", "nodde", "notakers"},
    "tests/test_story.py": {"nodde", "notakers"},
    "tests/test_terminal.py": {"cribbage", "nancy", "nodde", "notakers"},
    "tests/test_vecenv_pool.py": {"cribbage", "nancy", "nodde", "notakers"},
    "tests/test_vecenv_threads.py": {"nancy"},
    "tests/test_view.py": {"nancy", "nodde", "notakers"},
    "tests/test_web.py": {"cribbage", "nancy", "nodde", "notakers"},
    "tests/test_web_browser.py": {"nodde"},
    "tests/test_web_load.py": {"cribbage", "nancy"},
    "benchmarks/_search_positions.py": {"nancy", "nodde", "notakers"},
    "benchmarks/bench_undo.py": {"nancy"},
    "benchmarks/c/heuristic_speed.c": {"nancy", "nodde", "notakers"},
    "benchmarks/c/sampler_bench.c": {"nancy", "nodde", "notakers"},
    "benchmarks/compare/compare_ismcts.py": {"nancy", "nodde", "notakers"},
    "benchmarks/compare/compare_nodde.py": {"cribbage"},
    "benchmarks/compare/compare_samplers.py": {"nancy", "nodde", "notakers"},
    "benchmarks/compare/compare_state.py": {"nancy", "nodde"},
    "benchmarks/compare/compare_vecenv.py": {"cribbage", "nancy", "nodde"},
    "benchmarks/compare/count_vecenv.py": {"nancy"},
    "benchmarks/compare/openspiel_matches.py": {"cribbage", "nancy"},
    "benchmarks/studies/output_hash.py": {"cribbage", "nodde", "notakers"},
    "benchmarks/studies/vecenv_threads.py": {"nancy", "notakers"},
    "benchmarks/suite/bench_arena.py": {"nodde"},
    "benchmarks/suite/bench_heuristics.py": {"nancy", "nodde", "notakers"},
    "benchmarks/suite/bench_samplers.py": {"nancy", "nodde", "notakers"},
    "benchmarks/suite/bench_state.py": {"nancy"},
    "benchmarks/suite/bench_vecenv.py": {"nancy", "nodde", "notakers"},
    "docs/api.rst": {"cribbage", "nancy", "nodde", "notakers"},
    "docs/arena.rst": {"nancy", "nodde", "notakers"},
    "docs/batch.rst": {"cribbage", "notakers"},
    "docs/bots.rst": {"nodde", "notakers"},
    "docs/cards.rst": {"nancy"},
    "docs/cli.rst": {"cribbage", "nancy", "nodde", "notakers"},
    "docs/combos.rst": {"cribbage", "nodde"},
    "docs/cribbage.rst": {"nodde"},
    "docs/envs_gymnasium.rst": {"nodde"},
    "docs/envs_openspiel.rst": {"nancy"},
    "docs/envs_pettingzoo.rst": {"notakers"},
    "docs/internals.rst": {"cribbage", "nancy", "nodde"},
    "docs/nodde.rst": {"cribbage"},
    "docs/quickstart.rst": {"cribbage", "nancy", "nodde", "notakers"},
    "docs/records.rst": {"nancy", "nodde"},
    "docs/search.rst": {"cribbage", "nancy", "nodde"},
    "docs/story.rst": {"nodde"},
    "docs/web.rst": {"cribbage", "nancy", "nodde"},
}


def _files() -> list[str]:
    out = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix in (".pyc", ".so"):
                continue
            out.append(path.relative_to(ROOT).as_posix())
    return out


def names_in_shared_files(files: list[str], names: list[str]) -> dict[str, set[str]]:
    """For each file, the game names it holds as words that are not in its own file name."""
    found: dict[str, set[str]] = {}
    for rel in files:
        try:
            text = (ROOT / rel).read_text()
        except UnicodeDecodeError:
            continue
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
