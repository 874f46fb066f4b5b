"""README and docstring examples run as doctests against the installed package."""

from __future__ import annotations

import doctest
import importlib
import pathlib
import pkgutil

import pytest

import pycards

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(pycards.__path__, "pycards.")
    if not m.name.startswith(("pycards._", "pycards.cli"))
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


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
