"""The engine RNG: C and reference agree bit for bit, and the sequence is pinned."""

from __future__ import annotations

import pytest
import reference as ref
from hypothesis import given
from hypothesis import strategies as st

from cardcore import _core

M64 = (1 << 64) - 1


def test_xoshiro_reference_vector() -> None:
    # xoshiro256** from state (1, 2, 3, 4) gives 11520, 0, 1509978240, 1215971899390074240
    # (published test vector of the algorithm); checks the reference's step function.
    rng = ref.rng.Rng(0)
    rng.s = [1, 2, 3, 4]
    assert [rng.next() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


def test_splitmix_seeding_pinned() -> None:
    # splitmix64 from 0 gives 0xE220A8397B1DCDAF first (published test vector).
    assert ref.rng.Rng(0).s[0] == 0xE220A8397B1DCDAF


@given(st.integers(0, M64), st.integers(0, 40))
def test_sequence_matches_reference(seed: int, n: int) -> None:
    assert _core.rng_sequence(seed, n) == ref.rng_sequence(seed, n)


@given(st.integers(0, M64), st.integers(0, 255))
def test_shuffle_matches_reference(seed: int, n: int) -> None:
    deck = _core.shuffled_deck(seed, n)
    assert deck == ref.shuffled_deck(seed, n)
    assert sorted(deck) == list(range(n))


def test_below_is_unbiased_enough() -> None:
    rng = ref.rng.Rng(12345)
    counts = [0] * 3
    for _ in range(30000):
        counts[rng.below(3)] += 1
    assert all(9500 < c < 10500 for c in counts)


@pytest.mark.parametrize("n", [-1, 256])
def test_deck_size_rejected(n: int) -> None:
    with pytest.raises((ValueError, OverflowError)):
        _core.shuffled_deck(1, n)
