"""Batch kernels: batch == scalar, C == reference, dtypes and shapes, bad input,
seeded random hands, and the public ``pycards.batch`` API."""

from __future__ import annotations

import itertools
import threading
from types import ModuleType

import numpy as np
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from pycards import batch
from pycards.cards import parse_cards

C: ModuleType = pytest.importorskip("cardcore._core")
BACKENDS = [pytest.param(C, id="c"), pytest.param(ref, id="reference")]

DECK52_MASK = 0x1FFF1FFF1FFF1FFF
KERNELS = [
    "batch_count_fifteens",
    "batch_count_pairs",
    "batch_suit_counts",
    "batch_run_score",
    "batch_longest_suit_run",
    "batch_hand_stats",
]


def run_score(backend: ModuleType, cards: int) -> int:
    return sum(length * mult for length, mult, _ in backend.runs(cards))


def misaligned(arr: np.ndarray) -> np.ndarray:
    """A C-contiguous copy of arr whose data starts one byte past an alignment."""
    buf = np.zeros(arr.nbytes + arr.itemsize, dtype=np.uint8)
    out = buf[1 : 1 + arr.nbytes].view(arr.dtype).reshape(arr.shape)
    out[...] = arr
    assert out.flags.c_contiguous and not out.flags.aligned
    return out


def mixed_sizes(seed: int, per_size: int) -> np.ndarray:
    """Random sets of every size 0..52, concatenated."""
    return np.concatenate([C.random_hands(per_size, k, seed + k) for k in range(53)])


@pytest.mark.parametrize("backend", BACKENDS)
def test_batch_equals_scalar(backend: ModuleType) -> None:
    hands = mixed_sizes(11, 3 if backend is ref else 40)
    f = backend.batch_count_fifteens(hands, 15)
    f31 = backend.batch_count_fifteens(hands, 31)
    p = backend.batch_count_pairs(hands)
    s = backend.batch_suit_counts(hands)
    r = backend.batch_run_score(hands)
    lsr = backend.batch_longest_suit_run(hands)
    hs = backend.batch_hand_stats(hands, 15)
    for i, h in enumerate(int(x) for x in hands):
        assert f[i] == backend.count_fifteens(h, 15)
        assert f31[i] == backend.count_fifteens(h, 31)
        assert p[i] == backend.count_pairs(h)
        assert tuple(s[i]) == backend.suit_counts(h)
        assert r[i] == run_score(backend, h)
        assert lsr[i] == backend.longest_suit_run(h)
    for got, want in zip(hs, (f, p, r, s), strict=True):
        np.testing.assert_array_equal(got, want)


PATHS = C._combos_paths()  # 0 = auto, then every kernel path this CPU runs


def test_every_kernel_path_gives_the_same_results() -> None:
    """Each path of the fused kernel (portable, popcnt, BMI2, AVX2, AVX-512 when the
    CPU has it), forced by its number, equals the portable path: sets of every
    size, every target class (single cards count for targets <= 10), lengths
    that are not a multiple of the vector width, and bad bits."""
    assert PATHS[:2] == [0, 1]
    hands = mixed_sizes(21, 30)
    rng = np.random.default_rng(5)
    hands = np.concatenate([hands, C.random_hands(3000, 5, 9), C.random_hands(3000, 4, 8)])
    hands = hands[rng.permutation(len(hands))]
    for target in (15, 1, 5, 10, 11, 31, 50, 51, 127, 128, 340):
        for n in (0, 1, 7, 8, 9, 15, 17, len(hands)):
            want = C._batch_hand_stats_path(1, hands[:n], target)
            for path in PATHS:
                got = C._batch_hand_stats_path(path, hands[:n], target)
                for g, w in zip(got, want, strict=True):
                    assert g.dtype == w.dtype and g.shape == w.shape
                    np.testing.assert_array_equal(g, w, err_msg=f"path {path} target {target}")
    whole = C.batch_hand_stats(hands, 31)
    for g, w in zip(whole, C._batch_hand_stats_path(1, hands, 31), strict=True):
        np.testing.assert_array_equal(g, w)
    for i in (0, 8, 13, len(hands) - 1):
        bad = hands.copy()
        bad[i] |= np.uint64(1 << 13)
        bad[-1] |= np.uint64(1 << 63)
        for path in PATHS:
            with pytest.raises(ValueError, match=f"element {i} "):
                C._batch_hand_stats_path(path, bad)
    with pytest.raises(ValueError, match="not available"):
        C._batch_hand_stats_path(99, hands)


