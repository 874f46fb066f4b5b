"""No Takers? from stacked decks (``init_deck``; docs/notakers.rst, "Stacked
first deal"): the deal and the pile take the deck's positions, and the rules
of play and the Ask example of docs/notakers.rst play out card for card on
every backend."""

from __future__ import annotations

from typing import Any

import pytest
import reference as ref

from cardcore import _core as c_core
from pycards.cards import CardSet
from pycards.errors import InvalidCardError
from pycards.games.notakers import (
    ACTION_DRAW,
    ACTION_GIVE,
    ACTION_SAVE,
    ACTION_SAVE_DONE,
    NoTakersGame,
    ask_action,
)

TERMINAL = -4
EV_DEAL, EV_DRAW, EV_ASK, EV_PASS, EV_GIVE, EV_NO_TAKERS = 0, 1, 3, 4, 5, 6
EV_SCORE, EV_GAME_OVER = 7, 8
RANK_7 = 6

BACKENDS: list[Any] = [c_core, ref]

pytestmark = pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)


def ids(text: str) -> list[int]:
    """Card ids in the order written."""
    return [CardSet(token).ids()[0] for token in text.split()]


def bits(text: str) -> int:
    return sum(1 << (16 * (c // 13) + c % 13) for c in ids(text))


def stack(hands: list[str], pile: str = "") -> list[int]:
    """A deck dealing ``hands`` (seat order), then ``pile`` on top of the draw
    pile, then every other card in ascending id order."""
    n = len(hands)
    each = 26 // n
    seats = [ids(h) for h in hands]
    assert all(len(h) == each for h in seats)
    deck = [seats[i % n][i // n] for i in range(each * n)] + ids(pile)
    deck += sorted(set(range(52)) - set(deck))
    assert sorted(deck) == list(range(52))
    return deck


def hand(state: Any, p: int) -> CardSet:
    return CardSet([c for c in range(52) if state.observe_tensor(p)[c]])


def saved(state: Any, p: int) -> CardSet:
    return CardSet([c for c in range(52) if state.observe_tensor(p)[52 + c]])


def play(state: Any, *actions: int) -> None:
    for a in actions:
        assert state.apply(a) == 0, (a, state.reason_text(state.verify(a)))


def params(**kw: int) -> list[int]:
    names = ["save_requires_set", "save_visibility", "pass_fallback", "short_draw",
             "max_turns", "ace_in_runs", "tiebreak_ace"]  # fmt: skip
    return [kw.get(name, 0) for name in names]


def test_positions(backend: Any) -> None:
    """deck[i] goes to seat i % n for i < floor(26/n) * n; the rest is the
    pile, top first: the rest of the first half, then the second half."""
    for n in (2, 3, 4, 5, 8):
        deck = list(range(51, -1, -1))
        s = backend.new_state("notakers", params(), n, 0, deck)
        each = 26 // n
        for p in range(n):
            assert hand(s, p).ids() == sorted(deck[p : each * n : n])
        deals = [e for e in s.events() if e[0] == EV_DEAL]
        assert [(e[1], e[3]) for e in deals] == [(i % n, deck[i]) for i in range(each * n)]
        play(s, ACTION_DRAW)
        assert hand(s, 0).ids() == sorted(deck[0 : each * n : n] + deck[each * n : each * n + n])


def test_bad_decks_are_refused(backend: Any) -> None:
    good = list(range(52))
    for bad in (good[:51], [*good[:51], 0], [*good[:51], 52], [*good, 0]):
        with pytest.raises(ValueError):
            backend.new_state("notakers", params(), 4, 0, bad)


def test_the_ask_example(backend: Any) -> None:
    """The worked Ask example of docs/notakers.rst: P1 asks P2 for sevens;
    P2 has none and passes; P3 holds two sevens and gives one of his choice,
    P4 gives his only seven (7S).  Seats 0..3 are P1..P4."""
    s = backend.new_state(
        "notakers",
        params(),
        4,
        0,
        stack(["2C 3C 4C 5C 6C 8C", "2D 3D 4D 5D 6D 8D", "7H 7D 2H 3H 4H 5H", "7S 2S 3S 4S 5S 6S"]),
    )
    play(s, ask_action(1, RANK_7))
    public = 0xFFFFFFFF
    assert s.events()[-2:] == [(EV_ASK, 0, 1, RANK_7, 0, public), (EV_PASS, 1, 0, 0, 0, public)]
    assert s.current_player() == 2
    sevens = [ACTION_GIVE + c for c in ids("7D 7H")]
    assert s.legal_actions() == sevens  # one 7, his choice; he cannot stop first
    play(s, ACTION_GIVE + ids("7H")[0])
    assert s.current_player() == 3 and s.legal_actions() == [ACTION_GIVE + ids("7S")[0]]
    play(s, ACTION_GIVE + ids("7S")[0])
    gives = [e[:5] for e in s.events() if e[0] == EV_GIVE]
    assert gives == [(EV_GIVE, 2, 0, ids("7H")[0], 1), (EV_GIVE, 3, 0, ids("7S")[0], 1)]
    assert hand(s, 0) == CardSet("2C 3C 4C 5C 6C 8C 7H 7S")
    assert hand(s, 2) == CardSet("7D 2H 3H 4H 5H") and hand(s, 3) == CardSet("2S 3S 4S 5S 6S")
    assert s.current_player() == 1  # the turn is over
    # what the others learned: P2 holds no seven; P1 knows where his 7s came from
    for p in (0, 2, 3):
        assert backend.notakers_knowledge(s, p)[2][1] & bits("7C 7D 7H 7S") == bits("7C 7D 7H 7S")
    assert backend.notakers_knowledge(s, 2)[0][0] == bits("7H")
    assert backend.notakers_knowledge(s, 3)[0][0] == bits("7S")


def test_no_takers(backend: Any) -> None:
    """Nobody holds the asked card: the asker gives each other player one card
    of his choice, in seat order, and stops when his hand is empty (8 players,
    3 cards each)."""
    hands = ["AC AD AH", "2C 2D 2H", "3C 3D 3H", "4C 4D 4H", "5C 5D 5H", "6C 6D 6H",
             "7C 7D 7H", "8C 8D 8H"]  # fmt: skip
    s = backend.new_state("notakers", params(), 8, 0, stack(hands))
    play(s, ask_action(3, 17 + ids("KS")[0]))  # the king of spades is in the pile
    assert [e[0] for e in s.events()[-3:]] == [EV_ASK, EV_PASS, EV_NO_TAKERS]
    assert s.current_player() == 0
    assert s.legal_actions() == [ACTION_GIVE + c for c in ids("AC AD AH")]
    play(s, ACTION_GIVE + ids("AH")[0], ACTION_GIVE + ids("AC")[0], ACTION_GIVE + ids("AD")[0])
    gives = [(e[1], e[2], e[3], e[4]) for e in s.events() if e[0] == EV_GIVE]
    assert gives == [(0, 1, ids("AH")[0], 2), (0, 2, ids("AC")[0], 2), (0, 3, ids("AD")[0], 2)]
    assert hand(s, 0) == CardSet() and hand(s, 1) == CardSet("2C 2D 2H AH")
    assert s.current_player() == 1  # hand empty: he stopped after three
    # everybody but the asker held no king of spades; the No Takers gives
    # (unseen by the others) may have brought it to seats 1..3
    assert all(backend.notakers_knowledge(s, 0)[2][q] & bits("KS") for q in range(1, 8))
    for p in range(1, 8):
        know = backend.notakers_knowledge(s, p)[2]
        assert [q for q in range(8) if know[q] & bits("KS")] == [q for q in range(4, 8) if q != p]


def test_forced_draw_on_an_empty_hand(backend: Any) -> None:
    """Seat 0 saves his whole hand, gets one card by No Takers and gives it
    away the same way; on his next turn he first draws n cards (marked
    forced), then acts, and may draw again."""
    deck = stack(
        ["AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"],
        "AS KS QH",
    )
    s = backend.new_state("notakers", params(), 2, 0, deck)
    play(s, *[ACTION_SAVE + c for c in ids("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC")])
    play(s, ACTION_SAVE_DONE)
    assert hand(s, 0) == CardSet() and len(saved(s, 0)) == 13
    play(s, ask_action(1, 13))  # seat 1 asks seat 0 for clubs: all saved, a Pass ...
    assert s.events()[-1][0] == EV_NO_TAKERS and s.current_player() == 1
    play(s, ACTION_GIVE + ids("KD")[0])  # ... and No Takers: he gives seat 0 one card
    assert s.current_player() == 0 and hand(s, 0) == CardSet("KD")  # not empty: no draw
    play(s, ask_action(1, 17 + ids("KD")[0]), ACTION_GIVE + ids("KD")[0])  # and back
    assert s.current_player() == 1 and hand(s, 0) == CardSet()
    play(s, ACTION_DRAW)
    assert hand(s, 1) >= CardSet("AS KS")
    assert s.current_player() == 0
    draws = [(e[3], e[4]) for e in s.events() if e[0] == EV_DRAW and e[1] == 0]
    assert draws == [(deck[28], 1), (deck[29], 1)] and deck[28] == ids("QH")[0]
    assert hand(s, 0) == CardSet([deck[28], deck[29]])
    assert ACTION_DRAW in s.legal_actions()
    play(s, ACTION_DRAW)
    assert hand(s, 0) == CardSet(deck[28:32])


@pytest.mark.parametrize(("short_draw", "takes"), [(0, True), (1, False)])
def test_short_draw(backend: Any, short_draw: int, takes: bool) -> None:
    """3 players: 8 cards each, pile 28 = 9 draws of 3 and one card; the tenth
    draw finds one card: it takes it and the game ends, or ends without it."""
    hands = ["AC 2C 3C 4C 5C 6C 7C 8C", "AD 2D 3D 4D 5D 6D 7D 8D", "AH 2H 3H 4H 5H 6H 7H 8H"]
    deck = stack(hands)
    s = backend.new_state("notakers", params(short_draw=short_draw), 3, 0, deck)
    for _ in range(9):
        play(s, ACTION_DRAW)
    assert s.current_player() == 0
    before = hand(s, 0)
    play(s, ACTION_DRAW)
    assert s.current_player() == TERMINAL
    last = CardSet([deck[51]])
    assert hand(s, 0) == (before | last if takes else before)
    assert [e[3] for e in s.events() if e[0] == EV_GAME_OVER] == [0]
    assert s.returns() == [
        ref.notakers_points(sum(1 << (16 * (c // 13) + c % 13) for c in hand(s, p).ids()), 0)
        for p in range(3)
    ]


def test_max_turns(backend: Any) -> None:
    """max_turns 2: seat 0 draws (7C 7D QD 2S onto 3H-7H 7S: four 7s and a
    run of 4, the first worked example of docs/notakers.rst, 9 points), seat 1 draws, and the
    game ends."""
    hands = ["3H 4H 5H 6H 7H 7S", "AC 3C 5C 9C JC KC", "AD 3D 5D 9D JD KD", "2H 9H JH KH 9S JS"]
    s = backend.new_state("notakers", params(max_turns=2), 4, 0, stack(hands, "7C 7D QD 2S"))
    play(s, ACTION_DRAW)
    assert hand(s, 0) == CardSet("3H 4H 5H 6H 7H 7S 7C 7D QD 2S")
    play(s, ACTION_DRAW)
    assert s.current_player() == TERMINAL
    assert [e[3] for e in s.events() if e[0] == EV_GAME_OVER] == [1]
    assert s.returns()[0] == 9
    scores = [e for e in s.events() if e[0] == EV_SCORE]
    assert scores[0][3] == 9 and scores[0][4] == 1


def test_facade_takes_names(backend: Any) -> None:
    """Game.new_initial_state(deck=...) with card names (the selected backend)."""
    game = NoTakersGame(num_players=4)
    names = [str(c) for c in CardSet(list(range(52)))]
    state = game.new_initial_state(5, deck=names)
    assert state.observation(0).hand == CardSet(list(range(0, 24, 4)))
    with pytest.raises(InvalidCardError):
        game.new_initial_state(5, deck=names[:-1])
