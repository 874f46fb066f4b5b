"""The Nodde heuristic in hand-built positions where the right move is plain
(the shared checks are in test_heuristics.py)."""

from __future__ import annotations

from typing import Any

from pycards.game import State
from pycards.games.nodde import NoddeGame, NoddeRules


def _nodde_play(hands: list[str], turnup: str, plays: list[str]) -> State[Any]:
    game = NoddeGame(NoddeRules(first_dealer=1, game_target=121), num_players=2)
    state = game.new_initial_state(0, deck=game.stacked_deck(hands, turnup=turnup))
    for card in plays:
        state.apply(f"play {card}")
    return state


def test_nodde_makes_fifteen() -> None:
    state = _nodde_play(["8S 2C KD", "7H 4C 3S"], "AD", ["8S"])
    assert state.current_player == 1
    for seed in range(5):
        assert state.game.action_name(state.engine_state.heuristic_action(seed)) == "play 7H"


def test_nodde_makes_thirty_one() -> None:
    state = _nodde_play(["KS QS 2C", "AH 9D TD"], "4C", ["KS", "AH", "QS"])
    assert state.current_player == 1
    for seed in range(5):
        assert state.game.action_name(state.engine_state.heuristic_action(seed)) == "play TD"


def test_nodde_does_not_lead_a_five() -> None:
    # A five led gives the next player a fifteen with any ten-card.
    state = _nodde_play(["5S 2C 9D", "KH KC QS"], "4C", [])
    assert state.current_player == 0
    assert state.game.action_name(state.engine_state.heuristic_action(0)) != "play 5S"
