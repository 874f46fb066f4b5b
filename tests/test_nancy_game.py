"""The Game of Nancy as a game (RULES.md section 1): deals, bidding, the call,
the Hound and the discard, trick play, the Outsider, results, illegal actions,
leaks and information-set samples.

Scenarios with chosen cards are built on the plain-Python reference (whose
state is plain attributes); the C engine plays the very same games (see
test_nancy_diff.py), and the property tests below run on both backends.
"""

from __future__ import annotations

import itertools
import random
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from cardcore import _core
from pycards import _reference
from pycards._reference import nancy as ref
from pycards.cards import NancyCard, to_mask78
from pycards.game import State
from pycards.nancy import (
    ACTION_CALL,
    ACTION_DISCARD,
    ACTION_PICK,
    ACTION_PLAY,
    NancyGame,
    NancyObservation,
    NancyRules,
    settlement,
)

BACKENDS = [pytest.param(_core, id="c"), pytest.param(_reference, id="reference")]
EV = {name: i for i, name in enumerate(
    ["dealer", "deal", "bid", "taker", "call", "hound", "discard", "play", "partner", "flip",
     "trick", "debt", "exchange", "result", "score"])}  # fmt: skip
SEEN_ALL = 0xFFFFFFFF
RANGES = [(0, 12), (0, 1), (0, 1), (1, 9), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1),
          (0, 1), (0, 2), (0, 1), (0, 2), (0, 1), (1, 2)]  # fmt: skip
DEFAULT = NancyRules().to_params()


def card(text: str) -> int:
    return int(NancyCard.parse(text))


def cards(text: str) -> set[int]:
    return {card(t) for t in text.split()}


def random_params(rng: random.Random) -> list[int]:
    return [rng.randint(lo, hi) for lo, hi in RANGES]


def observe(b: ModuleType, s: Any, n: int, player: int, rules: NancyRules) -> NancyObservation:
    game = NancyGame(rules, n)
    return game.decode_observation(State(game, s, 0, []), player)


# ---------------------------------------------------------------------------
# the deal (RULES.md 1.2)

LAYOUT = {2: (20, 8, 8, 6), 3: (18, 6, 0, 6), 4: (12, 6, 0, 6), 5: (9, 6, 0, 3), 6: (6, 6, 0, 6)}


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_deal_layout(b: ModuleType, n: int) -> None:
    hand, up, down, hound = LAYOUT[n]
    s = b.new_state("nancy", DEFAULT, n, 12345)
    deals = [e for e in s.events() if e[0] == EV["deal"]]
    assert len(deals) == 78 and len({e[3] for e in deals}) == 78
    for q in range(n):
        mine = [e for e in deals if e[1] == q]
        assert sum(e[2] == 0 for e in mine) == hand
        assert sum(e[2] == 1 for e in mine) == up
        assert sum(e[2] == 2 for e in mine) == down
        for e in mine:  # face-up public, hand private, table face-down unseen
            assert e[5] == {0: 1 << q, 1: SEEN_ALL, 2: 0}[e[2]]
        t = s.observe_tensor(q)
        assert t[n : n + 78].sum() == hand
    assert sum(e[2] == 3 and e[5] == 0 for e in deals) == hound
    obs = observe(b, s, n, 0, NancyRules())
    assert [len(f) for f in obs.face_up] == [up] * n
    assert obs.table_face_down == ((8, 8) if n == 2 else (0,) * n)
    assert obs.phase == "bidding" and obs.current_player == (obs.dealer + 1) % n


@pytest.mark.parametrize("b", BACKENDS)
def test_face_up_count_variant(b: ModuleType) -> None:
    rules = NancyRules(face_up_count=3)
    s = b.new_state("nancy", rules.to_params(), 5, 7)
    obs = observe(b, s, 5, 1, rules)
    assert [len(f) for f in obs.face_up] == [3] * 5
    assert len(obs.hand) == 12


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize("n", [2, 3, 5])
def test_hound_position_rule(b: ModuleType, n: int) -> None:
    hsize = LAYOUT[n][3]
    for seed in range(20):
        for rule in (0, 1):
            params = list(DEFAULT)
            params[1] = rule
            s = b.new_state("nancy", params, n, seed)
            order = [e[2] == 3 for e in s.events() if e[0] == EV["deal"]]
            positions = [i for i, h in enumerate(order) if h]
            assert len(positions) == hsize
            if rule == 0:  # the last cards of the shuffled deck
                assert positions == list(range(78 - hsize, 78))
            else:  # never among the first or last 3 cards dealt, never two together
                assert all(3 <= i <= 74 for i in positions)
                assert all(b2 - a2 > 1 for a2, b2 in itertools.pairwise(positions))


