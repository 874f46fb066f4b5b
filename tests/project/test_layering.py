"""The modules of pycards import one another in one direction.

Read from the source with :mod:`ast` (nothing is imported but pycards itself,
to find its folder):

* no module takes a private name (``_x``) of another pycards module, neither
  by ``from pycards.m import _x`` nor as ``m._x`` on an imported module (a
  private *module* such as ``pycards._args`` is the package's own, and its
  public names may be used anywhere inside the package);
* no function imports a pycards module: an import inside a function hides a
  cycle.  The lazy imports of the optional extras (rich, starlette...) stay,
  and so may the import of a pycards module that needs one at its top (the
  browser table's application imports starlette);
* the module-level imports (those outside ``if TYPE_CHECKING:``) between
  pycards modules have no cycle, and none goes up the layers of
  :data:`LAYERS` (a name imported for type checking only may);
* :mod:`cardcore` (its Python, Cython and declaration files) imports nothing
  of pycards.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import _paths
import pytest

import pycards
from pycards._moved import MOVED

PACKAGE = Path(pycards.__file__).parent
ROOT = "pycards"
#: The top-level modules of the optional extras (pyproject's optional dependencies).
EXTRAS = frozenset(
    {
        "dask",
        "distributed",
        "gymnasium",
        "matplotlib",
        "open_spiel",
        "pettingzoo",
        "pyspiel",
        "rich",
        "starlette",
        "uvicorn",
        "websockets",
    }
)


#: The layers of pycards, bottom first.  A module imports (when it is loaded)
#: modules of its own layer or below, never above; an entry that is a package
#: holds its submodules.  The old paths of moved modules (``pycards.<game>``...)
#: only point at the new ones, and sit at the top with the package itself.
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "pycards._version",
        "pycards._args",
        "pycards.errors",
        "pycards.cards",
        "pycards.combos",
        "pycards.engine",
    ),
    ("pycards.view",),
    ("pycards.game",),
    (
        "pycards.record",
        "pycards.narrate",
        "pycards.summary",
        "pycards.teach",
        "pycards.playouts",
        "pycards.nets",
    ),
    ("pycards.bots",),
    ("pycards.games", "pycards.define"),
    ("pycards.batch", "pycards.arena", "pycards.envs"),
    ("pycards.learn",),
    ("pycards.ui",),
)


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of ``module`` (the longest entry that holds
    it); the package itself, ``__main__`` and the old paths are above them all."""
    best, rank = "", len(LAYERS)
    for i, layer in enumerate(LAYERS):
        for entry in layer:
            if (module == entry or module.startswith(entry + ".")) and len(entry) > len(best):
                best, rank = entry, i
    return rank


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The absolute module of ``from ... import`` in ``module``."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not _is_package(module):
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
    """Every import with (inside a function, under ``if TYPE_CHECKING``)."""

    def walk(node: ast.AST, in_function: bool, typing_only: bool) -> Iterator[Any]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, in_function, typing_only
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                yield from walk(child, True, typing_only)
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    yield from walk(ast.Module(body=[stmt], type_ignores=[]), in_function, True)
                for stmt in child.orelse:
                    yield from walk(ast.Module(body=[stmt], type_ignores=[]), in_function, False)
            else:
                yield from walk(child, in_function, typing_only)

    yield from walk(tree, False, False)


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[tuple[str, str | None]]:
    """(pycards module imported, name taken from it or None) of an import."""
    out: list[tuple[str, str | None]] = []
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name == ROOT or alias.name.startswith(ROOT + "."):
                out.append((alias.name, None))
        return out
    source = _absolute(module, node)
    if source != ROOT and not source.startswith(ROOT + "."):
        return out
    for alias in node.names:
        sub = f"{source}.{alias.name}"
        if sub in MODULES:
            out.append((sub, None))  # a submodule
        else:
            out.append((source, alias.name))
    return out


