"""README and docstring examples run as doctests against the installed package."""

from __future__ import annotations

import doctest
import importlib
import pathlib

import _paths
import pytest

import pycards
from pycards._moved import MOVED

ROOT = _paths.ROOT
PACKAGE = pathlib.Path(pycards.__file__).parent


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# read from the files (walking the packages would import the old paths of
# moved modules, which only warn)
MODULES = sorted(
    name
    for name in map(_module_name, PACKAGE.rglob("*.py"))
    if not name.startswith(("pycards._", "pycards.ui.cli"))
    and not any(name == old or name.startswith(f"{old}.") for old in MOVED)
)


def test_readme() -> None:
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8").replace("```python\n", "").replace("```", "")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, "README.md", str(readme), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert test.examples, "README.md has no examples"
    assert runner.failures == 0


# Modules of the optional extras import their dependency at the top: without
# the extra installed, their examples are skipped (CI installs every extra).
OPTIONAL = {
    "starlette",
    "uvicorn",
    "pettingzoo",
    "gymnasium",
    "pyspiel",
    "dask",
    "distributed",
    "openskill",
    "rich",
    "matplotlib",
}


def _import(name: str) -> object:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in OPTIONAL:
            pytest.skip(f"{name} needs the optional {exc.name}")
        raise


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    module = _import(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


DOCS = sorted((ROOT / "docs").glob("*.rst"))


@pytest.mark.parametrize("page", DOCS, ids=[p.name for p in DOCS])
def test_docs_examples(page: pathlib.Path) -> None:
    """Every ``>>>`` example of the docs pages runs and prints what it shows."""
    text = page.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, page.name, str(page), 0)
    if not test.examples:
        pytest.skip(f"{page.name} has no >>> examples")
    for line in text.splitlines():
        if line.startswith(".. needs-extra:"):
            for module in line.split(":", 1)[1].split():
                pytest.importorskip(module)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0
