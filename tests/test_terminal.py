"""The terminal table: complete games through a pseudo-terminal (pexpect)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

import pycards
from pycards.engine import game_info as _info
from pycards.game import game_names
from pycards.record import parse_record, read_record

pexpect = pytest.importorskip("pexpect")

# where the pycards under test lives (the source tree with an in-place build, or
# site-packages in CI): a child process must import the same one
SRC = str(Path(pycards.__file__).resolve().parents[1])
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPT = "your move> "


def _spawn(args: list[str]) -> object:
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    env["NO_COLOR"] = "1"
    env["TERM"] = "dumb"
    env["COLUMNS"] = "100"
    return pexpect.spawn(
        sys.executable,
        ["-m", "pycards", "play", *args],
        env=env,
        encoding="utf-8",
        timeout=120,
        dimensions=(40, 100),
    )


def play_through(game: str, players: int, seed: int, record: Path) -> str:
    """Play one whole game at the terminal, answering each prompt with a legal
    move (by number, or by name every third turn); returns the transcript."""
    child = _spawn(
        [
            game,
            "--players",
            str(players),
            "--seed",
            str(seed),
            "--bots",
            "random",
            "--record",
            str(record),
            "--name",
            "Ann",
        ]
    )
    transcript: list[str] = []
    turn = 0
    while True:
        i = child.expect([PROMPT, pexpect.EOF])
        transcript.append(ANSI.sub("", child.before))
        if i == 1:
            break
        transcript.append(PROMPT)
        screen = "".join(transcript[-2:])
        if turn == 0:
            # a mistyped move is answered with the legal moves; help and hint work
            for command, answer in (
                ("xyzzy", "not a legal move: 'xyzzy'"),
                ("help", "commands:"),
                ("hint", "hint ("),
                ("undo", "cannot undo"),
            ):
                child.sendline(command)
                child.expect(PROMPT)
                text = ANSI.sub("", child.before)
                transcript.append(text + PROMPT)
                assert answer in text, text
        moves = re.findall(
            r"(\d+)\) (\S.*?)(?=\s{2,}\d+\)|\s*$)", screen.split("your moves:")[-1], re.M
        )
        if turn % 3 == 2 and moves:
            child.sendline(moves[-1][1])
        else:
            child.sendline("1")
        turn += 1
    child.close()
    assert child.exitstatus == 0, "".join(transcript)[-2000:]
    return "".join(transcript)


@pytest.mark.parametrize("game", game_names())
def test_complete_game_at_the_terminal(game: str, tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    players = _info(game)["min_players"]
    transcript = play_through(game, players, 7, record)
    assert "game over" in transcript
    assert f"record saved to {record}" in transcript
    assert "Traceback" not in transcript
    state = read_record(record.read_text())
    assert state.is_terminal
    parsed = parse_record(record.read_text())
    assert parsed.names[0] == "Ann" and parsed.names[1] == "random"
    result = re.search(r"result: (.*)", transcript)
    assert result is not None
    assert f"you {state.returns()[0]}" in result[1]


def test_undo_takes_back_the_last_move(tmp_path: Path) -> None:
    record = tmp_path / "undo.txt"
    # nodde, seed 3: seat 1 leads TH; you play TD, the bot answers 3C; no deal in between
    child = _spawn(["nodde", "--seed", "3", "--bots", "random", "--record", str(record)])
    child.expect(PROMPT)
    first = ANSI.sub("", child.before)
    child.sendline("play TD")
    child.expect(PROMPT)
    assert "you: play TD" in ANSI.sub("", child.before)
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


# The games of tests/records, and the sessions shown in the closing note of the
# terminal table: ``python tests/test_terminal.py OUTDIR`` plays them again and
# writes each game's transcript (OUTDIR/GAME.txt) and record (OUTDIR/GAME.record).
SESSIONS = {
    "nodde": ["--seed", "12"],
    "nancy": ["--seed", "12", "--rules", "wiki_one_deal"],
    "notakers": ["--seed", "12", "--rules", "capped"],
    "cribbage": ["--seed", "12"],
    "cribbage-4-muggins": ["--seed", "5", "--players", "4", "--rules", "acc_muggins"],
}


def record_session(game: str, outdir: Path) -> str:
    """One whole game: a hint at the second prompt, then the first listed move
    (by number) and the last listed move (by name) in turn."""
    record = outdir / f"{game}.record"
    name = game.split("-")[0]  # a session's name starts with its game's
    args = [name, *SESSIONS[game], "--bots", "random", "--name", "Ann", "--record", str(record)]
    child = _spawn(args)
    log: list[str] = []
    turn = 0
    while True:
        i = child.expect([PROMPT, pexpect.EOF])
        log.append(child.before)
        if i == 1:
            break
        log.append(PROMPT)
        screen = ANSI.sub("", child.before)
        moves = re.findall(
            r"(\d+)\) (\S.*?)(?=\s{3}\d+\)|\s*$)", screen.split("your moves:")[-1], re.M
        )
        if turn == 1:
            child.sendline("hint")
            child.expect(PROMPT)
            log.append("hint\n" + child.before + PROMPT)
        typed = moves[-1][1] if moves and turn % 2 else "1"
        child.sendline(typed)
        log.append(typed + "\n")
        turn += 1
    child.close()
    text = ANSI.sub("", "".join(log)).replace("\r\n", "\n")
    # the pty echoes what is typed: keep one copy
    text = re.sub(r"^(your move> )(.*)\n\2\n", r"\1\2\n", text, flags=re.M)
    (outdir / f"{game}.txt").write_text(text, encoding="utf-8")
    return text


@pytest.mark.parametrize("game", sorted(SESSIONS))
def test_session_plays_the_golden_record(game: str, tmp_path: Path) -> None:
    """The session of ``game`` at the terminal writes tests/records/GAME.txt
    again (but for the date): the pty, the table and the record agree."""
    text = record_session(game, tmp_path)
    assert "game over" in text and "hint (" in text and "Traceback" not in text
    golden = (Path(__file__).parent / "records" / f"{game}.txt").read_text(encoding="utf-8")
    written = (tmp_path / f"{game}.record").read_text(encoding="utf-8")
    date = re.compile(r'^\[Date ".*"\]$', re.M)
    assert date.sub("", written) == date.sub("", golden)
    state = read_record(written)
    assert state.is_terminal
    result = re.search(r"result: (.*)", text)
    assert result is not None and f"you {state.returns()[0]}" in result[1]


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    for name in SESSIONS:
        print(name, len(record_session(name, out).splitlines()), "lines")