# ---------------------------------------------------------------------------
# bidding (RULES.md 1.3.4)


@pytest.mark.parametrize("b", BACKENDS)
def test_single_round_bidding(b: ModuleType) -> None:
    s = b.new_state("nancy", DEFAULT, 4, 1)
    first = s.current_player()
    assert s.legal_actions() == list(range(10))
    assert s.apply(3) == 0
    assert s.legal_actions() == [0, 4, 5, 6, 7, 8, 9]
    assert s.verify(3) == 3 and s.verify(2) == 3
    assert s.apply(0) == 0 and s.apply(5) == 0 and s.apply(0) == 0
    taker = [e for e in s.events() if e[0] == EV["taker"]]
    assert taker == [(EV["taker"], (first + 2) % 4, -1, 5, 0, SEEN_ALL)]
    assert s.current_player() == (first + 2) % 4  # the Taker discards


@pytest.mark.parametrize("b", BACKENDS)
def test_min_bid(b: ModuleType) -> None:
    params = list(DEFAULT)
    params[3] = 4
    s = b.new_state("nancy", params, 3, 1)
    assert s.legal_actions() == [0, 4, 5, 6, 7, 8, 9]
    assert s.verify(2) == 4


@pytest.mark.parametrize("b", BACKENDS)
def test_all_pass_redeals(b: ModuleType) -> None:
    s = b.new_state("nancy", DEFAULT, 4, 2)
    dealer = s.events()[0][1]
    for _ in range(4):
        assert s.apply(0) == 0
    head = s.events()[0]
    assert head[0] == EV["dealer"] and head[1] == (dealer + 1) % 4
    assert head[3] == 0 and head[4] == 1  # no round counted, one thrown-in deal
    assert s.returns() == [0, 0, 0, 0]
    assert s.current_player() == (dealer + 2) % 4


@pytest.mark.parametrize("b", BACKENDS)
def test_dealer_forced(b: ModuleType) -> None:
    params = list(DEFAULT)
    params[4] = 1
    s = b.new_state("nancy", params, 4, 2)
    for _ in range(3):
        s.apply(0)
    assert 0 not in s.legal_actions() and s.verify(0) == 5
    before = s.events()
    assert s.apply(0) == 5 and s.events() == before
    assert "may not pass" in s.reason_text(5)
    assert s.apply(1) == 0


@pytest.mark.parametrize("b", BACKENDS)
def test_open_auction(b: ModuleType) -> None:
    params = list(DEFAULT)
    params[2] = 1
    s = b.new_state("nancy", params, 3, 5)
    p0 = s.current_player()
    s.apply(2)  # p0 bids 2
    s.apply(3)  # p1 bids 3
    s.apply(0)  # p2 passes and is out
    assert s.current_player() == p0  # bidding goes round again
    s.apply(4)
    assert s.current_player() == (p0 + 1) % 3  # p2 is skipped
    s.apply(0)
    taker = [e for e in s.events() if e[0] == EV["taker"]]
    assert taker and taker[0][1] == p0 and taker[0][3] == 4


# ---------------------------------------------------------------------------
# rigged reference states


def rig(n: int, params: Any, dealer: int, hands: list[str], hound: str = "") -> ref.NancyState:
    """A reference state in bidding with the given hands (all face-down)."""
    s = _reference.new_state("nancy", params, n, 0)
    assert isinstance(s, ref.NancyState)
    s.dealer = dealer
    s.cur = (dealer + 1) % n
    s.hand = [cards(h) for h in hands]
    s.up = [set() for _ in range(n)]
    s.hound = cards(hound)
    s.each = len(s.hand[0])
    return s


def rig_play(
    n: int, params: Any, dealer: int, taker: int, hands: list[str], bid: int = 1, partner: int = -1
) -> ref.NancyState:
    """A reference state at the first trick, Taker chosen, nothing discarded."""
    s = rig(n, params, dealer, hands)
    s.taker = taker
    s.partner = partner
    s.high_bid = bid
    s.high_bidder = taker
    s.phase = ref.PLAY
    s.leader = s.cur = (dealer + 1) % n
    s.trick_index = 0
    return s


