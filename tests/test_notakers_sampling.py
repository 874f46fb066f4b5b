"""No Takers? information-set sampling: what each player knows is tracked
identically by the C engine and the reference, is true, and holds in every
sample; samples keep the player's view; the deal is uniform among those that
keep the knowledge (docs/notakers.rst, "Information-set sampling")."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import reference as ref

from cardcore import _core as c_core

TERMINAL = -4
EV_DRAW, EV_SAVE, EV_ASK, EV_PASS, EV_GIVE, EV_NO_TAKERS = 2, 3, 4, 5, 6, 7
ALL = 0xFFFFFFFF

BACKENDS: list[Any] = [c_core, ref]
try:
    from pycards import _cffi_backend

    BACKENDS.append(_cffi_backend)
except ImportError:  # cardcore._cffi not built
    pass


def bit(c: int) -> int:
    return 1 << (16 * (c // 13) + c % 13)


def matches(descriptor: int) -> int:
    """Bitset of the cards an ask descriptor names."""
    if descriptor < 13:
        return sum(bit(s * 13 + descriptor) for s in range(4))
    if descriptor < 17:
        return sum(bit((descriptor - 13) * 13 + r) for r in range(13))
    return bit(descriptor - 17)


def cards_of(vec: Any) -> int:
    return sum(bit(c) for c in range(52) if vec[c])


def hands_saves(state: Any, n: int) -> tuple[list[int], list[int]]:
    """Every seat's hand and save pile, read from the seat's own tensor."""
    tensors = [state.observe_tensor(q) for q in range(n)]
    return [cards_of(t[:52]) for t in tensors], [cards_of(t[52:104]) for t in tensors]


def redacted(events: list[tuple[int, ...]], p: int) -> list[tuple[int, ...]]:
    return [(*e[:3], e[3] if e[5] == ALL or e[5] >> p & 1 else -1, *e[4:]) for e in events]


def plain_knowledge(events: list[tuple[int, ...]], p: int, n: int) -> tuple[list[int], ...]:
    """A weaker, independent reading of player ``p``'s event view: cards he
    gave to q (forgotten once q gives anybody else a card; in hand only until
    q saves), and cards q had none of at a Pass or at No Takers (forgotten
    once q draws or receives a card from anybody else).  Cards saved in
    sight (open saves) are public and left out."""
    gave_hand, gave, passed = [0] * n, [0] * n, [0] * n
    descriptor = -1
    for kind, player, target, value, _extra, _seen in redacted(events, p):
        if kind == EV_ASK:
            descriptor = value
        elif kind == EV_PASS:
            passed[player] |= matches(descriptor) if player != p else 0
        elif kind == EV_NO_TAKERS:
            for q in range(n):
                if q not in (player, p):
                    passed[q] |= matches(descriptor)
        elif kind == EV_DRAW:
            passed[player] = 0
        elif kind == EV_SAVE:
            gave_hand[player] = 0
            if value >= 0:  # an open save: the card is in sight
                gave[player] &= ~bit(value)
        elif kind == EV_GIVE:
            if player == p:
                gave_hand[target] |= bit(value)
                gave[target] |= bit(value)
                passed[target] &= ~bit(value)
            elif target == p:
                gave_hand[player] &= ~bit(value)
                gave[player] &= ~bit(value)
            else:
                gave_hand[player] = gave[player] = 0
                passed[target] = 0
    return gave_hand, gave, passed


def check_knowledge(know: tuple[list[int], ...], hands: list[int], saves: list[int]) -> None:
    in_hand, held, not_in = know
    for q, hand in enumerate(hands):
        assert in_hand[q] & ~hand == 0, q
        assert held[q] & ~(hand | saves[q]) == 0, q
        assert not_in[q] & hand == 0, q
        assert in_hand[q] & ~held[q] == 0, q


def random_params(rng: random.Random) -> list[int]:
    return [rng.randint(0, 1), rng.randint(0, 1), rng.randint(0, 2), rng.randint(0, 1), 0,
            rng.randint(0, 2), rng.randint(0, 1)]  # fmt: skip


def pick(rng: random.Random, legal: list[int]) -> int:
    """Random play that asks more than it draws, so knowledge piles up."""
    if 0 in legal and rng.random() < 0.08:
        return 0
    asks = [a for a in legal if a >= 108]
    if asks and rng.random() < 0.5:
        return rng.choice(asks)
    return rng.choice(legal)


def game_states(backend: Any, games: int, seed: int, every: float) -> Iterator[tuple[Any, int]]:
    """States met along random games (a fraction ``every`` of the steps)."""
    rng = random.Random(seed)
    for g in range(games):
        n = rng.randint(2, 6)
        s = backend.new_state("notakers", random_params(rng), n, seed * 1000 + g)
        while s.current_player() != TERMINAL:
            s.apply(pick(rng, s.legal_actions()))
            if rng.random() < every:
                yield s, n


def test_knowledge_is_true_and_the_same_on_both_engines() -> None:
    rng = random.Random(5)
    tracked = 0
    for g in range(40):
        n = rng.randint(2, 7)
        params = random_params(rng)
        c = c_core.new_state("notakers", params, n, g)
        r = ref.new_state("notakers", params, n, g)
        while c.current_player() != TERMINAL:
            a = pick(rng, c.legal_actions())
            assert c.apply(a) == 0 and r.apply(a) == 0
            hands, saves = hands_saves(c, n)
            events = c.events()
            for p in range(n):
                know = c_core.notakers_knowledge(c, p)
                assert know == ref.notakers_knowledge(r, p)
                check_knowledge(know, hands, saves)
                assert know[0][p] == know[1][p] == know[2][p] == 0
                gave_hand, gave, passed = plain_knowledge(events, p, n)
                for q in range(n):
                    assert gave_hand[q] & ~know[0][q] == 0
                    assert gave[q] & ~know[1][q] == 0
                    assert passed[q] & ~know[2][q] == 0
                tracked += sum(bool(x) for part in know for x in part)
    assert tracked > 1000


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_every_sample_keeps_the_knowledge_and_the_view(backend: Any) -> None:
    rng = random.Random(9)
    games = 12 if backend is ref else 30
    checked = constrained = fallbacks = 0
    for s, n in game_states(backend, games, 3, 0.04):
        hands, saves = hands_saves(s, n)
        events = s.events()
        for p in range(n):
            know = backend.notakers_knowledge(s, p)
            plain = plain_knowledge(events, p, n)
            for _ in range(2):
                o = s.sample_infoset(p, rng.getrandbits(64))
                o_hands, o_saves = hands_saves(o, n)
                used = backend.notakers_knowledge(o, p)
                assert used[:2] == know[:2]
                if used != know:  # the fallback: the current ask's constraints only
                    fallbacks += 1
                    assert all(u & ~k == 0 for u, k in zip(used[2], know[2], strict=True))
                    check_knowledge(used, o_hands, o_saves)
                    continue
                check_knowledge(know, o_hands, o_saves)
                for q in range(n):
                    assert plain[0][q] & ~o_hands[q] == 0
                    assert plain[1][q] & ~(o_hands[q] | o_saves[q]) == 0
                    assert plain[2][q] & o_hands[q] == 0
                    assert bin(o_hands[q]).count("1") == bin(hands[q]).count("1")
                    assert bin(o_saves[q]).count("1") == bin(saves[q]).count("1")
                assert np.array_equal(o.observe_tensor(p), s.observe_tensor(p))
                assert o.events() == redacted(events, p)
                if s.current_player() == p:
                    assert o.legal_mask() == s.legal_mask()
                if o.current_player() != TERMINAL:
                    assert o.legal_actions(), "the sample can go on"
                checked += 1
            constrained += any(know[2]) and any(know[0])
    assert fallbacks <= checked // 100
    assert checked > 100 and constrained > 5


def rejection_sample(s: Any, p: int, n: int, know: tuple[list[int], ...], rng: random.Random,
                     hidden_saves: bool, giver: tuple[int, int] | None) -> list[int]:  # fmt: skip
    """Plain rejection: deal the hidden cards uniformly until the knowledge
    (and the current giver's match) holds; the hands of the other seats."""
    hands, saves = hands_saves(s, n)
    known = hands[p] | saves[p]
    if not hidden_saves:
        for q in range(n):
            known |= saves[q]
    pool = [c for c in range(52) if not known & bit(c)]
    while True:
        rng.shuffle(pool)
        i = 0
        deal_h, deal_s = list(hands), list(saves)
        for q in range(n):
            if q == p:
                continue
            k = bin(hands[q]).count("1")
            deal_h[q] = sum(bit(c) for c in pool[i : i + k])
            i += k
            if hidden_saves:
                k = bin(saves[q]).count("1")
                deal_s[q] = sum(bit(c) for c in pool[i : i + k])
                i += k
        in_hand, held, not_in = know
        if any(
            in_hand[q] & ~deal_h[q] or held[q] & ~(deal_h[q] | deal_s[q]) or not_in[q] & deal_h[q]
            for q in range(n)
        ):
            continue
        if giver is not None and not deal_h[giver[0]] & giver[1]:
            continue
        return deal_h


@pytest.mark.parametrize("draws", [pytest.param(4000, marks=pytest.mark.slow), 600])
def test_samples_are_uniform_among_the_deals_keeping_the_knowledge(draws: int) -> None:
    """Marginals (card c in seat q's hand) of the sampler against plain
    rejection, on a position with every kind of knowledge."""
    rng = random.Random(1)
    seed = 322  # found by search: 3 players, p 0, knowledge of every kind
    s = c_core.new_state("notakers", [0] * 7, 3, seed)
    local = random.Random(seed)
    for _ in range(local.randint(10, 40)):
        s.apply(pick(local, s.legal_actions()))
    p = 0
    know = c_core.notakers_knowledge(s, p)
    _, saves = hands_saves(s, 3)
    either = [know[1][q] & ~know[0][q] for q in range(3)]
    assert any(know[0]) and any(either) and sum(bin(x).count("1") for x in know[2]) >= 8
    assert saves[p] == 0 and any(saves)
    hands, _ = hands_saves(s, 3)
    counts_sampler = np.zeros((3, 52))
    counts_plain = np.zeros((3, 52))
    for _ in range(draws):
        o = s.sample_infoset(p, rng.getrandbits(64))
        o_hands, _ = hands_saves(o, 3)
        for q in (1, 2):
            counts_sampler[q] += [bool(o_hands[q] & bit(c)) for c in range(52)]
    for _ in range(draws):
        deal = rejection_sample(s, p, 3, know, rng, True, None)
        for q in (1, 2):
            counts_plain[q] += [bool(deal[q] & bit(c)) for c in range(52)]
    a, b = counts_sampler / draws, counts_plain / draws
    pooled = (a + b) / 2
    sigma = np.sqrt(pooled * (1 - pooled) * 2 / draws) + 1e-9
    assert np.all(np.abs(a - b) <= 5 * sigma + 1e-9), np.max(np.abs(a - b) / sigma)
    # the knowledge does change the marginals (the test can fail)
    assert np.any(np.abs(a[1:] - a[1:].mean(axis=1, keepdims=True)) > 0.2)
    assert math.isclose(a[1].sum(), bin(hands[1]).count("1"))
