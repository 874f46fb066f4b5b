"""Nodde Knave from stacked decks: the docs/nodde.rst worked examples dealt
and played as real deals on the engine (C, and cffi when built), the order of
scoring and winning at once, go and the last card, the deck positions of
docs/nodde.rst, the first dealer, and C against the reference step by step
from random stacked decks (the oracle deals the stacked deck itself and is
fed the later shuffled deals from the engine's log)."""

from __future__ import annotations

import dataclasses
import json
import random
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from reference.nodde import ChanceFromEngine, NoddeState

from cardcore import _core
from pycards.cards import Card, CardSet
from pycards.errors import InvalidCardError, RulesError
from pycards.game import TERMINAL, Event, State
from pycards.games.nodde import NoddeGame, NoddeObservation, NoddeRules, score_hand

# The scenarios run the public State API, which runs on the engine; the oracle
# is checked against the engine step by step from random stacked decks below.
BACKENDS = [pytest.param(_core, id="c")]

MWYNWEN = NoddeRules.mwynwen()
WILL = NoddeRules.willughby()
TALL = 121  # a target nobody reaches in one deal


def game_of(rules: NoddeRules, players: int, dealer: int) -> NoddeGame:
    return NoddeGame(dataclasses.replace(rules, first_dealer=dealer), num_players=players)


def stacked(
    mod: ModuleType,
    game: NoddeGame,
    hands: list[str],
    turnup: str,
    rest: str = "",
    seed: int = 0,
) -> State[NoddeObservation]:
    """A state of ``game`` on backend ``mod`` dealt ``hands`` (by seat) and ``turnup``."""
    deck = [int(c) for c in game.stacked_deck(hands, turnup, rest=rest)]
    return State(game, mod.new_state("nodde", game.params, game.num_players, seed, deck), seed)


def deal_events(state: State[Any]) -> list[Event]:
    """The events of the current (or last) deal, as a spectator sees them."""
    ev = state.events()
    start = max(i for i, e in enumerate(ev) if e.kind == "new_deal")
    return ev[start:]


def calls(events: list[Event]) -> list[tuple[int, int]]:
    return [(e.player, e.value) for e in events if e.kind == "hand_score"]  # type: ignore[misc]


def play(state: State[Any], cards: str) -> None:
    for name in cards.split():
        state.apply(f"play {name}")


def pegged(events: list[Event], players: int) -> list[int]:
    """Points each seat pegged in ``events``, tallied from the log alone."""
    out = [0] * players
    for e in events:
        if e.kind in ("turned_knave", "hand_score", "last_card"):
            out[e.player] += e.value or 0
        elif e.kind == "play":
            out[e.player] += e.extra
    return out


def plays(events: list[Event]) -> list[tuple[int, int, str, int]]:
    """(seat, total, card, points) of each play."""
    return [
        (e.player, e.target, str(Card(e.value or 0)), e.extra) for e in events if e.kind == "play"
    ]


# ---------------------------------------------------------------------------
# docs/nodde.rst worked examples hand examples dealt for real

# With the turn-up KD (hand-computed where the docs have no example):
#   TH 5S 5C: 10 (2.5), 6H 6S 9C: 8, willughby 6 (2.5),
#   AC 3D 7S: 0 (no 15: sums 4 8 10 11 13 14 17 18 21; no pair, run, flush),
#   QH KS AH: pair KS KD 2 + 31 in hand (10+10+1+10) 2 = 4, willughby 2.
KD_TABLE = ["6H 6S 9C", "AC 3D 7S", "QH KS AH", "TH 5S 5C"]


