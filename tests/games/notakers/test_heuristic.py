"""The No Takers? heuristic in hand-built positions where the right move is
plain (the shared checks are in test_heuristics.py)."""

from __future__ import annotations

from typing import Any

import pytest
from _play import mixed_positions

from pycards.game import State
from pycards.games.notakers import NoTakersGame, NoTakersRules


def _notakers_state(hands: list[str], rules: NoTakersRules | None = None) -> State[Any]:
    """Two players; hands[seat] of 13 cards, the rest the draw pile."""
    from pycards.cards import Card

    game = NoTakersGame(rules or NoTakersRules(), num_players=2)
    cards = [[int(Card.parse(c)) for c in h.split()] for h in hands]
    assert all(len(h) == 13 for h in cards)
    dealt = {c for h in cards for c in h}
    deck = [cards[i % 2][i // 2] for i in range(26)] + [c for c in range(52) if c not in dealt]
    return game.new_initial_state(0, deck=deck)


def test_notakers_saves_the_sets_it_holds() -> None:
    state = _notakers_state(
        [
            "7H 7S 7D 3C 4C 5C 9H JS KD 2D QH 8S AS",
            "2H 3H 4H 5H 6H 8H TH 2S 3S 4S 5S 6S 9S",
        ]
    )
    for step in range(10):
        if state.current_player != 0:
            break
        state.apply(state.engine_state.heuristic_action(step))
    obs = state.observation(0)
    assert str(obs.save) == str(type(obs.save)("7H 7S 7D 3C 4C 5C"))


def test_notakers_asks_for_the_card_that_makes_a_run() -> None:
    # Seat 0 asks for Kings nobody holds and, with No Takers, gives seat 1
    # its 3D; seat 1 draws.  Seat 0 now holds AD 2D 4D and knows where the
    # 3D is (a run of four): it asks seat 1 for it.
    state = _notakers_state(
        [
            "AD 2D 3D 4D 7H 9S JC 5C KH QS 6S 8H TC",
            "2H 3H 4H 5H 6H TH 2S 3S 4S 5S 9C QC QD",
        ]
    )
    for action in ["ask +1 rank K", "give 3D", "draw"]:
        state.apply(action)
    assert state.current_player == 0
    for seed in range(3):
        assert state.game.action_name(state.engine_state.heuristic_action(seed)) == "ask +1 card 3D"


@pytest.mark.parametrize("players", [2, 4])
def test_notakers_asks_only_for_what_it_can_use(players: int) -> None:
    # A rank it holds (in hand or save pile), or a card next to its suit.
    game = NoTakersGame(NoTakersRules(), num_players=players)
    asks = 0
    for seed in range(3):
        for state in mixed_positions(game, 200 + seed, max_steps=150):
            if state.observation(state.current_player).phase != 0:
                continue
            name = state.game.action_name(state.engine_state.heuristic_action(seed))
            if not name.startswith("ask"):
                continue
            asks += 1
            obs = state.observation(state.current_player)
            mine = set(str(obs.hand).split()) | set(str(obs.save).split())
            kind, what = name.split()[2:]
            if kind == "rank":
                assert any(card[:-1] == what for card in mine), (name, mine)
            else:
                assert kind == "card", name
                suit = what[-1]
                order = "A23456789TJQKA"
                i = order.index(what[:-1])
                near = {order[j] + suit for j in (i - 2, i - 1, i + 1, i + 2) if 0 <= j < 14}
                assert len(near & mine) >= 2, (name, mine)
    assert asks > 0
