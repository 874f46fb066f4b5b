"""The Game of Nancy from stacked decks (docs/nancy.rst, "A stacked first deal").

The deck-position mapping is checked for every player count and both
``hound_position_rule`` values on every backend (the C engine, the cffi
binding when built, the reference).
"""

from __future__ import annotations

import itertools
import random
from types import ModuleType

import pytest

from cardcore import _core
from pycards import _reference
from pycards.cards import NancyCard
from pycards.game import State
from pycards.nancy import NancyGame, NancyRules

BACKENDS = [pytest.param(_core, id="c"), pytest.param(_reference, id="reference")]
try:  # the cffi binding, when built (PYCARDS_CFFI=1 or src/cardcore/_cffi_build.py)
    import cardcore._cffi  # noqa: F401

    from pycards import _cffi_backend

    BACKENDS.insert(1, pytest.param(_cffi_backend, id="cffi"))
except ImportError:
    pass

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
            hand = {int(c) for c in range(78) if t[n + c]}
            assert hand == {e[3] for e in deals if e[1] == q and e[2] == HAND}
            up = {int(c) for c in range(78) if t[n + 78 + 78 * q + c]}
            assert up == {e[3] for e in deals if e[1] == q and e[2] == FACE_UP}
        if enforce:  # the physical rule holds: not among the first or last 3, never two together
            hound = [i for i, w in enumerate(want) if w[1] == HOUND]
            assert all(3 <= h <= 74 for h in hound)
            assert all(b2 - a2 > 1 for a2, b2 in itertools.pairwise(hound))


@pytest.mark.parametrize("b", BACKENDS)
def test_stacked_deck_seed_gives_dealer_and_later_deals(b: ModuleType) -> None:
    """The seed still draws the first dealer; thrown-in and later deals shuffle from it."""
    deck = list(range(78))[::-1]
    params = NancyRules().to_params()
    a = b.new_state("nancy", params, 4, 3, deck)
    plain = b.new_state("nancy", params, 4, 3)
    assert a.events()[0] == plain.events()[0]  # same dealer as the shuffled game
    for _ in range(4):  # all pass: the next deal is a shuffle by the state's generator
        assert a.apply(0) == 0
    redealt = [e[3] for e in a.events() if e[0] == EV_DEAL]
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