@pytest.mark.parametrize("mod", BACKENDS)
@pytest.mark.parametrize(
    ("rules", "want"),
    [(MWYNWEN, [8, 0, 4, 10]), (WILL, [6, 0, 2, 10])],
    ids=["mwynwen", "willughby"],
)
def test_hand_scores_from_elder_to_dealer(
    mod: ModuleType, rules: NoddeRules, want: list[int]
) -> None:
    # 4 players, individual scores, seat 2 deals: seats 3, 0, 1, 2 call in turn
    rules = dataclasses.replace(rules, four_player_mode="individual", game_target=TALL)
    state = stacked(mod, game_of(rules, 4, 2), KD_TABLE, "KD")
    ev = deal_events(state)
    assert [e.kind for e in ev[:14]] == ["new_deal"] + ["deal_card"] * 12 + ["turnup"]
    assert str(Card(ev[13].value or 0)) == "KD" and ev[0].player == 2
    assert calls(ev) == [(3, want[3]), (0, want[0]), (1, want[1]), (2, want[2])]
    assert state.returns() == want
    assert state.current_player == 3  # the elder leads
    # each seat holds what the deck dealt him, and sees only his own cards
    for seat in range(4):
        assert state.observation(seat).hand == CardSet(KD_TABLE[seat])
        dealt = [e.value for e in state.events(seat) if e.kind == "deal_card" and e.player == seat]
        assert [str(Card(v or 0)) for v in dealt] == KD_TABLE[seat].split()


@pytest.mark.parametrize("mod", BACKENDS)
def test_partners_add_their_hands(mod: ModuleType) -> None:
    rules = dataclasses.replace(MWYNWEN, game_target=TALL)
    state = stacked(mod, game_of(rules, 4, 2), KD_TABLE, "KD")
    # sides: seats 0+2 = 8 + 4, seats 1+3 = 0 + 10
    assert state.returns() == [12, 10, 12, 10]
    assert state.observation(1).scores == (12, 10, 12, 10)


# hand, turn-up, mwynwen(), willughby() (docs/nodde.rst, worked examples)
EXAMPLES = [
    ("6H 6S 9C", "3D", 8, 8),
    ("TH 5S 5C", "KD", 10, 10),
    ("5H 5S 5C", "5D", 20, 20),
    ("4H 5H 6H", "6C", 13, 15),
    ("JC 7C 8C", "9C", 9, 10),
    ("6H 6S 9C", "KD", 8, 6),
    ("QH KS AC", "2D", 0, 0),
]


@pytest.mark.parametrize("mod", BACKENDS)
@pytest.mark.parametrize(("hand", "turnup", "seed_total", "will_total"), EXAMPLES)
def test_rules_2_5_hands_as_deals(
    mod: ModuleType, hand: str, turnup: str, seed_total: int, will_total: int
) -> None:
    used = CardSet(hand) | CardSet(turnup)
    other = " ".join(str(c) for c in list(~used)[:3])  # the lowest free cards
    for rules, total in ((MWYNWEN, seed_total), (WILL, will_total)):
        rules = dataclasses.replace(rules, game_target=TALL)
        for dealer in (0, 1):  # the example hand called first, then last
            state = stacked(mod, game_of(rules, 2, dealer), [hand, other], turnup)
            elder = 1 - dealer
            mine = score_hand(other, turnup, rules).total
            want = [(elder, [total, mine][elder]), (dealer, [total, mine][dealer])]
            assert calls(deal_events(state)) == want
            assert state.returns() == [total, mine]


# ---------------------------------------------------------------------------
# the turned knave (docs/nodde.rst.2 step 1)

# With the turn-up JH (hand-computed): 5C 5D 4S: fifteens 5C+JH, 5D+JH 4, pair 2 = 6;
# AC 2C 3D: fifteen 2+3+J 2, run A-2-3 2 = 4 (willughby: run 3, so 5).


@pytest.mark.parametrize("mod", BACKENDS)
@pytest.mark.parametrize(("scorer", "want"), [("dealer", [6, 6]), ("elder", [4, 8])])
def test_turned_knave_pegs_before_the_hands(mod: ModuleType, scorer: str, want: list[int]) -> None:
    rules = NoddeRules(turned_knave_scorer=scorer, game_target=TALL)  # type: ignore[arg-type]
    # seat 0 deals, seat 1 is elder
    state = stacked(mod, game_of(rules, 2, 0), ["AC 2C 3D", "5C 5D 4S"], "JH")
    ev = deal_events(state)
    i = next(k for k, e in enumerate(ev) if e.kind == "turnup")
    who = 0 if scorer == "dealer" else 1
    assert [(e.kind, e.player, e.value) for e in ev[i + 1 : i + 4]] == [
        ("turned_knave", who, 2),
        ("hand_score", 1, 6),
        ("hand_score", 0, 4),
    ]
    assert state.returns() == want


