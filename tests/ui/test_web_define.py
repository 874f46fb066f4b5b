"""The browser table's server hosts a defined game (:mod:`pycards.define`):
a port offered by name is in the new-game form, and a person plays a whole
game against ``best`` through the server's API, with the rules in plain
words written from the description and the log told in card names."""

from __future__ import annotations

import random
import re
import shutil
import socket
import threading
import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from starlette.testclient import TestClient

from pycards.define import PORTS, Passing, TrickGame
from pycards.ui.web import create_app
from pycards.ui.web.tables import Table, describe_games
from ui.test_web import _checked_message

#: a partnership game that a few deals finish
PORT = "whist"


def _drain(ws: Any, m: dict[str, Any], turn: int) -> dict[str, Any]:
    while m.get("type") != "view" or m.get("turn", -1) < turn:
        m = ws.receive_json()
    return m


def test_the_form_offers_the_ports() -> None:
    offered = {g["name"]: g for g in describe_games()}
    for name, desc in PORTS.items():
        assert name in offered, name
        assert (offered[name]["min_players"], offered[name]["max_players"]) == desc.player_range


def test_a_person_plays_a_defined_game_to_the_end_against_best() -> None:
    with TestClient(create_app(bot_delay=0.0)) as client:
        seats = [{"name": "P0", "bot": None}] + [{"bot": "best"}] * 3
        r = client.post("/api/tables", json={"game": PORT, "players": 4, "seats": seats})
        assert r.status_code == 200, r.text
        j = r.json()
        table = client.app.state.tables.find(j["table_id"])
        rng = random.Random(5)
        moves = 0
        with client.websocket_connect(f"/ws/{j['table_id']}?token={j['tokens']['0']}") as ws:
            m = ws.receive_json()
            sections = [s["title"] for s in m["rules_book"]["plain"]]
            assert sections == ["The aim", "The deal", "The play", "The scoring", "The end"]
            while not table.finished:
                if table.bot_to_move() is not None or table.state.current_player != 0:
                    time.sleep(0.002)
                    continue
                m = _drain(ws, m, table.turn)
                # the seat sees its own hand only
                assert isinstance(m["observation"]["hand"], list)
                assert len(m["observation"]["hand"]) >= len(m["legal"]) > 0
                ws.send_json(
                    {"type": "move", "action": rng.choice(m["legal"])["id"], "turn": m["turn"]}
                )
                moves += 1
                m = _drain(ws, m, m["turn"] + 1)
            m = _drain(ws, m, table.turn)
        assert m["terminal"] and moves >= 13
        replay = table.game.new_initial_state(table.seed)
        for act in table.state.history:
            replay.apply(act)
        assert replay.is_terminal and m["returns"] == replay.returns()
        assert max(replay.returns()) >= PORTS[PORT].target
        texts = [line["text"] for line in m["log"]]
        assert any(re.fullmatch(r"P0 plays [2-9TJQKA][CDHS]", t) for t in texts), texts
        assert not any("(player plays value)" in t for t in texts), texts
        record = client.get(f"/api/tables/{j['table_id']}/record?token={j['tokens']['0']}")
        assert f'[Game "{PORT}"]' in record.text


#: a one-deal game of the tutorial's kind (docs/tutorial_define.rst), not a port
SHORT = TrickGame(
    name="web_omnibus",
    title="WebOmnibus",
    players=4,
    passing=Passing(count=3, directions=(1,)),
    lead="card",
    lead_card="2C",
    break_suit="H",
    card_points={"H": -1, "QS": -13, "JD": 10},
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_defined_game_plays_to_the_end_in_chromium() -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    exe = next((shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None)
    if exe is None:
        pytest.skip("no system Chromium")
    import uvicorn

    SHORT.register()
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(bot_delay=0.01), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    errors: list[str] = []
    try:
        for _ in range(400):
            if server.started:
                break
            time.sleep(0.025)
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
            page = browser.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("body[data-ready=true]")
            page.select_option("#game", SHORT.name)
            page.select_option("#players", "4")
            for seat in (1, 2, 3):
                page.select_option(f"[data-seat-kind='{seat}']", "best")
            page.click("#start")
            page.wait_for_selector(f"body[data-game={SHORT.name}]")
            assert "Trumps" in page.inner_text("#info")
            rng = random.Random(2)
            moves = 0
            waits = 0
            while page.evaluate("document.body.dataset.terminal") != "true":
                cards = page.locator("#hand .card.legal")
                if not cards.count():
                    waits += 1
                    assert waits < 1500, page.inner_text("body")[:2000]
                    time.sleep(0.02)
                    continue
                turn = page.evaluate("document.body.dataset.turn")
                cards.nth(rng.randrange(cards.count())).click()
                page.wait_for_function(f"document.body.dataset.turn !== '{turn}'", timeout=20_000)
                moves += 1
            # three cards passed, then thirteen played
            assert moves == 16
            facts = page.inner_text("#table") if page.locator("#table").count() else ""
            assert "tricks" in facts or "tricks" in page.inner_text("body")
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
    assert not errors, errors


#: a short game for the leak check (three seats, eight cards each, one deal)
TINY = TrickGame(name="web_tiny", title="WebTiny", players=3, ranks="9TJQKA", trick_points=1)


def test_no_message_of_a_defined_game_tells_a_hidden_card(monkeypatch: pytest.MonkeyPatch) -> None:
    # every message is recomputed from states drawn by its reader's sampler
    # (tests/ui/test_web.py): it must not change with the cards it may not see
    # (up to the end: a defined game's sampler refuses a finished state)
    original = Table.message

    def checked(self: Table, seat: int | None, away: Any = None, clocks: Any = None) -> Any:
        if self.state.is_terminal:
            return original(self, seat, away, clocks)
        return _checked_message(self, seat, away, clocks)

    monkeypatch.setattr(Table, "message", checked)
    TINY.register()
    with TestClient(create_app(bot_delay=0.0)) as client:
        seats = [{"name": "P0", "bot": None}, {"bot": "best"}, {"bot": "random"}]
        j = client.post("/api/tables", json={"game": TINY.name, "players": 3, "seats": seats})
        table = client.app.state.tables.find(j.json()["table_id"])
        tid, token = j.json()["table_id"], j.json()["tokens"]["0"]
        rng = random.Random(1)
        with (
            client.websocket_connect(f"/ws/{tid}?token={token}") as ws,
            client.websocket_connect(f"/ws/{tid}") as watcher,
        ):
            m = ws.receive_json()
            seen = watcher.receive_json()
            while not table.finished:
                if table.bot_to_move() is not None or table.state.current_player != 0:
                    time.sleep(0.002)
                    continue
                m = _drain(ws, m, table.turn)
                ws.send_json(
                    {"type": "move", "action": rng.choice(m["legal"])["id"], "turn": m["turn"]}
                )
                m = _drain(ws, m, m["turn"] + 1)
            m = _drain(ws, m, table.turn)
            seen = _drain(watcher, seen, table.turn)
        assert m["terminal"] and seen["terminal"] and "hand" not in seen["observation"]
        assert sum(m["observation"]["tricks"]) == 8
