"""Random hands for the batch scorers' tests, and the one check of their
``out=`` and ``threads=`` arguments (shared by every game scorer's tests)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from pycards.batch import random_hands


def hands_with_card(k: int, seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """k-card hands and one more card of each deal, not in its hand (the
    lowest card of a random k + 1 card set)."""
    full = random_hands(n, k + 1, seed=seed)
    low = full & (~full + np.uint64(1))
    bit = np.log2(low.astype(np.float64)).astype(np.int64)  # exact: powers of two
    return full & ~low, ((bit >> 4) * 13 + (bit & 15)).astype(np.uint8)


def check_threads_and_out(
    score: Callable[..., Any], hands: np.ndarray, cards: np.ndarray, bad: np.ndarray, first: int
) -> None:
    """``out=`` is filled and returned, every thread count gives the scores of
    one thread, and ``bad`` (``hands`` spoiled at ``first`` and later) is
    refused naming deal ``first`` whatever the thread count."""
    one = score(hands, cards)
    for t in (1, 2, 3, 7, 0):
        out = np.zeros(len(hands), dtype=np.int32)
        assert score(hands, cards, out=out, threads=t) is out
        assert np.array_equal(out, one)
    for t in (1, 2, 3, 7):
        with pytest.raises(ValueError, match=f"deal {first}:"):
            score(bad, cards, threads=t)