@pytest.mark.slow
@pytest.mark.parametrize("k", [3, 4, 5])
def test_every_kernel_path_on_every_hand(k: int) -> None:
    """Every path equals the portable one on all C(52, k) hands, k = 3..5."""
    ids = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), k)), dtype=np.int64
    ).reshape(-1, k)
    pos = (16 * (ids // 13) + ids % 13).astype(np.uint64)
    hands = np.bitwise_or.reduce(np.left_shift(np.uint64(1), pos), axis=1)
    for target in (15, 5, 31):
        want = C._batch_hand_stats_path(1, hands, target)
        for path in PATHS[2:]:
            for g, w in zip(C._batch_hand_stats_path(path, hands, target), want, strict=True):
                np.testing.assert_array_equal(g, w, err_msg=f"path {path} target {target}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_dtypes_and_shapes(backend: ModuleType) -> None:
    hands = C.random_hands(7, 5, 3)
    assert backend.batch_count_fifteens(hands, 15).dtype == np.int64
    assert backend.batch_count_pairs(hands).dtype == np.int32
    assert backend.batch_run_score(hands).dtype == np.int32
    assert backend.batch_longest_suit_run(hands).dtype == np.int32
    suits = backend.batch_suit_counts(hands)
    assert suits.dtype == np.uint8 and suits.shape == (7, 4)
    f, p, r, s = backend.batch_hand_stats(hands, 15)
    assert (f.dtype, p.dtype, r.dtype, s.dtype) == (np.int64, np.int32, np.int32, np.uint8)
    assert f.shape == p.shape == r.shape == (7,) and s.shape == (7, 4)
    empty = np.zeros(0, dtype=np.uint64)
    for name in KERNELS:
        out = getattr(backend, name)(empty)
        for a in out if isinstance(out, tuple) else (out,):
            assert a.shape[0] == 0


def test_c_equals_reference_batches() -> None:
    hands = mixed_sizes(5, 2)
    for name in KERNELS:
        args = (hands, 31) if name in ("batch_count_fifteens", "batch_hand_stats") else (hands,)
        got, want = getattr(C, name)(*args), getattr(ref, name)(*args)
        for g, w in zip(
            got if isinstance(got, tuple) else (got,),
            want if isinstance(want, tuple) else (want,),
            strict=True,
        ):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_array_equal(g, w)


@settings(max_examples=50, deadline=None)
@given(
    masks=st.lists(st.integers(0, 2**64 - 1).map(lambda m: m & DECK52_MASK), max_size=20),
    target=st.integers(1, 340),
)
def test_hypothesis_batch_c_equals_reference(masks: list[int], target: int) -> None:
    hands = np.array(masks, dtype=np.uint64)
    for got, want in zip(
        C.batch_hand_stats(hands, target), ref.batch_hand_stats(hands, target), strict=True
    ):
        np.testing.assert_array_equal(got, want)


def test_readonly_input() -> None:
    hands = C.random_hands(10, 5, 1)
    hands.setflags(write=False)
    np.testing.assert_array_equal(C.batch_count_pairs(hands), ref.batch_count_pairs(hands))


def test_threads_share_the_kernels() -> None:
    hands = C.random_hands(200_000, 5, 9)
    want = C.batch_hand_stats(hands)
    results: list[tuple[np.ndarray, ...]] = []

    def work() -> None:
        results.append(C.batch_hand_stats(hands))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    for res in results:
        for got, w in zip(res, want, strict=True):
            np.testing.assert_array_equal(got, w)


# ---------------------------------------------------------------------------
# random hands


@pytest.mark.parametrize("k", [0, 1, 2, 5, 13, 26, 51, 52])
def test_random_hands_c_equals_reference(k: int) -> None:
    c = C.random_hands(50, k, 1234 + k)
    r = ref.random_hands(50, k, 1234 + k)
    assert c.dtype == r.dtype == np.uint64
    np.testing.assert_array_equal(c, r)
    assert all(bin(int(h)).count("1") == k and int(h) & ~DECK52_MASK == 0 for h in c)


def test_random_hands_cover_the_deck() -> None:
    hands = C.random_hands(20_000, 5, 77)
    counts = C.batch_suit_counts(hands).sum(axis=0)
    assert counts.sum() == 100_000
    assert all(abs(int(c) - 25_000) < 1_000 for c in counts)  # about 6 sigma
    union = int(np.bitwise_or.reduce(hands))
    assert union == DECK52_MASK
    assert len(set(hands.tolist())) > 19_900  # C(52,5) = 2.6 M: few repeats
    assert not np.array_equal(C.random_hands(10, 5, 1), C.random_hands(10, 5, 2))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("n", "k", "message"), [(-1, 5, "n must be"), (3, 53, "k must be"),
                                                  (3, -1, "k must be")])  # fmt: skip
def test_random_hands_bad_arguments(backend: ModuleType, n: int, k: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        backend.random_hands(n, k, 1)


# ---------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", KERNELS)
def test_bad_arrays(backend: ModuleType, name: str) -> None:
    fn = getattr(backend, name)
    good = C.random_hands(6, 5, 1)
    with pytest.raises(TypeError, match="dtype uint64, got int64"):
        fn(good.astype(np.int64))
    with pytest.raises(TypeError, match="dtype uint64, got float64"):
        fn(good.astype(np.float64))
    with pytest.raises(TypeError, match=r"numpy\.ndarray"):
        fn([1, 2, 3])
    with pytest.raises(ValueError, match="1-D array, got 2 dimensions"):
        fn(good.reshape(2, 3))
    with pytest.raises(ValueError, match="C-contiguous"):
        fn(good[::2])
    with pytest.raises(ValueError, match="aligned"):  # the C loads whole words
        fn(misaligned(good))
    bad = good.copy()
    bad[4] |= np.uint64(1 << 13)
    bad[5] |= np.uint64(1 << 63)
    with pytest.raises(ValueError, match=r"element 4 \(0x[0-9a-f]+\) has bits outside") as info:
        fn(bad)
    assert hex(int(bad[4])) in str(info.value)
    assert name in str(info.value)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["batch_count_fifteens", "batch_hand_stats"])
@pytest.mark.parametrize("target", [0, 341])
def test_bad_target(backend: ModuleType, name: str, target: int) -> None:
    with pytest.raises(ValueError, match=rf"target must be 1\.\.340, got {target}"):
        getattr(backend, name)(C.random_hands(3, 5, 1), target)


# ---------------------------------------------------------------------------
# public API


def test_public_batch_api() -> None:
    hands = np.array(
        [parse_cards(h).mask for h in ("5H 5S 5C 5D JH", "4H 5H 6H 6C", "QH KS AC 2D", "")],
        dtype=np.uint64,
    )
    assert batch.count_fifteens(hands).tolist() == [8, 2, 0, 0]
    assert batch.count_fifteens(hands, target=20).tolist() == [7, 0, 1, 0]  # Q+K
    assert batch.count_pairs(hands).tolist() == [6, 1, 0, 0]
    assert batch.runs(hands).tolist() == [0, 6, 0, 0]
    assert batch.suit_counts(hands).tolist() == [[1, 1, 2, 1], [1, 0, 3, 0], [1, 1, 1, 1],
                                                 [0, 0, 0, 0]]  # fmt: skip
    assert batch.longest_suit_run(hands).tolist() == [1, 3, 1, 0]
    stats = batch.hand_stats(hands)
    assert isinstance(stats, batch.HandStats)
    assert stats.fifteens.tolist() == [8, 2, 0, 0]
    assert stats.run_score.tolist() == [0, 6, 0, 0]
    np.testing.assert_array_equal(stats.suit_counts, batch.suit_counts(hands))
    r = batch.random_hands(5, 5, seed=3)
    assert r.dtype == np.uint64 and r.shape == (5,)
    with pytest.raises(TypeError):
        batch.count_pairs(hands.astype(np.int64))
    with pytest.raises(ValueError, match="element 0"):
        batch.hand_stats(np.array([1 << 15], dtype=np.uint64))
