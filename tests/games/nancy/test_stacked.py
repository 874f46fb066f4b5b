"""The Game of Nancy from stacked decks (docs/nancy.rst, "A stacked first deal").

The deck-position mapping is checked for every player count and both
``hound_position_rule`` values on every backend (the C engine, the cffi
binding when built, the reference).
"""

from __future__ import annotations

import itertools
import random
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import reference as _reference
from nancy_view import observation
from reference.rng import Rng

from cardcore import _core
from pycards.cards import NancyCard
from pycards.errors import InvalidCardError, RulesError
from pycards.game import State
from pycards.games.nancy import (
    ACTION_CALL,
    ACTION_DISCARD,
    ACTION_PICK,
    NancyGame,
    NancyObservation,
    NancyRules,
    settlement,
)

BACKENDS = [pytest.param(_core, id="c"), pytest.param(_reference, id="reference")]

EV_DEALER, EV_DEAL = 0, 1
HAND, FACE_UP, TABLE_DOWN, HOUND = 0, 1, 2, 3
SEEN_ALL = 0xFFFFFFFF

# docs/nancy.rst: packet P, packets K, Hound H, and the Hound's deck positions with enforce
TABLE = {
    2: (4, 18, 6, [8, 21, 30, 43, 52, 65]),
    3: (3, 24, 6, [9, 19, 32, 42, 55, 65]),
    4: (3, 24, 6, [9, 19, 32, 42, 55, 65]),
    5: (3, 25, 3, [18, 37, 56]),
    6: (3, 24, 6, [9, 19, 32, 42, 55, 65]),
}


