"""The test tree itself: tests and benchmarks read the engine's state of a
:class:`~pycards.game.State` through its public ``engine_state``, never the
private attribute behind it.

Read from the source with :mod:`ast`: nothing under ``tests/`` is imported.
"""

from __future__ import annotations

import ast

import pytest
from _paths import ROOT, TESTS

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