@pytest.mark.parametrize("mod", BACKENDS)
def test_knave_noddy_in_a_real_deal(mod: ModuleType) -> None:
    # JC 7C 8C + 9C: 9 (docs/nodde.rst, worked examples), of which knave noddy 1; the same hand
    # with the turn-up 9D: fifteen 7+8 2, run 2, flush of 3 clubs 3 = 7
    rules = dataclasses.replace(MWYNWEN, game_target=TALL)
    for turnup, total in (("9C", 9), ("9D", 7)):
        state = stacked(mod, game_of(rules, 2, 1), ["JC 7C 8C", "2H 4D 6S"], turnup)
        assert calls(deal_events(state))[0] == (0, total)


# ---------------------------------------------------------------------------
# the game ends at once, even during hand scoring (docs/nodde.rst.4)


@pytest.mark.parametrize("mod", BACKENDS)
def test_game_ends_in_the_middle_of_hand_scoring(mod: ModuleType) -> None:
    # 3 players to 10, seat 2 deals: seat 0 calls 8, seat 1 calls 10 and wins;
    # the dealer (QH KS AH, 4) never calls
    rules = NoddeRules(game_target=10)
    state = stacked(mod, game_of(rules, 3, 2), ["6H 6S 9C", "TH 5S 5C", "QH KS AH"], "KD")
    ev = deal_events(state)
    assert state.is_terminal and state.legal_actions() == []
    assert [(e.kind, e.player, e.target, e.value) for e in ev[-3:]] == [
        ("hand_score", 0, -1, 8),
        ("hand_score", 1, -1, 10),
        ("game_over", 1, 1, 10),
    ]
    assert state.returns() == [8, 10, 0]


@pytest.mark.parametrize("mod", BACKENDS)
def test_partners_win_before_the_dealer_calls(mod: ModuleType) -> None:
    # partners to 15, seat 3 deals: 8 (seat 0), 0 (seat 1), 10 (seat 2): 18
    rules = NoddeRules(game_target=15)
    hands = ["6H 6S 9C", "AC 3D 7S", "TH 5S 5C", "QH KS AH"]
    state = stacked(mod, game_of(rules, 4, 3), hands, "KD")
    ev = deal_events(state)
    assert calls(ev) == [(0, 8), (1, 0), (2, 10)]
    assert (ev[-1].kind, ev[-1].player, ev[-1].target, ev[-1].value) == ("game_over", 2, 0, 18)
    assert state.returns() == [18, 0, 18, 0]


@pytest.mark.parametrize("mod", BACKENDS)
def test_turned_knave_can_win_before_any_call(mod: ModuleType) -> None:
    state = stacked(mod, game_of(NoddeRules(game_target=2), 2, 0), ["AC 2C 3D", "5C 5D 4S"], "JH")
    ev = deal_events(state)
    assert [e.kind for e in ev[-3:]] == ["turnup", "turned_knave", "game_over"]
    assert state.returns() == [2, 0] and state.is_terminal


# ---------------------------------------------------------------------------
# the play examples of docs/nodde.rst worked examples, played


@pytest.mark.parametrize("mod", BACKENDS)
def test_play_7h_8s_9h_6c_then_go_and_last_card(mod: ModuleType) -> None:
    # seat 1 deals; hands score 0 with the turn-up 4C (no 15, pair, run or flush)
    rules = NoddeRules(game_target=TALL)
    state = stacked(mod, game_of(rules, 2, 1), ["7H 9H KC", "8S 6C QD"], "4C")
    assert state.returns() == [0, 0]
    play(state, "7H 8S 9H 6C")
    ev = deal_events_before_next(state)
    # 15 makes 2 (8S); 24, run of 3 makes 2 (9H); 30, run of 4 makes 4 (6C)
    assert plays(ev) == [(0, 7, "7H", 0), (1, 15, "8S", 2), (0, 24, "9H", 2), (1, 30, "6C", 4)]
    # nobody can add to 30 (KC, QD): both say go, the 6C pegs the last card
    assert [(e.kind, e.player, e.target) for e in ev[-3:]] == [
        ("go", 0, 30),
        ("go", 1, 30),
        ("last_card", 1, 30),
    ]
    assert pegged(ev, 2) == [2, 7]
    # the log accounts for every point, the next deal's calls included
    assert pegged(state.events(), 2) == state.returns()