def expected_places(n: int, dealer: int, enforce: bool, face_up: int) -> list[tuple[int, int, int]]:
    """(seat or -1, place, pile index or -1) of each deck position, by the documented formula."""
    packet, npackets, hsize, hound_positions = TABLE[n]
    hound = set(hound_positions) if enforce else set(range(78 - hsize, 78))
    out = []
    i = 0  # position among the packet cards
    for pos in range(78):
        if pos in hound:
            out.append((-1, HOUND, -1))
            continue
        k, within = divmod(i, packet)
        i += 1
        assert k < npackets
        seat = (dealer + 1 + k) % n
        c = packet * (k // n) + within
        if n == 2:
            if c < 8:
                out.append((seat, TABLE_DOWN, c))
            elif c < 16:
                out.append((seat, FACE_UP, c - 8))
            else:
                out.append((seat, HAND, -1))
        else:
            out.append((seat, FACE_UP if c < face_up else HAND, -1))
    return out


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("enforce", [0, 1])
def test_stacked_deal_follows_the_documented_mapping(b: ModuleType, n: int, enforce: int) -> None:
    rng = random.Random(100 * n + enforce)
    for face_up in (6, 0, 12) if n > 2 else (6,):
        params = list(NancyRules(face_up_count=face_up).to_params())
        params[1] = enforce
        deck = list(range(78))
        rng.shuffle(deck)
        seed = rng.randrange(1 << 64)
        s = b.new_state("nancy", params, n, seed, deck)
        events = s.events()
        assert events[0][0] == EV_DEALER
        dealer = events[0][1]
        deals = [e for e in events if e[0] == EV_DEAL]
        assert [e[3] for e in deals] == deck  # the log lists the deck in order
        want = expected_places(n, dealer, bool(enforce), face_up)
        for pos, (e, (seat, place, pile)) in enumerate(zip(deals, want, strict=True)):
            assert (e[1], e[2]) == (seat, place), (pos, e)
            if n == 2 and place != HAND:
                assert e[4] == pile, (pos, e)
        # the cards are where the log says: hands, face-up cards
        for q in range(n):
            t = s.observe_tensor(q)
            hand = {int(c) for c in range(78) if t[c]}
            assert hand == {e[3] for e in deals if e[1] == q and e[2] == HAND}
            up = {int(c) for c in range(78) if t[78 + c]}
            assert up == {e[3] for e in deals if e[1] == q and e[2] == FACE_UP}
        if enforce:  # the physical rule holds: not among the first or last 3, never two together
            hound = [i for i, w in enumerate(want) if w[1] == HOUND]
            assert all(3 <= h <= 74 for h in hound)
            assert all(b2 - a2 > 1 for a2, b2 in itertools.pairwise(hound))


@pytest.mark.parametrize("b", [pytest.param(_core, id="c")])  # the engine's own draws
def test_stacked_deck_seed_gives_dealer_and_later_deals(b: ModuleType) -> None:
    """The seed still draws the first dealer; thrown-in and later deals shuffle from it."""
    deck = list(range(78))[::-1]
    params = NancyRules().to_params()
    a = b.new_state("nancy", params, 4, 3, deck)
    plain = b.new_state("nancy", params, 4, 3)
    assert a.events()[0] == plain.events()[0]  # same dealer as the shuffled game
    for _ in range(4):  # all pass: the next deal is a shuffle by the state's generator
        assert a.apply(0) == 0
    start = max(i for i, e in enumerate(a.events()) if e[0] == EV_DEALER)
    redealt = [e[3] for e in a.events()[start:] if e[0] == EV_DEAL]
    assert sorted(redealt) == list(range(78)) and redealt != deck
    again = b.new_state("nancy", params, 4, 3, deck)
    for _ in range(4):
        again.apply(0)
    assert again.events() == a.events()


@pytest.mark.parametrize("b", BACKENDS)
def test_stacked_deck_is_validated(b: ModuleType) -> None:
    params = NancyRules().to_params()
    deck = list(range(78))
    for bad in (deck[:-1], [*deck[:-1], 0], [*deck, 78], [*deck[:-1], 78]):
        with pytest.raises(ValueError):
            b.new_state("nancy", params, 4, 1, bad)


def test_stacked_deck_by_names_through_the_api() -> None:
    game = NancyGame(NancyRules(face_up_count=0), 3)
    ids = list(range(78))
    names = [str(NancyCard(c)) for c in ids]
    state = game.new_initial_state(1, deck=names)
    assert state.deck == ids
    assert State.from_json(state.to_json()).observation(0) == state.observation(0)
    dealer = state.observation(0).dealer
    first = (dealer + 1) % 3
    assert set(state.observation(first).hand) >= {0, 1, 2}  # the deck's first packet


# ---------------------------------------------------------------------------
# the first dealer (rules.first_dealer) and NancyGame.stacked_deck


def deal_cards(s: Any) -> list[int]:
    """The cards of the current deal, in deck order (the deal log)."""
    return [e[3] for e in s.events() if e[0] == EV_DEAL]


@pytest.mark.parametrize("b", [pytest.param(_core, id="c")])  # the engine's own draws
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_first_dealer_is_the_first_draw_unless_fixed(b: ModuleType, n: int) -> None:
    for seed in (0, 1, 7, 2**63 + 5):
        for enforce in (0, 1):
            params = list(NancyRules(match_rounds=2).to_params())
            params[1] = enforce
            drawn = Rng(seed).below(n)
            plain = b.new_state("nancy", params, n, seed)
            assert plain.events()[0][:2] == (EV_DEALER, drawn)  # the generator's first draw
            for fixed in range(n):
                params[16] = fixed
                s = b.new_state("nancy", params, n, seed)
                assert s.events()[0][:2] == (EV_DEALER, fixed)
                assert s.current_player() == (fixed + 1) % n
                # the draw is made anyway: the same shuffle, dealt from the fixed dealer
                assert deal_cards(s) == deal_cards(plain)
                first = next(e for e in s.events() if e[0] == EV_DEAL and e[1] >= 0)
                assert first[1] == (fixed + 1) % n
                if fixed == drawn:  # fixing the seat the seed draws changes nothing
                    assert s.events() == plain.events()
                    for p in range(n):
                        assert (s.observe_tensor(p) == plain.observe_tensor(p)).all()
                    if hasattr(s, "raw"):  # all but the params (the state's first 17 int32)
                        assert s.raw()[17 * 4 :] == plain.raw()[17 * 4 :]
                # all pass: the deal passes on, shuffled by the same generator as before
                other = b.new_state("nancy", params, n, seed)
                params[16] = -1
                ref = b.new_state("nancy", params, n, seed)
                for _ in range(n):
                    assert other.apply(0) == 0 and ref.apply(0) == 0
                assert deal_cards(other) == deal_cards(ref)
                dealers = [e[1] for e in other.events() if e[0] == EV_DEALER]
                assert dealers[-1] == (fixed + 1) % n


@pytest.mark.parametrize("b", BACKENDS)
def test_first_dealer_is_validated(b: ModuleType) -> None:
    for n in range(2, 7):
        params = list(NancyRules().to_params())
        for bad in (n, 6, -2):
            params[16] = bad
            with pytest.raises(ValueError):
                b.new_state("nancy", params, n, 1)
            with pytest.raises(ValueError):
                b.new_state("nancy", params, n, 1, list(range(78)))
    for value in (-1, 6, True, "0", 1.0):
        with pytest.raises(RulesError, match="first_dealer"):
            NancyRules(first_dealer=value)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="first_dealer=3 is not allowed with 3 players"):
        NancyGame(NancyRules(first_dealer=3), 3)
    assert NancyRules().to_params()[16] == -1
    assert NancyRules(first_dealer=5).to_params()[16] == 5
    assert NancyGame(NancyRules(first_dealer=5), 6).new_initial_state(9).observation(0).dealer == 5


