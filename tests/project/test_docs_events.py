"""Each game's docs page documents every event kind's fields, and the docs
and the engine agree.

A game's page (``docs/<name>.rst``) has a list-table "Event fields" with one
row per event kind, in the engine's order (the kind ids from 0), and the
columns kind, player, target, value, extra.  The value cell starts with the
kind's value type in the engine's table (``card:``, ``number:``, or just
``none``); no cell is empty.
"""

from __future__ import annotations

import re

import pytest
from _games import ROOT, game_params

from pycards.engine import game_info

COLUMNS = ("kind", "player", "target", "value", "extra")


def documented(name: str) -> list[dict[str, str]]:
    """The rows of the page's "Event fields" table, as column -> text."""
    text = (ROOT / "docs" / f"{name}.rst").read_text(encoding="utf-8")
    start = text.find(".. list-table:: Event fields")
    assert start >= 0, f"docs/{name}.rst has no 'Event fields' list-table"
    body = text[start:].split("\n\n", 2)[1]  # the directive's options, then the rows
    rows: list[list[str]] = []
    for line in body.splitlines():
        if not line.strip():
            break
        if line.startswith("   * - "):
            rows.append([line[len("   * - ") :].strip()])
        elif line.startswith("     - "):
            rows[-1].append(line[len("     - ") :].strip())
        else:  # a cell continued on the next line
            rows[-1][-1] += " " + line.strip()
    head, *kinds = rows
    assert tuple(head) == COLUMNS
    return [dict(zip(COLUMNS, row, strict=True)) for row in kinds]


@pytest.mark.parametrize("name", game_params("none"))
def test_every_event_kind_is_documented_as_the_engine_has_it(name: str) -> None:
    kinds = game_info(name).event_kinds
    rows = documented(name)
    assert [r["kind"] for r in rows] == [f"``{k.name}``" for k in kinds]
    for row, kind in zip(rows, kinds, strict=True):
        assert all(row.values()), row
        value = row["value"]
        if kind.value == "none":
            assert value == "none", (kind.name, value)
        else:
            assert re.match(rf"{kind.value}: \S", value), (kind.name, value)