def deal_events_before_next(state: State[Any]) -> list[Event]:
    """The events of the deal just played (the one before the current deal)."""
    ev = state.events()
    starts = [i for i, e in enumerate(ev) if e.kind == "new_deal"]
    return ev[starts[-2] : starts[-1]]


@pytest.mark.parametrize("mod", BACKENDS)
def test_game_ends_on_a_card_in_play(mod: ModuleType) -> None:
    # the same deal to 6: the 6C (2 + 4) wins at once; no go, no last card
    rules = NoddeRules(game_target=6)
    state = stacked(mod, game_of(rules, 2, 1), ["7H 9H KC", "8S 6C QD"], "4C")
    play(state, "7H 8S 9H 6C")
    ev = state.events()
    assert [e.kind for e in ev[-2:]] == ["play", "game_over"]
    assert (ev[-1].player, ev[-1].target, ev[-1].value) == (1, 1, 6)
    assert state.is_terminal and state.returns() == [2, 6]


@pytest.mark.parametrize("mod", BACKENDS)
@pytest.mark.parametrize(("score_25", "qh"), [("off", 3), ("flat4", 3 + 4), ("per_card", 3 + 3)])
def test_play_kh_5h_qh_6s_ends_the_deal_at_31(mod: ModuleType, score_25: str, qh: int) -> None:
    rules = NoddeRules(game_target=TALL, score_25=score_25)  # type: ignore[arg-type]
    # seat 1 deals, seat 0 leads; with the turn-up AC both hands score 0:
    # KH QH 3S: sets total 11 4 20 13 21 14 23 24 (no 15, 25 or 31), no run (Q K only);
    # 5H 6S 2D: sets total 11 7 6 8 7 3 13 12 8 9 14 (no 15), no run
    state = stacked(mod, game_of(rules, 2, 1), ["KH QH 3S", "5H 6S 2D"], "AC")
    assert state.returns() == [0, 0]
    play(state, "KH 5H QH 6S")
    ev = deal_events_before_next(state)
    # 15 makes 2; 25, flush of 3 hearts makes 3 (and 25 when on); 31 makes 2
    assert plays(ev) == [(0, 10, "KH", 0), (1, 15, "5H", 2), (0, 25, "QH", qh), (1, 31, "6S", 2)]
    assert ev[-1].kind == "play"  # 31 ends the deal: no go, no last card
    assert deal_events(state)[0].player == 0  # the next deal, dealt by seat 0
    assert pegged(ev, 2) == [qh, 4]


@pytest.mark.parametrize("mod", BACKENDS)
def test_go_and_the_others_play_on(mod: ModuleType) -> None:
    # 3 players, seat 2 deals; turn-up 4H.  TC (10), TD pair 2 (20), 9S (29);
    # seat 0 holds KH QS: go at 29; AH (30); AS pair 2 + 31 2 ends the deal
    rules = NoddeRules(game_target=TALL)
    state = stacked(mod, game_of(rules, 3, 2), ["TC KH QS", "TD AH KD", "9S AS QC"], "4H")
    play(state, "TC TD 9S")
    assert state.current_player == 1
    assert state.events()[-1].kind == "go" and state.events()[-1].player == 0
    assert state.observation(1).gone == (1, 0, 0)
    play(state, "AH AS")
    ev = deal_events_before_next(state)
    assert plays(ev) == [
        (0, 10, "TC", 0),
        (1, 20, "TD", 2),
        (2, 29, "9S", 0),
        (1, 30, "AH", 0),
        (2, 31, "AS", 4),
    ]
    assert [(e.kind, e.player, e.target) for e in ev if e.kind in ("go", "last_card")] == [
        ("go", 0, 29)
    ]
    assert pegged([e for e in ev if e.kind == "play"], 3) == [0, 2, 4]