def random_table(
    rng: random.Random, n: int, face_up: int
) -> tuple[list[list[int]], list[list[int]], list[list[int]], list[int]]:
    """A random full placement: per seat table bottoms, face-up cards, hand; the Hound."""
    deck = list(range(78))
    rng.shuffle(deck)
    each = EACH[n]
    nup, ndown = (8, 8) if n == 2 else (face_up, 0)
    downs, ups, hands = [], [], []
    for q in range(n):
        mine = deck[q * each : (q + 1) * each]
        downs.append(mine[:ndown])
        ups.append(mine[ndown : ndown + nup])
        hands.append(mine[ndown + nup :])
    return downs, ups, hands, deck[n * each :]


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("enforce", [False, True])
def test_stacked_deck_deals_every_card_where_asked(b: ModuleType, n: int, enforce: bool) -> None:
    rng = random.Random(10 * n + enforce)
    for face_up in (6, 0, 12) if n > 2 else (6,):
        dealer = rng.randrange(n)
        rules = NancyRules(
            face_up_count=face_up,
            first_dealer=dealer,
            hound_position_rule="enforce" if enforce else "ignore",
        )
        game = NancyGame(rules, n)
        downs, ups, hands, hound = random_table(rng, n, face_up)
        names = [" ".join(str(NancyCard(c)) for c in hand) for hand in hands]
        deck = [
            int(c)
            for c in game.stacked_deck(
                names, hound, face_up=ups, table_down=downs if n == 2 else None
            )
        ]
        assert sorted(deck) == list(range(78))
        # the helper follows the documented formula (expected_places)
        for pos, (seat, place, pile) in enumerate(expected_places(n, dealer, enforce, face_up)):
            c = deck[pos]
            if place == HOUND:
                assert c in hound
            elif place == TABLE_DOWN:
                assert downs[seat][pile] == c
            elif place == FACE_UP:
                assert c in ups[seat] and (n > 2 or ups[seat][pile] == c)
            else:
                assert c in hands[seat]
        # and the engine deals it so
        s = b.new_state("nancy", rules.to_params(), n, rng.randrange(1 << 64), deck)
        assert s.events()[0][1] == dealer
        deals = [e for e in s.events() if e[0] == EV_DEAL]
        assert {e[3] for e in deals if e[2] == HOUND} == set(hound)
        for q in range(n):
            t = s.observe_tensor(q)
            assert {c for c in range(78) if t[c]} == set(hands[q])
            assert {c for c in range(78) if t[78 + c]} == set(ups[q])
            if n == 2:
                for e in deals:
                    if e[1] == q and e[2] == TABLE_DOWN:
                        assert downs[q][e[4]] == e[3]
                    if e[1] == q and e[2] == FACE_UP:
                        assert ups[q][e[4]] == e[3]


def test_stacked_deck_replays_a_table_through_the_api() -> None:
    rules = NancyRules(first_dealer=1, match_rounds=1)
    game = NancyGame(rules, 4)
    rng = random.Random(4)
    _, ups, hands, hound = random_table(rng, 4, 6)
    deck = game.stacked_deck(hands, hound, face_up=ups)
    for seed in (0, 123):  # any seed: the dealer is fixed
        state = game.new_initial_state(seed, deck=deck)
        for p in range(4):
            obs = state.observation(p)
            assert obs.dealer == 1 and state.current_player == 2
            assert set(obs.hand) == set(hands[p])
            assert [set(u) for u in obs.face_up] == [set(u) for u in ups]
        replayed = State.from_json(state.to_json())  # the deck and the rules travel along
        assert replayed.observation(2) == state.observation(2)


