"""The arena: schedule and seeds, duplicate deals, statistics against hand
computations, bot failures, bad names, Ctrl-C, the CLI, and serial == Dask."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from typing import Any

import numpy as np
import pytest
from _games import GAMES, game_params

from cardcore import _core
from pycards.arena import (
    FAILURE_KINDS,
    Z95,
    Failure,
    GameRecord,
    Match,
    MatchResult,
    add_arguments,
    bradley_terry,
    derive_seed,
    main,
    mean_ci,
    run_match,
)
from pycards.bots import RandomBot
from pycards.errors import RulesError, StalledGameError
from pycards.game import load_game
from pycards.playouts import ACTION_CAP_FLOOR, action_cap

#: the game of the tests that need one: any registered game that seats two to
#: four players (the seating tests need both)
GAME = next(c for c in GAMES.values() if c.min_players <= 2 <= 4 <= c.max_players)


# ---------------------------------------------------------------------------
# bots for the tests


def step_choice(legal: list[int], moves: int) -> int:
    return legal[(moves * 7) % len(legal)]


class FirstBot:
    """Deterministic: its k-th move of a game is the legal action
    ``(7 k) mod n`` (no seed); records what it saw."""

    def __init__(self, name: str = "first") -> None:
        self.name = name
        self.seeds: list[int] = []
        self.seen: list[tuple[int, bytes]] = []
        self.moves = 0

    def reset(self, seed: int) -> None:
        self.seeds.append(seed)
        self.moves = 0

    def act(self, view: Any) -> int:
        self.seen.append((view.seat, view.observation_tensor().tobytes()))
        self.moves += 1
        return step_choice(view.legal_actions(), self.moves - 1)


class FailingBot:
    """Plays randomly, but fails in the games whose bot seed is odd, at its
    second move, in the way ``mode`` says."""

    def __init__(self, mode: str) -> None:
        self.name = f"fails-{mode}"
        self.mode = mode
        self._rng = RandomBot()
        self._fail = False
        self._moves = 0
        self.failed_seeds: list[int] = []
        self.seed = 0

    def reset(self, seed: int) -> None:
        self.seed = seed
        self._rng.reset(seed)
        self._fail = seed % 2 == 1
        self._moves = 0
        if self._fail and self.mode == "reset":
            self.failed_seeds.append(seed)
            raise RuntimeError("cannot start")

    def act(self, view: Any) -> Any:
        self._moves += 1
        action = self._rng.act(view)
        if not (self._fail and self._moves == 2):
            return action
        self.failed_seeds.append(self.seed)
        if self.mode == "raise":
            raise ValueError("boom")
        if self.mode == "illegal":
            legal = set(view.legal_actions())
            return next(a for a in range(view.game.num_actions) if a not in legal)
        if self.mode == "out_of_range":
            return view.game.num_actions + 3
        if self.mode == "float":
            return float(action)
        if self.mode == "bool":
            return True
        if self.mode == "none":
            return None
        if self.mode == "name":
            return view.action_name(action)
        if self.mode == "slow":
            time.sleep(0.05)
            return action
        raise AssertionError(self.mode)


class InterruptingBot(FirstBot):
    """Presses Ctrl-C at its first move of the ``after``-th game it starts."""

    def __init__(self, after: int) -> None:
        super().__init__("interrupts")
        self.after = after

    def act(self, view: Any) -> int:
        if len(self.seeds) > self.after:
            raise KeyboardInterrupt
        return super().act(view)


def deterministic(records: list[GameRecord]) -> list[dict[str, Any]]:
    """The records without the timing."""
    return [{**dataclasses.asdict(r), "seconds": None} for r in records]


# ---------------------------------------------------------------------------
# schedule and seeds


def test_derive_seed_is_fixed() -> None:
    # BLAKE2b of the text: the same on every platform and in every process
    assert derive_seed(0, "deal", 0) == derive_seed(0, "deal", 0)
    assert derive_seed(0, "deal", 0) != derive_seed(1, "deal", 0)
    assert derive_seed(0, "deal", 0) != derive_seed(0, "bot", 0)
    assert derive_seed(5, "bot", 3, 1) != derive_seed(5, "bot", 1, 3)
    assert 0 <= derive_seed(2**64 - 1, "deal", 10**9) < 2**64


@pytest.mark.parametrize(
    ("nbots", "players", "seatings"),
    [
        (2, 2, [(0, 1), (1, 0)]),
        (2, 4, [(0, 1, 0, 1), (1, 0, 1, 0)]),
        (3, 3, [(0, 1, 2), (2, 0, 1), (1, 2, 0)]),
        (3, 2, [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]),
    ],
)
def test_seatings(nbots: int, players: int, seatings: list[tuple[int, ...]]) -> None:
    m = Match(GAME.name, [FirstBot(str(i)) for i in range(nbots)], 1, players=players)
    assert list(m.seatings) == seatings
    assert m.group_size == len(seatings)
    assert m.total_games == len(seatings)


def test_games_round_up_to_whole_deal_groups() -> None:
    m = Match(GAME.name, [FirstBot("a"), FirstBot("b"), FirstBot("c")], 10, players=3)
    assert m.group_size == 3 and m.total_games == 12
    m = Match(GAME.name, [FirstBot("a"), FirstBot("b")], 7, players=2, duplicate=False)
    assert m.group_size == 1 and m.total_games == 7


def test_same_seed_same_table_and_records() -> None:
    def once(seed: int) -> MatchResult:
        return run_match(GAME.name, ["random", "random"], 12, players=4, seed=seed, progress=False)

    a, b, c = once(3), once(3), once(4)
    assert a.table(timing=False) == b.table(timing=False)
    assert deterministic(a.records) == deterministic(b.records)
    assert [s.scores() for s in a.bots] == [s.scores() for s in b.bots]
    assert deterministic(a.records) != deterministic(c.records)
    assert a.games_played == 12 and not a.interrupted


def test_a_chunk_anywhere_gives_the_same_games() -> None:
    m = Match(GAME.name, ["random", "random"], 10, players=2, seed=11)
    whole = m.play(range(10))
    parts = m.play(range(6, 10)) + m.play(range(0, 6))
    assert deterministic(sorted(parts, key=lambda r: r.index)) == deterministic(whole)


def test_bots_are_reset_with_the_bot_seeds() -> None:
    a, b = FirstBot("a"), FirstBot("b")
    m = Match(GAME.name, [a, b], 4, players=2, seed=9)
    m.run(progress=False)
    for i in range(4):
        seeds = m.bot_seeds(i)
        seating = m.seating(i)
        assert (a.seeds[i], b.seeds[i]) == (seeds[seating.index(0)], seeds[seating.index(1)])


def test_rules_and_game_objects() -> None:
    from pycards.game import load_game

    rules = GAME.quick_rules()
    by_name = Match(GAME.name, ["random", "random"], 4, rules=rules, seed=1)
    game = load_game(GAME.name, rules, 2)
    by_game = Match(game, ["random", "random"], 4, seed=1)
    assert by_name.game == game
    a, b = by_name.run(progress=False), by_game.run(progress=False)
    assert deterministic(a.records) == deterministic(b.records)
    assert "rules {" in a.header()
    assert a.to_dict()["rules"] == rules.to_dict()
    with pytest.raises(RulesError, match="players=3"):
        Match(game, ["random", "random"], 4, players=3)
    with pytest.raises(ValueError, match="rules"):
        Match(game, ["random", "random"], 4, rules=rules)


def test_one_object_given_twice_plays_each_seat_with_its_own_copy() -> None:
    bot = FirstBot("same")
    result = Match(GAME.name, [bot, bot], 4, seed=2).run(progress=False)
    assert [b.name for b in result.bots] == ["same", "same#2"]
    assert len(bot.seeds) == 4  # the original sat at one seat of each game


# ---------------------------------------------------------------------------
# duplicate deals


@pytest.mark.parametrize(("game", "players"), game_params("ends"))
def test_duplicate_deals_replay_the_deal_with_seats_permuted(game: str, players: int) -> None:
    # Two copies of one deterministic bot: every game of a deal group must be
    # the same game (same deal, same moves), with the bots in other seats.
    bots = [FirstBot("a"), FirstBot("b")]
    rules = GAMES[game].arena_rules()
    m = Match(game, bots, 1, players=players, rules=rules, seed=5)
    m = Match(game, bots, 3 * m.group_size, players=players, rules=rules, seed=5)
    result = m.run(progress=False)
    groups: dict[int, list[GameRecord]] = {}
    for r in result.records:
        groups.setdefault(r.group, []).append(r)
    assert len(groups) == 3
    seen_returns = set()
    for records in groups.values():
        assert len({r.deal_seed for r in records}) == 1
        assert [r.seating for r in records] == list(m.seatings)
        assert len({r.returns for r in records}) == 1  # the same game each time
        assert len({r.moves for r in records}) == 1
        seen_returns.add(records[0].returns)
        # each bot sat in every seat over the group
        for bot in (0, 1):
            seats = {s for r in records for s, b in enumerate(r.seating) if b == bot}
            assert seats == set(range(players))
    assert len({r.deal_seed for r in result.records}) == 3
    assert len(seen_returns) == 3


def test_duplicate_first_views_match_within_a_group() -> None:
    a, b = FirstBot("a"), FirstBot("b")
    m = Match(GAME.name, [a, b], 6, players=2, seed=1)
    m.run(progress=False)
    # every view of every move, per game, in play order: the games of a group
    # are seen identically by whoever holds each seat
    per_game: list[list[tuple[int, bytes]]] = []
    sa, sb = iter(a.seen), iter(b.seen)
    for i in range(m.total_games):
        state = m.game.new_initial_state(m.deal_seed(i))
        seen = []
        moves = [0, 0]
        while not state.is_terminal:
            p = state.current_player
            who = sa if m.seating(i)[p] == 0 else sb
            seat, obs = next(who)
            assert seat == p
            seen.append((seat, obs))
            state.apply(step_choice(state.legal_actions(), moves[p]))
            moves[p] += 1
        per_game.append(seen)
    for g in range(0, m.total_games, 2):
        assert per_game[g] == per_game[g + 1]
    assert per_game[0] != per_game[2]


def test_without_duplicate_every_game_has_its_deal() -> None:
    m = Match(GAME.name, ["random", "random"], 6, players=2, seed=2, duplicate=False)
    result = m.run(progress=False)
    assert len({r.deal_seed for r in result.records}) == 6
    assert [r.seating for r in result.records] == [(0, 1), (1, 0)] * 3
    assert [r.group for r in result.records] == list(range(6))


# ---------------------------------------------------------------------------
# statistics


def hand_records() -> tuple[Match, list[GameRecord]]:
    m = Match(GAME.name, [FirstBot("a"), FirstBot("b")], 6, players=2)
    games = [  # (seating, returns)
        ((0, 1), (10.0, 4.0)),
        ((1, 0), (6.0, 8.0)),
        ((0, 1), (3.0, 5.0)),
        ((1, 0), (5.0, 7.0)),
        ((0, 1), (2.0, 2.0)),  # a tie: half a win each
        ((1, 0), (2.0, 6.0)),
    ]
    records = [
        GameRecord(i, i // 2, 0, s, r, None, (1, 1), (0.5, 1.5)) for i, (s, r) in enumerate(games)
    ]
    return m, records


def test_statistics_against_a_hand_computation() -> None:
    m, records = hand_records()
    res = MatchResult(m, records)
    a, b = res.bots
    # bot a's returns per group: (10, 8) (3, 7) (2, 6) -> means 9, 5, 4:
    # mean 6, sample sd sqrt(((3)^2 + (-1)^2 + (-2)^2) / 2) = sqrt(7)
    assert a.mean_return == pytest.approx(6.0)
    half = 1.959964 * math.sqrt(7) / math.sqrt(3)  # = 2.99389
    assert a.return_ci == pytest.approx((6.0 - half, 6.0 + half), abs=1e-5)
    # wins: (1, 1) (0, 1) (0.5, 1) -> 1, 0.5, 0.75: mean 0.75, sd 0.25
    assert a.win_rate == pytest.approx(0.75)
    assert a.win_ci == pytest.approx((0.75 - 0.2828964, 0.75 + 0.2828964), abs=1e-6)
    assert b.win_rate == pytest.approx(0.25)
    # margins: (6, 2) (-2, 2) (0, 4) -> 4, 0, 2: mean 2, sd 2
    assert a.margin == pytest.approx(2.0)
    assert a.margin_ci == pytest.approx((2.0 - 2.2631715, 2.0 + 2.2631715), abs=1e-6)
    assert b.margin == pytest.approx(-2.0)
    assert a.games == b.games == 6
    assert a.moves == 6 and a.seconds == pytest.approx(0.5 * 3 + 1.5 * 3)
    assert a.time_per_move == pytest.approx(1.0)
    # the rating: a won 4.5 of the 6 comparisons, plus the prior's draw: p = 5 : 2
    assert a.rating - b.rating == pytest.approx(400 * math.log10(5 / 2))
    assert a.rating + b.rating == pytest.approx(0.0)


def test_mean_ci_by_hand() -> None:
    assert mean_ci([1.0, 2.0, 3.0, 4.0]) == pytest.approx(
        (2.5, 2.5 - 1.959964 * 1.2909944 / 2, 2.5 + 1.959964 * 1.2909944 / 2)
    )
    assert math.isnan(mean_ci([3.0])[1]) and mean_ci([3.0])[0] == 3.0
    assert all(math.isnan(x) for x in mean_ci([]))
    assert pytest.approx(1.959964) == Z95


def test_bradley_terry_solves_its_equations() -> None:
    wins = np.array([[0, 7, 2], [3, 0, 5], [8, 5, 0]], dtype=float)
    r = bradley_terry(wins, prior=0.0)
    p = 10 ** (r / 400)
    n = wins + wins.T
    for i in range(3):  # the maximum-likelihood equations
        expected = sum(n[i, j] * p[i] / (p[i] + p[j]) for j in range(3) if j != i)
        assert expected == pytest.approx(wins[i].sum(), rel=1e-9)
    assert r.sum() == pytest.approx(0.0, abs=1e-9)
    # a bot that never won stays finite thanks to the prior
    assert np.isfinite(bradley_terry([[0, 0], [5, 0]])).all()
    with pytest.raises(ValueError, match="square"):
        bradley_terry([[0, 1, 2]])


# ---------------------------------------------------------------------------
# failures


@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        ("raise", "error"),
        ("reset", "error"),
        ("illegal", "illegal"),
        ("out_of_range", "illegal"),
        ("float", "not_int"),
        ("bool", "not_int"),
        ("none", "not_int"),
        ("name", "not_int"),
        ("slow", "timeout"),
    ],
)
def test_a_failing_bot_loses_that_game_and_the_match_goes_on(mode: str, kind: str) -> None:
    bad = FailingBot(mode)
    m = Match(
        GAME.name,
        [RandomBot(), bad],
        8,
        players=2,
        seed=3,
        move_time=0.02 if mode == "slow" else None,
    )
    result = m.run(progress=False)
    assert result.games_played == 8 and not result.interrupted
    failed = [r for r in result.records if r.failure is not None]
    assert len(failed) == len(bad.failed_seeds) > 0
    assert len(failed) < 8  # the others were played out
    for r in failed:
        assert r.failure is not None and r.failure.kind == kind
        seat = r.failure.seat
        assert r.seating[seat] == 1
        assert r.returns[seat] == min(r.returns)
    good, worse = result.bots
    assert worse.failures == {k: (len(failed) if k == kind else 0) for k in FAILURE_KINDS}
    assert worse.failed == len(failed)
    assert good.failed == 0
    # a failing seat never wins: the failing bot's win share in those games is 0
    scores_in_failed = [MatchResult(m, [r]).bots[1].win_rate for r in failed]
    assert scores_in_failed == [0.0] * len(failed)


class TamperingBot(FirstBot):
    """Plays as FirstBot, but first applies an action to the state behind its
    view (a private attribute a bot should not touch)."""

    def act(self, view: Any) -> int:
        legal = view.legal_actions()
        choice = step_choice(legal, self.moves)
        self.moves += 1
        behind = view._state  # a private attribute: the point of the test
        behind.apply(legal[-1])
        return choice


@pytest.mark.parametrize(("game", "players"), game_params())
def test_a_bot_cannot_change_the_refereed_game_through_its_view(game: str, players: int) -> None:
    rules = GAMES[game].arena_rules()

    def run(first: FirstBot) -> MatchResult:
        match = Match(game, [first, FirstBot("b")], 4, players=players, rules=rules, seed=5)
        return match.run(progress=False)

    honest, tampered = run(FirstBot("a")), run(TamperingBot("a"))
    assert all(r.failure is None for r in tampered.records)
    assert deterministic(tampered.records) == deterministic(honest.records)


def test_failure_scoring_rule() -> None:
    m = Match(GAME.name, [FirstBot("a"), FirstBot("b")], 4, players=4)
    # seat 1 failed: it cannot win even where its return ties the best
    fail = Failure(1, "error", "x")
    r = GameRecord(0, 0, 0, (0, 1, 0, 1), (5.0, 5.0, 1.0, 1.0), fail, (1,) * 4, (0.0,) * 4)
    res = MatchResult(m, [r])
    a, b = res.bots
    assert a.win_rate == 1.0  # seat 0 alone has the best return among the others
    assert b.win_rate == 0.0
    assert res.bots[1].failures["error"] == 1


# ---------------------------------------------------------------------------
# bad input, before any game


def test_unknown_names_fail_before_any_game() -> None:
    watcher = FirstBot("w")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        Match("chess", [watcher, "random"], 4)
    with pytest.raises(ValueError, match="'nosuchbot'"):
        Match(GAME.name, [watcher, "nosuchbot"], 4)
    with pytest.raises(ValueError, match="random:bogus"):
        Match(GAME.name, [watcher, "random:bogus"], 4)
    too_many = GAME.max_players + 1
    with pytest.raises(RulesError, match=f"{too_many} players"):
        Match(GAME.name, [watcher, "random"], 4, players=too_many)
    with pytest.raises(TypeError, match="players"):
        Match(GAME.name, [watcher, "random"], 4, players=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 2 bots"):
        Match(GAME.name, [watcher], 4)
    with pytest.raises(ValueError, match="games"):
        Match(GAME.name, [watcher, "random"], 0)
    with pytest.raises(TypeError, match="games"):
        Match(GAME.name, [watcher, "random"], True)
    with pytest.raises(ValueError, match="seed"):
        Match(GAME.name, [watcher, "random"], 2, seed=-1)
    with pytest.raises(ValueError, match="move_time"):
        Match(GAME.name, [watcher, "random"], 2, move_time=0)
    with pytest.raises(TypeError, match="bots\\[1\\]"):
        Match(GAME.name, [watcher, 3], 2)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="native=True"):
        Match(GAME.name, [watcher, "random"], 2, native=True).run(progress=False)
    m = Match(GAME.name, [watcher, "random"], 2)
    with pytest.raises(ValueError, match="not both"):
        m.run(workers=2, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(TypeError, match="workers"):
        m.run(workers=1.5)  # type: ignore[arg-type]
    assert watcher.seeds == [] and watcher.seen == []


def test_workers_without_dask_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    m = Match(GAME.name, ["random", "random"], 2)
    with pytest.raises(ImportError, match=r"pycards\[dask\]"):
        m.run(workers=2)


# ---------------------------------------------------------------------------
# Ctrl-C


def test_ctrl_c_keeps_the_finished_games() -> None:
    stopper = InterruptingBot(after=5)
    m = Match(GAME.name, [RandomBot(), stopper], 20, players=2, seed=4)
    result = m.run(progress=False)
    assert result.interrupted
    assert result.games_played == 5
    assert [r.index for r in result.records] == list(range(5))
    assert sum(b.games for b in result.bots) == 10
    assert "INTERRUPTED" in result.table()
    full = Match(GAME.name, [RandomBot(), FirstBot("interrupts")], 20, players=2, seed=4).run(
        progress=False
    )
    assert deterministic(result.records) == deterministic(full.records[:5])


# ---------------------------------------------------------------------------
# outputs and the CLI


def cli(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="pycards arena")
    add_arguments(parser)
    return parser.parse_args(list(argv))


def test_cli_table_csv_json(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    args = [GAME.name, "--bots", "random,random", "--games", "6", "--seed", "8"]
    csv_path, json_path = tmp_path / "t.csv", tmp_path / "t.json"
    assert main(cli(*args, "--csv", str(csv_path), "--json", str(json_path))) == 0
    out1 = capsys.readouterr().out
    assert main(cli(*args)) == 0
    out2 = capsys.readouterr().out
    # same seed, same table (up to the time per move, the last column)
    strip = [line.split()[:-1] for line in out1.splitlines()]
    assert strip == [line.split()[:-1] for line in out2.splitlines()]
    assert f"{GAME.name}, 2 players, 6 games (3 deals x 2 seatings, duplicate), seed 8" in out1
    rows = csv_path.read_text().splitlines()
    assert rows[0].startswith("bot,games,mean_return,return_lo,return_hi")
    assert [r.split(",")[0] for r in rows[1:]] == ["random", "random#2"]
    data = json.loads(json_path.read_text())
    assert data["games_played"] == 6 and len(data["records"]) == 6
    assert data["bots"][0]["name"] == "random"
    assert "Bradley-Terry" in data["rating_method"]


def test_cli_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(cli("chess", "--bots", "random,random")) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(cli(GAME.name, "--bots", "random,nope")) == 2
    assert "unknown bot 'nope'" in capsys.readouterr().err
    too_many = GAME.max_players + 1
    assert main(cli(GAME.name, "--bots", "random,random", "--players", str(too_many))) == 2
    assert f"{too_many} players" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli(GAME.name, "--bots", "random,random", "--workers", "2", "--scheduler", "tcp://x:1")
    capsys.readouterr()


def test_plot(tmp_path: Any) -> None:
    pytest.importorskip("matplotlib")
    result = run_match(GAME.name, ["random", "random"], 6, seed=1, progress=False)
    path = tmp_path / "arena.png"
    result.plot(path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_progress_bar_runs() -> None:
    pytest.importorskip("rich")
    result = run_match(GAME.name, ["random", "random"], 4, seed=1, progress=True)
    assert result.games_played == 4


# ---------------------------------------------------------------------------
# the native loop and Dask


@pytest.mark.skipif(not hasattr(_core, "play_match"), reason="no native match loop yet")
@pytest.mark.parametrize(
    "bots",
    [
        ["random", "random"],
        ["random", "random", "random"],
        ["ismcts:simulations=30", "heuristic", "pimc:simulations=20"],
        ["ismcts:simulations=10:rollout=heuristic", "heuristic"],
    ],
)
@pytest.mark.parametrize(("game", "players"), game_params())
def test_native_and_python_paths_give_the_same_table(
    game: str, players: int, bots: list[str]
) -> None:
    def match(native: bool) -> Match:
        return Match(game, bots, 4, players=players, seed=6, native=native)

    native = match(True).run(progress=False)
    assert native.native
    python = match(False).run(progress=False)
    assert not python.native
    assert native.table(timing=False) == python.table(timing=False)
    assert deterministic(native.records) == deterministic(python.records)


def test_serial_equals_dask_local_cluster() -> None:
    pytest.importorskip("distributed")
    match = Match(GAME.name, ["random", "random"], 24, players=2, seed=12)
    serial = match.run(progress=False)
    dask = match.run(workers=2, chunk_size=5, progress=False)
    assert dask.table(timing=False) == serial.table(timing=False)
    assert deterministic(dask.records) == deterministic(serial.records)


def test_dask_joins_a_running_scheduler() -> None:
    distributed = pytest.importorskip("distributed")
    match = Match(GAME.name, ["random", "random"], 8, players=2, seed=13)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        joined = match.run(scheduler=cluster.scheduler_address, chunk_size=3, progress=False)
    assert deterministic(joined.records) == deterministic(match.run(progress=False).records)


@pytest.mark.skipif(not hasattr(_core, "play_match"), reason="no native match loop yet")
def test_ctrl_c_in_the_native_loop_keeps_the_finished_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = vars(_core)["play_match"]
    calls = []

    def play_match(*args: Any) -> Any:
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(_core, "play_match", play_match)
    result = Match(GAME.name, ["random", "random"], 10, seed=3, native=True).run(progress=False)
    assert result.interrupted and result.native
    assert [r.index for r in result.records] == [0, 1, 2, 3]


# ---------------------------------------------------------------------------
# the action cap, rules by preset name, bots by path, output files


@pytest.mark.parametrize(("game", "players"), game_params())
def test_the_default_cap_is_far_above_any_random_game(game: str, players: int) -> None:
    cls = type(load_game(game, None, players))
    for preset in (None, *cls.RULES_TYPE.PRESETS):
        g = load_game(game, preset, players)
        cap = action_cap(g)
        assert cap == Match(g, ["random", "random"], 1).max_actions
        # other seeds than the cap's own 0..15: still 10 times the longest
        longest = max(
            _core.random_playouts(g.NAME, g.params, players, s, 1)[0] for s in range(100, 164)
        )
        assert cap >= max(ACTION_CAP_FLOOR, 10 * longest), (preset, cap, longest)


def test_a_game_past_max_actions_stops_the_match() -> None:
    with pytest.raises(StalledGameError, match=r"game stopped after 3 actions: no end in sight"):
        run_match(GAME.name, [FirstBot("a"), FirstBot("b")], 2, max_actions=3, progress=False)
    assert Match(GAME.name, ["random", "random"], 1, max_actions=7).max_actions == 7
    for bad, exc in ((0, ValueError), (True, TypeError), (2.0, TypeError), ("9", TypeError)):
        with pytest.raises(exc, match="max_actions"):
            Match(GAME.name, ["random", "random"], 1, max_actions=bad)


def test_rules_by_preset_name() -> None:
    cls = type(load_game(GAME.name, None, GAME.min_players)).RULES_TYPE
    preset = cls.PRESETS[-1]
    expected = getattr(cls, preset)()
    assert load_game(GAME.name, preset, 2).rules == expected
    assert Match(GAME.name, ["random", "random"], 1, rules=preset).game.rules == expected
    result = run_match(GAME.name, ["random", "random"], 2, rules=preset, progress=False)
    assert result.match.game.rules == expected
    with pytest.raises(RulesError, match=r"no rules preset 'hoyle'; presets: " + cls.PRESETS[0]):
        Match(GAME.name, ["random", "random"], 1, rules="hoyle")
    with pytest.raises(RulesError, match="no rules preset"):
        load_game(GAME.name, preset.upper(), 2)  # exactly a preset's name
    for bad in (3, {"x": 1}, b"capped"):
        with pytest.raises(TypeError, match="rules must be"):
            load_game(GAME.name, bad, 2)


BOT_MODULE = """
from pycards.bots import RandomBot


