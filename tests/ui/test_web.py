"""The browser table's server: what reaches each seat and each spectator,
people playing together, hostile requests and frames, the store, and bounded bots.

The leak checks: every message sent to a seat is recomputed from a state
drawn by that seat's sampler (same knowledge, fresh hidden cards), and every
spectator's message from states drawn by every seat's sampler; the messages
must be identical, so none can depend on a card its reader may not see.
"""

from __future__ import annotations

import functools
import json
import logging
import random
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from _games import GAMES as REGISTERED
from _games import builtin_game_names, game_params
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pycards.game import State, load_game
from pycards.summary import fold_deals, story
from pycards.ui.web import create_app
from pycards.ui.web.store import Store, StoreError
from pycards.ui.web.tables import (
    MAX_MOVE_SECONDS,
    MAX_SIMULATIONS,
    Table,
    TableError,
    Tables,
    TableSpec,
    describe_games,
    spectator_message,
    view_message,
)

#: every registered game at the first and last of its profile's tables, its quick preset
GAMES = game_params("ends", extra=["quick_preset"])
#: the game each role of these tests plays (its profile's ``web_role``)
ROLE = {case.profile.web_role: case for case in REGISTERED.values() if case.profile.web_role}
#: where any short game of two will do
QUICK = ROLE["quick"].name


def _checked_message(
    self: Table, seat: int | None, away: set[int] | None = None, clocks: Any = None
) -> dict[str, Any]:
    """Table.message, asserting the message is the same from sampled worlds.

    The table tells its story from the first event (a kept story per seat);
    a sampled world knows the events its log keeps, so the story is compared
    whole while the log has dropped none (else the rest of the message)."""
    msg = _original_message(self, seat, away, clocks)
    drop = {"turn", "version", "table_id", "away", "humans", "warning", "rules_book", "solo"}
    drop |= {"away_clock", "stand_ins", "chat"}
    if self.state.events_dropped():
        drop |= {"log", "summaries", "play_area"}
    # a game whose seats lay their cards down at its end (No Takers?) tells
    # them in the game's summary then, to everyone: a sampled world has others
    shown = self.state.is_terminal and getattr(type(self.game).SUMMARIZER, "SHOWN_AT_END", False)

    def rounds(m: dict[str, Any]) -> list[Any]:
        return [x for x in m["summaries"] if not (shown and x["round"] == 0)]

    def same(other: dict[str, Any]) -> bool:
        if "summaries" not in drop and rounds(msg) != rounds(other):
            return False
        return all(msg[k] == other[k] for k in msg if k not in drop | {"summaries"}) and set(
            msg
        ) - drop == set(other) - (drop & {"log", "summaries", "play_area"})

    if seat is None:
        for p in range(self.state.num_players):
            world = self.state.sample_infoset(p, random.getrandbits(64))
            assert same(spectator_message(world, self.names, self.bot_specs)), p
    else:
        world = self.state.sample_infoset(seat, random.getrandbits(64))
        assert same(
            view_message(world.view(seat), self.names, self.bot_specs, self.state.events_dropped())
        )
    return msg


_original_message = Table.message


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Table, "message", _checked_message)


@pytest.fixture
def client(checked: None) -> Iterator[TestClient]:
    with TestClient(create_app(bot_delay=0.0)) as c:
        yield c


def _seats(players: int, humans: tuple[int, ...], bot: str = "random") -> list[dict[str, Any]]:
    return [{"name": f"P{p}", "bot": None if p in humans else bot} for p in range(players)]