def test_stacked_deck_checks_its_input() -> None:
    game = NancyGame(NancyRules(face_up_count=0), 3)
    with pytest.raises(ValueError, match="name the dealer"):
        game.stacked_deck(["", "", ""], fill=True)
    with pytest.raises(ValueError, match=r"dealer must be 0..2, got 3"):
        game.stacked_deck(["", "", ""], dealer=3, fill=True)
    for bad_dealer in (True, 1.0):
        with pytest.raises(TypeError, match="dealer"):
            game.stacked_deck(["", "", ""], dealer=bad_dealer, fill=True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="fill must be a bool"):
        game.stacked_deck(["", "", ""], dealer=0, fill=1)  # type: ignore[arg-type]
    for bad_card in (True, 1.5, None):
        with pytest.raises(TypeError, match=r"hands\[1\]\[0\]"):
            game.stacked_deck(["", [bad_card], ""], dealer=0, fill=True)  # type: ignore[list-item]
    with pytest.raises(InvalidCardError, match=r"hound\[1\]: no Nancy card has id 78"):
        game.stacked_deck(["", "", ""], hound=[0, 78], dealer=0, fill=True)
    with pytest.raises(InvalidCardError, match=r"hands\[0\]\[1\].*'ZZ'"):
        game.stacked_deck(["KR ZZ", "", ""], dealer=0, fill=True)
    # numpy ints are card ids; seat 1 gets the first packet
    assert game.stacked_deck(["", [np.int8(5)], ""], dealer=0, fill=True)[0] == 5
    with pytest.raises(ValueError, match="per seat"):
        game.stacked_deck(["", ""], dealer=0, fill=True)
    with pytest.raises(ValueError, match="per seat"):
        game.stacked_deck("KR QR", dealer=0, fill=True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="only 2 players"):
        game.stacked_deck(["", "", ""], table_down=["1R", "", ""], dealer=0, fill=True)
    with pytest.raises(InvalidCardError, match="seat 0's hand holds 24 cards, got 2"):
        game.stacked_deck(["KR QR", "", ""], dealer=0)  # too few without fill
    with pytest.raises(InvalidCardError, match="placed twice"):
        game.stacked_deck(["KR QR", "KR", ""], dealer=0, fill=True)
    with pytest.raises(InvalidCardError, match="placed twice"):
        game.stacked_deck(["KR", "", ""], hound=["King of Rats"], dealer=0, fill=True)
    with pytest.raises(InvalidCardError, match="the Hound holds 6 cards, got 7"):
        game.stacked_deck(["", "", ""], hound="1R 2R 3R 4R 5R 6R 7R", dealer=0, fill=True)
    with pytest.raises(InvalidCardError, match="face-up cards holds 0"):
        game.stacked_deck(["", "", ""], face_up=["1R", "", ""], dealer=0, fill=True)
    with pytest.raises(InvalidCardError):
        game.stacked_deck(["ZZ", "", ""], dealer=0, fill=True)
    # the dealer comes from the rules unless given; the first packet goes to the next seat
    fixed = NancyGame(NancyRules(face_up_count=0, first_dealer=2), 3)
    deck = fixed.stacked_deck(["KR, Queen of Rats", [NancyCard(0), 1], ""], fill=True)
    # seat 0 is filled first, with the 22 lowest free cards (2..11, 14..25)
    assert [int(c) for c in deck[:6]] == [card("KR"), card("QR"), 2, 0, 1, 26]
    other = fixed.stacked_deck(["KR QR", "1R 2R", ""], dealer=0, fill=True)
    assert [int(c) for c in other[:3]] == [0, 1, 26]  # seat 1 first, then seat 2, then seat 0
    assert [int(c) for c in other[6:9]] == [card("KR"), card("QR"), 2]
    # two players: piles in order, bottoms dealt first, then tops, then the hand
    two = NancyGame(NancyRules(first_dealer=1), 2)
    deck2 = two.stacked_deck(["", ""], table_down=["XXI", ""], face_up=["", "XX"], fill=True)
    assert deck2[0] == card("XXI")  # seat 0's first card: the bottom of its pile 0
    # seat 1's packets are 1, 3, 5, ...: bottoms 0-3, bottoms 4-7, then tops 0-3
    assert deck2[4 * 5] == card("XX")


# ---------------------------------------------------------------------------
# hand-built scenarios, dealt from stacked decks, on every backend

EACH = {2: 36, 3: 24, 4: 18, 5: 15, 6: 12}
EV = {name: i for i, name in enumerate(
    ["dealer", "deal", "bid", "taker", "call", "hound", "discard", "play", "partner", "flip",
     "trick", "debt", "exchange", "result", "score"])}  # fmt: skip
NANCY_PILE, OPP_PILE = 0, 1
TERMINAL = -4


def card(text: str) -> int:
    return int(NancyCard.parse(text))


def cards(text: str) -> set[int]:
    return {card(t) for t in text.split()}


