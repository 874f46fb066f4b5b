"""The browser table's help and story: hint and undo against bots, the log
told in sentences, the round and game summaries, and the rules panel."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

pytest.importorskip("starlette")

from _games import game_params
from starlette.testclient import TestClient

from pycards.game import load_game
from pycards.narrate import narrate
from pycards.summary import fold_deals, summaries
from pycards.ui.web import create_app
from pycards.ui.web.tables import LOG_LINES, Table, TableError, TableSpec, suggest

GAMES = game_params("one", extra=["quick_preset"])
SOLO = 0  # the person's seat at a solo table


def _spec(game: str, players: int, preset: str, humans: tuple[int, ...] = (SOLO,)) -> TableSpec:
    seats = [{"name": f"P{p}", "bot": None if p in humans else "random"} for p in range(players)]
    return TableSpec.from_json({"game": game, "players": players, "preset": preset, "seats": seats})


def _play(table: Table, rng: random.Random, until: int | None = None) -> dict[int, str]:
    """Play the table (the person at random) to its end or to ``until`` of
    the person's decisions; the state's JSON at each of them, by turn."""
    seen: dict[int, str] = {}
    while not table.finished and (until is None or len(seen) < until):
        if table.bot_to_move() is not None:
            table.bot_move()
            continue
        seat = table.state.current_player
        seen[table.turn] = table.state.to_json()
        table.person_move(seat, rng.choice(table.state.legal_actions()), table.turn)
    return seen


def _undoable(table: Table, times: int) -> bool:
    """Whether ``times`` undos in a row are allowed (tried on a copy): no deal
    or draw has shown the person a card since the decision each goes back to."""
    copy = Table(
        table.id, table.spec, table.seed, table.digests, table.state.clone(), 0.0, table.version
    )
    for _ in range(times):
        if not copy.can_undo(SOLO):
            return False
        copy.undo(SOLO)
    return True


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_undo_restores_exactly_the_earlier_state(game: str, players: int, preset: str) -> None:
    for _ in range(20):  # a new deal if this one ended before two undos were allowed
        table, _ = Table.new(_spec(game, players, preset))
        rng = random.Random(5)
        seen = _play(table, rng, until=6)
        while table.bot_to_move() is not None:  # the bots answer the last move
            table.bot_move()
        while not table.finished and not _undoable(table, 2):
            # a deal or a draw showed the person a card: play on to where two
            # undos are allowed
            seen.update(_play(table, rng, until=1))
            while table.bot_to_move() is not None:
                table.bot_move()
        if not table.finished:
            break
    before = table.message(SOLO)
    last = max(seen)
    if table.state.current_player == SOLO and not table.finished:
        # the person is to decide again: undo goes back to the decision before
        assert table.turn not in seen
    back = table.undo(SOLO)
    assert back == last and table.turn == last
    assert table.state.to_json() == seen[last]
    again = table.message(SOLO)
    # the story is told again up to the earlier decision: the numbered lines
    # it still shows are those of the story before the undo, and it ends no
    # later (the same where the undone moves told this seat nothing)
    assert again["turn"] == last
    told = {line["n"]: line["text"] for line in before["log"]}
    assert all(told.get(line["n"], line["text"]) == line["text"] for line in again["log"])
    assert again["log"] and before["log"]
    assert again["log"][-1]["n"] <= before["log"][-1]["n"]
    # undo again: the decision before that one
    earlier = max(t for t in seen if t < last)
    assert table.undo(SOLO) == earlier and table.state.to_json() == seen[earlier]
    # the story told after an undo is the one told when the game stood there
    fresh, _ = Table.new(_spec(game, players, preset))
    fresh.state = type(table.state).from_json(seen[earlier])
    assert table.message(SOLO)["log"] == fresh.message(SOLO)["log"]


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_hint_is_legal_and_made_from_the_view_alone(game: str, players: int, preset: str) -> None:
    table, _ = Table.new(_spec(game, players, preset))
    rng = random.Random(7)
    hints = 0
    while not table.finished and hints < 20:
        if table.bot_to_move() is not None:
            table.bot_move()
            continue
        hint = table.hint(SOLO)
        assert hint["action"] in table.state.legal_actions()
        assert hint["turn"] == table.turn
        assert hint["name"] == table.game.action_name(hint["action"])
        # the same hint from worlds that differ only in cards the seat cannot see
        view = table.state.view(SOLO)
        for k in range(3):
            world = table.state.sample_infoset(SOLO, rng.getrandbits(64))
            assert suggest(world.view(SOLO), 99 + k) == suggest(view, 99 + k)
        hints += 1
        table.person_move(SOLO, rng.choice(table.state.legal_actions()), table.turn)
    assert hints


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_hint_and_undo_are_refused_with_other_people(game: str, players: int, preset: str) -> None:
    table, _ = Table.new(_spec(game, players, preset, humans=(0, 1)))
    _play(table, random.Random(3), until=2)
    for call in (table.hint, table.undo):
        with pytest.raises(TableError, match="other people"):
            call(table.state.current_player if table.state.current_player in (0, 1) else 0)


def test_undo_before_any_move_and_hint_off_turn_are_refused() -> None:
    game, players, preset = GAMES[0].values
    table, _ = Table.new(_spec(game, players, preset))
    if table.state.current_player != SOLO:
        with pytest.raises(TableError, match="your turn"):
            table.hint(SOLO)
    else:
        with pytest.raises(TableError, match="no move of yours"):
            table.undo(SOLO)


def _drain(ws: Any, kind: str = "view") -> dict[str, Any]:
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == kind or m["type"] == "error":
            return m


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_hint_and_undo_over_the_socket(game: str, players: int, preset: str) -> None:
    body = json.loads(json.dumps(_spec(game, players, preset).to_json()))
    # one deal every time, where the person may undo before the game ends
    body.update(practice=True, seed=11)
    with TestClient(create_app(bot_delay=0.0)) as client:
        j = client.post("/api/tables", json=body).json()
        table = client.app.state.tables.find(j["table_id"])  # type: ignore[attr-defined]
        rng = random.Random(11)
        with client.websocket_connect(f"/ws/{j['table_id']}?token={j['token']}") as ws:
            m = _drain(ws)
            assert m["solo"] is True and m["rules_book"]["items"]
            moves = 0
            # three moves, then on to where an undo is allowed (no deal or
            # draw has shown the person a card since the last)
            while not m["terminal"] and (
                moves < 3 or (table is not None and not table.can_undo(SOLO))
            ):
                if m["current_player"] != SOLO or not m["legal"]:
                    m = _drain(ws)
                    continue
                ws.send_json({"type": "hint"})
                hint = _drain(ws, "hint")
                assert hint["type"] == "hint" and hint["turn"] == m["turn"]
                assert hint["action"] in [a["id"] for a in m["legal"]]
                decided = m
                ws.send_json(
                    {"type": "move", "action": rng.choice(m["legal"])["id"], "turn": m["turn"]}
                )
                moves += 1
                m = _drain(ws)
                while m["current_player"] != SOLO and not m["terminal"]:
                    m = _drain(ws)
                # a view sent twice is not taken for the table's latest
                while table is not None and m["version"] != table.version:
                    m = _drain(ws)
            ws.send_json({"type": "undo"})
            back = _drain(ws)
            while back["turn"] != decided["turn"]:
                back = _drain(ws)
            assert (
                back["observation"] == decided["observation"] and back["legal"] == decided["legal"]
            )
            assert table is not None and table.turn == decided["turn"]


def test_a_spectator_may_not_ask_for_hints() -> None:
    game, players, preset = GAMES[0].values
    with TestClient(create_app(bot_delay=0.0)) as client:
        j = client.post("/api/tables", json=_spec(game, players, preset).to_json()).json()
        with client.websocket_connect(f"/ws/{j['table_id']}") as ws:
            _drain(ws)
            ws.send_json({"type": "hint"})
            assert _drain(ws, "error")["message"] == "spectators watch"


_RAW = re.compile(r"^\S+ \w+_\w+|^\w+_\w+")


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_the_log_and_the_summaries_are_the_narration(game: str, players: int, preset: str) -> None:
    table, _ = Table.new(_spec(game, players, preset))
    _play(table, random.Random(13))
    names = table.names
    for seat in (SOLO, None):
        msg = table.message(seat)
        if table.state.events_dropped() == 0:
            # the narration, a deal's dealing lines folded into one
            lines = narrate(table.state, seat, names=names)
            hound = table.story(seat).teller.seat_name
            told = [text for _, text in fold_deals(lines, names, hound)]
            tail = told[-LOG_LINES:]
            assert [line["text"] for line in msg["log"]][-len(tail) :] == tail
        assert not [line for line in msg["log"] if _RAW.match(line["text"])]
        made = summaries(table.state, seat)
        assert len(msg["summaries"]) == len(made) and made[-1].is_game
        game_summary = msg["summaries"][-1]
        assert game_summary["round"] == 0
        # seats are named in the summaries, never "seat k"
        assert not any("seat " in line for s in msg["summaries"] for line in s["lines"])
        if "winners" in game_summary:
            best = max(table.state.returns())
            assert all(table.state.returns()[p] == best for p in game_summary["winners"])


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_the_rules_panel_names_every_rule_in_words(game: str, players: int, preset: str) -> None:
    table, _ = Table.new(_spec(game, players, preset))
    book = table.message(SOLO)["rules_book"]
    rules = load_game(game, table.game.rules, players).rules_to_dict()
    assert book["preset"] == preset and book["summary"]
    assert len(book["items"]) == len(rules)
    assert {i["label"] for i in book["items"]} == {k.replace("_", " ").capitalize() for k in rules}
    changed = [i["label"] for i in book["items"] if i["changed"]]
    assert len(changed) == len(table.game.rules.differences())
    assert book["items"][: len(changed)] == [i for i in book["items"] if i["changed"]]
    text = json.dumps(book)
    assert "``" not in text and "docs/" not in text and ":class:" not in text
    assert sum(bool(i["note"]) for i in book["items"]) >= len(rules) // 2