def play(s: ref.NancyState, *names: str) -> None:
    for name in names:
        code = s.apply(ACTION_PLAY + card(name))
        assert code == 0, (name, s.reason_text(code))


def events_of(s: Any, kind: str) -> list[tuple[int, ...]]:
    return [e for e in s.events() if e[0] == EV[kind]]


# ---------------------------------------------------------------------------
# partner call, Hound, discard (RULES.md 1.3.5-6)


def test_call_queens_or_jacks() -> None:
    hands = ["QR QS QX QP JR 2R", "JS 3R", "4R 5R", "6R 7R", "8R 9R"]
    s = rig(5, DEFAULT, 4, hands, hound="1S 2S 3S")
    for _ in range(4):
        s.apply(0)
    s.apply(3)  # seat 4 (the dealer, last) bids 3
    s2 = rig(5, DEFAULT, 4, hands, hound="1S 2S 3S")
    s2.apply(2)  # seat 0 holds all four Queens
    for _ in range(4):
        s2.apply(0)
    assert s2.phase == ref.CALL and s2.cur == 0
    assert s2.legal_actions() == sorted(ACTION_CALL + c for c in cards("JR JS JX JP"))
    assert s2.verify(ACTION_CALL + card("QR")) == 6
    s2.apply(ACTION_CALL + card("JS"))
    assert s2.partner == 1
    assert s2.required_taker_cards == cards("QR QS QX QP")
    # self_call_allowed = false: a card he holds may not be named
    params = list(DEFAULT)
    params[5] = 0
    s3 = rig(5, params, 4, hands, hound="1S 2S 3S")
    s3.apply(2)
    for _ in range(4):
        s3.apply(0)
    assert s3.legal_actions() == sorted(ACTION_CALL + c for c in cards("JS JX JP"))


def test_called_card_in_hound_or_own_hand_plays_alone() -> None:
    hands = ["QR 1R 2R", "3R 4R 5R", "6R 7R 8R", "9R 10R JR", "CR KR 1S"]
    s = rig(5, DEFAULT, 4, hands, hound="QS 2S 3S")
    s.apply(2)
    for _ in range(4):
        s.apply(0)
    s.apply(ACTION_CALL + card("QS"))  # in the Hound
    assert s.partner == -1
    s = rig(5, DEFAULT, 4, hands, hound="QS 2S 3S")
    s.apply(2)
    for _ in range(4):
        s.apply(0)
    s.apply(ACTION_CALL + card("QR"))  # his own
    assert s.partner == -1


def test_partner_revealed_only_when_card_played() -> None:
    hands = ["1R 2R 3R", "QR 4S 5S", "6S 7S 8S", "9S 10S JS", "1P 2P 3P"]
    s = rig(5, DEFAULT, 4, hands, hound="1X 2X 3X")
    s.apply(2)
    for _ in range(4):
        s.apply(0)
    s.apply(ACTION_CALL + card("QR"))
    for c in ("1X", "2X", "3X"):
        s.apply(ACTION_DISCARD + card(c))
    assert s.phase == ref.PLAY and s.partner == 1
    for p in range(5):  # nobody's tensor names the Partner yet
        obs = observe(_reference, s, 5, p, NancyRules())
        assert not obs.partner_revealed and obs.partner is None
    play(s, "1R", "QR")
    assert events_of(s, "partner") == [(EV["partner"], 1, -1, card("QR"), 1, SEEN_ALL)]
    assert observe(_reference, s, 5, 3, NancyRules()).partner == 1


def test_hound_shown_or_hidden() -> None:
    hands = ["1R 2R 3R 4R 5R 6R 7R", "1S 2S 3S 4S 5S 6S 7S", "1X 2X 3X 4X 5X 6X 7X"]
    for shown in (1, 0):
        params = list(DEFAULT)
        params[6] = shown
        s = rig(3, params, 2, hands, hound="8R 8S 8X 8P 9P 10P")
        for p in range(3):  # before bidding ends nobody sees it
            assert observe(_reference, s, 3, p, NancyRules(reveal_hound=bool(shown))).hound is None
        s.apply(1)
        s.apply(0)
        s.apply(0)
        hound = events_of(s, "hound")
        assert len(hound) == 6 and all(e[5] == (SEEN_ALL if shown else 1) for e in hound)
        assert s.hand[0] >= cards("8R 8S 8X 8P 9P 10P")
        rules = NancyRules(reveal_hound=bool(shown))
        assert observe(_reference, s, 3, 0, rules).hound is not None
        assert (observe(_reference, s, 3, 1, rules).hound is not None) == bool(shown)