class Scene:
    """A deal from a stacked deck on one backend, driven by action names."""

    def __init__(
        self,
        b: ModuleType,
        n: int,
        dealer: int,
        seats: list[str],
        hound: str,
        table: tuple[list[str], list[str]] | None = None,
        **rules: Any,
    ) -> None:
        """Seat q holds ``seats[q]`` (its hand; with ``table``, the 2-player
        pile bottoms and tops), the rest filled in by ``stacked_deck``."""
        rules.setdefault("face_up_count", 0)
        rules.setdefault("match_rounds", 1)
        self.rules = NancyRules(first_dealer=dealer, **rules)
        self.n = n
        self.game = NancyGame(self.rules, n)
        down, up = table if table is not None else (None, None)
        deck = self.game.stacked_deck(seats, hound, face_up=up, table_down=down, fill=True)
        self.s = b.new_state("nancy", self.rules.to_params(), n, 0, [int(c) for c in deck])
        assert self.s.events()[0][1] == dealer

    def do(self, *names: str) -> None:
        for name in names:
            code = self.s.apply(self.game.action_from_name(name))
            assert code == 0, (name, self.s.reason_text(code))

    def verify(self, name: str) -> int:
        return int(self.s.verify(self.game.action_from_name(name)))

    def legal(self, base: int) -> set[int]:
        return {a - base for a in self.s.legal_actions()}

    def obs(self, p: int) -> NancyObservation:
        return observation(self.game, self.s, p)

    def events(self, kind: str) -> list[tuple[int, ...]]:
        return [tuple(e) for e in self.s.events() if e[0] == EV[kind]]

    def finish(self) -> tuple[int, ...]:
        """Play out with the lowest legal action (so the Outsider is kept to the last card)."""
        while self.s.current_player() != TERMINAL:
            assert self.s.apply(min(self.s.legal_actions())) == 0
        (result,) = self.events("result")
        return result

    def scores(self) -> list[int]:
        return [e[3] for e in self.events("score")]


# -- the partner call, the Hound, the discard (docs/nancy.rst) -------------

CALL_SEATS = ["QR QS QX QP JR 2R", "JS 3R", "JX 4R", "JP 5R", "6R"]


@pytest.mark.parametrize("b", BACKENDS)
def test_call_queens_or_jacks(b: ModuleType) -> None:
    t = Scene(b, 5, 4, CALL_SEATS, "1S 2S 3S")
    t.do("bid 2", "pass", "pass", "pass", "pass")  # seat 0 holds all four Queens
    assert t.obs(0).phase_name == "call" and t.s.current_player() == 0
    assert t.legal(ACTION_CALL) == cards("JR JS JX JP")
    assert t.verify("call QR") == 6
    t.do("call JS", "discard 1S", "discard 2S", "discard 3S")
    assert t.obs(0).called == card("JS") and t.obs(3).partner is None
    result = t.finish()
    partner = [e for e in t.events("partner") if e[4] == 1]
    assert [e[1] for e in partner] == [1]  # the holder of JS
    assert t.scores() == settlement(5, 0, 1, 2, result[2], bool(result[4] & 1))
    # self_call_allowed = false: a card he holds may not be named
    t = Scene(b, 5, 4, CALL_SEATS, "1S 2S 3S", self_call_allowed=False)
    t.do("bid 2", "pass", "pass", "pass", "pass")
    assert t.legal(ACTION_CALL) == cards("JS JX JP")
    assert t.verify("call JR") == 6


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize("called", ["QS", "QR"])
def test_called_card_in_hound_or_own_hand_plays_alone(b: ModuleType, called: str) -> None:
    t = Scene(b, 5, 4, ["QR 1R 2R", "QX 3R", "QP 4R", "5R", "6R"], "QS 2S 3S")
    t.do("bid 2", "pass", "pass", "pass", "pass", f"call {called}")
    t.do("discard 2S", "discard 3S", "discard 1R")
    result = t.finish()
    assert not [e for e in t.events("partner") if e[4] == 1]
    if called == "QR":  # the Taker played his own called card: extra 0
        assert [e[1:5] for e in t.events("partner")] == [(0, -1, card("QR"), 0)]
    assert t.scores() == settlement(5, 0, -1, 2, result[2], bool(result[4] & 1))


@pytest.mark.parametrize("b", BACKENDS)
def test_partner_revealed_only_when_card_played(b: ModuleType) -> None:
    t = Scene(b, 5, 4, ["1R 2R 3R", "QR 4S 5S", "6S", "7S", "8S"], "1X 2X 3X")
    t.do("bid 2", "pass", "pass", "pass", "pass", "call QR")
    t.do("discard 1X", "discard 2X", "discard 3X")
    assert t.obs(0).phase_name == "play"
    for p in range(5):  # nobody's observation names the Partner yet
        assert not t.obs(p).partner_revealed and t.obs(p).partner is None
    t.do("play 1R", "play QR")
    assert t.events("partner") == [(EV["partner"], 1, -1, card("QR"), 1, SEEN_ALL)]
    assert t.obs(3).partner == 1 and t.obs(3).partner_revealed


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize("shown", [True, False])
def test_hound_shown_or_hidden(b: ModuleType, shown: bool) -> None:
    hound = "8R 8S 8X 8P 9P 10P"
    t = Scene(b, 3, 2, ["1R 2R", "1S 2S", "1X 2X"], hound, reveal_hound=shown)
    for p in range(3):  # before bidding ends nobody sees it
        assert not t.obs(p).hound
    t.do("bid 1", "pass", "pass")
    events = t.events("hound")
    assert {e[3] for e in events} == cards(hound)
    assert all(e[5] == (SEEN_ALL if shown else 1) for e in events)
    assert set(t.obs(0).hand) >= cards(hound)
    assert set(t.obs(0).hound or ()) == cards(hound)
    assert bool(t.obs(1).hound) == shown


