"""The browser table's version: a move names the version of the table it
answers, which every move and every undo raises and nothing lowers, so a move
made before an undo (sent late, or from a second tab) is refused even once the
game is back at the turn it was made for; the store keeps the version, and
reads a file written before it did."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from _games import game_params
from starlette.testclient import TestClient

from pycards.ui.web import create_app
from pycards.ui.web.store import Store
from pycards.ui.web.tables import LateError, Table, TableError, TableSpec

GAMES = game_params("one", extra=["quick_preset"])
SOLO = 0  # the person's seat at a solo table


#: The deal of every table here (a practice table's), so that each plays the
#: same game every time: one where the person may undo where the tests do.
SEED = 11


def _spec(game: str, players: int, preset: str) -> TableSpec:
    seats = [{"name": f"P{p}", "bot": None if p == SOLO else "random"} for p in range(players)]
    return TableSpec.from_json(
        {
            "game": game,
            "players": players,
            "preset": preset,
            "seats": seats,
            "practice": True,
            "seed": SEED,
        }
    )


def _decide(table: Table, rng: random.Random, moves: int) -> None:
    """The person plays ``moves`` moves at random, the bots answer each, and
    more while an undo is refused (a deal or a draw has shown the person a
    card since the last); the person is then to decide."""
    k = 0
    while True:
        while table.bot_to_move() is not None:
            table.bot_move()
        assert not table.finished and table.state.current_player == SOLO
        if k >= moves and (moves == 0 or table.can_undo(SOLO)):
            return
        table.person_move(SOLO, rng.choice(table.state.legal_actions()), table.version)
        k += 1


def _state(table: Table) -> tuple[str, int, int]:
    return table.state.to_json(), table.version, table.turn


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_a_move_from_before_an_undo_is_refused_when_its_turn_comes_back(
    game: str, players: int, preset: str
) -> None:
    table, _ = Table.new(_spec(game, players, preset))
    _decide(table, random.Random(5), 3)
    stale = table.message(SOLO)  # what a second tab still shows after the undo
    played, before_undo = table.state.history, table.state.to_json()
    assert stale["version"] == table.version >= stale["turn"] == table.turn
    back = table.undo(SOLO)
    assert back < stale["turn"] and table.version == stale["version"] + 1
    # the same moves again bring the game back to the stale message's turn,
    # every one of them raising the version
    for action in played[back:]:
        version = table.version
        if table.bot_to_move() is not None:
            table.bot_apply(action)
        else:
            table.person_move(SOLO, action, version)
        assert table.version == version + 1
    assert table.state.to_json() == before_undo and table.turn == stale["turn"]
    assert table.message(SOLO)["legal"] == stale["legal"]
    # the stale move is refused, by its version or by its turn, and changes nothing
    action = stale["legal"][0]["id"]
    now = _state(table)
    for token, as_turn in ((stale["version"], False), (stale["turn"], True)):
        with pytest.raises(TableError, match="a move was undone since") as refused:
            table.person_move(SOLO, action, token, as_turn=as_turn)
        assert isinstance(refused.value, LateError)
        assert refused.value.fields() == {
            "reason": "undone",
            "version": table.version,
            "turn": table.turn,
        }
        assert not re.search(r"\d", str(refused.value))  # people's words, no engine numbers
        assert _state(table) == now
    # the same move for the current version is played
    table.person_move(SOLO, action, table.version)
    assert table.state.history == (*played, action) and table.version == now[1] + 1


def test_a_move_for_a_version_not_yet_reached_is_refused() -> None:
    game, players, preset = GAMES[0].values
    table, _ = Table.new(_spec(game, players, preset))
    _decide(table, random.Random(2), 0)
    action = table.state.legal_actions()[0]
    now = _state(table)
    for token, error in (
        (table.version + 1, "That move was not made for the table as it is now"),
        (None, "names the turn"),
    ):
        with pytest.raises(TableError, match=error):
            table.person_move(SOLO, action, token)
        assert _state(table) == now
    with pytest.raises(TableError, match="version must be an int >= the turn"):
        Table(table.id, table.spec, table.seed, table.digests, table.state, 0.0, table.turn - 1)


def _view(ws: Any) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] in ("view", "error"):
            return m


def _my_turn(ws: Any, m: dict[str, Any]) -> dict[str, Any]:
    """Read views until the person is to act."""
    while m["type"] != "view" or m["current_player"] != SOLO or not m["legal"]:
        assert m["type"] == "view" and not m["terminal"], m
        m = _view(ws)
    return m


def _latest(ws: Any, table: Table | None) -> dict[str, Any]:
    """Read views until the person is to act, at ``table``'s version when
    given (a view sent twice is not taken for the table's latest)."""
    m = _my_turn(ws, _view(ws))
    while table is not None and m["version"] != table.version:
        m = _my_turn(ws, _view(ws))
    return m


def _play_and_undo(
    ws: Any, moves: int, table: Table | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Over the socket: the person makes ``moves`` moves (the bots answer),
    and more while ``table`` refuses an undo (a deal or a draw has shown the
    person a card since the last), then undoes the last; the view before the
    undo and the one after it."""
    rng = random.Random(9)
    m = _latest(ws, table)
    made = 0
    while made < moves or (table is not None and not table.can_undo(SOLO)):
        ws.send_json(
            {"type": "move", "action": rng.choice(m["legal"])["id"], "version": m["version"]}
        )
        m = _latest(ws, table)
        made += 1
    ws.send_json({"type": "undo", "version": m["version"]})
    back = _view(ws)
    assert back["type"] == "view" and back["version"] == m["version"] + 1
    assert back["turn"] < m["turn"] and back["current_player"] == SOLO
    return m, back


def test_over_the_socket_a_move_or_undo_from_before_the_undo_is_refused() -> None:
    game, players, preset = GAMES[0].values
    with TestClient(create_app(bot_delay=0.0)) as client:
        j = client.post("/api/tables", json=_spec(game, players, preset).to_json()).json()
        table = client.app.state.tables.find(j["table_id"])  # type: ignore[attr-defined]
        assert table is not None
        with client.websocket_connect(f"/ws/{j['table_id']}?token={j['token']}") as ws:
            stale, back = _play_and_undo(ws, 2, table)
            now = _state(table)
            for move in (
                {"version": stale["version"]},
                {"turn": stale["turn"]},
                {"turn": back["turn"]},  # a page that still sends turns, after an undo
            ):
                ws.send_json({"type": "move", "action": stale["legal"][0]["id"], **move})
                err = _view(ws)
                assert err["type"] == "error" and "a move was undone since" in err["message"]
                assert (err["reason"], err["version"]) == ("undone", table.version)
                assert _state(table) == now
            # and so is an undo sent from the view before the undo
            ws.send_json({"type": "undo", "version": stale["version"]})
            err = _view(ws)
            assert err["type"] == "error" and err["message"] == (
                "That undo came too late: a move was undone since, so nothing was taken back."
            )
            assert (err["reason"], err["version"], err["turn"]) == ("undone", *now[1:])
            assert _state(table) == now
            ws.send_json(
                {"type": "move", "action": back["legal"][0]["id"], "version": back["version"]}
            )
            m = _view(ws)
            assert m["type"] == "view" and m["version"] > back["version"]
            assert table.state.history[back["turn"]] == back["legal"][0]["id"]


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_an_undo_for_an_older_version_is_refused(game: str, players: int, preset: str) -> None:
    """An undo names the version it answers: one sent from a view the table
    has moved past (here: the person moved again since) changes nothing."""
    table, _ = Table.new(_spec(game, players, preset))
    _decide(table, random.Random(6), 2)
    seen = table.message(SOLO)["version"]
    _decide(table, random.Random(7), 1)
    assert table.version > seen
    now = _state(table)
    for stale, why in (
        (seen, "That undo came too late: the table has moved on, so nothing was taken back"),
        (True, "an undo names the turn it answers"),
        ("1", "an undo names the turn it answers"),
    ):
        with pytest.raises(TableError, match=why):
            table.undo(SOLO, stale)
        assert _state(table) == now
    back = table.undo(SOLO, table.version)
    assert back < now[2] and table.version == now[1] + 1


def test_a_restarted_server_keeps_the_version(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    game, players, preset = GAMES[0].values
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        j = c.post("/api/tables", json=_spec(game, players, preset).to_json()).json()
        url = f"/ws/{j['table_id']}?token={j['token']}"
        table = c.app.state.tables.find(j["table_id"])  # type: ignore[attr-defined]
        with c.websocket_connect(url) as ws:
            stale, back = _play_and_undo(ws, 2, table)
        assert table is not None
        saved = _state(table)
    assert saved[1:] == (back["version"], back["turn"])
    row = Store(db).get(j["table_id"])
    assert row is not None and (row.version, row.turn) == saved[1:]
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        again = c.app.state.tables.find(j["table_id"])  # type: ignore[attr-defined]
        assert again is not None and _state(again) == saved
        with c.websocket_connect(url) as ws:
            m = _view(ws)
            assert (m["version"], m["turn"]) == saved[1:]
            ws.send_json(
                {"type": "move", "action": stale["legal"][0]["id"], "version": stale["version"]}
            )
            err = _view(ws)
            assert err["type"] == "error" and err["message"].startswith("That move came too late")
            assert (err["reason"], err["version"], err["turn"]) == ("late", *saved[1:])
            assert _state(again) == saved
            ws.send_json({"type": "move", "action": m["legal"][0]["id"], "version": m["version"]})
            assert _view(ws)["version"] > m["version"]
    row = Store(db).get(j["table_id"])
    assert row is not None and row.version is not None and row.version > saved[1]


#: The store's table before it kept versions (a file written by an earlier release).
_OLD_SCHEMA = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    seed TEXT NOT NULL,
    tokens TEXT NOT NULL,
    state TEXT NOT NULL,
    turn INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    returns TEXT NOT NULL DEFAULT '[]',
    bot_seconds REAL NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX tables_finished ON tables (finished, updated);
"""


def test_a_file_from_before_versions_is_read_and_its_tables_resume(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    game, players, preset = GAMES[0].values
    spec = _spec(game, players, preset)
    table, tokens = Table.new(spec)
    _decide(table, random.Random(4), 2)
    with sqlite3.connect(db) as old:
        old.executescript(_OLD_SCHEMA)
        old.execute(
            "INSERT INTO tables (id, spec, seed, tokens, state, turn, created, updated)"
            " VALUES (?, ?, ?, ?, ?, ?, 0, 0)",
            (
                table.id,
                json.dumps(spec.to_json()),
                str(table.seed),
                json.dumps(table.digests),
                table.state_json(),
                table.turn,
            ),
        )
    old.close()
    row = Store(db).get(table.id)
    assert row is not None and row.version is None and row.turn == table.turn
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        again = c.app.state.tables.find(table.id)  # type: ignore[attr-defined]
        assert again is not None and again.version == again.turn == table.turn
        assert again.state_json() == table.state_json()
        with c.websocket_connect(f"/ws/{table.id}?token={tokens[SOLO]}") as ws:
            m = _view(ws)
            assert m["version"] == table.turn
            ws.send_json({"type": "move", "action": m["legal"][0]["id"], "version": m["version"]})
            assert _view(ws)["version"] > m["version"]
    moved = again.version  # the server has stopped: its bots too
    row = Store(db).get(table.id)
    assert row is not None and row.version == moved
