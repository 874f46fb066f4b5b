"""No Takers? information-set sampling: what each player knows is tracked
identically by the C engine and the reference, is true, and holds in every
sample; samples keep the player's view; the deal is uniform among those that
keep the knowledge (docs/notakers.rst, "Information-set sampling"): exact
counts of every consistent deal on small positions, and a comparison with
plain rejection sampling on a large one.  No twin of the sampler is used."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import reference as ref
from _brute import deals
from _stats import Z_1E4, chi2, chi2_limit

from cardcore import _core as c_core

TERMINAL = -4
EV_DRAW, EV_SAVE, EV_ASK, EV_PASS, EV_GIVE, EV_NO_TAKERS = 1, 2, 3, 4, 5, 6
ALL = 0xFFFFFFFF
LOG_CAPACITY = 256
UNSEEN = -1
PHASE = 156  # hidden saves: hand, save, selection, then the seat blocks


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


def check_sample_log(real: list[tuple[int, ...]], fake: list[tuple[int, ...]], p: int,
                     saves: list[int]) -> None:  # fmt: skip
    """The sample's log: p's view kept, a hidden save shows a card of the
    sampled save pile (each card once), any other hidden value is UNSEEN."""
    assert len(real) == len(fake)
    left = list(saves)
    for r, f in zip(real, fake, strict=True):
        if r[5] >> p & 1:
            assert f == r
            continue
        assert f[:3] == r[:3] and f[4:] == r[4:]
        if r[0] == EV_SAVE:
            assert left[r[1]] & bit(f[3])
            left[r[1]] &= ~bit(f[3])
        else:
            assert f[3] == UNSEEN


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


def game_states(games: int, seed: int, every: float) -> Iterator[tuple[Any, int]]:
    """States met along random games (a fraction ``every`` of the steps)."""
    rng = random.Random(seed)
    for g in range(games):
        n = rng.randint(2, 6)
        s = c_core.new_state("notakers", random_params(rng), n, seed * 1000 + g)
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
        deck = list(range(52))
        rng.shuffle(deck)
        c = c_core.new_state("notakers", params, n, g, deck)
        r = ref.new_state("notakers", params, n, g, deck)
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
                if len(events) >= LOG_CAPACITY:  # the plain reading needs the whole log
                    continue
                gave_hand, gave, passed = plain_knowledge(events, p, n)
                for q in range(n):
                    assert gave_hand[q] & ~know[0][q] == 0
                    assert gave[q] & ~know[1][q] == 0
                    assert passed[q] & ~know[2][q] == 0
                tracked += sum(bool(x) for part in know for x in part)
    assert tracked > 1000


def test_every_sample_keeps_the_knowledge_and_the_view() -> None:
    rng = random.Random(9)
    backend = c_core
    checked = constrained = fallbacks = 0
    for s, n in game_states(30, 3, 0.04):
        hands, saves = hands_saves(s, n)
        events = s.events()
        whole = len(events) < LOG_CAPACITY
        for p in range(n):
            know = backend.notakers_knowledge(s, p)
            plain = plain_knowledge(events, p, n) if whole else ([0] * n,) * 3
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
                check_sample_log(events, o.events(), p, o_saves)
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
    rejection, on a position with every kind of knowledge (too large to
    enumerate).  Each of the 104 cells must agree within 5 standard errors:
    for correct samplers a false alarm has probability about
    104 * 5.7e-7 = 6e-5 (and the seeds are fixed, so a pass stays a pass)."""
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


# ---------------------------------------------------------------------------
# exact counts on small positions


def consistent_deals(s: Any, p: int) -> list[tuple[int, int]] | None:
    """Every (hand, save pile) of the other seat of a 2-player state that
    keeps what p knows: the counts, the tracked facts, and a match in the
    current giver's hand.  Brute force over the unseen cards (None if
    there are too many ways to deal them)."""
    hands, saves = hands_saves(s, 2)
    q = 1 - p
    hidden_save = s.observe_tensor(p).shape[0] == PHASE + 7 * 2 + 78
    known = hands[p] | saves[p] | (0 if hidden_save else saves[q])
    pool = [c for c in range(52) if not known & bit(c)]
    in_hand, held, not_in = (k[q] for k in c_core.notakers_knowledge(s, p))
    h, k = bin(hands[q]).count("1"), bin(saves[q]).count("1") if hidden_save else 0
    t = s.observe_tensor(p)
    # after the seat blocks: hand and save sizes (2 + 2), pile, turns, current player (2)
    base = PHASE + (0 if hidden_save else 52) + 4 + 2 + 2
    phase = int(np.flatnonzero(t[base : base + 6])[0])
    match = 0
    if phase in (2, 3) and s.current_player() == q:  # q is giving: he holds a match
        d = base + 6 + 4  # after the phase, the asker and the asked
        match = matches(int(np.flatnonzero(t[d : d + 69])[0]))
    if math.comb(len(pool), h) * math.comb(len(pool) - h, k) > 50000:
        return None  # too many to enumerate
    out = []
    for dealt in deals(pool, [h, k] if hidden_save else [h], whole=False):
        hand = sum(bit(c) for c in dealt[0])
        if in_hand & ~hand or not_in & hand or (match and not hand & match):
            continue
        save = sum(bit(c) for c in dealt[1]) if hidden_save else saves[q]
        if held & ~(hand | save) == 0:
            out.append((hand, save))
    return out


def small_positions(limit: int) -> Iterator[tuple[Any, int, int]]:
    """2-player positions late in a game (few unseen cards) where p knows
    something: (state, p, number of consistent deals <= limit)."""
    rng = random.Random(17)
    for g in range(400):
        params = [0, rng.randint(0, 1), 0, 0, 0, 0, 0]
        s = c_core.new_state("notakers", params, 2, 7000 + g)
        while s.current_player() != TERMINAL:
            legal = s.legal_actions()
            pile = int(s.observe_tensor(0)[PHASE + 4 + 52 * params[1]])
            if pile <= 6 and rng.random() < 0.3:
                p = rng.randrange(2)
                know = c_core.notakers_knowledge(s, p)
                if any(any(k) for k in know):
                    deals = consistent_deals(s, p)
                    count = 0 if deals is None else len(deals)
                    if 1 < count <= limit:
                        yield s, p, count
                        break
            if 0 in legal and pile > 6 and rng.random() < 0.6:
                s.apply(0)
            else:
                s.apply(pick(rng, legal))


def test_sampler_hits_every_consistent_deal_equally_often() -> None:
    """Small positions: the consistent deals are enumerated; the sampler
    draws only those, and each about equally often (chi-square, fixed
    seeds; a false alarm rate of 1e-4 per position for a uniform sampler)."""
    rng = random.Random(23)
    tested = 0
    for s, p, count in small_positions(120):
        deals = set(consistent_deals(s, p) or [])
        assert len(deals) == count
        draws = 40 * count
        seen: Counter[tuple[int, int]] = Counter()
        for _ in range(draws):
            o = s.sample_infoset(p, rng.getrandbits(64))
            o_hands, o_saves = hands_saves(o, 2)
            deal = (o_hands[1 - p], o_saves[1 - p])
            assert deal in deals
            seen[deal] += 1
        stat = chi2([seen[d] for d in deals], [draws / count] * count)
        assert stat <= chi2_limit(count - 1, Z_1E4), (stat, count)
        tested += 1
        if tested == 5:
            break
    assert tested >= 3