DISCARD_TAKER = "KR KS KX KP OUT I XXI II III IV V VI VII VIII IX X XI XII XIII XIV XV XVI 1R 2R"


@pytest.mark.parametrize("b", BACKENDS)
def test_discard_restrictions_and_shown_trumps(b: ModuleType) -> None:
    t = Scene(b, 3, 2, [DISCARD_TAKER, "", ""], "XVII XVIII XIX XX 3R 4R")
    t.do("bid 1", "pass", "pass")
    assert t.obs(0).phase_name == "discard" and t.s.current_player() == 0
    # 4 other cards for 6 discards: trumps II..XX allowed, never I, XXI, Kings, the Outsider
    trumps = {55 + number for number in range(2, 21)}
    assert t.legal(ACTION_DISCARD) == cards("1R 2R 3R 4R") | trumps
    for name in ("KR", "XXI", "I", "OUT"):
        assert t.verify(f"discard {name}") == 8
    assert t.verify("discard 5R") == 7
    t.do("discard II", "discard III")
    # now exactly as many other cards as discards left: no more trumps
    assert t.legal(ACTION_DISCARD) == cards("1R 2R 3R 4R")
    assert t.verify("discard VI") == 9
    t.do("discard 1R", "discard 2R", "discard 3R", "discard 4R")
    shown = [e for e in t.events("discard") if e[5] == SEEN_ALL]
    assert {e[3] for e in shown} == cards("II III") and all(e[4] == 1 for e in shown)
    hidden = [e for e in t.events("discard") if e[5] != SEEN_ALL]
    assert {e[3] for e in hidden} == cards("1R 2R 3R 4R") and all(e[5] == 1 for e in hidden)
    assert set(t.obs(1).shown_trumps) == cards("II III") and not t.obs(1).discards
    assert set(t.obs(0).discards or ()) == cards("II III 1R 2R 3R 4R")
    assert not set(t.obs(1).nancy_pile) & cards("1R 2R 3R 4R")  # hidden discards stay hidden


@pytest.mark.parametrize("b", BACKENDS)
def test_plain_discard_allows_no_trump(b: ModuleType) -> None:
    t = Scene(b, 3, 2, ["1R 2R 3R 4R 5R 6R 7R KR", "", ""], "II III IV V VI OUT")
    t.do("bid 1", "pass", "pass")
    held = set(t.obs(0).hand)
    assert t.legal(ACTION_DISCARD) == {c for c in held if c < 56 and c % 14 != 13}
    assert t.verify("discard II") == 9


# -- trick play and the Outsider (docs/nancy.rst, the Outsider) --------------

HOUND6 = "1X 2X 3X 4X 5X 6X"
FOUR = ["2S KR XXI", "KS 5R 7P", "3S OUT 8P", "4S 6R 9P"]


def four_taker(b: ModuleType, seats: list[str], dealer: int = 3, **rules: Any) -> Scene:
    """4 players, seat 0 the Taker (bid 1), the Hound discarded."""
    t = Scene(b, 4, dealer, seats, HOUND6, **rules)
    for _ in range(4):
        t.do("bid 1" if t.s.current_player() == 0 else "pass")
    t.do(*(f"discard {c}" for c in HOUND6.split()))
    assert t.obs(0).phase_name == "play"
    return t


@pytest.mark.parametrize("b", BACKENDS)
def test_outsider_exchange_random(b: ModuleType) -> None:
    t = four_taker(b, FOUR)
    t.do("play 2S", "play KS", "play 3S", "play 4S")  # seat 1 wins for the opponents
    assert set(t.obs(0).opponents_pile) == cards("2S KS 3S 4S")
    t.do("play 5R", "play OUT", "play 6R", "play KR")  # an opponent's Outsider; the Taker wins
    (ex,) = t.events("exchange")
    assert ex[1] == -1 and ex[2] == NANCY_PILE and ex[4] == 0
    got = ex[3]
    assert got in cards("2S KS 3S 4S")
    obs = t.obs(0)
    assert card("OUT") in obs.opponents_pile  # the Outsider stays with its side
    assert got in obs.nancy_pile and got not in obs.opponents_pile
    result = t.finish()
    assert bool(result[3] & 256) == (got == card("KS"))  # Chosen by the Outsider


