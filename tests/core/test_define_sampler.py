"""The defined games' information-set sampler, counted exactly on a small
position: every consistent deal of the hidden cards (voids shown by failing
to follow suit respected) is drawn, nothing else is, and equally often (a
chi-square test with a fixed seed)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from cardcore import _core
from pycards.define import TrickGame

SMALL = TrickGame(
    name="small_sampler", title="SmallSampler", players=3, ranks="AKQJT", hand_sizes=(4,)
)
PLAY, DEAL = 6, 1


def _position() -> tuple[_core.GameState, int]:
    """A position of SMALL where a seat other than the observer has shown a void."""
    SMALL.register(listed=False)
    for seed in range(500):
        state = _core.GameSetup(SMALL.name, (0,), 3).new_state(seed)
        rng = random.Random(seed)
        for _ in range(6):
            state.apply(rng.choice(state.legal_actions()))
        p = state.current_player()
        if _voids(state) and any(q != p for q in _voids(state)):
            return state, p
    raise AssertionError("no position with a void")


def _voids(state: _core.GameState) -> dict[int, set[int]]:
    voids: dict[int, set[int]] = {}
    led = -1
    plays = 0
    for kind, player, _, value, _, _ in state.events():
        if kind == PLAY:
            if plays % 3 == 0:
                led = value // 13
            elif value // 13 != led:
                voids.setdefault(player, set()).add(led)
            plays += 1
    return voids


def test_the_sampler_draws_every_consistent_deal_uniformly() -> None:
    state, p = _position()
    voids = _voids(state)
    deck = {s * 13 + r for s in range(4) for r in (0, 12, 11, 10, 9)}
    played = {v for k, _, _, v, _, _ in state.events() if k == PLAY}
    mine = {v for k, q, _, v, _, _ in state.events() if k == DEAL and q == p} - played
    unknown = sorted(deck - played - mine)
    others = [q for q in range(3) if q != p]
    counts = {
        q: 4 - sum(1 for k, who, _, _, _, _ in state.events() if k == PLAY and who == q)
        for q in others
    }
    # brute force: every split of the unknown cards, the rest undealt
    expected = set()
    a, b = others
    for hand_a in itertools.combinations(unknown, counts[a]):
        rest = [c for c in unknown if c not in hand_a]
        for hand_b in itertools.combinations(rest, counts[b]):
            if any(c // 13 in voids.get(a, ()) for c in hand_a):
                continue
            if any(c // 13 in voids.get(b, ()) for c in hand_b):
                continue
            expected.add((frozenset(hand_a), frozenset(hand_b)))
    assert len(expected) > 10
    draws = 60 * len(expected)
    seen: Counter[tuple[frozenset[int], frozenset[int]]] = Counter()
    for seed in range(draws):
        sample = state.sample_infoset(p, seed)
        hands = []
        for q in others:
            tensor = sample.observe_tensor(q)
            hands.append(frozenset(int(c) for c in range(52) if tensor[c]))
        seen[(hands[0], hands[1])] += 1
        assert sample.observe_tensor(p).tolist() == state.observe_tensor(p).tolist()
    assert set(seen) == expected
    mean = draws / len(expected)
    chi2 = sum((seen[k] - mean) ** 2 / mean for k in expected)
    dof = len(expected) - 1
    # a fixed seed; the bound is the chi-square's mean plus 6 standard deviations
    assert chi2 < dof + 6 * (2 * dof) ** 0.5