def _new(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    j: dict[str, Any] = r.json()
    return j


def _table(client: TestClient, table_id: str) -> Table:
    t = client.app.state.tables.find(table_id)  # type: ignore[attr-defined]
    assert t is not None
    return t


def test_every_game_is_covered() -> None:
    # the built-in games (a defined game served by name has no profile: tests/_games.py)
    assert {p.values[0] for p in GAMES} == set(builtin_game_names())


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_two_people_and_a_spectator_play_a_whole_game(
    client: TestClient, game: str, players: int, preset: str | None
) -> None:
    body: dict[str, Any] = {"game": game, "players": players, "seats": _seats(players, (0, 1))}
    if preset:
        body["preset"] = preset
    j = _new(client, **body)
    tid = j["table_id"]
    rng = random.Random(3)
    with (
        client.websocket_connect(f"/ws/{tid}?token={j['tokens']['0']}") as a,
        client.websocket_connect(f"/ws/{tid}?token={j['tokens']['1']}") as b,
        client.websocket_connect(f"/ws/{tid}") as watcher,
    ):
        socks = {0: a, 1: b}
        latest = {0: a.receive_json(), 1: b.receive_json()}
        seen = [watcher.receive_json()]
        table = _table(client, tid)
        while not table.finished:
            if table.bot_to_move() is not None:
                time.sleep(0.002)
                for p, ws in socks.items():
                    latest[p] = _drain(ws, latest[p], table.turn)
                continue
            p = table.state.current_player
            latest[p] = _drain(socks[p], latest[p], table.turn)
            m = latest[p]
            socks[p].send_json(
                {"type": "move", "action": rng.choice(m["legal"])["id"], "turn": m["turn"]}
            )
            latest[p] = _drain(socks[p], m, m["turn"] + 1)
        for p, ws in socks.items():
            latest[p] = _drain(ws, latest[p], table.turn)
            assert latest[p]["terminal"] and latest[p]["seat"] == p
        seen.append(_drain(watcher, seen[-1], table.turn))
    assert seen[-1]["seat"] is None and seen[-1]["legal"] == []
    assert "hand" not in seen[-1]["observation"]
    # the scores shown are the engine's for this deal and these actions
    replay = table.game.new_initial_state(table.seed)
    for act in table.state.history:
        replay.apply(act)
    assert latest[0]["returns"] == replay.returns() and replay.is_terminal
    text = client.get(f"/api/tables/{tid}/record?token={j['tokens']['1']}").text
    assert '[View "seat 1"]' in text and "[Seed " not in text
    assert f'[Game "{game}"]' in text


def _drain(ws: Any, m: dict[str, Any], turn: int) -> dict[str, Any]:
    """Read views until one at ``turn`` or later."""
    deadline = time.monotonic() + 20
    while m.get("turn", -1) < turn:
        assert time.monotonic() < deadline
        m = ws.receive_json()
        assert m["type"] == "view", m
    return m


def test_two_moves_for_one_turn_the_late_one_is_told(client: TestClient) -> None:
    j = _new(client, game=QUICK, players=2, seats=_seats(2, (0, 1)))
    tid = j["table_id"]
    table = _table(client, tid)
    p = table.state.current_player
    tok = j["tokens"][str(p)]
    with (
        client.websocket_connect(f"/ws/{tid}?token={tok}") as one,
        client.websocket_connect(f"/ws/{tid}?token={tok}") as two,
    ):
        m = _drain(one, one.receive_json(), 0)
        _drain(two, two.receive_json(), 0)
        legal = [a["id"] for a in m["legal"]]
        one.send_json({"type": "move", "action": legal[0], "turn": 0})
        two.send_json({"type": "move", "action": legal[-1], "turn": 0})
        replies = []
        while len([r for r in replies if r["type"] == "error"]) < 1:
            replies.append(two.receive_json())
        err = next(r for r in replies if r["type"] == "error")
        # said for people (no engine numbers), with what the page needs to catch up
        assert (
            err["message"]
            == "That move came too late: the table has moved on, so it was not played."
        )
        assert (err["reason"], err["version"], err["turn"]) == ("late", table.version, 1)
    assert table.state.history == (legal[0],)


def test_each_token_acts_for_its_seat_only(client: TestClient) -> None:
    j = _new(client, game=QUICK, players=2, seats=_seats(2, (0, 1)))
    table = _table(client, j["table_id"])
    p = table.state.current_player
    other = j["tokens"][str(1 - p)]
    with client.websocket_connect(f"/ws/{j['table_id']}?token={other}") as ws:
        m = ws.receive_json()
        assert m["seat"] == 1 - p and m["legal"] == []
        ws.send_json({"type": "move", "action": 0, "turn": 0})
        reply = ws.receive_json()
        while reply["type"] == "view":
            reply = ws.receive_json()
        assert reply["type"] == "error"
    assert table.turn == 0


def test_who_is_away_is_shown(client: TestClient) -> None:
    j = _new(client, game=QUICK, players=2, seats=_seats(2, (0, 1)))
    tid = j["table_id"]
    with client.websocket_connect(f"/ws/{tid}?token={j['tokens']['0']}") as a:
        assert a.receive_json()["away"] == [1]
        with client.websocket_connect(f"/ws/{tid}?token={j['tokens']['1']}") as b:
            b.receive_json()
            assert a.receive_json()["away"] == []
        assert a.receive_json()["away"] == [1]


def test_the_lobby_lists_open_tables_and_seats(client: TestClient) -> None:
    seats = _seats(3, (0, 1, 2))
    seats[2]["open"] = True
    j = _new(client, game=ROLE["three"].name, players=3, seats=seats)
    _new(client, game=QUICK, players=2, seats=_seats(2, (0,)), listed=False)
    lobby = client.get("/api/tables").json()
    assert [t["table_id"] for t in lobby] == [j["table_id"]]
    assert "token" not in json.dumps(lobby)
    # the creator's seat and the invited seat are never offered; the open one is
    assert [s["open"] for s in lobby[0]["seats"]] == [False, False, True]
    assert sorted(j["tokens"]) == ["0", "1"]
    r = client.post(f"/api/tables/{j['table_id']}/join", json={"seat": 2})
    assert r.status_code == 200
    joined = r.json()["token"]
    assert client.post(f"/api/tables/{j['table_id']}/join", json={"seat": 2}).status_code == 409
    with client.websocket_connect(f"/ws/{j['table_id']}?token={joined}") as ws:
        assert ws.receive_json()["seat"] == 2


def test_a_seat_with_an_invite_is_taken_with_it_only(client: TestClient) -> None:
    """Nobody can sit in Bob's seat from the lobby before Bob opens his invite;
    his link works whenever he comes."""
    j = _new(client, game=QUICK, players=2, seats=_seats(2, (0, 1)))
    tid = j["table_id"]
    for seat in (0, 1):
        assert client.post(f"/api/tables/{tid}/join", json={"seat": seat}).status_code == 409
    with client.websocket_connect(f"/ws/{tid}?token={j['tokens']['1']}") as ws:
        assert ws.receive_json()["seat"] == 1


def test_a_taken_seat_stays_its_owners_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    seats = _seats(3, (0, 1, 2))
    seats[2]["open"] = True
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        j = _new(c, game=ROLE["three"].name, players=3, seats=seats)
        tid = j["table_id"]
        taken = c.post(f"/api/tables/{tid}/join", json={"seat": 2}).json()["token"]
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        lobby = c.get("/api/tables").json()
        assert [s["open"] for s in lobby[0]["seats"]] == [False, False, False]
        for seat in (0, 1, 2):
            assert c.post(f"/api/tables/{tid}/join", json={"seat": seat}).status_code == 409
        for seat, token in ((0, j["tokens"]["0"]), (1, j["tokens"]["1"]), (2, taken)):
            with c.websocket_connect(f"/ws/{tid}?token={token}") as ws:
                assert ws.receive_json()["seat"] == seat


def test_unnamed_seats_are_named_for_who_plays_them_each_differently() -> None:
    three = ROLE["three"]

    def names(seats: list[dict[str, Any]] | None) -> list[str]:
        body: dict[str, Any] = {"game": three.name, "players": 3}
        if seats is not None:
            body["seats"] = seats
        return [s.name for s in TableSpec.from_json(body).seats]

    default = describe_games()[0]["bots"][0]  # the form's first bot: the server's default
    assert names(None) == ["Player 1", f"{default} bot", f"{default} bot 2"]
    assert names([{"bot": None}, {"bot": "heuristic"}, {"bot": "heuristic"}]) == [
        "Player 1",
        "heuristic bot",
        "heuristic bot 2",
    ]
    # the kind comes from the spec, whatever its options; a name given is kept,
    # and a default name steps around it
    seats = [
        {"bot": "ismcts:simulations=10"},
        {"name": "random bot", "bot": None},
        {"bot": "random"},
    ]
    assert names(seats) == ["ismcts bot", "random bot", "random bot 2"]
    assert names([{"bot": "random"}, {"name": "Player 3", "bot": None}, {"bot": None}]) == [
        "random bot",
        "Player 3",
        "Player 3 2",
    ]


def test_the_log_tells_unnamed_bots_apart() -> None:
    players = load_game(QUICK).info.max_players
    spec = TableSpec.from_json(
        {"game": QUICK, "players": players, "seats": [{"bot": "random"}] * players}
    )
    expected = ["random bot"] + [f"random bot {k}" for k in range(2, players + 1)]
    table, _ = Table.new(spec)
    while not table.finished:
        table.bot_move()
    msg = table.message(None)
    assert msg["names"] == expected == table.names
    # every seat is told by its own name ("random bot" not followed by a number)
    told = [line.text for line in table.story(None).lines]
    for name in expected:
        assert any(re.search(rf"{re.escape(name)}(?! \d)", line) for line in told), name


@pytest.mark.parametrize("game", [g["name"] for g in describe_games()])
def test_the_form_offers_only_bots_the_server_seats(client: TestClient, game: str) -> None:
    offered = next(g for g in client.get("/api/games").json() if g["name"] == game)
    # the strongest bot and the inferring one are offered, and seated as named
    assert {"best", "pimc_infer", "ismcts", "heuristic"} <= set(offered["bots"])
    assert set(offered["bot_options"]) == set(offered["bots"])
    players = offered["min_players"]
    for bot in offered["bots"]:
        r = client.post(
            "/api/tables",
            json={"game": game, "players": players, "seats": [{"bot": bot}] * players},
        )
        assert r.status_code == 200, (bot, r.text)
        assert _table(client, r.json()["table_id"]).bot_specs[0].partition(":")[0] == bot
        # and it plays (a table of its own: the server's runs its bots itself)
        spec = TableSpec.from_json(
            {"game": game, "players": players, "seats": [{"bot": bot}] * players}
        )
        table, _ = Table.new(spec)
        while table.turn < 2 and not table.finished:
            table.bot_move()


def test_finished_tables_leave_the_cap() -> None:
    tables = Tables(max_tables=1)
    spec = TableSpec.from_json({"game": QUICK, "players": 2, "seats": _seats(2, ())})
    t, _ = tables.create(spec)
    with pytest.raises(TableError, match="unfinished tables open"):
        tables.create(spec)
    while not t.finished:
        t.bot_move()
    tables.create(spec)
    assert len(tables) == 2 and tables.open_count() == 1


# ---- hostile clients: 4xx never 500, documented close codes, no traceback ----


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"game": "chess"}, "game must be one of"),
        ({"game": QUICK, "players": 9}, "players must be"),
        ({"game": QUICK, "players": 2.0}, "players must be"),
        ({"game": QUICK, "players": True}, "players must be"),
        ({"game": QUICK, "preset": "nope"}, "preset must be"),
        ({"game": QUICK, "seats": [{"bot": "nobody"}, {"bot": None}]}, "unknown bot"),
        ({"game": QUICK, "seats": [{"bot": "ismcts:simulations=abc"}, {}]}, "simulations"),
        ({"game": QUICK, "seats": [{"bot": "random:seed=3"}, {}]}, "reserved"),
        ({"game": QUICK, "seats": [{"bot": "ismcts:seconds=86400"}, {}]}, "seconds"),
        ({"game": QUICK, "seats": [{"bot": "ismcts:simulations=0"}, {}]}, "simulations"),
        ({"game": QUICK, "seats": [{"bot": "pimc:samples=-4"}, {}]}, "samples"),
        ({"game": QUICK, "seats": [{"bot": "mypkg:Cls"}, {}]}, "unknown bot"),
        ({"game": QUICK, "seats": [{"bot": "best:samples=9"}, {}]}, "takes no option"),
        ({"game": QUICK, "seats": [{"bot": "pimc_infer:samples=1000"}, {}]}, "samples"),
        ({"game": QUICK, "seats": [{"bot": "pimc_infer:max_nodes=0"}, {}]}, "max_nodes"),
        ({"game": QUICK, "seats": [{"bot": "pimc_infer:seconds=1"}, {}]}, "seconds"),
        ({"game": QUICK, "seats": [{"name": ""}, {}]}, "name must be"),
        ({"game": QUICK, "seats": [{"name": "x" * 99}, {}]}, "name must be"),
        ({"game": QUICK, "seats": [{}]}, "seats must be a list of 2"),
        ({"game": QUICK, "seed": 5}, "the server chooses the seed"),
        ({"game": QUICK, "seed": -1, "practice": True}, "seed must be"),
        ({"game": QUICK, "practice": True, "seed": 3, "seats": _seats(2, (0, 1))}, "one person"),
        ({"game": QUICK, "colour": "red"}, "unknown field"),
        ([1, 2], "JSON object"),
    ],
)
def test_a_bad_new_table_is_refused(client: TestClient, body: object, error: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and error in r.json()["error"], r.text
    assert len(client.app.state.tables) == 0  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b"[" * 5000 + b"]" * 5000,
        b"{not json",
        b"\xff\xfe",
        b'{"game": "' + "\u00e9".encode() * 20_000 + b'"}',
    ],
    ids=["huge-nested", "nested", "not-json", "not-utf8", "huge"],
)
def test_a_hostile_body_is_a_4xx(client: TestClient, raw: bytes) -> None:
    r = client.post("/api/tables", content=raw, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500


@pytest.mark.parametrize(
    "url",
    [
        "/api/tables/x/record?token=\u00e9\u00e8\u2603",
        "/api/tables/x/record?token=%FF%FE",
        "/api/tables/x/record",
        "/api/history/x?step=abc",
        "/api/history/nothing",
        "/api/history/x?step=\u0661",
    ],
)
def test_a_bad_get_is_a_4xx(client: TestClient, url: str) -> None:
    r = client.get(url)
    assert 400 <= r.status_code < 500


def test_a_non_ascii_token_is_refused(client: TestClient) -> None:
    j = _new(client, game=QUICK, players=2)
    tid = j["table_id"]
    r = client.get(f"/api/tables/{tid}/record?token=\u00e9\u2603")
    assert r.status_code == 404
    with client.websocket_connect(f"/ws/{tid}?token=\u00e9\u2603") as ws:
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 4404
    r = client.post(f"/api/tables/{tid}/join", content=b"[" * 9000)
    assert r.status_code == 400


@pytest.mark.parametrize(
    "frame",
    [
        b"\x00\x01binary",
        "[" * 50_000 + "]" * 50_000,
        "[" * 900 + "]" * 900,
        "{not json",
        '"move"',
        '{"type": "shout"}',
        "x" * 5000,
    ],
    ids=["binary", "huge-nested", "nested", "not-json", "not-object", "not-move", "long"],
)
def test_a_bad_frame_closes_with_4400(client: TestClient, frame: str | bytes) -> None:
    j = _new(client, game=QUICK, players=2)
    tid = j["table_id"]
    table = _table(client, tid)
    with client.websocket_connect(f"/ws/{tid}?token={j['token']}") as ws:
        ws.receive_json()
        before = table.state.to_json()
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        with pytest.raises(WebSocketDisconnect) as info:
            while True:
                ws.receive_json()
        assert info.value.code == 4400
    assert table.state.to_json() == before


def test_bad_moves_change_nothing(client: TestClient) -> None:
    j = _new(client, game=QUICK, players=2, seats=_seats(2, (0, 1)))
    tid = j["table_id"]
    table = _table(client, tid)
    p = table.state.current_player
    with client.websocket_connect(f"/ws/{tid}?token={j['tokens'][str(p)]}") as ws:
        m = ws.receive_json()
        before = table.state.to_json()
        legal = m["legal"][0]["id"]
        illegal = next(
            a for a in range(table.game.num_actions) if a not in {x["id"] for x in m["legal"]}
        )
        for bad, expect in [
            (
                {"type": "move", "action": legal, "turn": -1},
                "came too late: the table has moved on",
            ),
            ({"type": "move", "action": legal, "turn": 5}, "not made for the table as it is now"),
            ({"type": "move", "action": illegal, "turn": 0}, "illegal"),
            ({"type": "move", "action": 10**9, "turn": 0}, "unknown action"),
            ({"type": "move", "action": True, "turn": 0}, "an int id"),
            ({"type": "move", "action": float(legal), "turn": 0}, "an int id"),
            ({"type": "move", "action": legal}, "names the turn"),
            ({"type": "move", "action": str(legal), "turn": 0}, "an int id"),
        ]:
            ws.send_json(bad)
            reply = ws.receive_json()
            assert reply["type"] == "error" and expect in reply["message"], (bad, reply)
            late = {"reason": "late" if bad.get("turn") == -1 else "ahead", "version": 0, "turn": 0}
            if bad.get("turn") in (-1, 5):  # a late one says where the table is
                assert {k: reply[k] for k in late} == late, reply
            else:
                assert "reason" not in reply, reply
            assert table.state.to_json() == before


def test_a_client_cannot_reach_another_table(client: TestClient) -> None:
    a = _new(client, game=QUICK, players=2)
    b = _new(client, game=QUICK, players=2)
    with client.websocket_connect(f"/ws/{b['table_id']}?token={a['token']}") as ws:
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 4404
    assert client.get(f"/api/tables/{b['table_id']}/record?token={a['token']}").status_code == 404


def test_a_spectator_cannot_move(client: TestClient) -> None:
    j = _new(client, game=QUICK, players=2, seats=_seats(2, (0, 1)))
    with client.websocket_connect(f"/ws/{j['table_id']}") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json({"type": "move", "action": 0, "turn": 0})
        assert ws.receive_json()["type"] == "error"


def test_the_server_chooses_the_seed_unless_practice(client: TestClient) -> None:
    seeds = {_table(client, _new(client, game=QUICK)["table_id"]).seed for _ in range(3)}
    assert len(seeds) == 3
    j = _new(client, game=QUICK, seed=11, practice=True)
    assert _table(client, j["table_id"]).seed == 11
    with client.websocket_connect(f"/ws/{j['table_id']}?token={j['token']}") as ws:
        assert "bots' cards are known" in ws.receive_json()["warning"]
    with client.websocket_connect(f"/ws/{_new(client, game=QUICK)['table_id']}") as ws:
        assert "warning" not in ws.receive_json()


# ---- a real server: disconnects leave no traceback, bots never stall another table ----


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Server:
    def __init__(self, **kwargs: Any) -> None:
        import uvicorn

        self.app = create_app(**kwargs)
        self.port = _free_port()
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_config=None, log_level="info"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> _Server:
        self.thread.start()
        for _ in range(400):
            if self.server.started:
                break
            time.sleep(0.025)
        assert self.server.started
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def _post(url: str, body: object) -> dict[str, Any]:
    import urllib.request

    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
    return out


def test_client_disconnects_print_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    caplog.set_level(logging.INFO)
    with _Server(bot_delay=0.05) as srv:
        j = _post(srv.url + "/api/tables", {"game": QUICK, "players": 2})
        ws_url = f"ws://127.0.0.1:{srv.port}/ws/{j['table_id']}"
        for _ in range(3):
            raw = socket.create_connection(("127.0.0.1", srv.port))
            raw.sendall(
                f"GET /ws/{j['table_id']}?token={j['token']} HTTP/1.1\r\nHost: x\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            raw.recv(100)
            raw.close()  # gone without a close frame
        with connect(ws_url) as ws:  # a spectator who leaves while bots play on
            ws.recv(timeout=5)
        with connect(ws_url + "?token=" + j["token"]) as ws:
            ws.send(b"\x00binary")
            with pytest.raises(ConnectionClosed):
                while True:
                    ws.recv(timeout=5)
            assert ws.close_code == 4400
        time.sleep(0.5)
    bad = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    bad += [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


def test_a_searching_bot_does_not_stall_another_table() -> None:
    from websockets.sync.client import connect

    heavy = f"ismcts:seconds={MAX_MOVE_SECONDS}:simulations={MAX_SIMULATIONS}"
    search, long = ROLE["search"], ROLE["long"]
    with _Server(bot_delay=0.0) as srv:
        for _ in range(3):  # more heavy tables than search workers
            _post(
                srv.url + "/api/tables",
                {
                    "game": search.name,
                    "players": search.tables[0],
                    "preset": search.quick_preset,
                    "seats": [{"bot": heavy}] * search.tables[0],
                },
            )
        j = _post(
            srv.url + "/api/tables",
            {"game": long.name, "players": 2, "seats": [{"bot": None}, {"bot": "random"}]},
        )
        hub = srv.app.state.hub
        searched = lambda: sum(t.turn for t in hub.tables if search.name == t.game.NAME)  # noqa: E731
        time.sleep(0.3)  # the searches are under way
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{j['table_id']}?token={j['token']}") as ws:
            start = time.monotonic()
            waits = []
            while searched() < 4:
                m = json.loads(ws.recv(timeout=10))
                if m["terminal"]:
                    break
                if m["legal"]:  # the random bot has answered (or it is my turn at once)
                    waits.append(time.monotonic() - start)
                    start = time.monotonic()
                    move = {"type": "move", "action": m["legal"][0]["id"], "turn": m["turn"]}
                    ws.send(json.dumps(move))
        # the heaviest allowed bots were searching all the while (no deal of theirs ended)
        assert not any(t.finished for t in hub.tables if search.name == t.game.NAME)
    # Counted, not timed: a move behind the searches would wait for one (up to
    # MAX_MOVE_SECONDS), so the other table could not make 10 moves while the
    # searching tables made 4.  (The load test, -m slow, reports the waits.)
    assert len(waits) > 10, waits


def test_a_table_that_rarely_searches_waits_behind_no_queue_of_searches() -> None:
    from pycards.ui.web.app import FairPool

    pool = FairPool(1, "test-pool", quick=0)
    order: list[str] = []
    gate = threading.Event()

    def job(name: str, wait: threading.Event | None = None) -> str:
        if wait is not None:
            assert wait.wait(30)
        order.append(name)
        return name

    try:
        for k in range(14):  # fourteen tables that have searched before
            pool.submit(f"busy{k}", functools.partial(time.sleep, 0.02)).result()
        running = pool.submit("busy0", functools.partial(job, "busy0 running", gate))
        deadline = time.monotonic() + 30
        while pool.started < 15:  # the one worker is busy with it
            assert time.monotonic() < deadline
            time.sleep(0.001)
        busy = [pool.submit(f"busy{k}", functools.partial(job, f"busy{k}")) for k in range(14)]
        person = [
            pool.submit("person", functools.partial(job, name)) for name in ("person 1", "person 2")
        ]
        gate.set()
        assert [f.result(30) for f in person] == ["person 1", "person 2"]
        assert {f.result(30) for f in busy} == {f"busy{k}" for k in range(14)}
        assert running.result(30) == "busy0 running"
        # the person's table waited for the search running when it asked, no more,
        # and its own jobs kept their order; the busy tables all had their turn
        assert order[:3] == ["busy0 running", "person 1", "person 2"], order
        # a table where a person waits goes before the tables nobody waits for
        pool.mark("watched", True)
        gate.clear()
        blocker = pool.submit("busy0", functools.partial(gate.wait, 30))
        while pool.started < 32:
            assert time.monotonic() < deadline + 30
            time.sleep(0.001)
        order.clear()
        later = [
            pool.submit("fresh", functools.partial(job, "fresh")),
            pool.submit("watched", functools.partial(job, "watched")),
        ]
        gate.set()
        assert blocker.result(30) and [f.result(30) for f in later] == ["fresh", "watched"]
        assert order == ["watched", "fresh"]
        failing = pool.submit("x", functools.partial(int, "not a number"))
        with pytest.raises(ValueError, match="invalid literal"):
            failing.result(30)
    finally:
        pool.shutdown()


def test_a_table_within_its_budget_is_served_while_every_worker_searches() -> None:
    from pycards.ui.web.app import FairPool

    pool = FairPool(2, "test-pool", quick=1, quick_seconds=0.01)
    gate = threading.Event()
    try:
        for k in range(4):  # tables that have searched more than the budget
            pool.submit(f"busy{k}", functools.partial(time.sleep, 0.02)).result()
        pool.submit("person", functools.partial(str, "first")).result(
            30
        )  # a table known to answer quickly
        assert pool.within_budget("person") and not pool.within_budget("busy0")
        assert not pool.within_budget("new table")
        running = [pool.submit(f"busy{k}", functools.partial(gate.wait, 30)) for k in range(4)]
        deadline = time.monotonic() + 30
        while pool.started < 7:  # both workers are searching
            assert time.monotonic() < deadline
            time.sleep(0.001)
        # both workers search for busy tables, two more wait; the quick worker
        # takes no busy table's job, and serves the person's table at once
        assert pool.submit("person", functools.partial(str, "answered")).result(30) == "answered"
        assert not gate.is_set() and sum(f.running() for f in running) == 2
    finally:
        gate.set()
        pool.shutdown()


# ---- nothing lost: the store ----


def test_a_restarted_server_resumes_every_table(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        three = ROLE["three"]
        j = _new(c, game=three.name, players=3, preset=three.quick_preset, seats=_seats(3, (0, 1)))
        table = _table(c, j["table_id"])
        rng = random.Random(1)
        for _ in range(6):
            while table.bot_to_move() is not None:
                table.bot_move()
                c.app.state.hub.save(table)  # type: ignore[attr-defined]
            p = table.state.current_player
            with c.websocket_connect(f"/ws/{j['table_id']}?token={j['tokens'][str(p)]}") as ws:
                m = _drain(ws, ws.receive_json(), table.turn)
                ws.send_json(
                    {"type": "move", "action": rng.choice(m["legal"])["id"], "turn": m["turn"]}
                )
                _drain(ws, m, m["turn"] + 1)
    # read after the server stopped: its bots may have moved (and saved) after the last drain
    before = json.loads(table.state.to_json())
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        again = _table(c, j["table_id"])
        # the resumed server may already have let its bot (seat 2) move again, so
        # the restored game is the saved one plus, at most, bot moves
        now = json.loads(again.state.to_json())
        done = len(before["history"])
        assert now["history"][:done] == before["history"]
        assert {k: v for k, v in now.items() if k != "history"} == {
            k: v for k, v in before.items() if k != "history"
        }
        replay = State.from_json(json.dumps(before))
        for action in now["history"][done:]:
            assert replay.current_player == 2, "only the bot may move after the restart"
            replay.apply(action)
        with c.websocket_connect(f"/ws/{j['table_id']}?token={j['tokens']['1']}") as ws:
            assert ws.receive_json()["seat"] == 1


def test_finished_games_are_browsed_and_replayed(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        j = _new(c, game=QUICK, players=2)
        table = _table(c, j["table_id"])
        _finish(c, j)
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        games = c.get("/api/history").json()
        assert [g["table_id"] for g in games] == [j["table_id"]]
        n = games[0]["moves"]
        assert n == len(table.state.history)
        first = c.get(f"/api/history/{j['table_id']}?step=0").json()
        end = c.get(f"/api/history/{j['table_id']}?step={n}").json()
        assert first["turn"] == 0 and end["terminal"] and end["steps"] == n
        assert end["returns"] == table.state.returns()
        assert c.get(f"/api/history/{j['table_id']}?step={n + 1}").status_code == 400
        assert c.get("/api/tables").json() == []


def _finish(c: TestClient, j: dict[str, Any]) -> None:
    """Play the table's person (first legal move) until the game is over."""
    with c.websocket_connect(f"/ws/{j['table_id']}?token={j['token']}") as ws:
        m = ws.receive_json()
        answered = -1  # a view can come twice (at connecting and after a bot's move)
        while not m.get("terminal"):
            if m["type"] == "view" and m["legal"] and m["version"] > answered:
                answered = m["version"]
                ws.send_json({"type": "move", "action": m["legal"][0]["id"], "version": answered})
            m = ws.receive_json()
            assert m["type"] == "view" or m["reason"] == "late", m


def test_an_unlisted_table_is_unlisted_everywhere(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        listed = _new(c, game=QUICK, players=2, seats=_seats(2, (0,)))
        hidden = _new(
            c,
            game=QUICK,
            players=2,
            seats=[{"name": "Secret", "bot": None}, {"bot": "random"}],
            listed=False,
        )
        # no spectator of a live unlisted table; its seat still plays
        with c.websocket_connect(f"/ws/{hidden['table_id']}") as ws:
            assert ws.receive_json()["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as info:
                ws.receive_json()
            assert info.value.code == 4404
        _finish(c, listed)
        _finish(c, hidden)
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        games = c.get("/api/history").json()
        assert listed["table_id"] in [g["table_id"] for g in games]
        assert hidden["table_id"] not in json.dumps(games) and "Secret" not in json.dumps(games)
        url = f"/api/history/{hidden['table_id']}?step=1"
        assert c.get(url).status_code == 404
        assert c.get(url + "&token=" + listed["token"]).status_code == 404
        seen = c.get(url + "&token=" + hidden["token"])
        assert seen.status_code == 200 and seen.json()["names"][0] == "Secret"
        assert c.get(f"/api/history/{listed['table_id']}?step=1").status_code == 200


def test_db_paths_are_checked_and_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    from pycards.ui.web import add_arguments, main

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    store = Store("~/cards/t.sqlite3")  # ~ is the home folder, not a folder named ~
    assert Path(store.path) == tmp_path / "home" / "cards" / "t.sqlite3"
    assert not (tmp_path / "~").exists() and not store.in_memory
    store.close()
    assert Store(":memory:").in_memory and Store(None).in_memory
    (tmp_path / "plain").write_text("not a database " * 100)
    for db, why in [
        ("file:t?mode=memory", "not a SQLite URI"),
        ("file:t.sqlite3", "not a SQLite URI"),
        ("", "must be a file path"),
        (str(tmp_path), "is a folder"),
        (str(tmp_path / "plain" / "t.sqlite3"), "cannot make its folder"),
        (str(tmp_path / "plain"), "file is not a database"),
    ]:
        with pytest.raises(StoreError, match=why):
            Store(db)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "plain"]  # nothing made
    # pycards serve says so and stops, and its help explains --db
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    with pytest.raises(SystemExit, match="pycards serve: --db takes a file path, not a SQLite"):
        main(parser.parse_args(["--no-browser", "--db", "file:x?mode=memory"]))
    with pytest.raises(SystemExit):
        parser.parse_args(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "nothing is kept across restarts" in out and "~ is your home folder" in out


def test_serve_warns_that_memory_keeps_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    from pycards.ui.web import serve

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    serve(open_browser=False, db=":memory:")
    out = capsys.readouterr().out
    assert "warning" in out and "nothing is kept across restarts" in out


#: every kind of unreadable row: (the field spoiled, its new text or a change of its JSON)
BAD_ROWS = {
    "spec-not-json": ("spec", "{"),
    "spec-not-an-object": ("spec", "[1, 2]"),
    "spec-unknown-game": ("spec", lambda j: {**j, "game": "chess"}),
    "spec-bad-preset": ("spec", lambda j: {**j, "preset": "nope"}),
    "spec-wrong-type": ("spec", lambda j: {**j, "players": "2"}),
    "spec-unknown-bot": (
        "spec",
        lambda j: {**j, "seats": [j["seats"][0], {"name": "x", "bot": "mypkg:Cls"}]},
    ),
    "spec-other-people": ("spec", lambda j: {**j, "seats": [{"name": "x", "bot": "random"}] * 2}),
    "state-not-json": ("state", "{"),
    "state-not-an-object": ("state", '"a game"'),
    "state-illegal-action": ("state", lambda j: {**j, "history": [*j["history"], 99999]}),
    "state-bad-rules": ("state", lambda j: {**j, "rules": {**j["rules"], "game_target": -5}}),
    "state-unknown-rule": ("state", lambda j: {**j, "rules": {**j["rules"], "colour": 1}}),
    "state-other-rules": ("state", lambda j: {**j, "rules": {**j["rules"], "game_target": 61}}),
    "state-other-game": ("state", "other-game"),
    "tokens-not-json": ("tokens", "{"),
    "tokens-bad-seat": ("tokens", '{"one": "abc"}'),
    "seed-not-an-int": ("seed", "abc"),
    "version-below-turn": ("version", -1),
    "version-not-an-int": ("version", "abc"),
    "turn-not-an-int": ("turn", "abc"),
    "bot-seconds-not-a-number": ("bot_seconds", "lots"),
    "finished-not-a-flag": ("finished", 7),
}


def test_unreadable_rows_are_set_aside_and_every_good_table_serves(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import sqlite3

    db = tmp_path / "t.sqlite3"
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        good = _new(c, game=QUICK, players=2, seats=_seats(2, (0,)))
        done = _new(c, game=QUICK, players=2, seats=_seats(2, (0,)))
        _finish(c, done)
    other = ROLE["three"]
    other_state = load_game(other.name, num_players=3).new_initial_state(5).to_json()
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    row = dict(con.execute("SELECT * FROM tables WHERE id = ?", (good["table_id"],)).fetchone())
    fin = dict(con.execute("SELECT * FROM tables WHERE id = ?", (done["table_id"],)).fetchone())

    def put(table_id: str, base: dict[str, Any], field: str, change: Any) -> None:
        new = {**base, "id": table_id}
        if callable(change):
            new[field] = json.dumps(change(json.loads(base[field])))
        else:
            new[field] = other_state if change == "other-game" else change
        keys = ", ".join(new)
        con.execute(
            f"INSERT INTO tables ({keys}) VALUES ({', '.join('?' * len(new))})", [*new.values()]
        )

    for kind, (field, change) in BAD_ROWS.items():
        put(kind, row, field, change)
    # finished games: one that cannot be listed, one that cannot be replayed
    put("finished-bad-spec", fin, "spec", "[]")
    put("finished-bad-returns", fin, "returns", "{")
    put("finished-bad-state", fin, "state", lambda j: {**j, "history": [99999]})
    con.commit()
    con.close()
    caplog.set_level(logging.WARNING)
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        # the server started, and the good tables serve
        with c.websocket_connect(f"/ws/{good['table_id']}?token={good['token']}") as ws:
            assert ws.receive_json()["type"] == "view"
        assert [t["table_id"] for t in c.get("/api/tables").json()] == [good["table_id"]]
        listed = {g["table_id"] for g in c.get("/api/history").json()}
        assert listed == {done["table_id"], "finished-bad-state"}  # set aside when replayed
        assert c.get("/api/history/finished-bad-state?step=1").status_code == 404
        assert c.get(f"/api/history/{done['table_id']}?step=1").status_code == 200
        for kind in BAD_ROWS:  # by id too: nothing to find, no error
            assert c.get(f"/api/tables/{kind}/record?token=x").status_code == 404
            with c.websocket_connect(f"/ws/{kind}") as ws:
                assert ws.receive_json()["type"] == "error"
    # every bad row is kept aside, with why, never deleted
    store = Store(db)
    aside = store.quarantined()
    bad = {*BAD_ROWS, "finished-bad-spec", "finished-bad-returns", "finished-bad-state"}
    assert set(aside) == bad, sorted(set(aside) ^ bad)
    assert all(aside[k] for k in aside)
    assert [t.id for t in store.unfinished()] == [good["table_id"]]
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 2 + len(bad)
    con.close()
    warned = " ".join(r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
    assert all(f"table {k} is put in quarantine" in warned for k in bad)


def _lock_file(db: Path) -> Any:
    """Another program's write lock on the store's file (end it with ROLLBACK)."""
    import sqlite3

    locker = sqlite3.connect(db, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    return locker


def test_a_move_the_locked_file_refuses_is_taken_back_and_told(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    with TestClient(create_app(bot_delay=0.0, db=db, db_timeout=0.05)) as c:
        j = _new(c, game=QUICK, players=2, seats=_seats(2, (0, 1)))
        table = _table(c, j["table_id"])
        p = table.state.current_player
        with c.websocket_connect(f"/ws/{j['table_id']}?token={j['tokens'][str(p)]}") as ws:
            m = ws.receive_json()
            move = {"type": "move", "action": m["legal"][0]["id"], "version": m["version"]}
            before = (table.state.to_json(), table.version, table.turn)
            locker = _lock_file(db)
            ws.send_json(move)
            reply = ws.receive_json()
            assert reply["type"] == "error", reply
            assert "could not be stored" in reply["message"] and "locked" in reply["message"]
            assert (table.state.to_json(), table.version, table.turn) == before
            locker.execute("ROLLBACK")
            ws.send_json(move)  # the same move, once the file is free: played and kept
            assert _drain(ws, ws.receive_json(), 1)["turn"] == 1
        row = Store(db).get(j["table_id"])
        assert row is not None and row.turn == 1
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        assert _table(c, j["table_id"]).turn == 1


def test_a_locked_file_holds_up_no_other_request(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    with TestClient(create_app(bot_delay=0.0, db=db, db_timeout=60.0)) as c:
        j = _new(c, game=QUICK, players=2, seats=_seats(2, (0, 1)))
        other = _new(c, game=QUICK, players=2, seats=_seats(2, (0, 1)))
        table = _table(c, j["table_id"])
        store = c.app.state.store  # type: ignore[attr-defined]
        p = table.state.current_player
        with c.websocket_connect(f"/ws/{j['table_id']}?token={j['tokens'][str(p)]}") as ws:
            m = ws.receive_json()
            locker = _lock_file(db)
            ws.send_json({"type": "move", "action": m["legal"][0]["id"], "version": m["version"]})
            deadline = time.monotonic() + 20
            while store.pending == 0:  # the move's write waits for the lock
                assert time.monotonic() < deadline
                time.sleep(0.01)
            # meanwhile the server answers: the lobby, another table's seat, history
            assert len(c.get("/api/tables").json()) == 2
            assert c.get("/api/history").status_code == 200
            with c.websocket_connect(f"/ws/{other['table_id']}?token={other['token']}") as o:
                assert o.receive_json()["turn"] == 0
            assert store.pending == 1  # and the write still waits: nothing was told
            locker.execute("ROLLBACK")
            assert _drain(ws, m, 1)["turn"] == 1  # stored, then told


def test_one_client_cannot_take_every_table_even_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    people = {"game": QUICK, "players": 2, "seats": _seats(2, (0, 1))}
    limits = {"bot_delay": 0.0, "db": db, "client_tables": 3, "client_rate": 5}

    def post(app: Any, address: str) -> Any:
        return TestClient(app, client=(address, 5000)).post("/api/tables", json=people)

    app = create_app(**limits)
    assert all(post(app, "10.0.0.1").status_code == 200 for _ in range(3))
    refused = post(app, "10.0.0.1")
    assert refused.status_code == 429
    assert "you have 3 unfinished tables open" in refused.json()["error"]
    assert post(app, "10.0.0.2").status_code == 200  # everyone else is served
    app.state.store.close()
    app = create_app(**limits)  # the restarted server knows whose tables they are
    assert post(app, "10.0.0.1").status_code == 429
    assert post(app, "10.0.0.2").status_code == 200
    app.state.store.close()
    # the rate of creation: counted from the store (refused tables do not count)
    app = create_app(**{**limits, "client_tables": 100})
    assert [post(app, "10.0.0.1").status_code for _ in range(3)] == [200, 200, 429]
    assert "opened 5 tables in the last 10 minutes" in post(app, "10.0.0.1").json()["error"]
    app.state.store.close()
    app = create_app(**{**limits, "client_tables": 100})
    assert post(app, "10.0.0.1").status_code == 429
    app.state.store.close()
    # the global cap stays a backstop
    app = create_app(**{**limits, "max_tables": 4, "client_tables": 100, "client_rate": 100})
    assert post(app, "10.0.0.3").status_code == 429
    assert "the server has 4 unfinished tables open" in post(app, "10.0.0.3").json()["error"]
    app.state.store.close()


def test_the_store_keeps_digests_not_tokens(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    with TestClient(create_app(bot_delay=0.0, db=db)) as c:
        j = _new(c, game=QUICK, players=2)
    row = Store(db).get(j["table_id"])
    assert row is not None and j["token"] not in json.dumps(row.tokens)


def test_view_message_is_json_and_names_the_cards() -> None:
    search = ROLE["search"]
    n = search.tables[0]
    state = load_game(search.name, num_players=n).new_initial_state(3)
    msg = view_message(state.view(0), [f"p{k}" for k in range(n)], ["person"] + ["r"] * (n - 1))
    text = json.dumps(msg)
    assert all(card in text for card in msg["observation"]["hand"])
    assert msg["deck"] == search.game_type(None, n).info.deck_size
    assert all("n" in line for line in msg["log"])


def test_a_held_card_is_the_card_of_one_move_only() -> None:
    """No Takers?: a card held may be saved, and asked for from another seat;
    only the save is that card's move, so the page can raise it (an ask is
    made with the ask picker)."""
    state = load_game("notakers", num_players=3).new_initial_state(5)
    view = state.view(state.current_player)
    msg = view_message(view, ["A", "B", "C"], ["person"] * 3)
    by_card: dict[str, list[str]] = {}
    for a in msg["legal"]:
        if a["card"]:
            by_card.setdefault(a["card"], []).append(a["name"])
    saves = {a["name"].split()[1] for a in msg["legal"] if a["name"].startswith("save ")}
    assert saves, "the first turn offers saves"
    assert {c: names for c, names in by_card.items() if len(names) != 1} == {}
    assert saves <= set(by_card)
    assert all(a["card"] is None and a["ask"] for a in msg["legal"] if a["name"].startswith("ask"))


def _until(ws: Any, check: Any, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        m: dict[str, Any] = ws.receive_json()
        if m.get("type") == "view" and check(m):
            return m
    raise AssertionError("no such message")


def test_an_away_person_has_a_bot_play_after_a_clock_and_comes_back() -> None:
    """A table never waits for ever: a person who leaves has a visible clock,
    then a bot plays the seat (which stays theirs) until they come back."""
    with TestClient(create_app(bot_delay=0.0, away_seconds=0.4)) as c:
        j = _new(c, game=QUICK, players=2, seats=_seats(2, (0, 1)))
        tid, tokens = j["table_id"], j["tokens"]
        table = _table(c, tid)
        with c.websocket_connect(f"/ws/{tid}?token={tokens['0']}") as a:
            a.receive_json()
            with c.websocket_connect(f"/ws/{tid}?token={tokens['1']}") as b:
                b.receive_json()
            m = _until(a, lambda m: m["away"] == [1])
            assert [x["seat"] for x in m["away_clock"]] == [1]
            assert 0 < m["away_clock"][0]["seconds"] <= 0.4 and m["stand_ins"] == []
            m = _until(a, lambda m: m["stand_ins"] == [1])
            assert m["away_clock"] == []
            # the bot plays seat 1's turns: seat 0 is never kept waiting
            while not m["terminal"] and m["current_player"] != 0:
                m = a.receive_json()
            if not m["terminal"]:
                move = {"type": "move", "action": m["legal"][0]["id"], "version": m["version"]}
                a.send_json(move)
                m = _until(a, lambda m: m["current_player"] == 0 or m["terminal"])
            assert table.state.is_terminal or 1 in table.core.stand_ins
            with c.websocket_connect(f"/ws/{tid}?token={tokens['1']}") as b:
                back = b.receive_json()
                assert back["seat"] == 1 and back["stand_ins"] == []
            assert 1 not in table.core.stand_ins


def test_the_others_may_let_a_bot_play_an_away_seat() -> None:
    with TestClient(create_app(bot_delay=0.0, away_seconds=None)) as c:
        j = _new(c, game=QUICK, players=2, seats=_seats(2, (0, 1)))
        tid = j["table_id"]
        with c.websocket_connect(f"/ws/{tid}?token={j['tokens']['0']}") as a:
            m = a.receive_json()
            assert m["away"] == [1] and m["away_clock"] == []
            a.send_json({"type": "stand_in", "seat": 0})
            assert a.receive_json()["type"] == "error"
            a.send_json({"type": "stand_in", "seat": 1})
            _until(a, lambda m: m["stand_ins"] == [1])
        with c.websocket_connect(f"/ws/{tid}") as watcher:
            watcher.receive_json()
            watcher.send_json({"type": "stand_in", "seat": 1})
            # the stand-in bot may move meanwhile: its views come first
            answer = watcher.receive_json()
            for _ in range(200):
                if answer["type"] != "view":
                    break
                answer = watcher.receive_json()
            assert answer["type"] == "error"


def test_the_play_area_keeps_a_whole_trick_in_the_order_played() -> None:
    """The card that ends a trick or a count stays on the table with the
    line of the event that ended it, until the next card is played; the
    count is in the order played."""
    for name, players in (("nancy", 4), ("nodde", 2), ("cribbage", 2)):
        state = load_game(name, num_players=players).new_initial_state(11)
        rng = random.Random(2)
        closes = 0
        while not state.is_terminal and closes < 3:
            before = state.event_count
            state.apply(rng.choice(state.legal_actions()))
            new = state.events(0, since=before)
            msg = view_message(state.view(0), [f"p{k}" for k in range(players)], ["r"] * players)
            area = msg["play_area"]
            plays = [e for e in new if e.kind == "play"]
            if plays:
                assert area["cards"][-1] == [plays[-1].player, plays[-1].card], name
            if any(e.kind in ("trick", "last_card") for e in new) or (
                plays and name != "nancy" and plays[-1].target == 31
            ):
                closes += 1
                assert area["closed"] and area["last"]["cards"] == area["cards"], name
                assert area["cards"][-1] == [plays[-1].player, plays[-1].card], name
                if name == "nancy":
                    assert len(area["cards"]) == players
                    assert "wins" in area["closed"]
        assert closes == 3, name


#: engine words that must not reach a person: numbered tricks and sides,
#: a -1, "his" for any seat, a seat by number, and a name read as "You is"
_ENGINE_WORDS = re.compile(
    r"trick \d|for side \d|side \d wins|-1\b|\bhis hand\b|\bseat -?\d|\bYou is\b|version \d"
)


def test_the_story_speaks_in_names_and_words() -> None:
    for name, players in (("nancy", 4), ("nodde", 2), ("cribbage", 2), ("notakers", 3)):
        for seed in range(3):
            state = load_game(name, num_players=players).new_initial_state(seed)
            rng = random.Random(seed)
            while not state.is_terminal and len(state.history) < 400:
                state.apply(rng.choice(state.legal_actions()))
            names = ["Ann", "Bea", "Cy", "Dee"][:players]
            msg = spectator_message(state, names, ["random"] * players)
            texts = [line["text"] for line in msg["log"]]
            texts += [t for s in msg["summaries"] for t in [s["title"], *s["lines"]]]
            bad = [t for t in texts if _ENGINE_WORDS.search(t)]
            assert not bad, (name, bad[:5])


def test_the_log_keeps_every_score_line_and_folds_a_deal() -> None:
    """The Game of Nancy deals some 80 cards a deal: the log still keeps the
    score lines of every deal, and a deal's dealing lines are one line."""
    state = load_game("nancy", num_players=4).new_initial_state(4)
    rng = random.Random(4)
    while not state.is_terminal and len(state.history) < 600:
        state.apply(rng.choice(state.legal_actions()))
    names = ["Ann", "Bea", "Cy", "Dee"]
    full = story(state, 0, names)  # a table keeps each seat's story from the first event
    msg = view_message(state.view(0), names, ["random"] * 4, state.events_dropped(), full)
    texts = [line["text"] for line in msg["log"]]
    told = full.lines
    scores = [line.text for line in told if line.points]
    assert len({line.event.index for line in told if line.event.kind == "dealer"}) >= 2
    assert scores and all(t in texts for t in scores)
    assert not any(" is dealt " in t for t in texts)
    dealt = [t for _, t in fold_deals(told, names) if t.startswith("dealt: ")]
    assert len(dealt) >= 2 and all("Ann " in t and "Bea " in t for t in dealt)