@pytest.mark.parametrize("b", BACKENDS)
def test_outsider_exchange_owner_choice(b: ModuleType) -> None:
    t = four_taker(b, FOUR, outsider_exchange_mode="owner_choice")
    t.do("play 2S", "play KS", "play 3S", "play 4S")
    t.do("play 5R", "play OUT", "play 6R", "play KR")
    assert t.obs(0).phase_name == "pick" and t.s.current_player() == 2  # the Outsider's owner
    assert t.legal(ACTION_PICK) == cards("2S KS 3S 4S")
    assert t.verify("pick 5R") == 14
    assert t.verify("play XXI") == 2
    t.do("pick 2S")
    assert t.events("exchange")[0][1:5] == (2, NANCY_PILE, card("2S"), 0)
    assert t.obs(0).phase_name == "play" and t.s.current_player() == 0
    assert not t.finish()[3] & 256  # 2S is no face card


DEBT = ["KR 2S XXI", "5R KS 7P", "OUT 3S 8P", "6R 4S 9P"]


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize(
    ("mode", "chooser"), [("winner_choice", 0), ("owner_choice", 2), ("random", None)]
)
def test_outsider_deferred_debt(b: ModuleType, mode: str, chooser: int | None) -> None:
    t = four_taker(b, DEBT, dealer=0, deferred_exchange_pick=mode)
    t.do("play 5R", "play OUT", "play 6R", "play KR")  # the Taker wins; the opponents have nothing
    assert t.events("debt") == [(EV["debt"], 2, 0, 0, 0, SEEN_ALL)]
    assert not t.events("exchange") and t.obs(1).outsider_debt
    t.do("play 2S", "play KS", "play 3S", "play 4S")  # the opponents' first trick pays the debt
    if chooser is None:
        (ex,) = t.events("exchange")
        assert ex[1] == -1 and ex[3] in cards("2S KS 3S 4S") and ex[4] == 1
        assert bool(t.finish()[3] & 256) == (ex[3] == card("KS"))
        return
    assert t.obs(0).phase_name == "pick" and t.s.current_player() == chooser
    assert t.legal(ACTION_PICK) == cards("2S KS 3S 4S")
    t.do("pick KS")
    assert t.events("exchange")[0][1:5] == (chooser, NANCY_PILE, card("KS"), 1)
    result = t.finish()
    assert result[3] & 256  # Chosen by the Outsider: a face card, by deferred pick
    assert not result[3] & 128  # the opponents won a trick: no Fat Nancy


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize("from_discard", [False, True])
def test_taker_outsider_paid_from_discards_only_when_allowed(
    b: ModuleType, from_discard: bool
) -> None:
    seats = ["OUT 2S XXI", "5R KS 7P", "6R 3S 8P", "KR 4S 9P"]
    t = four_taker(b, seats, exchange_from_discard=from_discard)
    t.do("play OUT", "play 5R", "play 6R", "play KR")  # the Taker's Outsider; an opponent wins
    if from_discard:
        (ex,) = t.events("exchange")
        assert ex[2] == OPP_PILE and ex[3] in cards(HOUND6)
        assert not t.events("debt")
    else:
        assert t.events("debt") and not t.events("exchange")
    assert card("OUT") in t.obs(0).nancy_pile


TRUMPS_IV_XXI = "IV V VI VII VIII IX X XI XII XIII XIV XV XVI XVII XVIII XIX XX XXI"


