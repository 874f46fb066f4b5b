"""The Game of Nancy as a game (docs/nancy.rst): deals, bidding, the call,
the Hound and the discard, trick play, the Outsider, results, illegal actions,
leaks and information-set samples.

Scenarios with chosen cards are dealt from stacked decks on every backend in
test_nancy_stacked.py; the property tests below run on both backends.
"""

from __future__ import annotations

import itertools
import random
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import reference as _reference
from _paths import DOCS
from nancy_view import observation
from reference import nancy as ref

from cardcore import _core
from pycards.cards import NancyCard, to_mask78
from pycards.games.nancy import (
    ACTION_CALL,
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
    """Random rules parameters; the first dealer (the last one) is drawn from the seed."""
    return [*(rng.randint(lo, hi) for lo, hi in RANGES), -1]


def observe(b: ModuleType, s: Any, n: int, player: int, rules: NancyRules) -> NancyObservation:
    return observation(NancyGame(rules, n), s, player)


# ---------------------------------------------------------------------------
# the deal (docs/nancy.rst, "The deal")

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
        assert t[0:78].sum() == hand
    assert sum(e[2] == 3 and e[5] == 0 for e in deals) == hound
    obs = observe(b, s, n, 0, NancyRules())
    assert [len(f) for f in obs.face_up] == [up] * n
    assert obs.table_down == ((8, 8) if n == 2 else (0,) * n)
    assert obs.phase_name == "bidding" and obs.current_player == (obs.dealer + 1) % n


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
# bidding (docs/nancy.rst, "Bidding")


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
    head = [e for e in s.events() if e[0] == EV["dealer"]][-1]  # the new deal's first event
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


# Hand-built scenarios (the call, the Hound, the discard, the Outsider rules 12
# and 13, deferred debts, the slam, partner piles, objectives) are dealt from
# stacked decks on every backend in test_nancy_stacked.py.


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
            if obs.phase_name == "play":
                holding = obs.hand | obs.face_up[p]
                trick = [int(c) for _, c in obs.trick_cards]
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
    return {
        seg.name: slice(seg.offset, seg.offset + seg.length)
        for seg in NancyGame(NancyRules(), n).segments
    }


@pytest.mark.parametrize("n", [2, 4, 5])
def test_no_leaks(n: int) -> None:
    b = _core
    rng = random.Random(n)
    for g in range(2):
        params = random_params(rng)
        params[15] = 1
        sec = _sections(n)
        for s in random_game(b, n, params, g, steps=300):
            for p in range(n):
                t = s.observe_tensor(p)
                sample = s.sample_infoset(p, 7)
                # everything p sees is the same in a state redealt behind p's back
                assert np.array_equal(sample.observe_tensor(p), t)
                visible = {c for part in ("hand", "face_up", "trick", "played", "called",
                                          "hound", "discards", "shown_trumps", "nancy_pile",
                                          "opponents_pile")
                           for c in np.flatnonzero(t[sec[part]]) % 78}  # fmt: skip
                # p's view never holds a card that is hidden from p in the real state
                hidden = set()
                for e in s.events():
                    if e[0] == EV["deal"] and not e[5] & (1 << p) and e[5] != SEEN_ALL:
                        hidden.add(e[3])
                shown_later = {e[3] for e in s.events() if e[5] & (1 << p) and e[0] != EV["deal"]}
                assert not (visible & (hidden - shown_later)), (p, visible & hidden)
                if not t[sec["partner_revealed"]][0]:
                    assert not t[sec["partner"]].any()
                # the sample's log: p's events unchanged, no value p did not see is real
                # unless it is the sample's
                mine = [e for e in s.events() if e[5] & (1 << p)]
                assert [e for e in sample.events() if e[5] & (1 << p)] == mine
            if s.current_player() == -4:
                break


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_infoset_samples_respect_public_facts(n: int) -> None:
    rng = random.Random(10 + n)
    rules = NancyRules()
    checked = 0
    for g in range(6):
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
            if taker is not None and taker != p:
                hidden = set(fake[taker].discards) - set(real[p].shown_trumps)
                assert all(c < 56 and c % 14 != 13 for c in hidden)
                assert fake[p].hound == real[p].hound
            if taker is not None and taker != p:
                t_cards = set(fake[taker].hand) | set(fake[taker].discards or ())
                others = set().union(*(fake[q].hand for q in range(n) if q != taker))
                if real[p].hound:  # a Hound p saw went to the Taker
                    assert not set(real[p].hound) & others
                if real[p].shown_trumps:  # he kept only trumps, Kings and the Outsider
                    assert all(c >= 56 or c % 14 == 13 for c in fake[taker].hand)
                called = real[p].called
                if called is not None and called % 14 == 10 and called < 56:
                    # calling a Jack shows he held all four Queens
                    assert not {12, 26, 40, 54} & others
                hound = set(real[p].hound)
                if called is not None and not params[5] and real[p].hound:
                    # self_call_allowed = false: he did not hold the called card
                    assert called in hound or called not in t_cards
            checked += 1
    assert checked > 5


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
    assert NancyRules.PRESETS == ("wiki", "wiki_table", "wiki_one_deal", "french_tarot")
    assert NancyRules.wiki() == NancyRules()
    assert NancyRules.wiki_table().to_params()[1] == 1
    assert NancyRules.french_tarot().to_params()[2] == 1
    assert NancyRules.wiki_one_deal().to_params()[15] == 1
    assert repr(NancyRules.wiki_one_deal()) == "NancyRules(match_rounds=1)"


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


# ---------------------------------------------------------------------------
# exact samples: the sequential assignment, the called card's weight


def test_called_card_came_from_the_hound() -> None:
    """self_call_allowed = false, Hound not shown: to an opponent, the called Queen is in
    the Taker's hand only if it was in the Hound, i.e. 3 of the 30 places where it may
    have been dealt (27 face-down cards of the three others, 3 of the Hound), not 12 of
    39 as a uniform redeal of the hidden cards would have it."""
    rules = NancyRules(self_call_allowed=False, reveal_hound=False, match_rounds=1)
    for seed in range(50):
        s = _core.new_state("nancy", rules.to_params(), 5, seed)
        s.apply(1)  # the first bidder bids 1, the others pass
        for _ in range(4):
            s.apply(0)
        taker = next(e[1] for e in s.events() if e[0] == EV["taker"])
        views = [observe(_core, s, 5, q, rules) for q in range(5)]
        queens = [a - ACTION_CALL for a in s.legal_actions() if (a - ACTION_CALL) % 14 == 12]
        hidden = [c for c in queens if not any(c in v.face_up[q] for q, v in enumerate(views))]
        if hidden:
            break
    called = hidden[0]
    p = next(q for q in range(5) if q != taker and called not in views[q].hand)
    assert s.apply(ACTION_CALL + called) == 0
    draws = 3000
    in_taker = sum(
        called in observe(_core, s.sample_infoset(p, k), 5, taker, rules).hand for k in range(draws)
    )
    sd = (0.1 * 0.9 / draws) ** 0.5
    assert abs(in_taker / draws - 0.1) < 5 * sd, in_taker / draws


def test_docs_list_every_segment_event_and_preset() -> None:

    from pycards.games.nancy import EVENT_KINDS

    page = (DOCS / "nancy.rst").read_text()
    for seg in NancyGame(NancyRules(), 4).segments:
        assert f"``{seg.name}``" in page, seg.name
    for kind in EVENT_KINDS:
        assert f"``{kind}``" in page, kind
    for preset in NancyRules.PRESETS:
        assert f"NancyRules.{preset}()" in page, preset


def _seat_rows(table: str) -> dict[str, str]:
    """Each seat's row of the table, with its continuation lines (a row too
    wide for 80 columns goes on below, broken between cards)."""
    rows: dict[str, str] = {}
    seat = None
    lines = table.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("seat "))
    for line in lines[header + 1 :]:
        if line[:1].isdigit():
            seat = line.split()[0]
            rows[seat] = line
        elif line.startswith(" ") and seat is not None:
            rows[seat] += " " + line
        else:
            break
    return rows