@pytest.mark.parametrize("mod", BACKENDS)
def test_illegal_plays_in_a_known_position(mod: ModuleType) -> None:
    rules = NoddeRules(game_target=TALL)
    state = stacked(mod, game_of(rules, 3, 2), ["TC KH QS", "TD AH KD", "9S AS QC"], "4H")
    play(state, "TC TD 9S")  # 29, seat 1 to act with AH KD
    assert state.legal_action_names() == ["play AH"]
    for action, reason in (("play KD", "over 31"), ("play 9S", "card not held")):
        assert not state.can_apply(action)
        with pytest.raises(ValueError, match=reason):
            state.apply(action)


# ---------------------------------------------------------------------------
# deck positions (docs/nodde.rst) and the first dealer


@pytest.mark.parametrize("mod", BACKENDS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_deck_positions(mod: ModuleType, players: int) -> None:
    deck = random.Random(players).sample(range(52), 52)
    for dealer in range(players):
        game = NoddeGame(NoddeRules(first_dealer=dealer, game_target=TALL), num_players=players)
        state = State(game, mod.new_state("nodde", game.params, players, 9, deck), 9)
        ev = deal_events(state)
        for p in range(players):
            dealt = [e.value for e in state.events(p) if e.kind == "deal_card" and e.player == p]
            k = (p - dealer - 1) % players  # 0 for the elder
            assert dealt == [deck[k], deck[k + players], deck[k + 2 * players]]
        turnup = next(e for e in ev if e.kind == "turnup")
        assert turnup.value == deck[3 * players] and turnup.player == dealer
        assert ev[0].extra == 1  # a fresh deck


@pytest.mark.parametrize("mod", BACKENDS)
def test_no_reshuffle_deals_on_down_the_stacked_deck(mod: ModuleType) -> None:
    rules = NoddeRules(reshuffle_each_deal=False, game_target=TALL, first_dealer=0)
    game = NoddeGame(rules, num_players=2)
    deck = random.Random(5).sample(range(52), 52)
    state = State(game, mod.new_state("nodde", game.params, 2, 3, deck), 3)
    rng = random.Random(5)
    while sum(e.kind == "new_deal" for e in state.events()) < 8:
        state.apply(rng.choice(state.legal_actions()))
    ev = state.engine_state.events()  # every value
    dealt = [e[3] for e in ev if e[0] in (1, 2)]  # deal_card, turnup
    # 7 deals of 7 cards go down the deck in order: the 8th deal is a new shuffle
    assert dealt[:49] == deck[:49]
    deals = [e for e in state.events() if e.kind == "new_deal"]
    assert [e.extra for e in deals] == [1, 0, 0, 0, 0, 0, 0, 1]
    assert [e.player for e in deals] == [0, 1, 0, 1, 0, 1, 0, 1]


@pytest.mark.parametrize("mod", BACKENDS)
def test_stacked_deck_rest_is_the_next_deal(mod: ModuleType) -> None:
    rules = NoddeRules(reshuffle_each_deal=False, game_target=TALL, first_dealer=1)
    game = NoddeGame(rules, num_players=2)
    # deal 2 (seat 0 deals, seat 1 is elder): seat 1 gets 2C 3C 4C, seat 0 AD 2D 3D
    rest = "2C AD 3C 2D 4C 3D 5S"
    state = stacked(mod, game, ["7H 9H KC", "8S 6C QD"], "4H", rest=rest)
    play(state, "7H 8S 9H 6C")  # 30: go, go, last card, next deal
    assert state.observation(1).hand == CardSet("2C 3C 4C")
    assert state.observation(0).hand == CardSet("AD 2D 3D")
    assert state.observation(0).turnup == Card.parse("5S")
    assert state.observation(0).dealer == 0


def below(x: int, n: int) -> int | None:
    """cc_rng_below's answer for one raw draw x (None: rejected, draw again)."""
    return x % n if x >= (2**64 - n) % n else None


@pytest.mark.parametrize("mod", BACKENDS)
def test_first_dealer_is_the_first_draw_unless_fixed(mod: ModuleType) -> None:
    for players in (2, 3, 4):
        for seed in range(8):
            drawn = below(mod.rng_sequence(seed, 1)[0], players)
            assert drawn is not None
            free = mod.new_state("nodde", NoddeRules().to_params(), players, seed)
            assert free.events()[0][:2] == (0, drawn)  # new_deal by the dealer
            for fixed in range(players):
                params = NoddeRules(first_dealer=fixed).to_params()
                state = mod.new_state("nodde", params, players, seed)
                assert state.events()[0][:2] == (0, fixed)
                if fixed == drawn:  # the draw is made anyway: the same game
                    assert state.events() == free.events()
                    assert state.returns() == free.returns()


@pytest.mark.parametrize("mod", BACKENDS)
def test_a_shuffled_first_deal_replays_from_its_deck(mod: ModuleType) -> None:
    """Write a seeded game's first deal out as a deck (documented positions):
    the stacked game deals the same first deal."""
    for players in (2, 3, 4):
        params = NoddeRules().to_params()
        free = mod.new_state("nodde", params, players, 11)
        ev = free.events()
        dealer = ev[0][1]
        cards = [e[3] for e in ev[: 3 * players + 2] if e[0] in (1, 2)]
        deck = cards + [c for c in range(52) if c not in cards]
        fixed = NoddeRules(first_dealer=dealer).to_params()
        again = mod.new_state("nodde", fixed, players, 11, deck)
        assert again.events() == ev  # the first deal, up to the first decision
        assert again.legal_actions() == free.legal_actions()
        assert again.returns() == free.returns()


# ---------------------------------------------------------------------------
# input checking


@pytest.mark.parametrize("mod", BACKENDS)
def test_bad_decks_are_refused(mod: ModuleType) -> None:
    params = NoddeRules().to_params()
    good = list(range(52))
    for bad in (good[:-1], [*good[:-1], 0], [*good, 52], [*good[:-1], 52], [], good * 2):
        with pytest.raises(ValueError, match="deck"):
            mod.new_state("nodde", params, 2, 0, bad)
    with pytest.raises(TypeError, match=r"deck(\[3\]| entry 3)"):
        mod.new_state("nodde", params, 2, 0, [0, 1, 2, "3", *range(4, 52)])
    with pytest.raises(ValueError):
        mod.new_state("nodde", NoddeRules(first_dealer=2).to_params(), 2, 0, good)
    assert mod.new_state("nodde", params, 2, 0, good).current_player() in (0, 1)


def test_public_api_deck_checks_and_json() -> None:
    game = NoddeGame(NoddeRules(first_dealer=0), num_players=3)
    names = [str(Card(c)) for c in reversed(range(52))]
    state = game.new_initial_state(4, deck=names)
    assert state.deck == list(reversed(range(52)))
    assert state.observation(1).hand == CardSet("KS TS 7S")  # 1 is elder: cards 0, 3, 6
    rng = random.Random(4)
    for _ in range(10):
        state.apply(rng.choice(state.legal_actions()))
    text = state.to_json()
    assert json.loads(text)["deck"] == state.deck
    again = State.from_json(text)
    assert again.events() == state.events() and again.returns() == state.returns()
    for bad in (names[:-1], [*names[:-1], "KS"], [*names[:-1], "ZZ"]):
        with pytest.raises(InvalidCardError):
            game.new_initial_state(4, deck=bad)
    with pytest.raises(RulesError, match="first_dealer"):
        NoddeGame(NoddeRules(first_dealer=3), num_players=3)


def test_stacked_deck_helper_checks_its_input() -> None:
    game = NoddeGame(num_players=2)
    with pytest.raises(ValueError, match="name the dealer"):
        game.stacked_deck(["AC 2C 3C", "4C 5C 6C"], "7C")
    with pytest.raises(ValueError, match="one hand per seat"):
        game.stacked_deck(["AC 2C 3C"], "7C", dealer=0)
    with pytest.raises(ValueError, match="dealer must be"):
        game.stacked_deck(["AC 2C 3C", "4C 5C 6C"], "7C", dealer=2)
    with pytest.raises(InvalidCardError, match="3 cards"):
        game.stacked_deck(["AC 2C", "4C 5C 6C"], "7C", dealer=0)
    with pytest.raises(InvalidCardError, match="twice"):
        game.stacked_deck(["AC 2C 3C", "4C 5C 6C"], "AC", dealer=0)
    deck = game.stacked_deck(["AC 2C 3C", [Card.parse("4C"), 4, "6C"]], "7C", dealer=0, rest="KS")
    assert sorted(deck) == list(range(52)) and str(deck[7]) == "KS"
    # seat 0 deals: seat 1 (the elder) gets the first card
    assert [str(c) for c in deck[:7]] == ["4C", "AC", "5C", "2C", "6C", "3C", "7C"]


# ---------------------------------------------------------------------------
# C against the reference (and cffi) from random stacked decks


def same(a: Any, b: Any, n: int) -> None:
    assert a.current_player() == b.current_player()
    assert a.legal_actions() == b.legal_actions()
    assert a.returns() == b.returns()
    assert a.events() == b.events()
    for p in range(n):
        assert np.array_equal(a.observe_tensor(p), b.observe_tensor(p))


def random_params(rng: random.Random, n: int) -> list[int]:
    p = [rng.randint(0, 1), 1, rng.randint(0, 1), rng.randint(0, 1), rng.randint(0, 1)]
    p += [rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 1)]
    p += [rng.choice([31, 61, 121, 21, 15]), rng.choice([-1, rng.randrange(n)])]
    if n == 2:
        p[1] = rng.randint(0, 1)
    return p


