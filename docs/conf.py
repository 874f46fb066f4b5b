"""Sphinx configuration for the pycards documentation."""

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
# The API index lists every registered game's modules: a line
# ``.. game-modules::`` in a page stands for a section and an automodule for
# each module ``pycards.<name>`` and ``pycards.<name>_*`` of every game of the
# registry (pycards.game.game_names), so that adding a game edits no docs index.

GAME_MODULES_MARKER = ".. game-modules::"


def game_modules() -> list[str]:
    """The modules of the registered games, each game's own module first."""
    import pkgutil

    import pycards
    from pycards.game import game_names

    found = sorted(m.name for m in pkgutil.iter_modules(pycards.__path__))
    out = []
    for name in game_names():
        out.append(f"pycards.{name}")
        out += [f"pycards.{m}" for m in found if m.startswith(f"{name}_")]
    return out


def _game_module_sections() -> str:
    return "\n".join(
        f"{module}\n{'-' * len(module)}\n\n.. automodule:: {module}\n"
        for module in game_modules()
    )


def _expand_game_modules(app: object, docname: str, source: list[str]) -> None:
    if GAME_MODULES_MARKER in source[0]:
        lines = source[0].split("\n")
        source[0] = "\n".join(
            _game_module_sections() if line.strip() == GAME_MODULES_MARKER else line
            for line in lines
        )


def setup(app: object) -> dict[str, bool]:
    app.connect("source-read", _expand_game_modules)  # type: ignore[attr-defined]
    return {"parallel_read_safe": True}
