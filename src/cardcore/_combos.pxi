# Combination primitives and their batch kernels (combos.c; cardcore.h and
# cc_combos.h).  Included from _core.pyx: conversion and validation only.

cdef extern from "cc_combos.h" nogil:
    int CC_MAX_PIP_TOTAL
    int CC_MAX_RUNS
    int32_t cc_batch_hand_stats(const uint64_t *cards, int64_t n, int32_t target,
                                int64_t *fifteens, int32_t *pairs, int32_t *run_score,
                                uint8_t *suits, int64_t *bad_index)
    int32_t cc_batch_longest_suit_run(const uint64_t *cards, int64_t n, int32_t *out,
                                      int64_t *bad_index)
    int32_t cc_random_hands(uint64_t seed, int32_t k, int64_t n, uint64_t *out)
    int CC_PATH_AUTO
    int CC_NUM_PATHS
    uint32_t cc_combos_paths()
    int32_t cc_batch_hand_stats_path(int32_t path, const uint64_t *cards, int64_t n,
                                     int32_t target, int64_t *fifteens, int32_t *pairs,
                                     int32_t *run_score, uint8_t *suits, int64_t *bad_index)


cdef inline int _check_target(long target) except -1:
    if target < 1 or target > CC_MAX_PIP_TOTAL:
        raise ValueError(f"target must be 1..{CC_MAX_PIP_TOTAL}, got {target}")
    return 0


cdef inline const uint64_t *_u64_ptr(const uint64_t[::1] a) noexcept nogil:
    return &a[0] if a.shape[0] > 0 else NULL


cdef int _batch_check(int32_t rc, str name, object arr, int64_t bad) except -1:
    if rc == CC_E_CARDS:
        value = int(arr[bad])
        raise ValueError(
            f"{name}: element {bad} ({value:#x}) has bits outside the 52-card deck "
            f"({value & ~CC_DECK52_MASK:#x})"
        )
    return _check(rc, name)


# ---- scalar ---------------------------------------------------------------

def count_fifteens(object cards, long target=15):
    """Subsets of 2 or more cards whose pips (A=1, J Q K=10) total ``target`` (1..340)."""
    cdef uint64_t m = _mask52(cards)
    _check_target(target)
    return cc_count_fifteens(m, <int32_t>target)


def count_pairs(object cards):
    """Same-rank pairs: the sum over ranks of C(count, 2)."""
    return cc_count_pairs(_mask52(cards))


def rank_counts(object cards):
    """Cards per rank (13 counts, Ace first)."""
    cdef uint8_t out[13]
    cc_rank_counts(_mask52(cards), out)
    return (out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8], out[9],
            out[10], out[11], out[12])


def suit_counts(object cards):
    """Cards per suit (clubs, diamonds, hearts, spades)."""
    cdef uint8_t out[4]
    cc_suit_counts(_mask52(cards), out)
    return (out[0], out[1], out[2], out[3])


def runs(object cards):
    """Maximal runs of 3+ consecutive ranks: [(length, multiplicity, lowest rank), ...]."""
    cdef uint8_t length[4]
    cdef uint32_t mult[4]
    cdef uint8_t low[4]
    cdef int32_t n = cc_runs(_mask52(cards), length, mult, low)
    _check(n, "runs")
    return [(length[i], mult[i], low[i]) for i in range(n)]


def longest_suit_run(object cards):
    """Longest run of consecutive ranks within one suit (0 for no cards)."""
    return cc_longest_suit_run(_mask52(cards))


# ---- batch ----------------------------------------------------------------

def batch_count_fifteens(object arr, long target=15):
    """count_fifteens of each bitset of a uint64 array (int64 array)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_count_fifteens")
    _check_target(target)
    out = np.empty(a.shape[0], dtype=np.int64)
    cdef int64_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_batch_count_fifteens(_u64_ptr(a), a.shape[0], <int32_t>target,
                                     &o[0] if o.shape[0] else NULL, &bad)
    _batch_check(rc, "batch_count_fifteens", arr, bad)
    return out


def batch_count_pairs(object arr):
    """count_pairs of each bitset of a uint64 array (int32 array)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_count_pairs")
    out = np.empty(a.shape[0], dtype=np.int32)
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_batch_count_pairs(_u64_ptr(a), a.shape[0], &o[0] if o.shape[0] else NULL, &bad)
    _batch_check(rc, "batch_count_pairs", arr, bad)
    return out


