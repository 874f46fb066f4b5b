"""The batch functions' ``out=`` and ``threads=``: results written to the
caller's arrays and returned, the same results and the same first bad index
whatever the thread count, and every bad ``out`` or ``threads`` refused with a
typed error naming it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from pycards import batch
from pycards.errors import InvalidCardError

#: more than one chunk per thread (cc_threads.h CC_BATCH_CHUNK is 32,768 sets)
N = 200_003
THREADS = (1, 2, 3, 7, 0)
OUTSIDE = 1 << 63  # a bit outside the 52-card deck


def _hands(k: int, seed: int) -> np.ndarray:
    return batch.random_hands(N, k, seed=seed)


#: name, the call given (hands, out, threads), the output's dtype and shape
SINGLE: list[tuple[str, Callable[..., Any], Any, tuple[int, ...]]] = [
    ("count_fifteens", lambda h, **kw: batch.count_fifteens(h, 15, **kw), np.int64, (N,)),
    ("count_pairs", batch.count_pairs, np.int32, (N,)),
    ("runs", batch.runs, np.int32, (N,)),
    ("suit_counts", batch.suit_counts, np.uint8, (N, 4)),
    ("longest_suit_run", batch.longest_suit_run, np.int32, (N,)),
]


@pytest.mark.parametrize(("name", "fn", "dtype", "shape"), SINGLE, ids=[s[0] for s in SINGLE])
def test_threads_give_the_same_results_and_out_is_returned(
    name: str, fn: Callable[..., Any], dtype: Any, shape: tuple[int, ...]
) -> None:
    hands = _hands(5, 11)
    one = fn(hands)
    assert one.dtype == dtype and one.shape == shape
    for t in THREADS:
        out = np.full(shape, 99, dtype=dtype)
        got = fn(hands, out=out, threads=t)
        assert got is out
        assert np.array_equal(got, one), (name, t)


@pytest.mark.parametrize(("name", "fn", "dtype", "shape"), SINGLE, ids=[s[0] for s in SINGLE])
@pytest.mark.parametrize("where", [0, 1, 32_767, 32_768, 100_001, N - 1])
def test_the_first_bad_index_is_the_same_on_every_thread_count(
    name: str, fn: Callable[..., Any], dtype: Any, shape: tuple[int, ...], where: int
) -> None:
    hands = _hands(5, 12)
    hands[where] |= OUTSIDE
    if where + 70_000 < N:
        hands[where + 70_000] |= OUTSIDE  # a later bad set, in another chunk
    messages = set()
    for t in THREADS:
        with pytest.raises(InvalidCardError) as e:
            fn(hands, threads=t)
        messages.add(str(e.value))
    assert len(messages) == 1
    assert str(where) in messages.pop()


def test_hand_stats_threads_and_out() -> None:
    hands = _hands(6, 13)  # 6 cards: the slow path of the fused kernel too
    one = batch.hand_stats(hands)
    buf = batch.new_hand_stats(N)
    for t in THREADS:
        got = batch.hand_stats(hands, out=buf, threads=t)
        assert all(g is b for g, b in zip(got, buf, strict=False))
        assert all(np.array_equal(g, o) for g, o in zip(got, one, strict=False)), t
    hands[54_321] |= OUTSIDE
    for t in THREADS:
        with pytest.raises(InvalidCardError, match="element 54321 "):
            batch.hand_stats(hands, out=buf, threads=t)


def test_random_inputs_at_every_thread_count() -> None:
    rng = np.random.default_rng(2026)
    for _ in range(5):
        n = int(rng.integers(0, 150_000))
        hands = rng.integers(0, 1 << 62, size=n, dtype=np.uint64) & np.uint64(0x1FFF1FFF1FFF1FFF)
        if n:
            hands[int(rng.integers(n))] |= np.uint64(OUTSIDE)
        outcomes = set()
        for t in (1, 2, 3, 7):
            try:
                r = batch.runs(hands, threads=t)
                outcomes.add(r.tobytes())
            except InvalidCardError as e:
                outcomes.add(str(e))
        assert len(outcomes) == 1


BAD_OUT = [
    ([1, 2, 3], TypeError, "out must be a numpy.ndarray"),
    (np.zeros(10, dtype=np.int64), TypeError, "out must have dtype int32"),
    (np.zeros(11, dtype=np.int32), ValueError, r"out must have shape \(10,\)"),
    (np.zeros(20, dtype=np.int32)[::2], ValueError, "out must be C-contiguous"),
    (np.zeros((10, 1), dtype=np.int32), ValueError, "out must have shape"),
]


@pytest.mark.parametrize(("out", "exc", "message"), BAD_OUT)
def test_a_bad_out_is_refused_naming_out(out: Any, exc: type[Exception], message: str) -> None:
    hands = batch.random_hands(10, 5, seed=1)
    with pytest.raises(exc, match=message):
        batch.runs(hands, out=out)


def test_a_read_only_or_overlapping_out_is_refused() -> None:
    hands = batch.random_hands(10, 5, seed=1)
    ro = np.zeros(10, dtype=np.int32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out must be writeable"):
        batch.count_pairs(hands, out=ro)
    with pytest.raises(ValueError, match="out overlaps an input"):
        batch.count_fifteens(hands, out=hands.view(np.int64))
    buf = batch.new_hand_stats(10)
    with pytest.raises(ValueError, match=r"out\[2\] \(run_score\) overlaps"):
        batch.hand_stats(hands, out=(buf[0], buf[1], buf[1], buf[3]))
    with pytest.raises(ValueError, match="out must hold 4 arrays"):
        batch.hand_stats(hands, out=buf[:3])
    with pytest.raises(TypeError, match=r"out\[3\] \(suit_counts\) must have dtype uint8"):
        batch.hand_stats(hands, out=(buf[0], buf[1], buf[2], np.zeros((10, 4), np.int32)))


@pytest.mark.parametrize(
    ("threads", "exc"),
    [(True, TypeError), (1.0, TypeError), (None, TypeError), (-1, ValueError), (257, ValueError)],
)
def test_a_bad_thread_count_is_refused_naming_threads(threads: Any, exc: type[Exception]) -> None:
    hands = batch.random_hands(10, 5, seed=1)
    with pytest.raises(exc, match="threads"):
        batch.runs(hands, threads=threads)
    with pytest.raises(exc, match="threads"):
        batch.hand_stats(hands, threads=threads)


def test_default_threads_is_the_core_count() -> None:
    import os

    assert batch.default_threads() == min(os.cpu_count() or 1, 256)
