"""The typed API stays typed: the count of ``Any`` in ``src/pycards`` may go
down, never up.

The count is the one of ``grep -ro "\\bAny\\b" src/pycards --include=*.py | wc
-l`` (every occurrence of the word, in code, comments and docstrings).  The
optional ecosystems of :mod:`pycards.envs` (gymnasium, pettingzoo, pyspiel)
are untyped and keep theirs; elsewhere a state of any game is a
``State[object]``, any game a ``Game[Rules, object]``, and JSON a
``pycards._args.JSONValue``.  Lower :data:`CEILING` when the count drops.
"""

from __future__ import annotations

import re
from pathlib import Path

import _paths

#: The most ``Any`` that ``src/pycards`` may hold (the issue counted 440).
CEILING = 105

_ANY = re.compile(r"\bAny\b")
PACKAGE = _paths.ROOT / "src" / "pycards"


def any_count(text: str) -> int:
    """How many times the word ``Any`` occurs in ``text`` (as ``grep -o "\\bAny\\b"``)."""
    return len(_ANY.findall(text))


def counts(package: Path = PACKAGE) -> dict[str, int]:
    """The count of each module of ``package`` that has any, by path."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        n = any_count(path.read_text(encoding="utf-8"))
        if n:
            out[str(path.relative_to(package))] = n
    return out


def test_the_counter_counts_words() -> None:
    text = "from typing import Any\nx: dict[str, Any] = {}  # Any\nAnyway = MyAny = Any_ = 0\n"
    assert any_count(text) == 3


def test_any_stays_under_the_ceiling() -> None:
    found = counts()
    assert found, f"no Any found under {PACKAGE}: is it the source tree?"
    total = sum(found.values())
    worst = ", ".join(f"{k} {v}" for k, v in sorted(found.items(), key=lambda kv: -kv[1])[:8])
    assert total <= CEILING, f"{total} Any in src/pycards, the ceiling is {CEILING} ({worst})"