def test_table_fits_80_columns_and_breaks_between_cards() -> None:
    game = NancyGame(NancyRules(), 2)  # 2 players: the widest rows
    state = game.new_initial_state(1)
    for viewer in (None, 0):
        text = state.table(viewer)
        assert max(len(line) for line in text.splitlines()) <= 80
        words = " ".join(_seat_rows(text).values()).split()
        hand = state.observation(0).hand
        assert all(str(c) in words for c in hand)  # every card whole


@pytest.mark.parametrize("n", [2, 4, 5])
def test_table_shows_each_seat_only_what_it_may_know(n: int) -> None:
    game = NancyGame(NancyRules(match_rounds=1), n)
    state = game.new_initial_state(21)
    rng = random.Random(n)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    referee = str(state)
    assert f"seat {state.current_player} to act" in referee.splitlines()[0]
    for p in range(n):
        rows = _seat_rows(state.table(p))
        hand = state.observation(p).hand
        assert all(str(c) in rows[str(p)] for c in hand)  # own hand shown
        assert all(str(c) in referee for c in hand)  # the referee sees every hand
        for q in range(n):
            if q != p:
                assert "cards)" in rows[str(q)]  # other hands as a count only
                assert not any(str(c) in rows[str(q)].split() for c in state.observation(q).hand)
