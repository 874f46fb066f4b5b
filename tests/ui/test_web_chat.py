"""The chat of a browser table: the people at a table say plain lines to
each other, which the other people and the spectators read; a spectator
writes nothing; a line is checked (length, printable, not empty) and a seat
says only a few lines in a few seconds; the chat stays with the table in the
store across a restart, and never changes the table's version (a move made
meanwhile still plays)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from _games import GAMES as REGISTERED
from starlette.testclient import TestClient

from pycards.ui.web import create_app
from pycards.ui.web.store import Store
from pycards.ui.web.tables import (
    CHAT_LINES,
    CHAT_RATE,
    CHAT_WINDOW,
    MAX_CHAT,
    Table,
    TableError,
    TableSpec,
    chat_text,
)

#: where any short game of two people and a bot will do
GAME = next(c.name for c in REGISTERED.values() if c.profile.web_role == "quick")
INJECTION = '<img src=x onerror="document.title=1">'


def _body() -> dict[str, Any]:
    seats = [{"name": "Ann", "bot": None}, {"name": "Bea", "bot": None}]
    seats += [{"name": "Cy", "bot": "random"}]
    return {"game": GAME, "players": 3, "seats": seats}


def _new(c: TestClient) -> dict[str, Any]:
    r = c.post("/api/tables", json=_body())
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _until(ws: Any, check: Any, limit: int = 100) -> dict[str, Any]:
    for _ in range(limit):
        m: dict[str, Any] = ws.receive_json()
        if check(m):
            return m
    raise AssertionError("no such message")


def test_people_chat_and_a_spectator_reads_but_cannot_write() -> None:
    with TestClient(create_app(bot_delay=0.0)) as c:
        j = _new(c)
        tid = j["table_id"]
        with (
            c.websocket_connect(f"/ws/{tid}?token={j['tokens']['0']}") as ann,
            c.websocket_connect(f"/ws/{tid}?token={j['tokens']['1']}") as bea,
            c.websocket_connect(f"/ws/{tid}") as watcher,
        ):
            ann.send_json({"type": "chat", "text": f"  hello\n {INJECTION}  "})
            said = [{"seat": 0, "text": f"hello {INJECTION}"}]
            for ws in (ann, bea, watcher):
                assert _until(ws, lambda m: m.get("chat"))["chat"] == said
            watcher.send_json({"type": "chat", "text": "let me in"})
            refused = _until(watcher, lambda m: m["type"] == "error")
            assert "spectators" in refused["message"]
            table = c.app.state.tables.find(tid)
            assert table.chat == said
            version = table.version
            bea.send_json({"type": "chat", "text": "hi Ann"})
            assert _until(watcher, lambda m: len(m.get("chat", [])) == 2)["chat"][1] == {
                "seat": 1,
                "text": "hi Ann",
            }
            assert table.version == version  # the chat is not a move


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "empty"),
        (" \n\t ", "empty"),
        ("x" * (MAX_CHAT + 1), f"at most {MAX_CHAT}"),
        ("bell\x07", "printable"),
        (7, "a string"),
        (None, "a string"),
        (["hi"], "a string"),
    ],
)
def test_a_bad_chat_line_is_refused_and_kept_nowhere(text: object, error: str) -> None:
    with pytest.raises(TableError, match=error):
        chat_text(text)
    with TestClient(create_app(bot_delay=0.0)) as c:
        j = _new(c)
        with c.websocket_connect(f"/ws/{j['table_id']}?token={j['tokens']['0']}") as ann:
            ann.receive_json()
            ann.send_json({"type": "chat", "text": text})
            assert error in _until(ann, lambda m: m["type"] == "error")["message"]
            assert c.app.state.tables.find(j["table_id"]).chat == []


def test_the_longest_line_is_kept_whole() -> None:
    assert chat_text("y" * MAX_CHAT) == "y" * MAX_CHAT
    assert chat_text("a \u00e9t\u00e9\n\nday") == "a \u00e9t\u00e9 day"


def test_a_seat_says_a_few_lines_in_a_few_seconds() -> None:
    table, _ = Table.new(TableSpec.from_json(_body()))
    for k in range(CHAT_RATE):
        table.say(0, f"line {k}", now=100.0 + k / 10)
    with pytest.raises(TableError, match="wait a moment"):
        table.say(0, "one too many", now=100.5)
    table.say(1, "the other seat has its own count", now=100.5)
    assert [line["text"] for line in table.chat][-1] == "the other seat has its own count"
    assert len(table.chat) == CHAT_RATE + 1  # the refused line is kept nowhere
    table.say(0, "later", now=100.0 + CHAT_WINDOW + 0.01)  # the first line has left the window
    with pytest.raises(TableError, match="person"):
        table.say(2, "a bot's seat says nothing")


def test_the_chat_keeps_its_last_lines() -> None:
    table, _ = Table.new(TableSpec.from_json(_body()))
    for k in range(CHAT_LINES + 7):
        table.say(k % 2, f"line {k}", now=float(k * CHAT_WINDOW))
    assert len(table.chat) == CHAT_LINES
    assert table.chat[0]["text"] == "line 7" and table.chat[-1]["text"] == f"line {CHAT_LINES + 6}"


def test_a_move_made_while_someone_chats_still_plays() -> None:
    with TestClient(create_app(bot_delay=0.0)) as c:
        j = _new(c)
        tid = j["table_id"]
        table = c.app.state.tables.find(tid)
        p = table.state.current_player
        other = 1 - p if p in (0, 1) else 0
        with (
            c.websocket_connect(f"/ws/{tid}?token={j['tokens'][str(p)]}") as mover,
            c.websocket_connect(f"/ws/{tid}?token={j['tokens'][str(other)]}") as talker,
        ):
            m = _until(mover, lambda m: m["type"] == "view")
            talker.send_json({"type": "chat", "text": "take your time"})
            _until(mover, lambda m: m.get("chat"))
            turn = table.turn
            move = {"type": "move", "action": m["legal"][0]["id"], "version": m["version"]}
            mover.send_json(move)
            _until(mover, lambda m: m.get("turn", 0) > turn)


def test_the_chat_stays_with_the_table_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        j = _new(c)
        tid = j["table_id"]
        with c.websocket_connect(f"/ws/{tid}?token={j['tokens']['1']}") as bea:
            bea.send_json({"type": "chat", "text": INJECTION})
            _until(bea, lambda m: m.get("chat"))
    row = Store(db).get(tid)
    assert row is not None and list(row.chat) == [{"seat": 1, "text": INJECTION}]
    with (
        TestClient(create_app(bot_delay=0.0, db=db)) as c,
        c.websocket_connect(f"/ws/{tid}") as watcher,
    ):
        assert watcher.receive_json()["chat"] == [{"seat": 1, "text": INJECTION}]


def test_a_stored_chat_that_is_not_lines_is_refused() -> None:
    spec = TableSpec.from_json(_body())
    table, _ = Table.new(spec)
    args = (table.id, spec.to_json(), table.seed, table.digests, table.state_json(), 0.0)
    for bad in ([{"seat": 2, "text": "a bot"}], [{"seat": 0, "text": ""}], "hi", [{"seat": True}]):
        with pytest.raises(TableError):
            Table.restore(*args, None, bad)
    assert Table.restore(*args, None, [{"seat": 0, "text": "hi"}]).chat == [
        {"seat": 0, "text": "hi"}
    ]
