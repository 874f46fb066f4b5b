"""The terminal table tells the story: a whole game of every registered game
through a pseudo-terminal (pexpect), 80 columns wide, in which every score
change has its reason line and every round its summary."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _games import game_params
from _pty import ANSI, PROMPT, spawn

from pycards.narrate import narrator
from pycards.record import read_record
from pycards.summary import named, story
from pycards.ui.table import seat_names

pexpect = pytest.importorskip("pexpect")

WIDTH = 80


def _play(name: str, players: int, preset: str, record: Path) -> str:
    args = [name, "--players", str(players), "--rules", preset, "--seed", "4"]
    args += ["--bots", "random", "--record", str(record)]
    child = spawn(args, WIDTH)
    out: list[str] = []
    while child.expect([PROMPT, pexpect.EOF]) == 0:
        out.append(child.before + PROMPT)
        child.sendline("1")  # the first move listed (or the first step)
    out.append(child.before)
    child.close()
    assert child.exitstatus == 0, "".join(out)[-2000:]
    return ANSI.sub("", "".join(out)).replace("\r", "")


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(("name", "players", "preset"), game_params(extra=("quick_preset",)))
def test_the_terminal_tells_every_score_and_every_round(
    name: str, players: int, preset: str, tmp_path: Path
) -> None:
    record = tmp_path / "game.txt"
    transcript = _play(name, players, preset, record)
    state = read_record(record.read_text())
    assert state.is_terminal
    wide = [line for line in transcript.split("\n") if len(line) > WIDTH and "record" not in line]
    assert not wide, wide[:3]
    flat = _flat(transcript)
    n = state.num_players
    # the person (no --name: "you") and the bots named by what they are
    names = seat_names([None, *["random"] * (n - 1)], ["you", *[None] * (n - 1)])
    told = story(state, 0, names)
    teller = narrator(state.game)
    scores = [line for line in told.lines if teller.points(line.event)]
    assert scores, f"{name}: no score changed in the game"
    for line in scores:
        assert re.search(r" for |: ", line.text), line.text
        assert _flat(f"* {line.text}") in flat, line.text
    assert told.summaries and told.summaries[-1].is_game
    for summary in told.summaries:
        assert _flat(f"= {named(str(summary), names)}") in flat, str(summary)
    rounds = [s.round for s in told.summaries if not s.is_game]
    assert rounds == list(range(1, len(rounds) + 1))