def batch_suit_counts(object arr):
    """suit_counts of each bitset of a uint64 array (uint8 array of shape (n, 4))."""
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_suit_counts")
    out = np.empty((a.shape[0], 4), dtype=np.uint8)
    cdef uint8_t[:, ::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_batch_suit_counts(_u64_ptr(a), a.shape[0], &o[0, 0] if o.shape[0] else NULL,
                                  &bad)
    _batch_check(rc, "batch_suit_counts", arr, bad)
    return out


def batch_run_score(object arr):
    """Run points of each bitset: the sum over maximal runs of length * multiplicity (int32)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_run_score")
    out = np.empty(a.shape[0], dtype=np.int32)
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_batch_run_score(_u64_ptr(a), a.shape[0], &o[0] if o.shape[0] else NULL, &bad)
    _batch_check(rc, "batch_run_score", arr, bad)
    return out


def batch_longest_suit_run(object arr):
    """longest_suit_run of each bitset of a uint64 array (int32 array)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_longest_suit_run")
    out = np.empty(a.shape[0], dtype=np.int32)
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_batch_longest_suit_run(_u64_ptr(a), a.shape[0], &o[0] if o.shape[0] else NULL,
                                       &bad)
    _batch_check(rc, "batch_longest_suit_run", arr, bad)
    return out


def batch_hand_stats(object arr, long target=15):
    """Fifteens (int64), pairs (int32), run score (int32) and suit counts (uint8, (n, 4)) of
    each bitset in one pass."""
    return _batch_hand_stats_path(CC_PATH_AUTO, arr, target)


def _combos_paths():
    """(private: tests, benchmarks) The kernel paths this CPU runs (cc_combos.h CC_PATH_*)."""
    cdef uint32_t paths = cc_combos_paths()
    return [p for p in range(CC_NUM_PATHS) if p == CC_PATH_AUTO or (paths >> p) & 1]


def _batch_hand_stats_path(int path, object arr, long target=15):
    """(private: tests, benchmarks) batch_hand_stats on one kernel path."""
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_hand_stats")
    _check_target(target)
    if path not in _combos_paths():
        raise ValueError(f"kernel path {path} is not available here ({_combos_paths()})")
    cdef Py_ssize_t n = a.shape[0]
    # One allocation for the four results (20 bytes per set, each part
    # aligned for its dtype): cheaper than four, and large blocks are then
    # reused by the allocator instead of being faulted in afresh each call.
    block = np.empty(20 * n, dtype=np.uint8)
    fifteens = block[:8 * n].view(np.int64)
    pairs = block[8 * n:12 * n].view(np.int32)
    run_score = block[12 * n:16 * n].view(np.int32)
    suits = block[16 * n:].reshape(n, 4)
    cdef int64_t[::1] f = fifteens
    cdef int32_t[::1] p = pairs
    cdef int32_t[::1] r = run_score
    cdef uint8_t[:, ::1] s = suits
    cdef int64_t bad = -1
    cdef int32_t rc = CC_OK
    if n > 0:
        with nogil:
            rc = cc_batch_hand_stats_path(path, &a[0], n, <int32_t>target, &f[0], &p[0], &r[0],
                                          &s[0, 0], &bad)
    _batch_check(rc, "batch_hand_stats", arr, bad)
    return fifteens, pairs, run_score, suits


def random_hands(int64_t n, int k, uint64_t seed):
    """``n`` random ``k``-card bitsets (uint64 array) from the engine's generator."""
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if k < 0 or k > 52:
        raise ValueError(f"k must be 0..52, got {k}")
    out = np.empty(n, dtype=np.uint64)
    cdef uint64_t[::1] o = out
    cdef int32_t rc
    with nogil:
        rc = cc_random_hands(seed, k, n, &o[0] if n > 0 else NULL)
    _check(rc, "random_hands")
    return out
