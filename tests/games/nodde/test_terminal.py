"""Nodde Knave at the terminal table (pexpect): undo, and Ctrl-C saving the
record (every game's whole game at the table: tests/ui/test_terminal.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _pty import ANSI, PROMPT
from _pty import spawn as _spawn

from pycards.record import read_record

pexpect = pytest.importorskip("pexpect")


def test_undo_takes_back_the_last_move(tmp_path: Path) -> None:
    record = tmp_path / "undo.txt"
    # nodde, seed 3: seat 1 leads TH; you play TD, the bot answers 3C; no deal in between
    child = _spawn(["nodde", "--seed", "3", "--bots", "random", "--record", str(record)])
    child.expect(PROMPT)
    first = ANSI.sub("", child.before)
    child.sendline("play TD")
    child.expect(PROMPT)
    assert "you play TD" in ANSI.sub("", child.before)
    child.sendline("undo")
    child.expect(PROMPT)
    undone = ANSI.sub("", child.before)
    assert "took back your last move" in undone
    assert first.split("your moves:")[-1].strip() == undone.split("your moves:")[-1].strip()
    assert "play: TH  (total 10)" in undone
    child.sendline("play 9S")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "end of input" in ANSI.sub("", child.before)
    state = read_record(record.read_text())
    names = [state.game.action_name(a) for a in state.history]
    assert names[:2] == ["play TH", "play 9S"]  # the taken-back move is not in the record


def test_ctrl_c_saves_the_record_so_far(tmp_path: Path) -> None:
    record = tmp_path / "stopped.txt"
    child = _spawn(["nodde", "--seed", "9", "--bots", "random", "--record", str(record)])
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    state = read_record(record.read_text())
    assert not state.is_terminal and len(state.history) >= 1