class MyBot(RandomBot):
    def __init__(self, seed=0, tag="x"):
        super().__init__(seed)
        self.name = "mine-" + tag
"""


def test_bot_by_path_from_the_current_folder(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "h6_arena_bots.py").write_text(BOT_MODULE)
    monkeypatch.chdir(tmp_path)
    # as the pycards script runs: the current folder is not on sys.path
    here = str(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", here)])
    monkeypatch.delitem(sys.modules, "h6_arena_bots", raising=False)
    spec = "h6_arena_bots:MyBot:tag=t"
    assert main(cli(GAME.name, "--bots", f"{spec},random", "--games", "2", "--no-progress")) == 0
    assert f"{spec} " in capsys.readouterr().out
    assert here not in sys.path  # the folder is looked in for the import only
    result = run_match(GAME.name, [spec, "random"], 2, progress=False)
    assert result.games_played == 2


def test_cli_checks_output_paths_before_playing(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    json_path = tmp_path / "t.json"
    args = [GAME.name, "--bots", "random,random", "--games", "2", "--json", str(json_path)]
    for flag in ("--csv", "--json", "--plot"):
        bad = str(tmp_path / "missing" / "x.out")
        argv = [*args, flag, bad] if flag != "--json" else [*args[:-2], flag, bad]
        assert main(cli(*argv)) == 2
        captured = capsys.readouterr()
        assert f"{flag}: cannot write" in captured.err and "no folder" in captured.err
        assert captured.out == ""  # no game was played, no table
        assert not json_path.exists()
    assert main(cli(*args, "--csv", str(tmp_path))) == 2
    assert "is a folder" in capsys.readouterr().err


def test_cli_writes_what_it_can(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def fail(self: MatchResult, path: Any) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(MatchResult, "write_csv", fail)
    csv_path, json_path = tmp_path / "t.csv", tmp_path / "t.json"
    argv = [GAME.name, "--bots", "random,random", "--games", "2"]
    assert main(cli(*argv, "--csv", str(csv_path), "--json", str(json_path))) == 1
    assert "--csv: cannot write" in capsys.readouterr().err
    assert json.loads(json_path.read_text())["games_played"] == 2


# the plot


def test_plot_bars_show_a_zero_rating_and_the_legend_is_off_the_bars() -> None:
    pytest.importorskip("matplotlib")
    from pycards.arena import run_match
    from pycards.arena._results import _bar_baseline

    for ratings in ([0.0, 0.0], [-55.0, 55.0, 0.0], [3.0, 700.0], [-400.0, -1.0]):
        base = _bar_baseline(ratings)
        assert base < min([0.0, *ratings]) - 9.0  # every bar, a 0 one too, has a height
    result = run_match(GAME.name, ["random", "heuristic", "random"], 6, seed=1, progress=False)
    fig = result._figure()
    ax1, ax2 = fig.axes
    heights = [p.get_height() for p in ax1.patches]
    assert len(heights) == 3 and min(heights) > 0
    fig.canvas.draw()
    legend = ax2.get_legend().get_window_extent()
    assert legend.y1 <= ax2.get_window_extent().y0  # below the axes, over no bar
