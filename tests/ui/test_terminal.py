"""The terminal table: complete games through a pseudo-terminal (pexpect)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from _games import GAMES
from _paths import RECORDS
from _pty import ANSI, PROMPT
from _pty import spawn as _spawn

from pycards.engine import game_info as _info
from pycards.game import game_names
from pycards.record import parse_record, read_record

pexpect = pytest.importorskip("pexpect")


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
    players = _info(game).min_players
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


# The games of tests/records (each game's profile names its sessions and their
# arguments), and the sessions shown in the closing note of the terminal table:
# ``python tests/ui/test_terminal.py OUTDIR`` plays them again and writes each
# session's transcript (OUTDIR/SESSION.txt) and record (OUTDIR/SESSION.record).
SESSIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    session: (case.name, args)
    for case in GAMES.values()
    for session, args in case.terminal_sessions.items()
}


def record_session(game: str, outdir: Path) -> str:
    """One whole game: a hint at the second prompt, then the first listed move
    (by number) and the last listed move (by name) in turn."""
    record = outdir / f"{game}.record"
    name, session_args = SESSIONS[game]
    args = [name, *session_args, "--bots", "random", "--name", "Ann", "--record", str(record)]
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
    golden = (RECORDS / f"{game}.txt").read_text(encoding="utf-8")
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