def test_discard_restrictions_and_shown_trumps() -> None:
    taker = "KR KS KX KP I XXI OUT II III IV V VI 1R 2R"
    hands = [
        taker,
        "3R 4R 5R 6R 7R 8R 9R 10R JR CR QR 1S 2S 3S",
        "4S 5S 6S 7S 8S 9S 10S JS CS QS 1X 2X 3X 4X",
    ]
    s = rig(3, DEFAULT, 2, hands, hound="VII VIII IX X XI XII")
    s.apply(1)
    s.apply(0)
    s.apply(0)
    assert s.phase == ref.DISCARD and s.cur == 0
    # 2 other cards for 6 discards: trumps II..XX allowed, never I, XXI, Kings, the Outsider
    allowed = cards("1R 2R II III IV V VI VII VIII IX X XI XII")
    assert set(a - ACTION_DISCARD for a in s.legal_actions()) == allowed
    assert s.verify(ACTION_DISCARD + card("KR")) == 8
    assert s.verify(ACTION_DISCARD + card("XXI")) == 8
    assert s.verify(ACTION_DISCARD + card("I")) == 8
    assert s.verify(ACTION_DISCARD + card("OUT")) == 8
    assert s.verify(ACTION_DISCARD + card("3R")) == 7
    for c in ("II", "III", "IV", "V"):
        s.apply(ACTION_DISCARD + card(c))
    # now exactly as many other cards as discards left: no more trumps
    assert set(a - ACTION_DISCARD for a in s.legal_actions()) == cards("1R 2R")
    assert s.verify(ACTION_DISCARD + card("VI")) == 9
    s.apply(ACTION_DISCARD + card("1R"))
    s.apply(ACTION_DISCARD + card("2R"))
    shown = [e for e in events_of(s, "discard") if e[5] == SEEN_ALL]
    assert {e[3] for e in shown} == cards("II III IV V") and all(e[4] == 1 for e in shown)
    hidden = [e for e in events_of(s, "discard") if e[5] != SEEN_ALL]
    assert {e[3] for e in hidden} == cards("1R 2R") and all(e[5] == 1 for e in hidden)
    obs = observe(_reference, s, 3, 1, NancyRules())
    assert set(obs.shown_trumps) == cards("II III IV V") and obs.discards is None
    assert set(observe(_reference, s, 3, 0, NancyRules()).discards or ()) == cards(
        "II III IV V 1R 2R"
    )


def test_plain_discard_allows_no_trump() -> None:
    hands = ["1R 2R 3R 4R 5R 6R 7R KR", "1S 2S 3S 4S 5S 6S 7S 8S", "1X 2X 3X 4X 5X 6X 7X 8X"]
    s = rig(3, DEFAULT, 2, hands, hound="II III IV V VI OUT")
    s.apply(1)
    s.apply(0)
    s.apply(0)
    assert set(a - ACTION_DISCARD for a in s.legal_actions()) == cards("1R 2R 3R 4R 5R 6R 7R")
    assert s.verify(ACTION_DISCARD + card("II")) == 9


# ---------------------------------------------------------------------------
# trick play, the Outsider (RULES.md 1.4, rules 12 and 13)

FOUR = ["2S KR XXI", "KS 5R 7P", "3S OUT 8P", "4S 6R 9P"]


def test_outsider_exchange_random() -> None:
    s = rig_play(4, DEFAULT, 3, 0, FOUR)
    play(s, "2S", "KS", "3S", "4S")  # seat 1 wins for the opponents
    assert s.piles[ref.OPP_PILE] == cards("2S KS 3S 4S")
    play(s, "5R", "OUT", "6R", "KR")  # an opponent's Outsider; the Taker wins
    ex = events_of(s, "exchange")
    assert len(ex) == 1 and ex[0][1] == -1 and ex[0][2] == ref.NANCY_PILE
    got = ex[0][3]
    assert got in cards("2S KS 3S 4S")
    assert ref.OUTSIDER in s.piles[ref.OPP_PILE]  # the Outsider stays with its side
    assert got in s.piles[ref.NANCY_PILE] and got not in s.piles[ref.OPP_PILE]
    assert s.chosen == (got == card("KS"))
    play(s, "XXI", "7P", "8P", "9P")
    result = events_of(s, "result")[0]
    assert bool(result[3] & 256) == (got == card("KS"))  # Chosen by the Outsider