def _module_aliases(module: str, tree: ast.Module) -> dict[str, str]:
    """Local names bound to a pycards module (``import pycards.x as y``, ``from . import x``)."""
    names: dict[str, str] = {}
    for node, _, _ in _imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    names[alias.asname or alias.name] = alias.name
        else:
            for target, name in _targets(module, node):
                if name is None:
                    alias = next(
                        a for a in node.names if target.endswith("." + a.name) or target == a.name
                    )
                    names[alias.asname or alias.name] = target
    return names


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _is_own_private_module(importer: str, target: str) -> bool:
    """``target`` is a private module of a package that ``importer`` is in."""
    parent, _, last = target.rpartition(".")
    return _is_private(last) and (importer == parent or importer.startswith(parent + "."))


def needs_extra(module: str) -> bool:
    """``module`` imports an optional extra when it is loaded."""
    tree = ast.parse(MODULES[module].read_text())
    for node, in_function, typing_only in _imports(tree):
        if in_function or typing_only:
            continue
        if isinstance(node, ast.Import):
            tops = [a.name.partition(".")[0] for a in node.names]
        else:
            tops = [(node.module or "").partition(".")[0]] if node.level == 0 else []
        if any(t in EXTRAS for t in tops):
            return True
    return False


def violations(module: str, source: str) -> list[str]:
    """What ``module`` (its ``source``) does against the first two rules."""
    tree = ast.parse(source)
    found: list[str] = []
    for node, in_function, _ in _imports(tree):
        for target, name in _targets(module, node):
            if in_function and not (target in MODULES and needs_extra(target)):
                found.append(f"line {node.lineno}: imports {target} inside a function")
            if name is not None and _is_private(name) and target != module:
                found.append(f"line {node.lineno}: imports the private {target}.{name}")
            last = target.rpartition(".")[2]
            if _is_private(last) and not _is_own_private_module(module, target):
                found.append(f"line {node.lineno}: imports the private module {target}")
    aliases = _module_aliases(module, tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            head = _dotted(node.value)
            if head is None:
                continue
            first, _, rest = head.partition(".")
            if first not in aliases:
                continue
            target = aliases[first] + ("." + rest if rest else "")
            if target in MODULES and target != module:
                found.append(f"line {node.lineno}: uses the private {target}.{node.attr}")
    return found


def runtime_imports(module: str, source: str) -> set[str]:
    """The pycards modules that ``module`` imports when it is loaded."""
    tree = ast.parse(source)
    out: set[str] = set()
    for node, in_function, typing_only in _imports(tree):
        if in_function or typing_only:
            continue
        for target, _ in _targets(module, node):
            if target in MODULES and target != module:
                out.add(target)
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return [*stack[stack.index(n) :], n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_private_name_and_no_import_in_a_function(module: str) -> None:
    assert violations(module, MODULES[module].read_text()) == []


def test_the_module_imports_have_no_cycle() -> None:
    graph = {m: runtime_imports(m, p.read_text()) for m, p in MODULES.items()}
    assert _cycle(graph) is None


def upward_imports(module: str, source: str) -> list[str]:
    """The modules ``module`` imports when loaded that sit in a higher layer."""
    return sorted(t for t in runtime_imports(module, source) if layer_of(t) > layer_of(module))


def test_every_module_has_a_layer() -> None:
    top = len(LAYERS)
    unplaced = [
        m
        for m in MODULES
        if layer_of(m) == top
        and m not in {ROOT, f"{ROOT}.__main__", f"{ROOT}._moved"}
        and not any(m == old or m.startswith(old + ".") for old in MOVED)
    ]
    assert unplaced == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_goes_up_the_layers(module: str) -> None:
    assert upward_imports(module, MODULES[module].read_text()) == []


#: the engine package in the source tree (an installed one has no .pyx)
CARDCORE = _paths.ROOT / "src" / "cardcore"
_PYCARDS_IMPORT = re.compile(r"^\s*(?:from|import|cimport)\s+pycards\b|^\s*from\s+pycards\b", re.M)


def cardcore_imports_of_pycards(text: str) -> list[int]:
    """The lines of a cardcore file that import pycards."""
    return [text.count("\n", 0, m.start()) + 1 for m in _PYCARDS_IMPORT.finditer(text)]


def test_cardcore_imports_nothing_of_pycards() -> None:
    files = [
        p
        for pattern in ("*.py", "*.pyx", "*.pxd", "*.pxi", "pxi/*.pxi")
        for p in sorted(CARDCORE.glob(pattern))
    ]
    assert any(p.suffix == ".pyx" for p in files), CARDCORE
    found = {p.name: lines for p in files if (lines := cardcore_imports_of_pycards(p.read_text()))}
    assert found == {}


# -- the checker itself: each rule catches what it is for ----------------------


def test_the_rules_catch_private_names_and_late_imports() -> None:
    bad = (
        "from pycards.game import _info, load_game\n"
        "import pycards.game as g\n"
        "from pycards import game\n"
        "def f():\n"
        "    from pycards.record import read_record\n"
        "    return g._REGISTRY, game._import_games\n"
        "def h():\n"
        "    import rich\n"
    )
    found = violations("pycards.ui.cli", bad)
    assert found == [
        "line 1: imports the private pycards.game._info",
        "line 5: imports pycards.record inside a function",
        "line 6: uses the private pycards.game._REGISTRY",
        "line 6: uses the private pycards.game._import_games",
    ]
    fine = (
        "from typing import TYPE_CHECKING\n"
        "from pycards._args import as_int\n"
        "from .game import Game\n"
        "if TYPE_CHECKING:\n"
        "    from pycards.record import Record\n"
        "def f(self):\n"
        "    import rich.progress\n"
        "    return self._x, as_int\n"
    )
    assert violations("pycards.view", fine) == []
    assert violations("pycards.arena._run", "from pycards.arena._match import Match\n") == []
    assert violations("pycards.ui.cli", "from pycards.arena._match import Match\n") == [
        "line 1: imports the private module pycards.arena._match"
    ]
    lazy_app = "def create():\n    from pycards.ui.web.app import create_app\n"
    assert needs_extra("pycards.ui.web.app") and not needs_extra("pycards.game")
    assert violations("pycards.ui.web", lazy_app) == []


def test_the_layer_check_sees_an_upward_import() -> None:
    assert layer_of("pycards.games.any_game") > layer_of("pycards.game") > layer_of("pycards.view")
    assert layer_of("pycards.ui.web.tables") == len(LAYERS) - 1
    assert upward_imports("pycards.view", "from pycards.bots import make_bot\n") == ["pycards.bots"]
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import State\n"
    assert upward_imports("pycards.view", typed) == []
    assert upward_imports("pycards.ui.cli", "from pycards.game import State\n") == []
    assert cardcore_imports_of_pycards("import numpy\nfrom pycards import errors\n") == [2]
    assert cardcore_imports_of_pycards("from cardcore import errors  # not pycards\n") == []


def test_the_cycle_check_sees_a_cycle() -> None:
    assert runtime_imports("pycards.view", "from .game import State\n") == {"pycards.game"}
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import State\n"
    assert runtime_imports("pycards.view", typed) == set()
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_every_game_is_found_whatever_is_imported_first() -> None:
    """The registry does not depend on import order: the compiled engine
    may be imported first, and every built-in game is found either way."""
    import subprocess
    import sys

    from _games import builtin_game_names

    def registered(first: str) -> list[str]:
        code = (
            f"import {first}\n"
            "from pycards.record import read_record\n"
            "from pycards.engine import registered_games\n"
            "print(' '.join(sorted(registered_games())))\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        return out.stdout.split()

    engine_first, api_first = registered("cardcore._core"), registered("pycards")
    # (a defined game is registered when first asked for: in this process,
    # other tests may have asked; in a new one, none is)
    assert engine_first == api_first
    assert set(builtin_game_names()) <= set(engine_first)
