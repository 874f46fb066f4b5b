"""The browser table's objective tracker for the Game of Nancy."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("starlette")

from pycards.games.nancy import OBJECTIVE_NAMES, NancyCardSet, objectives
from pycards.ui.web.tables import Table, TableSpec


@pytest.mark.parametrize("players", [3, 5])
def test_the_tracker_follows_the_bid_objectives_on_nancys_pile(players: int) -> None:
    seats = [{"name": "Me", "bot": None}] + [{"bot": "random"}] * (players - 1)
    spec = TableSpec.from_json(
        {"game": "nancy", "players": players, "preset": "wiki_one_deal", "seats": seats}
    )
    table, _ = Table.new(spec)
    rng = random.Random(players)
    tracked = 0
    while not table.finished:
        for seat in range(players):
            msg = table.message(seat)
            obs = msg["observation"]
            tracker = msg["readable"].get("objectives")
            if obs["taker"] is None or obs["phase"] == 5:  # no Taker yet, or the deal is over
                assert tracker is None
                continue
            assert tracker is not None, obs
            assert tracker["taker"] == obs["taker"] and tracker["bid"] == obs["bids"][obs["taker"]]
            won = NancyCardSet(obs["nancy_pile"]) - NancyCardSet(obs["discards"])
            mask = objectives(won) if won else 0
            standing = tracker["standing"]
            # each seat's tracker reads its own view only: the seats that are
            # not the Taker know the same of Nancy's pile and see one tracker;
            # the Taker, who knows his discards, may see another; a spectator
            # sees the tracker only where every seat's is the same
            trackers = [table.message(q)["readable"]["objectives"] for q in range(players)]
            others = [t for q, t in enumerate(trackers) if q != obs["taker"]]
            assert all(t == others[0] for t in others)
            shown = table.message(None)["readable"].get("objectives")
            assert shown == (trackers[0] if all(t == trackers[0] for t in trackers) else None)
            assert [o["name"] for o in standing] == list(OBJECTIVE_NAMES)
            assert [o["met"] for o in standing[:7]] == [bool(mask >> k & 1) for k in range(7)]
            assert [o["met"] for o in standing[7:]] == [None, None]
            tracked += 1
        if table.bot_to_move() is not None:
            table.bot_move()
        else:
            table.person_move(0, rng.choice(table.state.legal_actions()), table.turn)
    assert tracked
