"""The ``pycards`` command line."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from _games import GAMES

import pycards
from pycards import batch
from pycards.combos import suit_counts
from pycards.game import game_names, has_score_distribution, load_game
from pycards.playouts import random_playouts
from pycards.record import write_record
from pycards.ui.cli import build_parser, main

# where the pycards under test lives (the source tree with an in-place build, or
# site-packages in CI): a child process must import the same one
SRC = str(Path(pycards.__file__).resolve().parents[1])
#: the game of the commands that need one (any registered game does)
GAME = next(iter(GAMES.values()))


def test_default_job_scores_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "5000", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "5,000 random 5-card hands" in out
    assert "throughput (warm, buffers reused): " in out and "M hands/s on 1 thread" in out
    assert "throughput (kept, a fresh output per call): " in out
    for label in ("fifteens (to 15)", "pairs", "run points", "flush"):
        assert label in out
    # the explicit subcommand says the same (but for the timing)
    assert main(["score", "--hands", "5000", "--seed", "3"]) == 0
    again = capsys.readouterr().out
    assert out.split("throughput")[0] == again.split("throughput")[0]


def _flush_share(out: str) -> float:
    m = re.search(r"flush \(4\+ one suit\)\s+([\d.]+)", out)
    assert m is not None, out
    return float(m[1])


@pytest.mark.parametrize("cards", [0, 1, 3, 4, 5, 7])
def test_flush_row_counts_four_or_more_of_one_suit(
    cards: int, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["--hands", "3000", "--cards", str(cards), "--seed", "8"])
    share = _flush_share(capsys.readouterr().out)
    hands = batch.random_hands(3000, cards, seed=8)
    suits = np.array([suit_counts(int(h)) for h in hands]).reshape(-1, 4)
    expected = float(np.mean(suits.max(axis=1) >= 4)) if cards else 0.0
    assert share == pytest.approx(expected, abs=5e-5)
    if cards < 4:
        assert share == 0.0


@pytest.mark.parametrize("game", game_names())
def test_playouts(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["playouts", game, "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert f"20 random games of {game}" in out and "M actions/s" in out
    rates = [float(x) for x in re.findall(r"^\s+\d+\s+([\d.]+)%", out, re.M)]
    assert len(rates) == load_game(game).num_players
    assert sum(rates) == pytest.approx(100, abs=0.02)
    result = random_playouts(load_game(game), 20, 2026, per_game=True)
    for k, mean in enumerate(result.mean_points()):
        assert f"{mean:14.2f}" in out.splitlines()[3 + k]


def test_random_playouts_sums_and_ties() -> None:
    game = load_game(GAME.name)
    per = random_playouts(game, 30, seed=4, per_game=True)
    assert per.returns is not None and per.returns.shape == (30, game.num_players)
    assert per.points == tuple(int(x) for x in per.returns.sum(axis=0))
    # ties split, checked by hand on the games' results
    wins = [0.0] * game.num_players
    for row in per.returns.tolist():
        best = max(row)
        top = [k for k, r in enumerate(row) if r == best]
        for k in top:
            wins[k] += 1 / len(top)
    assert per.win_rates() == pytest.approx([w / 30 for w in wins])
    total = random_playouts(game, 30, seed=4)
    assert total.games == 30 and total.returns is None
    with pytest.raises(ValueError, match="per_game"):
        total.win_rates()
    with pytest.raises(TypeError):
        random_playouts(game, 1.5, seed=4)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        random_playouts(GAME.name, 3)  # type: ignore[arg-type]


def test_games_lists_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for case in GAMES.values():
        assert case.name in out and case.quick_preset in out


def test_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = load_game(GAME.name).new_initial_state(5)
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    path = tmp_path / "r.txt"
    path.write_text(write_record(state))
    assert main(["replay", str(path), "--steps"]) == 0
    out = capsys.readouterr().out
    assert "6 actions, record checked" in out and "   6. seat" in out
    bad = tmp_path / "bad.txt"
    bad.write_text(write_record(state).replace('[Seed "5"]', '[Seed "6"]'))
    assert main(["replay", str(bad)]) == 1
    assert "line " in capsys.readouterr().err
    seat = tmp_path / "seat.txt"
    seat.write_text(write_record(state, viewer=1))
    assert main(["replay", str(seat)]) == 0
    assert "cannot be replayed" in capsys.readouterr().out
    assert main(["replay", str(tmp_path / "missing.txt")]) == 1
    js = tmp_path / "r.json"
    js.write_text(state.to_json())
    assert main(["replay", str(js), "--text"]) == 0
    assert capsys.readouterr().out == write_record(state)
    js.write_text('{"format": 1}')
    assert main(["replay", str(js)]) == 1
    assert "format" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["replay", str(path), "--seat", "5"])
    assert f"--seat: 0..{state.num_players - 1}" in capsys.readouterr().err


BAD_OPTIONS = [
    ["--target", "0"],
    ["--target", "341"],
    ["--target", "x"],
    ["--cards", "60"],
    ["--cards", "-1"],
    ["--cards", "2.5"],
    ["--hands", "0"],
    ["--hands", "-5"],
    ["--hands", "1e3"],
    ["--hands", str(batch.MAX_RANDOM_HANDS + 1)],
    ["--seed", "-1"],
    ["--seed", str(2**64)],
    ["--colour", "red"],
    ["score", "--hands"],
    ["nosuch"],
    ["playouts"],
    ["playouts", "no_such_game"],
    ["playouts", GAME.name, "--players", str(GAME.max_players + 1)],
    ["playouts", GAME.name, "--players", "0"],
    ["playouts", GAME.name, "--games", "0"],
    ["playouts", GAME.name, "--games", "many"],
    ["playouts", GAME.name, "--rules", "hoyle"],
    ["playouts", GAME.name, "--seed", "-3"],
    ["play", GAME.name, "--seat", str(GAME.min_players)],
    ["play", GAME.name, "--seat", "-1"],
    ["play", GAME.name, "--bots", "grandmaster"],
    ["play", GAME.name, "--bots", ",".join(["random"] * GAME.min_players)],
    ["play", GAME.name, "--bots", "random:depth"],
    ["play", GAME.name, "--players", str(GAME.max_players + 1)],
    ["play", GAME.name, "--hint", "oracle"],
    ["play", GAME.name, "--name", ""],
    # a game with a score distribution refuses bad sizes, the others the command
    *(
        argv
        for name, case in GAMES.items()
        for argv in (
            [["distribution", name, "--cards", "99"], ["distribution", name, "--hands", "0"]]
            if has_score_distribution(case.game_type)
            else [["distribution", name]]
        )
    ),
    ["replay"],
    ["replay", "a.txt", "--seat", "x"],
    ["games", "--players", "2"],
]


@pytest.mark.parametrize("argv", BAD_OPTIONS, ids=" ".join)
def test_bad_options_get_the_usage_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    usage_error(argv, capsys)


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``pycards argv`` exits with the usage error (code 2, no traceback)."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "usage: pycards" in err and "error:" in err
    assert "Traceback" not in err


def test_help_is_plain_text() -> None:
    parser = build_parser()
    texts = [parser.format_help()]
    texts += [p.format_help() for p in parser._subparsers._group_actions[0].choices.values()]  # type: ignore[union-attr]
    for text in texts:
        assert "``" not in text and ":doc:" not in text and ":func:" not in text
    for name in ("score", "games", "playouts", "distribution", "play", "replay", "arena", "serve"):
        assert name in texts[0]


def test_command_runs_as_a_module() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "pycards", "--hands", "2000"],
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "2,000 random 5-card hands" in out


@pytest.mark.parametrize(
    ("command", "module"), [("arena", "pycards.arena"), ("serve", "starlette")]
)
def test_module_subcommands_are_registered(
    capsys: pytest.CaptureFixture[str], command: str, module: str
) -> None:
    try:
        __import__(module)
    except ModuleNotFoundError:
        assert main([command]) == 2
        assert "not available in this installation" in capsys.readouterr().err
    else:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "usage: pycards " + command in capsys.readouterr().out


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal_and_long_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("rich")
    from pycards.ui import cli

    clock = [0.0]
    monkeypatch.setattr(cli.time, "perf_counter", lambda: clock[0])
    monkeypatch.delenv("PYCARDS_NO_PROGRESS", raising=False)
    # not a terminal: nothing
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    quiet = cli._Progress(100, "work")
    clock[0] = 5.0
    quiet(10)
    quiet.close()
    assert sys.stderr.getvalue() == ""
    # a terminal, a run that will take under a second: nothing
    tty = _Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    clock[0] = 0.0
    fast = cli._Progress(100, "work")
    clock[0] = 0.3
    fast(90)
    fast.close()
    assert fast.bar is None and tty.getvalue() == ""
    # a terminal and a long run: the bar
    clock[0] = 0.0
    slow = cli._Progress(100, "work")
    clock[0] = 0.5
    slow(10)
    assert slow.bar is not None
    slow.close()
    assert "work" in tty.getvalue()


def test_games_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--rules"]) == 0
    out = capsys.readouterr().out
    assert "    game_target = 31:" in out and "    max_turns = None:" in out


def test_score_threads_give_the_same_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--hands", "70000", "--seed", "4", "--cards", "6"]) == 0
    one = capsys.readouterr().out
    assert main(["score", "--hands", "70000", "--seed", "4", "--cards", "6", "--threads", "2"]) == 0
    two = capsys.readouterr().out
    assert "on 2 threads" in two
    assert one.split("throughput")[0] == two.split("throughput")[0]


def test_help_lists_each_subcommand_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in ("score", "games", "playouts", "distribution", "play", "replay", "arena"):
        listed = re.findall(rf"^\s+{name}\b", out, re.MULTILINE)
        assert len(listed) == 1, (name, out)


@pytest.mark.parametrize("command", ["playouts", "play"])
def test_players_out_of_range_names_the_games_range(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, case in GAMES.items():
        too_many = case.max_players + 1
        with pytest.raises(SystemExit):
            main([command, name, "--players", str(too_many)])
        err = capsys.readouterr().err
        assert f"{case.min_players} to {case.max_players} players, got {too_many}" in err
        assert "1..8" not in err


def _json_rules(name: str) -> str:
    """A JSON object of one rules field of game ``name``, at its default."""
    rules_type = load_game(name, None, GAMES[name].min_players).RULES_TYPE
    d = rules_type.parameters()[0]
    return json.dumps({d.name: getattr(rules_type(), d.name)})


def test_every_subcommand_takes_json_rules(capsys: pytest.CaptureFixture[str]) -> None:
    for name in GAMES:
        rules = _json_rules(name)
        assert main(["playouts", name, "--games", "3", "--rules", rules]) == 0
        assert "random games of" in capsys.readouterr().out
        if has_score_distribution(GAMES[name].game_type):
            assert main(["distribution", name, "--hands", "100", "--rules", rules]) == 0
            assert "hand scores" in capsys.readouterr().out
    # play reads --rules with the same parser (checked before the session starts)
    for command in ("playouts", "play"):
        with pytest.raises(SystemExit):
            main([command, GAME.name, "--rules", '{"no_such_field": 1}'])
        assert "--rules: unknown rules field 'no_such_field'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["playouts", GAME.name, "--rules", "[1]"])
    assert "--rules" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# distribution offers only the games it can count


def test_distribution_offers_only_games_it_can_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    counted = [name for name, case in GAMES.items() if has_score_distribution(case.game_type)]
    others = [name for name in GAMES if name not in counted]
    assert counted
    for name in others:
        with pytest.raises(SystemExit) as info:
            main(["distribution", name])
        assert info.value.code == 2
        choices = ", ".join(repr(n) for n in counted)
        assert f"choose from {choices}" in capsys.readouterr().err
