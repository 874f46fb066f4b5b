"""The browser table: what reaches the browser, bad messages, and full games
played by clicks in a real headless Chromium.

The leak check: every message the server sends is recomputed from a state
drawn by the person's seat's sampler (same knowledge, fresh hidden cards);
the two must be identical, so no message can depend on a hidden card.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from _games import game_params
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pycards.game import load_game
from pycards.web import create_app
from pycards.web.tables import Table, TableError, Tables, TableSpec, view_message

ARTIFACTS = Path(os.environ.get("PYCARDS_TEST_ARTIFACTS", "test-artifacts")) / "web"

#: every registered game at the first and last of its profile's tables, its quick preset
GAMES = game_params("ends", extra=["quick_preset"])


def _checked_message(self: Table) -> dict[str, Any]:
    """Table.message, asserting the message is the same from a sampled world."""
    msg = _original_message(self)
    world = self.state.sample_infoset(self.seat, random.getrandbits(64))
    again = view_message(world.view(self.seat), self.names, self.bot_specs)
    assert {k: v for k, v in msg.items() if k not in ("turn", "table_id")} == again
    return msg


_original_message = Table.message


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Table, "message", _checked_message)


@pytest.fixture
def client(checked: None) -> Iterator[TestClient]:
    with TestClient(create_app(bot_delay=0.0)) as c:
        yield c


def _new(client: TestClient, **body: Any) -> tuple[str, str]:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    j = r.json()
    return j["table_id"], j["token"]


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_a_whole_game_over_the_socket_leaks_nothing(
    client: TestClient, game: str, players: int, preset: str | None
) -> None:
    body: dict[str, Any] = {"game": game, "players": players, "seed": 17, "seat": 1}
    if preset:
        body["preset"] = preset
    tid, token = _new(client, **body)
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
        m = ws.receive_json()
        while not m["terminal"]:
            if m["legal"]:
                ws.send_json(
                    {"type": "move", "action": rng.choice(m["legal"])["id"], "turn": m["turn"]}
                )
            m = ws.receive_json()
            assert m["type"] == "view", m
    table = next(iter(client.app.state.tables))  # type: ignore[attr-defined]
    # the final scores shown are the engine's for this deal and these actions
    replay = table.game.new_initial_state(17)
    for a in table.state.history:
        replay.apply(a)
    assert m["returns"] == replay.returns() and replay.is_terminal
    # the record offered for download is the person's seat's, without the seed
    text = client.get(f"/api/tables/{tid}/record?token={token}").text
    assert '[View "seat 1"]' in text and "[Seed " not in text
    assert f'[Game "{game}"]' in text


def test_bad_messages_change_nothing(client: TestClient) -> None:
    tid, token = _new(client, game="nodde", players=2, seed=4, seat=0)
    with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
        m = ws.receive_json()
        while not m["legal"]:
            m = ws.receive_json()
        table = next(iter(client.app.state.tables))  # type: ignore[attr-defined]
        before = table.state.to_json()
        legal = m["legal"][0]["id"]
        illegal = next(
            a for a in range(table.game.num_actions) if a not in {x["id"] for x in m["legal"]}
        )
        for bad, expect in [
            ({"type": "move", "action": legal, "turn": m["turn"] - 1}, "stale move"),
            ({"type": "move", "action": legal, "turn": m["turn"] + 5}, "stale move"),
            ({"type": "move", "action": illegal, "turn": m["turn"]}, "illegal"),
            ({"type": "move", "action": 10**9, "turn": m["turn"]}, "unknown action"),
            ({"type": "move", "action": True, "turn": m["turn"]}, "an int id"),
            ({"type": "move", "action": float(legal), "turn": m["turn"]}, "an int id"),
            ({"type": "move", "action": legal}, "names the turn"),
            ({"type": "move", "action": str(legal), "turn": m["turn"]}, "an int id"),
        ]:
            ws.send_json(bad)
            reply = ws.receive_json()
            assert reply["type"] == "error" and expect in reply["message"], (bad, reply)
            assert table.state.to_json() == before
        ws.send_text("{not json")
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 4400
    assert table.state.to_json() == before


def test_a_client_cannot_reach_another_table(client: TestClient) -> None:
    _, token_a = _new(client, game="nodde", players=2, seed=1)
    b, _ = _new(client, game="nodde", players=2, seed=2)
    with client.websocket_connect(f"/ws/{b}?token={token_a}") as ws:
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 4404
    assert client.get(f"/api/tables/{b}/record?token={token_a}").status_code == 404


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"game": "chess"}, "game must be one of"),
        ({"game": "nodde", "players": 9}, "players must be"),
        ({"game": "nodde", "players": 2.0}, "players must be"),
        ({"game": "nodde", "players": True}, "players must be"),
        ({"game": "nodde", "seat": 2}, "seat must be"),
        ({"game": "nodde", "preset": "nope"}, "preset must be"),
        ({"game": "nodde", "bots": ["nobody"]}, "unknown bot"),
        ({"game": "nodde", "seed": -1}, "seed must be"),
        ({"game": "nodde", "colour": "red"}, "unknown field"),
        ([1, 2], "JSON object"),
    ],
)
def test_a_bad_new_table_is_refused(client: TestClient, body: object, error: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and error in r.json()["error"]
    assert len(client.app.state.tables) == 0  # type: ignore[attr-defined]


def test_idle_tables_are_dropped() -> None:
    tables = Tables(idle_seconds=0.01)
    spec = TableSpec.from_json({"game": "nodde", "players": 2})
    t = tables.create(spec)
    assert tables.get(t.id, t.token) is t
    time.sleep(0.05)
    assert tables.drop_idle() == 1
    with pytest.raises(TableError):
        tables.get(t.id, t.token)


def test_the_person_acts_only_for_their_seat() -> None:
    table = Table(TableSpec.from_json({"game": "notakers", "players": 3, "seat": 2}), seed=9)
    while table.bot_to_move() is not None:
        table.bot_move()
    assert table.state.current_player == 2
    with pytest.raises(TableError):
        table.bot_move()


def test_view_message_is_json_and_names_the_cards() -> None:
    state = load_game("nancy", num_players=4).new_initial_state(3)
    msg = view_message(state.view(0), ["a", "b", "c", "d"], ["you", "r", "r", "r"])
    import json

    text = json.dumps(msg)
    assert all(card in text for card in msg["observation"]["hand"])
    assert msg["deck"] == 78


# ---- end to end: a real browser plays a complete game of each game by clicks ----


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Any]]:
    uvicorn = pytest.importorskip("uvicorn")
    app = create_app(bot_delay=0.02)
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    assert srv.started
    yield f"http://127.0.0.1:{port}/", app
    srv.should_exit = True
    thread.join(10)


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_a_browser_plays_a_whole_game_by_clicks(
    server: tuple[str, Any], game: str, players: int, preset: str | None
) -> None:
    required = os.environ.get("PYCARDS_REQUIRE_BROWSER") == "1"  # set by CI
    try:
        from playwright import sync_api
    except ModuleNotFoundError:
        if required:
            raise
        pytest.skip("playwright is not installed (pip install '.[test]')")
    exe = _chromium()
    if exe is None:
        assert not required, "PYCARDS_REQUIRE_BROWSER=1 but no system Chromium"
        pytest.skip("no system Chromium (apt-get install chromium)")
    url, app = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        page.select_option("#game", game)
        page.select_option("#players", str(players))
        page.select_option("#preset", preset or "")
        page.fill("#seed", "23")
        before = {t.id for t in app.state.tables}
        page.click("#start")
        page.wait_for_selector(f"body[data-game={game}]")
        (table,) = [t for t in app.state.tables if t.id not in before]
        clicks = 0
        shot_mid = False
        while True:
            page.wait_for_function(
                "document.body.dataset.terminal === 'true' || "
                "document.querySelectorAll('#moves button').length > 0",
                timeout=30_000,
            )
            if page.evaluate("document.body.dataset.terminal") == "true":
                break
            turn = page.evaluate("document.body.dataset.turn")
            cards = page.locator("#hand .card.legal")
            if clicks % 2 == 0 and cards.count():
                cards.first.click()
            else:
                page.locator("#moves button").first.click()
            clicks += 1
            if clicks == 3 and not shot_mid:
                page.screenshot(path=str(ARTIFACTS / f"{game}-playing.png"), full_page=True)
                shot_mid = True
            page.wait_for_function(f"document.body.dataset.turn !== '{turn}'", timeout=30_000)
            assert clicks < 2000
        page.screenshot(path=str(ARTIFACTS / f"{game}-over.png"), full_page=True)
        shown = [
            int(x)
            for x in page.locator(".seat .score").evaluate_all(
                "els => els.map(e => e.dataset.score)"
            )
        ]
        browser.close()
    replay = table.game.new_initial_state(23)
    for a in table.state.history:
        replay.apply(a)
    assert replay.is_terminal and shown == replay.returns()
    assert clicks > 0