def stacked_differential(games: int, seed: int) -> int:
    """The oracle deals the stacked deck itself; the later shuffled deals
    it is fed from the engine's log (the engine acts first)."""
    rng = random.Random(seed)
    steps = 0
    for _ in range(games):
        n = rng.choice([2, 3, 4])
        params = random_params(rng, n)
        game_seed = rng.getrandbits(64)
        deck = rng.sample(range(52), 52)
        c = _core.new_state("nodde", params, n, game_seed, deck)
        ref = NoddeState(tuple(params), n, game_seed, deck, chance=ChanceFromEngine(c))
        states = [c, ref]
        while True:
            for other in states[1:]:
                same(states[0], other, n)
            if states[0].current_player() == TERMINAL:
                break
            action = rng.choice(states[0].legal_actions())
            for st in states:
                assert st.apply(action) == 0
            steps += 1
    return steps


def test_stacked_decks_c_matches_reference() -> None:
    assert stacked_differential(games=25, seed=7) > 250


@pytest.mark.slow
def test_stacked_decks_c_matches_reference_many() -> None:
    assert stacked_differential(games=500, seed=8) > 5000


@pytest.mark.parametrize("mod", BACKENDS)
def test_sampling_a_stacked_game_forgets_the_stock_order(mod: ModuleType) -> None:
    rules = NoddeRules(reshuffle_each_deal=False, game_target=TALL, first_dealer=1)
    game = NoddeGame(rules, num_players=2)
    rest = "2C AD 3C 2D 4C 3D 5S"
    state = stacked(mod, game, ["7H 9H KC", "8S 6C QD"], "4H", rest=rest)
    play(state, "7H")
    next_hands = set()
    for s in range(8):
        sample = state.sample_infoset(0, s)
        assert sample.observation(0) == state.observation(0)
        assert np.array_equal(sample.observation_tensor(0), state.observation_tensor(0))
        # the dealer's hidden cards: any set that fits his call
        dealer = sample.observation(1)
        called = score_hand(dealer.hand | dealer.played[1], "4H", rules).total
        assert called == state.observation(1).hand_scores[1]
        while sample.observation(0).dealer == 1:
            sample.apply(sample.legal_actions()[0])
        next_hands.add(sample.observation(1).hand)
    # the stacked stock would give seat 1 (the elder of deal 2) 2C 3C 4C every time
    assert len(next_hands) > 1