def test_outsider_exchange_owner_choice() -> None:
    params = list(DEFAULT)
    params[9] = 1
    s = rig_play(4, params, 3, 0, FOUR)
    play(s, "2S", "KS", "3S", "4S")
    play(s, "5R", "OUT", "6R", "KR")
    assert s.phase == ref.PICK and s.cur == 2  # the Outsider's owner chooses
    assert s.legal_actions() == sorted(ACTION_PICK + c for c in cards("2S KS 3S 4S"))
    assert s.verify(ACTION_PICK + card("5R")) == 14
    assert s.verify(ACTION_PLAY + card("XXI")) == 2
    s.apply(ACTION_PICK + card("2S"))
    assert events_of(s, "exchange")[0][1:5] == (2, ref.NANCY_PILE, card("2S"), 0)
    assert s.phase == ref.PLAY and s.cur == 0 and not s.chosen


DEBT = ["KR 2S XXI", "5R KS 7P", "OUT 3S 8P", "6R 4S 9P"]


@pytest.mark.parametrize(("mode", "chooser"), [(0, 0), (2, 2), (1, None)])
def test_outsider_deferred_debt(mode: int, chooser: int | None) -> None:
    params = list(DEFAULT)
    params[11] = mode
    s = rig_play(4, params, 0, 0, DEBT, bid=1)
    play(s, "5R", "OUT", "6R", "KR")  # the Taker wins; the opponents have won nothing
    assert events_of(s, "debt") == [(EV["debt"], 2, 0, -1, 0, SEEN_ALL)]
    assert not events_of(s, "exchange")
    play(s, "2S", "KS", "3S", "4S")  # the opponents' first trick pays the debt
    if chooser is None:
        ex = events_of(s, "exchange")
        assert ex[0][1] == -1 and ex[0][3] in cards("2S KS 3S 4S") and ex[0][4] == 1
        return
    assert s.phase == ref.PICK and s.cur == chooser
    assert s.legal_actions() == sorted(ACTION_PICK + c for c in cards("2S KS 3S 4S"))
    s.apply(ACTION_PICK + card("KS"))
    assert events_of(s, "exchange")[0][1:5] == (chooser, ref.NANCY_PILE, card("KS"), 1)
    play(s, "7P", "8P", "9P", "XXI")
    result = events_of(s, "result")[0]
    assert result[3] & 256  # Chosen by the Outsider: a face card, by deferred pick
    assert not result[3] & 128  # the opponents won a trick: no Fat Nancy


def test_taker_outsider_paid_from_discards_only_when_allowed() -> None:
    hands = ["OUT 2S XXI", "5R KS 7P", "6R 3S 8P", "KR 4S 9P"]
    for from_discard in (0, 1):
        params = list(DEFAULT)
        params[10] = from_discard
        s = rig_play(4, params, 3, 0, hands)
        s.discards = cards("1X 2X")
        s.piles[ref.NANCY_PILE] = cards("1X 2X")
        play(s, "OUT", "5R", "6R", "KR")  # the Taker's Outsider; an opponent wins
        if from_discard:
            ex = events_of(s, "exchange")
            assert ex and ex[0][2] == ref.OPP_PILE and ex[0][3] in cards("1X 2X")
        else:
            assert events_of(s, "debt") and not events_of(s, "exchange")
        assert ref.OUTSIDER in s.piles[ref.NANCY_PILE]


