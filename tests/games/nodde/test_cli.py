"""The ``pycards`` command line on Nodde Knave: its exact score distribution,
and ``play`` (the seat record, a failing bot's record, plain text)."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from pycards.games.nodde import hand_score_distribution
from pycards.ui.cli import main


def test_distribution_exact_nodde(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["distribution", "nodde"]) == 0
    out = capsys.readouterr().out
    hist = hand_score_distribution()
    assert "exact" in out and f"{int(hist.sum()):,} hands" in out
    for p, c in enumerate(hist):
        if c:
            assert re.search(rf"^\s+{p}\s+{int(c):,}\s", out, re.M)


def test_play_in_process_saves_the_seat_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pycards.record import parse_record

    path = tmp_path / "mine.txt"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n"))
    args = ["play", "nodde", "--seed", "3", "--bots", "random", "--record", str(path)]
    assert main([*args, "--seat-record"]) == 0
    assert "end of input" in capsys.readouterr().out
    record = parse_record(path.read_text())
    assert record.view == 0 and record.seed is None
    assert "= deal_card seat 1: ? ? ?" in path.read_text()


def test_play_saves_the_record_when_a_bot_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pycards.bots import base
    from pycards.record import read_record

    class Cheat:
        name = "cheat"

        def __init__(self, seed: int = 0) -> None:
            pass

        def reset(self, seed: int) -> None:
            pass

        def act(self, view: object) -> int:
            return 51  # play KS, which it does not hold (nodde, seed 3)

    monkeypatch.setitem(base._REGISTRY, "cheat_for_test", Cheat)  # removed after the test
    path = tmp_path / "r.txt"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    argv = ["play", "nodde", "--seed", "3", "--seat", "0", "--bots", "cheat_for_test"]
    assert main([*argv, "--record", str(path)]) == 1
    assert "error: illegal action 'play KS'" in capsys.readouterr().out
    assert read_record(path.read_text()).history == ()


def test_play_without_rich_prints_plain_text(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for module in ("rich", "rich.console", "rich.text", "rich.rule"):
        monkeypatch.setitem(sys.modules, module, None)  # import fails: no cli extra
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
    assert main(["play", "nodde", "--seed", "3", "--bots", "random", "--no-record"]) == 0
    out = capsys.readouterr().out
    assert "--- Nodde Knave: seat 0 you, 1 random bot ---" in out and "you play TD" in out


def test_games_lists_the_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    assert "willughby" in capsys.readouterr().out
