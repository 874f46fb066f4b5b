"""The Nancy heuristic in hand-built positions where the right move is plain
(the shared checks are in test_heuristics.py)."""

from __future__ import annotations

from typing import Any

from pycards.game import State
from pycards.games.nancy import NancyCard, NancyGame, NancyRules


def _nancy_play_state() -> State[Any]:
    """Four players, seat 3 deals, seat 0 bids 1 and takes, the others pass;
    seat 0 discards six and leads 8R, seat 1 plays 2R: seat 2 to play."""
    names = {
        0: "8R 4S 5S 6S 7S 8S 9S 10S 4X 5X 6X 7X 8X 9X 10X 4P 5P 6P",
        1: "2R 1S 2S 3S JS CS QS KS 1X 2X 3X JX CX QX KX 1P 2P 3P",
        2: "3R 9R JR KR 7P 8P 9P 10P JP CP QP KP I II III IV V VI",
        3: "1R 4R 5R 6R 7R 10R CR QR VII VIII IX X XI XII XIII XIV XV XVI",
    }
    hound = "XVII XVIII XIX XX XXI OUT"
    rules = NancyRules(first_dealer=3)
    game = NancyGame(rules, num_players=4)
    held = {seat: s.split() for seat, s in names.items()}
    deck = game.stacked_deck(
        [held[s][6:] for s in range(4)], hound.split(), face_up=[held[s][:6] for s in range(4)]
    )
    state = game.new_initial_state(0, deck=deck)
    for action in ["bid 1", "pass", "pass", "pass"]:
        state.apply(action)
    for card in ["4S", "5S", "6S", "7S", "8S", "9S"]:
        state.apply(f"discard {card}")
    state.apply("play 8R")
    state.apply("play 2R")
    assert int(NancyCard.parse("8R")) == 7
    return state


def test_nancy_wins_with_the_lowest_winning_card() -> None:
    state = _nancy_play_state()
    assert state.current_player == 2
    for seed in range(5):
        # 9R, JR and KR all beat the Taker's 8R: the 9R is the cheapest
        assert state.game.action_name(state.engine_state.heuristic_action(seed)) == "play 9R"


def test_nancy_throws_its_least_valuable_card() -> None:
    state = _nancy_play_state()
    state.apply("play 9R")
    # seat 3 holds Rats 1R 4R 5R 6R 7R 10R CR QR: it cannot beat the 9R of
    # its own side (an opponent of the Taker) with... it can (TR, CR, QR),
    # but its side already holds the trick: it keeps its cards and, being
    # last, banks a face card into the opponents' pile.
    assert state.current_player == 3
    assert state.game.action_name(state.engine_state.heuristic_action(0)) in ("play CR", "play QR")
