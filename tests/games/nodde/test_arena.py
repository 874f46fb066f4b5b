"""The arena on Nodde Knave: a failing bot's game stops at the failure."""

from __future__ import annotations

from arena.test_arena import FailingBot

from pycards.arena import Match
from pycards.bots import RandomBot


def test_the_game_stops_at_the_failure() -> None:
    bad = FailingBot("raise")
    m = Match("nodde", [RandomBot(), bad], 4, players=2, seed=3)
    result = m.run(progress=False)
    for r in result.records:
        if r.failure is not None:
            state = m.game.new_initial_state(r.deal_seed)
            assert sum(r.moves) < 29  # far from a whole game
            assert r.failure.message.startswith("act raised ValueError")
            assert not state.is_terminal
