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
import random
from collections import Counter

import pytest
from _brute import deals
from _play import first_moves
from _stats import Z_1E6, chi2, chi2_limit

from pycards.cards import Card, CardSet
from pycards.games.nodde import NoddeGame, NoddeRules, score_hand


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
    for (cards,) in deals(pool, [hidden_count], whole=False):
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
        stat = chi2([counts[h] for h in want], [draws / len(want)] * len(want))
        assert stat < chi2_limit(len(want) - 1, Z_1E6)


def test_sample_carries_no_trace_of_the_real_deal() -> None:
    game = NoddeGame(num_players=3)
    state = game.new_initial_state(11)
    a = state.sample_infoset(0, 99)
    b = state.sample_infoset(0, 99)
    assert a.engine_state.raw() == b.engine_state.raw()  # same seed, same sample
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


# ---------------------------------------------------------------------------
# several hidden slots at once: more players, and earlier deals of one shuffle


def _slot_facts(state: object, viewer: int) -> tuple[list[dict[str, object]], list[Card]]:
    """The hidden slots (seat, deal) since the last shuffle and the cards the
    viewer has not seen, from the viewer's events alone."""
    events = state.events(viewer)  # type: ignore[attr-defined]
    start = max(i for i, e in enumerate(events) if e.kind == "new_deal" and e.extra)
    obs = state.observation(viewer)  # type: ignore[attr-defined]
    n = len(obs.scores)
    seen: set[int] = set()
    slots: list[dict[str, object]] = []
    deal: list[dict[str, object]] = []
    turnup = -1
    for e in events[start:]:
        if e.kind == "new_deal":
            slots += deal
            deal = [
                {"seat": q, "played": [], "called": None, "go": None, "deal": e.value}
                for q in range(n)
                if q != viewer
            ]
        elif e.kind in ("deal_card", "turnup", "play") and e.value is not None:
            seen.add(e.value)
            if e.kind == "turnup":
                turnup = e.value
                for sl in deal:
                    sl["turnup"] = turnup
        for sl in deal:
            if e.player != sl["seat"]:
                continue
            if e.kind == "play":
                sl["played"].append(e.value)  # type: ignore[attr-defined]
            elif e.kind == "hand_score":
                sl["called"] = e.value
            elif e.kind == "go":
                sl["go"] = e.target
    for sl in deal:  # the current deal: the seat to act can play
        sl["fit"] = obs.total if obs.to_act == sl["seat"] else None
    slots += deal
    pool = [Card(i) for i in range(52) if i not in seen]
    return [sl for sl in slots if len(sl["played"]) < 3], pool  # type: ignore[arg-type]


def _slot_fillings(sl: dict[str, object], pool: list[Card]) -> list[frozenset[int]]:
    out = []
    played = CardSet([Card(c) for c in sl["played"]])  # type: ignore[attr-defined]
    for (cards,) in deals(pool, [3 - len(played)], whole=False):
        pips = [c.pips for c in cards]
        if sl["go"] is not None and any(sl["go"] + p <= 31 for p in pips):  # type: ignore[operator]
            continue
        if sl.get("fit") is not None and not any(sl["fit"] + p <= 31 for p in pips):  # type: ignore[operator]
            continue
        if sl["called"] is not None:
            full = played | CardSet(cards)
            if score_hand(full, Card(sl["turnup"])).total != sl["called"]:  # type: ignore[arg-type]
                continue
        out.append(frozenset(int(c) for c in cards))
    return out


def _joint(options: list[list[frozenset[int]]]) -> set[tuple[frozenset[int], ...]]:
    """Every tuple of pairwise disjoint slot fillings."""
    out: set[tuple[frozenset[int], ...]] = set()
    for combo in itertools.product(*options):
        used = [c for f in combo for c in f]
        if len(used) == len(set(used)):
            out.add(combo)
    return out


def _sampled_fillings(sample: object, slots: list[dict[str, object]]) -> tuple[frozenset[int], ...]:
    """The hidden cards of each slot in a sample, from its full log."""
    raw = sample.engine_state.events()  # type: ignore[attr-defined]
    dealt: dict[tuple[int, int], set[int]] = {}
    deal_no = 0
    for kind, player, _, value, _, _ in raw:
        if kind == 0:
            deal_no = value
        elif kind == 1:
            dealt.setdefault((deal_no, player), set()).add(value)
        elif kind == 5:
            dealt.setdefault((deal_no, player), set()).discard(value)
    return tuple(frozenset(dealt[(sl["deal"], sl["seat"])]) for sl in slots)  # type: ignore[index]


def _multi_slot_positions(rules: NoddeRules, players: int, deals: int) -> list[object]:
    """Seeded positions with several hidden slots and few consistent deals."""
    game = NoddeGame(rules, num_players=players)
    found = []
    for seed in range(400):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            obs = state.observation(0)
            new_deals = sum(e.kind == "new_deal" for e in state.events())
            if new_deals >= deals and all(obs.hand_called):
                slots, pool = _slot_facts(state, 0)
                hidden = [3 - len(sl["played"]) for sl in slots]  # type: ignore[arg-type]
                few = max(hidden) <= (2 if players < 4 else 1) and sum(hidden) <= 4
                deals_seen = {sl["deal"] for sl in slots}
                if len(slots) >= 2 and few and len(deals_seen) >= min(deals, 2):
                    joint = _joint([_slot_fillings(sl, pool) for sl in slots])
                    if 2 <= len(joint) <= 60:
                        found.append(state)
                        break
            state.apply(rng.choice(state.legal_actions()))
        if len(found) == 3:
            break
    return found


@pytest.mark.parametrize(
    ("rules", "players", "deals"),
    [
        (NoddeRules(game_target=121), 3, 1),
        pytest.param(  # about 90 s: positions with few consistent deals are rare
            NoddeRules(game_target=121, four_player_mode="individual"),
            4,
            1,
            marks=pytest.mark.slow,
        ),
        (NoddeRules(game_target=121, reshuffle_each_deal=False), 2, 2),
    ],
    ids=["3 players", "4 players", "earlier deals of one shuffle"],
)
def test_sampler_is_uniform_over_the_consistent_deals(
    rules: NoddeRules, players: int, deals: int
) -> None:
    """Several slots (other seats, earlier deals since the shuffle) at once:
    the samples hit exactly the tuples of disjoint consistent fillings,
    uniformly (chi-square, false-alarm rate below 1e-6 per position)."""
    positions = _multi_slot_positions(rules, players, deals)
    assert positions, "no position with a few consistent deals found"
    for state in positions:
        slots, pool = _slot_facts(state, 0)
        want = _joint([_slot_fillings(sl, pool) for sl in slots])
        draws = 200 * len(want)
        counts = Counter(
            _sampled_fillings(state.sample_infoset(0, s), slots)  # type: ignore[attr-defined]
            for s in range(draws)
        )
        assert set(counts) == want
        stat = chi2([counts[h] for h in want], [draws / len(want)] * len(want))
        assert stat < chi2_limit(len(want) - 1, Z_1E6)


# ---------------------------------------------------------------------------
# inputs decided one by one (docs/games.rst)


def test_a_finished_game_can_be_sampled() -> None:
    # decided: the information set of a finished game is still defined
    state = first_moves("nodde", 3)
    for seat in range(2):
        sample = state.sample_infoset(seat, 1)
        assert sample.is_terminal and sample.returns() == state.returns()
        assert sample.observation(seat) == state.observation(seat)