def test_rule13_outsider_on_last_trick() -> None:
    # the Taker's Outsider on the last trick loses the round, objectives still scored
    s = rig_play(4, DEFAULT, 3, 0, ["OUT", "5R", "6R", "7R"], bid=1)
    play(s, "OUT", "5R", "6R", "7R")
    result = events_of(s, "result")[0]
    assert result[4] == 2  # lost by rule 13
    # an opponent's Outsider on the last trick: the Taker's side winning it wins the round
    s = rig_play(4, DEFAULT, 3, 0, ["KR", "OUT", "6R", "7R"], bid=9)
    play(s, "KR", "OUT", "6R", "7R")
    result = events_of(s, "result")[0]
    assert result[4] == 3 and result[2] == 1  # won by rule 13 with 1 objective (Fat Nancy)
    assert [e[3] for e in events_of(s, "score")] == settlement(4, 0, -1, 9, 1, True)
    # changes_side: the objectives decide
    params = list(DEFAULT)
    params[12] = 1
    s = rig_play(4, params, 3, 0, ["KR", "OUT", "6R", "7R"], bid=9)
    play(s, "KR", "OUT", "6R", "7R")
    assert events_of(s, "result")[0][4] == 0  # 1 of 9: lost, no rule 13


def test_fat_nancy_slam_exception() -> None:
    hands = ["KR OUT", "5R 1S", "6R 2S", "7R 3S"]
    for slam in (0, 1):
        params = list(DEFAULT)
        params[14] = slam
        s = rig_play(4, params, 3, 0, hands)
        play(s, "KR", "5R", "6R", "7R", "OUT", "1S", "2S", "3S")
        result = events_of(s, "result")[0]
        assert bool(result[3] & 128) == bool(slam)
        trick = events_of(s, "trick")[-1]
        assert trick[1] == (0 if slam else 3)


def test_partner_tricks_to() -> None:
    hands = ["1R 1S", "KR 2S", "2R 3S", "3R 4S", "4R KS"]
    for to in (0, 1):
        params = list(DEFAULT)
        params[8] = to
        s = rig_play(5, params, 4, 0, hands, partner=1)
        play(s, "1R", "KR", "2R", "3R", "4R")  # the Partner wins
        won = cards("1R KR 2R 3R 4R")
        assert s.piles[ref.NANCY_PILE if to else ref.OPP_PILE] == won


def test_two_player_table_piles_turn_up_after_the_trick() -> None:
    s = _reference.new_state("nancy", DEFAULT, 2, 3)
    assert isinstance(s, ref.NancyState)
    while s.phase != ref.PLAY:
        s.apply(s.legal_actions()[-1] if s.phase == ref.BID else s.legal_actions()[0])
    for _ in range(10):
        p = s.cur
        ups = [c for c in s.top[p] if c >= 0 and c in s._playable()]
        if not ups:
            s.apply(s.legal_actions()[0])
            continue
        top = ups[0]
        pile = s.top[p].index(top)
        beneath = s.bottom[p][pile]
        seen_before = [observe(_reference, s, 2, q, NancyRules()) for q in range(2)]
        assert all(beneath not in o.face_up[p] and beneath not in o.hand for o in seen_before)
        s.apply(ACTION_PLAY + top)
        if s.trick:  # the trick is not over: still face-down
            assert beneath not in s.up[p]
            s.apply(s.legal_actions()[0])
        assert beneath in s.up[p]
        flip = events_of(s, "flip")[-1]
        assert flip[1:5] == (p, -1, beneath, pile) and flip[5] == SEEN_ALL
        return
    pytest.fail("no face-up table card was playable")


# ---------------------------------------------------------------------------
# properties over random games, on both backends


def random_game(b: ModuleType, n: int, params: Any, seed: int, steps: int = 10**6):
    rng = random.Random(seed)
    s = b.new_state("nancy", params, n, seed)
    yield s
    for _ in range(steps):
        if s.current_player() == -4:
            return
        assert s.apply(rng.choice(s.legal_actions())) == 0
        yield s


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_play_obligations_and_results(b: ModuleType, n: int) -> None:
    """Every legal play obeys rules 8-9; the round's result and score follow 1.6."""
    rng = random.Random(n)
    for g in range(3 if b is _core else 1):
        params = random_params(rng)
        params[15] = 1  # one scored deal: the final log holds all of it
        final = None
        for s in random_game(b, n, params, 100 * n + g):
            final = s
            p = s.current_player()
            if p < 0:
                break
            obs = observe(b, s, n, p, NancyRules())
            if obs.phase == "play":
                holding = obs.hand | obs.face_up[p]
                trick = [int(c) for _, c in obs.trick]
                legal = b.nancy_legal_cards(int(holding), trick, bool(params[7]))
                assert s.legal_mask() >> ACTION_PLAY == card_mask(legal)
        assert final is not None
        evs = final.events()
        (bid,) = [e[3] for e in evs if e[0] == EV["taker"]]
        partner = [e[1] for e in evs if e[0] == EV["partner"] and e[4] == 1]
        ((_, taker, completed, objs, extra, _),) = [e for e in evs if e[0] == EV["result"]]
        assert completed == bin(objs).count("1")
        won = bool(extra & 1)
        if not extra & 2:  # not decided by rule 13
            assert won == (completed > 0 and completed >= bid)
        deltas = [e[3] for e in evs if e[0] == EV["score"]]
        assert deltas == settlement(n, taker, partner[0] if partner else -1, bid, completed, won)
        assert final.returns() == deltas


