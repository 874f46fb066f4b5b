"""The law of the Nancy engine's chance, tested without a twin of its code.

Chi-square tests with fixed seeds: each test compares observed counts with
the counts the rules imply and fails when the statistic exceeds the 0.999
quantile of its chi-square law (Wilson-Hilferty approximation), so a correct
engine fails one given test with probability about 1/1000 over seeds; the
seeds are fixed, so the suite is deterministic.
"""

from __future__ import annotations

import random
from typing import Any

from _brute import replayed_deals
from _stats import Z_999, chi2, chi2_limit

from cardcore import _core
from pycards.games.nancy import NancyGame, NancyRules

EV_DEALER, EV_DEAL = 0, 1
PLACE_HOUND = 3


def test_the_deck_is_shuffled_uniformly() -> None:
    """Where card 0 lies in the first deal's deck order: uniform over 78 places."""
    params = NancyRules(match_rounds=1).to_params()
    counts = [0] * 78
    draws = 7800
    for seed in range(draws):
        s = _core.new_state("nancy", params, 4, seed)
        deck = [e[3] for e in s.events() if e[0] == EV_DEAL]
        counts[deck.index(0)] += 1
    assert chi2(counts, [draws / 78] * 78) < chi2_limit(77, Z_999)


def test_hound_places_are_uniform_between_packets() -> None:
    """hound_position_rule = enforce: each gap between packets (never before the
    first nor after the last) gets a Hound card with the same probability."""
    params = NancyRules(match_rounds=1, hound_position_rule="enforce").to_params()
    npackets = (78 - 6) // 3
    counts = [0] * npackets
    games = 2000
    for seed in range(games):
        s = _core.new_state("nancy", params, 4, seed)
        dealt = 0
        for e in s.events():
            if e[0] != EV_DEAL:
                continue
            if e[2] == PLACE_HOUND and dealt < npackets * 3:
                counts[dealt // 3] += 1
            elif e[2] != PLACE_HOUND:
                dealt += 1
    assert counts[0] == 0 and sum(counts) == 6 * games
    gaps = counts[1:]
    assert chi2(gaps, [6 * games / len(gaps)] * len(gaps)) < chi2_limit(len(gaps) - 1, Z_999)


def test_samples_before_any_play_spread_hidden_cards_by_place_size() -> None:
    """At the first bid, what player 0 cannot see (three hands of 12 and the Hound
    of 6) is redealt uniformly: a hidden card lies in a place with probability
    proportional to its size, and two hidden cards share a place with probability
    sum s(s-1) / (42 * 41)."""
    params = NancyRules(match_rounds=1).to_params()
    s = _core.new_state("nancy", params, 4, 99)
    own = {e[3] for e in s.events() if e[0] == EV_DEAL and e[5] & 1}
    hidden = sorted(set(range(78)) - own)
    assert len(hidden) == 42
    a, b = hidden[0], hidden[-1]
    counts = [0] * 4  # a in seat 1, 2, 3, the Hound
    together = 0
    draws = 4000

    def place(sample: object, card: int) -> int:
        for e in sample.events():  # type: ignore[attr-defined]
            if e[0] == EV_DEAL and e[3] == card:
                return 3 if e[2] == PLACE_HOUND else int(e[1]) - 1
        raise AssertionError(card)

    for k in range(draws):
        sample = s.sample_infoset(0, k)
        pa, pb = place(sample, a), place(sample, b)
        counts[pa] += 1
        together += pa == pb
    sizes = [12, 12, 12, 6]
    assert chi2(counts, [draws * z / 42 for z in sizes]) < chi2_limit(3, Z_999)
    p = sum(z * (z - 1) for z in sizes) / (42 * 41)
    assert chi2([together, draws - together], [draws * p, draws * (1 - p)]) < chi2_limit(1, Z_999)


def _late_position(seed: int) -> tuple[Any, list[int], list[int]]:
    """A 3-player deal (no face-up cards, Taker seat p) played at random until
    three cards are left in each hand; returns the state, the deck, the actions."""
    rules = NancyRules(face_up_count=0, match_rounds=1, first_dealer=0)
    game = NancyGame(rules, 3)
    rng = random.Random(seed)
    deck = list(range(78))
    rng.shuffle(deck)
    state = game.new_initial_state(seed, deck=deck)
    while not state.is_terminal:
        obs = state.observation(0)
        if obs.phase_name == "play" and obs.trick_index == 21 and not obs.trick_cards:
            return state, deck, list(state.history)
        state.apply(rng.choice(state.legal_actions()))
    raise LookupError(seed)


def test_samples_are_uniform_over_the_consistent_deals_by_brute_force() -> None:
    """Three players, three cards left each, sampled by the Taker (who saw the
    Hound and made the discards): the unknown cards are the other two hands.
    Every split of them is tried by replaying the game's actions on a deck that
    deals it: a split is consistent when every action is legal and the Taker's
    observation comes out the same.  The samples must hit every consistent split,
    no other, with equal frequencies (chi-square, 1/1000 false alarms)."""
    for seed in range(200):
        state, deck, history = _late_position(seed)
        p = state.observation(0).taker
        assert p is not None
        others, hands, splits = replayed_deals(state, deck, history, p)
        consistent = [split[0] for split in splits]  # the first hand decides the second
        assert hands[0] in consistent
        if len(consistent) >= 4:
            break
    else:
        raise AssertionError("no position with 4 consistent splits")
    draws = 500 * len(consistent)
    counts = dict.fromkeys(consistent, 0)
    for k in range(draws):
        got = frozenset(int(c) for c in state.sample_infoset(p, k).observation(others[0]).hand)
        assert got in counts, "an inconsistent deal was sampled"
        counts[got] += 1
    observed = list(counts.values())
    assert min(observed) > 0
    assert chi2(observed, [draws / len(consistent)] * len(consistent)) < chi2_limit(
        len(consistent) - 1, Z_999
    )
