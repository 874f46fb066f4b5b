"""The terminal table in an 80x24 terminal (pexpect): the story in the order it
happened, the seats by their names, no raw record line, nothing wider than 80
columns, the rules in plain words, a prompt in words before the moves, and a
move chosen in steps shown in words and compactly."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from _games import game_params
from _pty import ANSI, PROMPT, spawn

from pycards.engine import game_info
from pycards.game import load_game
from pycards.narrate import Line
from pycards.record import read_record
from pycards.summary import fold_deals, named, story
from pycards.teach import prompt, rules_book
from pycards.ui.table import seat_names
from pycards.ui.terminal import MAX_LISTED

pexpect = pytest.importorskip("pexpect")

WIDTH = 80
#: a line of a record (what the terminal used to open with: "= new_deal seat 1: 1")
RAW = re.compile(r"^\s*= [a-z_]+ seat \d+:", re.M)
#: an engine name of a move step
ENGINE_STEP = re.compile(r"\+\d")


def _session(name: str, players: int, preset: str, record: Path, steps: bool) -> list[str]:
    """A whole game at 80 columns; each screen up to its prompt.  The first
    prompt asks for the rules; with ``steps``, a move chosen in steps is
    walked into by its last step label."""
    args = [name, "--players", str(players), "--rules", preset, "--seed", "4", "--bots", "random"]
    child = spawn([*args, "--name", "Ann", "--record", str(record)], WIDTH)
    screens: list[str] = []
    first = True
    while child.expect([PROMPT, pexpect.EOF]) == 0:
        screen = ANSI.sub("", child.before).replace("\r", "")
        screens.append(screen)
        if first:
            child.sendline("rules")
            first = False
            continue
        if steps and sum("type one by name" in s for s in screens) >= 2:
            child.sendline("quit")  # two compact steps seen: enough
            continue
        moves = re.findall(r"(\d+)\) (.*?)(?=\s{2,}\d+\)|\s*$)", screen, re.M)
        deeper = [label for _, label in moves if label.endswith(" ...")]
        child.sendline(deeper[-1] if steps and deeper else "1")
    screens.append(ANSI.sub("", child.before).replace("\r", ""))
    child.close()
    assert child.exitstatus == 0, "".join(screens)[-2000:]
    return screens


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(("name", "players", "preset"), game_params(extra=("quick_preset",)))
def test_an_80_column_game_tells_its_story_in_order(
    name: str, players: int, preset: str, tmp_path: Path
) -> None:
    record = tmp_path / "game.txt"
    screens = _session(name, players, preset, record, steps=False)
    text = "\n".join(screens)
    state = read_record(record.read_text())
    assert state.is_terminal
    # nothing wider than the terminal, no raw record line
    wide = [line for line in text.split("\n") if len(line) > WIDTH and "record" not in line]
    assert not wide, wide[:3]
    assert not RAW.search(text), RAW.search(text)
    # the rules in plain words, at the first prompt
    for section in rules_book(state.game):
        assert section.title in screens[1], section.title
    # the story, every event of it, in the order it happened, seats by name
    names = seat_names([None, *["random"] * (players - 1)], ["Ann", *[None] * (players - 1)])
    told = story(state, 0, names)
    expected: list[str] = []
    run: list[Line] = []
    for item in [*told.told, None]:
        if isinstance(item, Line):
            run.append(item)
            continue
        expected += [said for _, said in fold_deals(run, names, told.teller.seat_name)]
        run = []
        if item is not None:
            expected.append(named(str(item), names))
    flat = _flat(text)
    at = 0
    for said in expected:
        found = flat.find(_flat(said), at)
        assert found >= 0, f"{said!r} missing after {flat[max(0, at - 300) : at]!r}"
        at = found + len(_flat(said))
    # before the moves, what is asked, in words, at each of the person's turns
    replay = state.game.new_initial_state(state.seed or 0, state.deck)
    at = 0
    for action in state.history:
        if replay.current_player == 0:
            asked = _flat(prompt(replay.view(0), names))
            found = flat.find(asked + " your moves", at)
            assert asked and found >= 0, asked
            at = found
        replay.apply(action)
    # (the opening line names who sits where: "random bot (seat 1)")
    story_lines = [
        re.sub(r"\((you, )?seat \d+\)", "", line)
        for line in text.split("\n")
        if re.match(r"^  [ *=] ", line)
    ]
    assert story_lines and not [line for line in story_lines if re.search(r"\bseat \d", line)]


@pytest.mark.parametrize("name", game_params("none"))
def test_every_table_line_fits_80_columns(name: str) -> None:
    info = game_info(name)
    for players in range(info.min_players, info.max_players + 1):
        game = load_game(name, None, players)
        for seed in range(2):
            state = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not state.is_terminal and len(state.history) < 400:
                for seat in {state.current_player}:
                    for line in state.view(seat).table().split("\n"):
                        assert len(line) <= WIDTH, (players, line)
                state.apply(rng.choice(state.legal_actions()))


def _stepped() -> list[object]:
    """The games with more moves than a list shows (chosen in steps)."""
    out = []
    for param in game_params(extra=("quick_preset",)):
        name, players, _ = param.values
        state = load_game(str(name), None, int(str(players))).new_initial_state(4)
        rng = random.Random(4)
        for _ in range(200):
            if state.is_terminal:
                break
            if len(state.legal_actions()) > MAX_LISTED:
                out.append(param)
                break
            state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize(("name", "players", "preset"), _stepped())
def test_steps_are_in_words_and_compact(
    name: str, players: int, preset: str, tmp_path: Path
) -> None:
    screens = _session(name, players, preset, tmp_path / "game.txt", steps=True)
    deepest = 0
    for screen in screens:
        menu = screen.split("your moves")[-1] if "your moves" in screen else ""
        assert not ENGINE_STEP.search(menu), menu
        numbers = [int(k) for k in re.findall(r"(\d+)\) ", menu)]
        assert not numbers or max(numbers) <= MAX_LISTED, menu
        if "type one by name or by number" in menu:
            deepest += 1
            rows = menu.split("type one by name or by number:")[-1].strip().split("\n")
            assert len(rows) <= 5 and all(len(row) <= WIDTH for row in rows), rows
    assert deepest, "no step with more choices than a list shows was reached"