def card_mask(cardset: int) -> int:
    """Bit c for each card c of a Nancy bitset (the layout of play actions)."""
    return sum(1 << c for c in range(78) if cardset & ref.card_bit(c))


# ---------------------------------------------------------------------------
# illegal actions: every reason, state unchanged


def test_every_illegal_reason_leaves_the_state_unchanged() -> None:
    rng = random.Random(5)
    seen: set[int] = set()
    for g in range(40):
        n = rng.randint(2, 6)
        params = random_params(rng)
        params[15] = 1
        for s in random_game(_core, n, params, g, steps=400):
            if s.current_player() == -4:
                break
            before = s.raw()
            for a in [*rng.sample(range(322), 12), -1, 322]:
                code = s.verify(a)
                if code == 0:
                    continue
                assert s.apply(a) == code
                assert s.raw() == before
                assert s.reason_text(code)
                seen.add(code)
        if seen >= set(range(1, 15)) - {5}:
            break
    # reason 5 (all_pass=dealer_forced) is checked in test_dealer_forced
    assert seen >= set(range(1, 15)) - {5}, sorted(set(range(1, 15)) - seen)


def test_illegal_actions_unchanged_on_reference() -> None:
    rng = random.Random(6)
    for s in random_game(_reference, 4, DEFAULT, 3, steps=120):
        if s.current_player() == -4:
            break
        before = (s.events(), s.legal_actions(), [s.observe_tensor(p).tobytes() for p in range(4)])
        for a in rng.sample(range(322), 4):
            code = s.verify(a)
            if code:
                assert s.apply(a) == code
                assert (
                    s.events(),
                    s.legal_actions(),
                    [s.observe_tensor(p).tobytes() for p in range(4)],
                ) == before


# ---------------------------------------------------------------------------
# no leaks, information sets


