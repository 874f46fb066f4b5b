"""The parts of the docs made from the game registry (docs/conf.py,
:func:`expand`): the games' toctree, the list of games of the introduction,
the API index of the games' modules and the vector environment's memory
table.  Each page is rewritten here as Sphinx reads it, and the result is
compared with what the registry, the pages and the engine say, computed
here on their own; the raw pages name no game (tests/project/test_layout.py)."""

from __future__ import annotations

import importlib.util
import re
from types import ModuleType

import pytest
from _games import ROOT

from pycards.envs.vector import VectorEnv
from pycards.game import game_names, load_game

DOCS = ROOT / "docs"


def _conf() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_pycards_docs_conf", DOCS / "conf.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


conf = _conf()


def _page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _title(name: str) -> str:
    lines = _page(f"{name}.rst").split("\n")
    assert set(lines[1]) == {"="} and len(lines[1]) >= len(lines[0]), f"docs/{name}.rst: title"
    return lines[0]


@pytest.mark.parametrize("page", ["index.rst", "games.rst", "envs.rst", "api.rst"])
def test_the_registry_pages_hold_their_markers_and_no_game(page: str) -> None:
    text = _page(page)
    assert conf.has_markers(text), page
    expanded = conf.expand(text)
    assert expanded != text, f"{page}: no marker left to expand"
    for marker in (".. game-modules::", ".. game-pages::", ".. game-memory-table::"):
        assert marker not in expanded, (page, marker)
    if "|game-titles|" in text:
        assert expanded.count(".. |game-titles| replace:: ") == 1


def test_the_games_toctree_lists_every_page_in_the_registry_order() -> None:
    expanded = conf.expand(_page("games.rst"))
    block = expanded[expanded.index(".. toctree::") :]
    entries = re.findall(r"^   (\w+)$", block, re.M)
    assert entries == sorted(game_names()) == game_names()
    assert ":maxdepth: 1" in block
    for name in entries:
        assert (DOCS / f"{name}.rst").is_file(), name
    # the prose around it stays
    assert expanded.startswith("Games\n=====\n") and "What a player may see" in expanded


def test_the_introduction_names_every_game_by_its_page_title() -> None:
    expanded = conf.expand(_page("index.rst"))
    intro = " ".join(expanded.split(".. toctree::")[0].split())
    assert "(*cardcore*): |game-titles|, played to the letter" in intro
    definition = re.search(r"^\.\. \|game-titles\| replace:: (.*)$", expanded, re.M)
    assert definition is not None
    intro = intro.replace("|game-titles|", definition.group(1))
    links = re.findall(r":doc:`([^`<]+) <(\w+)>`", intro)
    assert [name for _, name in links] == game_names()
    for text, name in links:
        title = _title(name)
        # a leading "The" is lower case in the sentence; the rest is the title
        assert text == (f"the{title[3:]}" if title.startswith("The ") else title), name
    listed = ", ".join(f":doc:`{t} <{n}>`" for t, n in links[:-1])
    assert f"(*cardcore*): {listed} and :doc:`{links[-1][0]} <{links[-1][1]}>`, played" in intro


def test_the_api_index_documents_every_game_module() -> None:
    expanded = conf.expand(_page("api.rst"))
    documented = re.findall(r"^\.\. automodule:: (pycards\.games\.\w+)$", expanded, re.M)
    for name in game_names():
        assert f"pycards.games.{name}" in documented, name
        for path in sorted((ROOT / "src" / "pycards" / "games").glob(f"{name}_*.py")):
            assert f"pycards.games.{path.stem}" in documented, path.name


def _memory_table() -> dict[str, list[str]]:
    expanded = conf.expand(_page("envs.rst"))
    table = expanded[expanded.index("Memory per game") :]
    table = table[table.index("=====") :]
    table = table[: table.index("\n\n")]
    lines = table.split("\n")
    rules = [i for i, line in enumerate(lines) if set(line) <= {"=", " "} and line]
    assert len(rules) == 3 and rules[0] == 0 and rules[2] == len(lines) - 1, table
    starts = [m.start() for m in re.finditer(r"=+", lines[0])]
    header = [lines[1][a:b].strip() for a, b in zip(starts, [*starts[1:], None], strict=True)]
    assert header[:2] == ["game", "players"] and header[-1] == "4,096 games (MB)"
    rows = {}
    for line in lines[3:-1]:
        cells = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], None], strict=True)]
        rows[cells[0]] = cells[1:]
    return rows


def _span(lo: object, hi: object) -> str:
    return str(lo) if lo == hi else f"{lo}..{hi}"


def test_the_memory_table_states_the_vectors_memory() -> None:
    """docs/envs.rst's table of memory per game says what the vectors take:
    bytes per game without and with events, observation values and mask
    bytes, the fixed part (the same for 64 games as for 4,096) and a whole
    vector of 4,096 games with its arrays, at the fewest and the most players."""
    rows = _memory_table()
    assert list(rows) == game_names()
    for name, cells in rows.items():
        info = load_game(name).info
        lo, hi = info.min_players, info.max_players
        expected: list[list[str]] = [[] for _ in range(6)]
        for players in (lo, hi):
            game = load_game(name, None, players)
            small = VectorEnv(name, 64, players, seed=1)
            big = VectorEnv(name, 4096, players, seed=2)
            logged = VectorEnv(name, 2, players, seed=3, events=True)
            fixed = big.nbytes - 4096 * big.bytes_per_game
            assert fixed == small.nbytes - 64 * small.bytes_per_game, name  # "whatever the number"
            assert fixed >= 64 * game.info.state_size, name  # a whole state per thread
            per_game = big.bytes_per_game + 4 * game.tensor_size + game.num_actions + 4 + 1
            for column, value in zip(
                expected,
                (
                    f"{small.bytes_per_game:,}",
                    f"{logged.bytes_per_game:,}",
                    f"{game.tensor_size:,}",
                    f"{game.num_actions:,}",
                    f"{fixed / 1e6:.1f}",
                    f"{(fixed + 4096 * per_game) / 1e6:.1f}",
                ),
                strict=True,
            ):
                column.append(value)
        assert cells == [_span(lo, hi), *(_span(*c) for c in expected)], name


def test_the_pages_made_from_the_registry_are_read_on_every_build() -> None:
    pages = conf._pages_with_markers(None, None, set(), set(), set())
    assert pages == sorted(["api", "envs", "games", "index"])
    # a mention of a marker in an inline literal (docs/internals.rst) is no marker
    mention = "The list ``|game-titles|`` and ``.. game-pages::`` in prose.\n"
    assert not conf.has_markers(mention) and conf.expand(mention) == mention


def test_the_package_description_names_every_game_by_its_page_title() -> None:
    # pyproject.toml's one-line description lists the games (by hand: it is metadata)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^description = "(.*)"$', text, re.M)
    assert found is not None, "pyproject.toml: no description"
    description = found.group(1).lower()
    for name in game_names():
        title = _title(name)
        title = title[4:] if title.startswith("The ") else title
        assert title.lower() in description, name
