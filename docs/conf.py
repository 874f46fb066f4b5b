"""Sphinx configuration for the pycards documentation."""

import re
from pathlib import Path

from pycards import __version__ as release  # the one version: src/pycards/_version.py

project = "pycards"
author = "pycards developers"
copyright = "2026, pycards developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
nitpicky = False
exclude_patterns = ["_build"]
html_theme = "alabaster"
suppress_warnings = ["ref.python"]


# ---------------------------------------------------------------------------
# Parts of pages made from the game registry (pycards.game.game_names), so
# that adding a game edits no docs index.  A marker in a page's source stands
# for text built here when Sphinx reads the page (the ``source-read`` event;
# :func:`expand` is the whole rewrite, which tests/project/test_docs_registry.py
# checks against the engine):
#
# * a line ``.. game-modules::`` (docs/api.rst): a section and an automodule
#   for each module ``pycards.games.<name>`` and ``pycards.games.<name>_*`` of every game;
# * a line ``.. game-pages::`` (docs/games.rst): the toctree of the games'
#   pages, ``docs/<name>.rst``;
# * the substitution ``|game-titles|`` (docs/index.rst): the games' page
#   titles as a list in a sentence, each a link to its page (the page gets
#   its definition);
# * a line ``.. game-memory-table::`` (docs/envs.rst): the vector
#   environment's memory table, a row per game, from the engine's sizes.

DOCS = Path(__file__).resolve().parent
GAME_MODULES_MARKER = ".. game-modules::"
GAME_PAGES_MARKER = ".. game-pages::"
GAME_TITLES_MARKER = "|game-titles|"
GAME_MEMORY_MARKER = ".. game-memory-table::"
#: games in the memory table's last column
MEMORY_TABLE_GAMES = 4096


def game_modules() -> list[str]:
    """The modules of the registered games, each game's own module first."""
    import pkgutil

    import pycards.games
    from pycards.game import game_names

    found = sorted(m.name for m in pkgutil.iter_modules(pycards.games.__path__))
    out = []
    for name in game_names():
        out.append(f"pycards.games.{name}")
        out += [f"pycards.games.{m}" for m in found if m.startswith(f"{name}_")]
    return out


def _game_module_sections() -> str:
    return "\n".join(
        f"{module}\n{'-' * len(module)}\n\n.. automodule:: {module}\n" for module in game_modules()
    )


def game_titles() -> dict[str, str]:
    """Each registered game's page title (the first line of docs/<name>.rst), by name."""
    from pycards.game import game_names

    return {
        name: (DOCS / f"{name}.rst").read_text(encoding="utf-8").split("\n", 1)[0].strip()
        for name in game_names()
    }


def _game_pages() -> str:
    entries = "".join(f"   {name}\n" for name in game_titles())
    return f".. toctree::\n   :maxdepth: 1\n\n{entries}"


def _game_title_list() -> str:
    # a leading "The" of a title is lower case within the sentence
    links = [
        f":doc:`{'the' + title[3:] if title.startswith('The ') else title} <{name}>`"
        for name, title in game_titles().items()
    ]
    return links[0] if len(links) == 1 else f"{', '.join(links[:-1])} and {links[-1]}"


def _span(lo: str, hi: str) -> str:
    return lo if lo == hi else f"{lo}..{hi}"


def _mb(nbytes: int) -> str:
    return f"{nbytes / 1e6:.1f}"


def memory_rows() -> list[list[str]]:
    """The memory table's rows, one per registered game, each cell from the
    engine at the game's fewest and most players (one figure when both are
    the same): players, bytes per game without and with events, observation
    values, mask bytes, the fixed part (header and the states to deal in, MB)
    and a whole vector of :data:`MEMORY_TABLE_GAMES` games with its output
    arrays (MB)."""
    from pycards.envs.vector import VectorEnv
    from pycards.game import game_names, load_game

    rows = []
    for name in game_names():
        info = load_game(name).info
        lo, hi = info.min_players, info.max_players
        cells: list[list[str]] = [[] for _ in range(6)]
        for players in (lo, hi):
            quiet = VectorEnv(name, 1, players, seed=0)
            logged = VectorEnv(name, 1, players, seed=0, events=True)
            big = VectorEnv(name, MEMORY_TABLE_GAMES, players, seed=0)
            arrays = (big.observations, big.action_masks, big.rewards, big.terminations)
            fixed = big.nbytes - MEMORY_TABLE_GAMES * big.bytes_per_game
            figures = (
                f"{quiet.bytes_per_game:,}",
                f"{logged.bytes_per_game:,}",
                f"{quiet.tensor_size:,}",
                f"{quiet.num_actions:,}",
                _mb(fixed),
                _mb(big.nbytes + sum(a.nbytes for a in arrays)),
            )
            for column, figure in zip(cells, figures, strict=True):
                column.append(figure)
        rows.append([name, _span(str(lo), str(hi)), *(_span(*c) for c in cells)])
    return rows


MEMORY_HEADER = [
    "game",
    "players",
    "bytes per game",
    "with ``events=True``",
    "observation values",
    "mask bytes",
    "fixed (MB)",
    f"{MEMORY_TABLE_GAMES:,} games (MB)",
]


def _simple_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    rule = "  ".join("=" * w for w in widths)

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    return "\n".join([rule, line(header), rule, *(line(r) for r in rows), rule]) + "\n"


_BLOCKS = {
    GAME_MODULES_MARKER: _game_module_sections,
    GAME_PAGES_MARKER: _game_pages,
    GAME_MEMORY_MARKER: lambda: _simple_table(MEMORY_HEADER, memory_rows()),
}


def _uses_titles(text: str) -> bool:
    # the substitution itself, not a mention of it in an inline literal
    return re.search(rf"(?<!`){re.escape(GAME_TITLES_MARKER)}(?!`)", text) is not None


def has_markers(text: str) -> bool:
    """Whether a page's source holds a registry marker (see above)."""
    return _uses_titles(text) or any(line.strip() in _BLOCKS for line in text.split("\n"))


def expand(text: str) -> str:
    """A page's source with every registry marker replaced (see above)."""
    if not has_markers(text):
        return text
    text = "\n".join(
        _BLOCKS[line.strip()]() if line.strip() in _BLOCKS else line for line in text.split("\n")
    )
    if _uses_titles(text):
        text = f"{text.rstrip()}\n\n.. {GAME_TITLES_MARKER} replace:: {_game_title_list()}\n"
    return text


def _expand_markers(app: object, docname: str, source: list[str]) -> None:
    source[0] = expand(source[0])


def _pages_with_markers(*args: object) -> list[str]:
    # a page made from the registry is read again on every build: a game added
    # or removed changes it although its source did not change
    return [
        page.stem
        for page in sorted(DOCS.glob("*.rst"))
        if has_markers(page.read_text(encoding="utf-8"))
    ]


def setup(app: object) -> dict[str, bool]:
    app.connect("source-read", _expand_markers)  # type: ignore[attr-defined]
    app.connect("env-get-outdated", _pages_with_markers)  # type: ignore[attr-defined]
    return {"parallel_read_safe": True}
