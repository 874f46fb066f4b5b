"""No Takers? at the terminal table (pexpect): undo refused after a draw
(every game's whole game at the table: tests/ui/test_terminal.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _pty import ANSI, PROMPT
from _pty import spawn as _spawn

pexpect = pytest.importorskip("pexpect")


def test_undo_refused_after_a_draw(tmp_path: Path) -> None:
    # No Takers?, seed 5: your first move draws cards, which undo may not take back
    child = _spawn(["notakers", "--seed", "5", "--bots", "random", "--no-record"])
    child.expect(PROMPT)
    child.sendline("draw")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect(PROMPT)
    assert "cannot undo: cards were dealt or drawn since your last move" in ANSI.sub(
        "", child.before
    )
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
