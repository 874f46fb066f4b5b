"""The browser table's server hosts a defined game (:mod:`pycards.define`):
a port offered by name is in the new-game form, and a person plays a whole
game against ``best`` through the server's API, with the rules in plain
words written from the description and the log told in card names."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from starlette.testclient import TestClient

from pycards.define import PORTS
from pycards.ui.web import create_app
from pycards.ui.web.tables import describe_games

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
        table = client.app.state.tables.find(j["table_id"])  # type: ignore[attr-defined]
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
        assert max(replay.returns()) >= PORTS[PORT].target  # type: ignore[operator]
        texts = [line["text"] for line in m["log"]]
        assert any(re.fullmatch(r"P0 plays [2-9TJQKA][CDHS]", t) for t in texts), texts
        assert not any("(player plays value)" in t for t in texts), texts
        record = client.get(f"/api/tables/{j['table_id']}/record?token={j['tokens']['0']}")
        assert f'[Game "{PORT}"]' in record.text
