"""Stateful differential test: the C engine against the plain-Python reference.

The same seeded games (random rules variants, the first dealer drawn from the
seed or fixed, random legal actions) are played on both; after every step the
player to act, the legal actions, verify codes of sampled actions, the event
log, the returns and every player's observation tensor must be identical.
The oracle copies no shuffle: it is fed the deck order of each deal (and each
random exchange card) the engine drew, read from the engine's event log, and
works out the rest on its own; information-set samples are checked to keep
what the sampled player knows (tests/games/nancy/test_sampler.py checks their
law).  A short sample runs by default; thousands of games per player count
under ``-m slow``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from reference.nancy import ChanceFromEngine, NancyState

from cardcore import _core

RANGES = [(0, 12), (0, 1), (0, 1), (1, 9), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1),
          (0, 1), (0, 2), (0, 1), (0, 2), (0, 1), (0, 2)]  # fmt: skip


def run_pair(
    n: int, params: list[int], seed: int, check_every: int = 1, deck: list[int] | None = None
) -> int:
    c = _core.new_state("nancy", params, n, seed, deck)
    r = NancyState(tuple(params), n, seed, deck, chance=ChanceFromEngine(c))
    rng = random.Random(seed)
    step = 0
    while True:
        assert c.current_player() == r.current_player(), step
        legal = c.legal_actions()
        assert legal == r.legal_actions(), step
        assert c.legal_mask() == r.legal_mask(), step
        assert c.returns() == r.returns(), step
        assert c.tensor_size() == r.tensor_size() == len(r.observe_tensor(0)), step
        if step % check_every == 0 or c.current_player() == -4:
            assert c.events() == r.events(), step
            for p in range(n):
                assert np.array_equal(c.observe_tensor(p), r.observe_tensor(p)), (step, p)
        if c.current_player() == -4:
            return step
        for a in rng.sample(range(-2, 324), 4):
            assert c.verify(a) == r.verify(a), (step, a)
        if rng.random() < 0.02:
            p = rng.randrange(n)
            s1 = c.sample_infoset(p, step)
            assert np.array_equal(s1.observe_tensor(p), c.observe_tensor(p)), step
            assert s1.current_player() == c.current_player()
            if c.current_player() == p:
                assert s1.legal_actions() == legal
        a = rng.choice(legal)
        assert c.apply(a) == 0 and r.apply(a) == 0
        step += 1


def _cases(count: int, seed: int) -> list[tuple[int, list[int], int]]:
    rng = random.Random(seed)
    out = []
    for n in range(2, 7):
        out.append(
            (n, [6, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, -1], rng.randrange(1 << 64))
        )
        for _ in range(count):
            params = [rng.randint(lo, hi) for lo, hi in RANGES]
            params.append(rng.randint(-1, n - 1))  # first_dealer: drawn, or a fixed seat
            if params[15] == 0 or params[15] > 1:  # keep matches short in the default run
                params[15] = 1
            out.append((n, params, rng.randrange(1 << 64)))
    return out


@pytest.mark.parametrize(("n", "params", "seed"), _cases(2, 2024))
def test_c_equals_reference(n: int, params: list[int], seed: int) -> None:
    assert run_pair(n, params, seed, check_every=3) > 0


def _stacked_cases(count: int, seed: int) -> list[tuple[int, list[int], int, list[int]]]:
    rng = random.Random(seed)
    out = []
    for n in range(2, 7):
        for _ in range(count):
            params = [rng.randint(lo, hi) for lo, hi in RANGES]
            params[15] = rng.choice([1, 1, 2])
            params.append(rng.randint(-1, n - 1))
            deck = list(range(78))
            rng.shuffle(deck)
            out.append((n, params, rng.randrange(1 << 64), deck))
    return out


@pytest.mark.parametrize(("n", "params", "seed", "deck"), _stacked_cases(2, 78))
def test_c_equals_reference_from_stacked_decks(
    n: int, params: list[int], seed: int, deck: list[int]
) -> None:
    """Games whose first deal is a random stacked deck (either Hound rule), then shuffled deals."""
    assert run_pair(n, params, seed, check_every=3, deck=deck) > 0


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_c_equals_reference_from_stacked_decks_many(n: int) -> None:
    for n_, params, seed, deck in _stacked_cases(300, 1000 + n):
        if n_ == n:
            run_pair(n, params, seed, check_every=5, deck=deck)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_c_equals_reference_thousands(n: int) -> None:
    rng = random.Random(n)
    for _g in range(1000):
        params = [rng.randint(lo, hi) for lo, hi in RANGES]
        params[15] = rng.choice([1, 1, 2])
        params.append(rng.randint(-1, n - 1))
        run_pair(n, params, rng.randrange(1 << 64), check_every=5)