@pytest.mark.parametrize("b", BACKENDS)
def test_rule13_outsider_on_last_trick(b: ModuleType) -> None:
    # the Taker's Outsider on the last trick loses the round, objectives still scored
    t = four_taker(b, ["OUT KR KS KX KP", "", "", ""])
    result = t.finish()
    last = [e for e in t.events("play") if e[4] == 17]
    assert (0, card("OUT")) in [(e[1], e[3]) for e in last]
    assert result[4] == 2  # lost by rule 13
    assert t.scores() == settlement(4, 0, -1, 1, result[2], False)
    # an opponent's Outsider on the last trick: the Taker's side winning it wins the round
    t = four_taker(b, [TRUMPS_IV_XXI, "OUT", "", ""])
    result = t.finish()
    assert t.events("trick")[-1][1] == 0
    assert result[4] == 3 and result[3] & 128  # won by rule 13, with Fat Nancy
    assert t.scores() == settlement(4, 0, -1, 1, result[2], True)
    # changes_side: the objectives decide (bid 9, far more than he completes)
    t = Scene(b, 4, 3, [TRUMPS_IV_XXI, "OUT", "", ""], HOUND6, outsider_last_trick="changes_side")
    t.do("bid 9", "pass", "pass", "pass", *(f"discard {c}" for c in HOUND6.split()))
    result = t.finish()
    assert result[4] == 0 and 0 < result[2] < 9
    assert card("OUT") in t.obs(0).nancy_pile  # it simply went to the winner of the last trick


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize("slam", [False, True])
def test_fat_nancy_slam_exception(b: ModuleType, slam: bool) -> None:
    taker = "OUT V VI VII VIII IX X XI XII XIII XIV XV XVI XVII XVIII XIX XX XXI"
    t = four_taker(b, [taker, "", "", ""], fat_nancy_outsider_exception="slam" if slam else "none")
    result = t.finish()
    first_of_last = next(e for e in t.events("play") if e[4] == 17)
    assert first_of_last[1:4:2] == (0, card("OUT"))  # the Taker led the Outsider
    assert bool(result[3] & 128) == slam
    assert (t.events("trick")[-1][1] == 0) == slam
    assert result[4] == (1 if slam else 2)  # without the exception rule 13 decides: lost


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize("to", ["opponents", "nancy"])
def test_partner_tricks_to(b: ModuleType, to: str) -> None:
    seats = ["1R 1S", "KR QX", "2R 3S", "3R 4S", "4R KS"]
    t = Scene(b, 5, 4, seats, "1P 2P 3P", partner_tricks_to=to)
    t.do("bid 1", "pass", "pass", "pass", "pass", "call QX")
    t.do("discard 1P", "discard 2P", "discard 3P")
    t.do("play 1R", "play KR", "play 2R", "play 3R", "play 4R")  # the Partner wins
    won = cards("1R KR 2R 3R 4R")
    obs = t.obs(0)
    pile, other = (obs.nancy_pile, obs.opponents_pile) if to == "nancy" else (
        obs.opponents_pile, obs.nancy_pile)  # fmt: skip
    assert won <= set(pile) and not won & set(other)
    assert t.events("trick")[0][1:5:3] == (1, NANCY_PILE if to == "nancy" else OPP_PILE)


@pytest.mark.parametrize("b", BACKENDS)
def test_two_player_table_piles_turn_up_after_the_trick(b: ModuleType) -> None:
    # pile i of seat 0: bottom bottoms[i] under top tops[i]; 1R in seat 1's hand
    bottoms = "QR 2R 3R 4R 5R 6R 7R 8R"
    tops = "KR 2S 3S 4S 5S 6S 7S 8S"
    other_down, other_up = "7X 8X 9X 10X JX CX QX KX", "7P 8P 9P 10P JP CP QP KP"
    t = Scene(b, 2, 1, ["", "1R"], HOUND6, table=([bottoms, other_down], [tops, other_up]))
    t.do("bid 1", "pass", *(f"discard {c}" for c in HOUND6.split()))
    assert t.obs(0).table_down == (8, 8)
    t.do("play KR")  # the face-up top of pile 0
    for p in range(2):  # still face-down until the trick ends
        assert card("QR") not in t.obs(p).face_up[0] and card("QR") not in t.obs(p).hand
    t.do("play 1R")
    for p in range(2):
        assert card("QR") in t.obs(p).face_up[0]
    assert t.events("flip")[-1] == (EV["flip"], 0, -1, card("QR"), 0, SEEN_ALL)
    assert t.obs(0).table_down == (7, 8)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("rule", ["ignore", "enforce"])
def test_the_deal_schedule_is_the_one_the_engine_deals(n: int, rule: str) -> None:
    # the schedule the facade lays a stacked deck out by is the engine's own:
    # dealt from the deck 0..77, card c goes to schedule[c] (-1: the Hound)
    for dealer in range(n):
        params = NancyRules(hound_position_rule=rule, first_dealer=dealer).to_params()  # type: ignore[arg-type]
        schedule = _core.nancy_deal_schedule(params, n, dealer)
        assert len(schedule) == 78 and set(schedule) == {-1, *range(n)}
        state = _core.new_state("nancy", params, n, 5, deck=list(range(78)))
        to = {e[3]: e[1] for e in state.events() if e[0] == EV_DEAL}
        assert [to[c] for c in range(78)] == schedule, (n, rule, dealer)
    with pytest.raises(ValueError, match="dealer"):
        _core.nancy_deal_schedule(params, n, n)
    with pytest.raises(RulesError):
        _core.nancy_deal_schedule(params, 7, 0)
