"""The Nodde information-set sampler against brute force (no twin of the C code).

For small positions (the other player holds 1 or 2 unseen cards) every
filling of his hand consistent with what the viewer knows is enumerated in
Python from the public facts (his pegged hand score, the total at which he
said go, that he can play when he is to act); the sampler must hit exactly
that set, uniformly: a chi-square test with a fixed seed, at a threshold
whose false-alarm rate is below 1e-6 (Wilson-Hilferty), so the test fails
only when the sampler is wrong.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from pycards.cards import Card, CardSet
from pycards.nodde import NoddeGame, NoddeRules, score_hand


def _chi2_threshold(df: int, z: float = 4.8) -> float:
    """Chi-square quantile by Wilson-Hilferty; z = 4.8 is a 1e-6 one-sided tail."""
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * math.sqrt(a)) ** 3


def _position(seed: int, want_hidden: int) -> tuple[NoddeGame, object] | None:
    game = NoddeGame(NoddeRules(game_target=121), num_players=2)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(200):
        if state.is_terminal:
            return None
        obs1 = state.observation(1)
        if len(obs1.hand) == want_hidden and state.observation(0).hand_called[1]:
            return game, state
        state.apply(rng.choice(state.legal_actions()))
    return None


def _consistent_hands(state: object, viewer: int, other: int) -> set[CardSet]:
    me = state.observation(viewer)  # type: ignore[attr-defined]
    hidden_count = 3 - len(me.played[other])
    seen = set(me.hand) | set(me.played[viewer]) | set(me.played[other]) | {me.turnup}
    pool = [Card(i) for i in range(52) if Card(i) not in seen]
    go_events = [
        e
        for e in state.events(viewer)  # type: ignore[attr-defined]
        if e.kind in ("go", "new_deal")
    ]
    start = max(i for i, e in enumerate(go_events) if e.kind == "new_deal")
    go_total = next(
        (e.target for e in go_events[start:] if e.kind == "go" and e.player == other), None
    )
    out = set()
    for cards in itertools.combinations(pool, hidden_count):
        pips = [c.pips for c in cards]
        if go_total is not None and any(go_total + p <= 31 for p in pips):
            continue
        if me.to_act == other and not any(me.total + p <= 31 for p in pips):
            continue
        full = me.played[other] | CardSet(cards)
        if score_hand(full, me.turnup).total != me.hand_scores[other]:
            continue
        out.add(CardSet(cards))
    return out


@pytest.mark.parametrize(("seed", "hidden"), [(3, 1), (5, 1), (8, 2), (13, 2)])
def test_sampler_is_uniform_over_the_consistent_hands(seed: int, hidden: int) -> None:
    found = _position(seed, hidden)
    if found is None:
        pytest.skip("no such position from this seed")
    _, state = found
    want = _consistent_hands(state, 0, 1)
    assert want, "the real hand is always consistent"
    draws = 200 * len(want)
    counts = Counter(
        state.sample_infoset(0, s).observation(1).hand  # type: ignore[attr-defined]
        for s in range(draws)
    )
    assert set(counts) == want  # exactly the consistent hands, every one of them
    if len(want) > 1:
        expected = draws / len(want)
        chi2 = sum((counts[h] - expected) ** 2 / expected for h in want)
        assert chi2 < _chi2_threshold(len(want) - 1)


def test_sample_carries_no_trace_of_the_real_deal() -> None:
    game = NoddeGame(num_players=3)
    state = game.new_initial_state(11)
    a = state.sample_infoset(0, 99)
    b = state.sample_infoset(0, 99)
    assert a._s.raw() == b._s.raw()  # same seed, same sample
    other = game.new_initial_state(12)
    # the sample's own future comes from the sample seed: two samples of the
    # same position with different seeds deal different next hands
    futures = set()
    for s in range(8):
        x = state.sample_infoset(0, s)
        while not x.is_terminal and x.observation(0).dealer == state.observation(0).dealer:
            x.apply(x.legal_actions()[0])
        if not x.is_terminal:
            futures.add(x.observation(0).hand)
    assert len(futures) > 1
    assert other.observation(0) != state.observation(0)