def _sections(n: int) -> dict[str, slice]:
    sizes = [("seat", n), ("hand", 78), ("face_up", n * 78), ("down", n), ("trick", n * 78),
             ("leader", n), ("played", 78), ("bids", n * 11), ("dealer", n), ("taker", n),
             ("called", 78), ("partner", 1 + n), ("hound", 78), ("discards", 78),
             ("shown", 78), ("nancy", 78), ("opp", 78)]  # fmt: skip
    out, pos = {}, 0
    for name, size in sizes:
        out[name] = slice(pos, pos + size)
        pos += size
    return out


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize("n", [2, 4, 5])
def test_no_leaks(b: ModuleType, n: int) -> None:
    rng = random.Random(n)
    for g in range(2):
        params = random_params(rng)
        params[15] = 1
        sec = _sections(n)
        for s in random_game(b, n, params, g, steps=300 if b is _core else 120):
            for p in range(n):
                t = s.observe_tensor(p)
                sample = s.sample_infoset(p, 7)
                # everything p sees is the same in a state redealt behind p's back
                assert np.array_equal(sample.observe_tensor(p), t)
                visible = {c for part in ("hand", "face_up", "trick", "played", "called",
                                          "hound", "discards", "shown", "nancy", "opp")
                           for c in np.flatnonzero(t[sec[part]]) % 78}  # fmt: skip
                # p's view never holds a card that is hidden from p in the real state
                hidden = set()
                for e in s.events():
                    if e[0] == EV["deal"] and not e[5] & (1 << p) and e[5] != SEEN_ALL:
                        hidden.add(e[3])
                shown_later = {e[3] for e in s.events() if e[5] & (1 << p) and e[0] != EV["deal"]}
                assert not (visible & (hidden - shown_later)), (p, visible & hidden)
                if not t[sec["partner"]][0]:
                    assert not t[sec["partner"]][1:].any()
            if s.current_player() == -4:
                break


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_infoset_samples_respect_public_facts(n: int) -> None:
    rng = random.Random(10 + n)
    rules = NancyRules()
    checked = 0
    for g in range(3):
        params = random_params(rng)
        params[15] = 1
        for k, s in enumerate(random_game(_core, n, params, 50 + g)):
            if s.current_player() == -4:
                break
            if k % 7:
                continue
            p = rng.randrange(n)
            real = [observe(_core, s, n, q, rules) for q in range(n)]
            sample = s.sample_infoset(p, rng.randrange(1 << 64))
            fake = [observe(_core, sample, n, q, rules) for q in range(n)]
            assert fake[p].hand == real[p].hand
            every: set[int] = set()
            for q in range(n):
                assert fake[q].face_up == real[q].face_up
                assert len(fake[q].hand) == len(real[q].hand)
                # voids shown in play and trump ceilings hold for the sampled hands
                for suit in real[p].voids[q]:
                    assert not any(c.suit == suit for c in fake[q].hand)
                ceiling = real[p].trump_ceiling[q]
                assert not any(c.is_trump and (c.trump_number or 0) > ceiling for c in fake[q].hand)
                assert not (every & set(fake[q].hand))
                every |= set(fake[q].hand) | set(fake[q].face_up[q])
            taker = real[p].taker
            if taker is not None and fake[taker].discards is not None:
                hidden = set(fake[taker].discards) - set(real[p].shown_trumps)
                assert all(c < 56 and c % 14 != 13 for c in hidden)
                if real[p].hound is not None:
                    assert fake[p].hound == real[p].hound
            checked += 1
    assert checked > 5


def test_sample_c_equals_reference() -> None:
    rng = random.Random(3)
    for g in range(6):
        n = rng.randint(2, 6)
        params = random_params(rng)
        params[15] = 1
        c = _core.new_state("nancy", params, n, g)
        r = _reference.new_state("nancy", params, n, g)
        for _ in range(rng.randint(0, 120)):
            if c.current_player() == -4:
                break
            a = rng.choice(c.legal_actions())
            c.apply(a)
            r.apply(a)
        p = rng.randrange(n)
        sc, sr = c.sample_infoset(p, 11), r.sample_infoset(p, 11)
        assert sc.events() == sr.events()
        for q in range(n):
            assert np.array_equal(sc.observe_tensor(q), sr.observe_tensor(q))
        # the sample's log hides from everyone what p could not see
        assert all(e[3] == -1 for e in sc.events() if not e[5] & (1 << p))


# ---------------------------------------------------------------------------
# the facade


def test_action_names_round_trip() -> None:
    game = NancyGame(NancyRules(), 4)
    for a in range(game.num_actions):
        assert game.action_from_name(game.action_name(a)) == a
    assert game.action_from_name("play Death") == ACTION_PLAY + 76
    assert game.action_from_name("call Queen of Rats") == ACTION_CALL + 12
    with pytest.raises(ValueError):
        game.action_from_name("bid 10")
    with pytest.raises(ValueError):
        game.action_name(322)


def test_rules_validation_and_presets() -> None:
    from pycards.errors import RulesError

    with pytest.raises(RulesError):
        NancyRules(bidding_style="auction")  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        NancyRules(min_bid=0)
    with pytest.raises(RulesError):
        NancyRules(face_up_count=13)
    with pytest.raises(RulesError):
        NancyRules(match_rounds=0)
    assert NancyRules.standard() == NancyRules()
    assert NancyRules.real_table().to_params()[1] == 1
    assert NancyRules.tarot().to_params()[2] == 1
    assert NancyRules.single_deal().to_params()[15] == 1


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_match_length(n: int) -> None:
    """A match is one scored deal per player by default (thrown-in deals do not count)."""
    _steps, points = _core.random_playouts("nancy", DEFAULT, n, 9, 5)
    assert sum(points) == 0
    s = NancyGame(NancyRules(), n).new_initial_state(4)
    rng = random.Random(4)
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    assert s.observation(0).rounds_done == n
    assert sum(s.returns()) == 0
    assert to_mask78("XXI") == ref.card_bit(76)
