# Combination primitives and their batch kernels (combos.c; cardcore.h and
# cc_combos.h).  Included from _core.pyx after _cards.pxi (whose conversions
# it uses): type conversion and status codes only; combos.c validates.

cdef str _TARGETS = f"1..{CC_MAX_PIP_TOTAL}"


cdef int _batch_check(int32_t rc, str name, int64_t bad, uint64_t bad_value,
                      object target=None) except -1:
    """Map a batch kernel's status: CC_E_CARDS names the index and the value the
    kernel read (never re-read from the array), CC_E_ARG the target."""
    if rc == CC_E_CARDS:
        raise _bad_cards(
            f"{name}: element {bad} ({bad_value:#x}) has bits outside the 52-card deck "
            f"({bad_value & ~(<uint64_t>CC_DECK52_MASK):#x})"
        )
    if target is not None:
        return _range_error(rc, name, "target", target, _TARGETS)
    return _check(rc, name)


# ---- scalar ---------------------------------------------------------------

def count_fifteens(object cards, object target=15):
    """Subsets of 2 or more cards whose pips (A=1, J Q K=10) total ``target`` (1..340)."""
    cdef uint64_t m = _c_cards52(cards, "count_fifteens: cards")
    cdef int32_t t = _c_int32(target, "count_fifteens: target")
    cdef int64_t r = cc_count_fifteens(m, t)
    if r == CC_E_ARG:
        _range_error(r, "count_fifteens", "target", target, _TARGETS)
    if r < 0:
        _check_cards52(r, "count_fifteens", "cards", cards)
    return r


def count_pairs(object cards):
    """Same-rank pairs: the sum over ranks of C(count, 2)."""
    cdef int32_t r = cc_count_pairs(_c_cards52(cards, "count_pairs: cards"))
    if r < 0:
        _check_cards52(r, "count_pairs", "cards", cards)
    return r


def rank_counts(object cards):
    """Cards per rank (13 counts, Ace first)."""
    cdef uint8_t out[13]
    cdef int32_t rc = cc_rank_counts(_c_cards52(cards, "rank_counts: cards"), out)
    _check_cards52(rc, "rank_counts", "cards", cards)
    return (out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8], out[9],
            out[10], out[11], out[12])


def suit_counts(object cards):
    """Cards per suit (clubs, diamonds, hearts, spades)."""
    cdef uint8_t out[4]
    cdef int32_t rc = cc_suit_counts(_c_cards52(cards, "suit_counts: cards"), out)
    _check_cards52(rc, "suit_counts", "cards", cards)
    return (out[0], out[1], out[2], out[3])


def runs(object cards):
    """Maximal runs of 3+ consecutive ranks: [(length, multiplicity, lowest rank), ...]."""
    cdef uint8_t length[4]
    cdef uint32_t mult[4]
    cdef uint8_t low[4]
    cdef int32_t n = cc_runs(_c_cards52(cards, "runs: cards"), length, mult, low)
    _check_cards52(n, "runs", "cards", cards)
    return [(length[i], mult[i], low[i]) for i in range(n)]


def longest_suit_run(object cards):
    """Longest run of consecutive ranks within one suit (0 for no cards)."""
    cdef int32_t r = cc_longest_suit_run(_c_cards52(cards, "longest_suit_run: cards"))
    if r < 0:
        _check_cards52(r, "longest_suit_run", "cards", cards)
    return r


# ---- batch ----------------------------------------------------------------
# Each takes ``out=`` (None: a new array; else the caller's, checked by
# _out_array and returned) and ``threads=`` (cc_threads.h: 1 by default, 0
# for every core; the same results whatever the count).

def batch_count_fifteens(object arr, object target=15, *, object out=None, object threads=1):
    """count_fifteens of each bitset of a uint64 array (int64 array)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_count_fifteens")
    cdef int32_t t = _c_int32(target, "batch_count_fifteens: target")
    cdef int32_t nt = _threads_arg(threads, "batch_count_fifteens")
    out = _out_array(out, "batch_count_fifteens", "out", np.int64, (a.shape[0],), (arr,))
    cdef int64_t[::1] o = out
    cdef int64_t bad = -1
    cdef uint64_t bad_value = 0
    cdef _batch_args x = _batch_of(_K_FIFTEENS, a, &bad, &bad_value, nt)
    x.flag = t
    x.out64 = &o[0] if o.shape[0] else NULL
    cdef int32_t rc = _run_batch(&x)
    _batch_check(rc, "batch_count_fifteens", bad, bad_value, target)
    return out


def batch_count_pairs(object arr, *, object out=None, object threads=1):
    """count_pairs of each bitset of a uint64 array (int32 array)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_count_pairs")
    cdef int32_t nt = _threads_arg(threads, "batch_count_pairs")
    out = _out_array(out, "batch_count_pairs", "out", np.int32, (a.shape[0],), (arr,))
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef uint64_t bad_value = 0
    cdef _batch_args x = _batch_of(_K_PAIRS, a, &bad, &bad_value, nt)
    x.out32 = &o[0] if o.shape[0] else NULL
    cdef int32_t rc = _run_batch(&x)
    _batch_check(rc, "batch_count_pairs", bad, bad_value)
    return out


def batch_suit_counts(object arr, *, object out=None, object threads=1):
    """suit_counts of each bitset of a uint64 array (uint8 array of shape (n, 4))."""
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_suit_counts")
    cdef int32_t nt = _threads_arg(threads, "batch_suit_counts")
    out = _out_array(out, "batch_suit_counts", "out", np.uint8, (a.shape[0], 4), (arr,))
    cdef uint8_t[:, ::1] o = out
    cdef int64_t bad = -1
    cdef uint64_t bad_value = 0
    cdef _batch_args x = _batch_of(_K_SUITS, a, &bad, &bad_value, nt)
    x.suits = &o[0, 0] if o.shape[0] else NULL
    cdef int32_t rc = _run_batch(&x)
    _batch_check(rc, "batch_suit_counts", bad, bad_value)
    return out


def batch_run_score(object arr, *, object out=None, object threads=1):
    """Run points of each bitset: the sum over maximal runs of length * multiplicity (int32)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_run_score")
    cdef int32_t nt = _threads_arg(threads, "batch_run_score")
    out = _out_array(out, "batch_run_score", "out", np.int32, (a.shape[0],), (arr,))
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef uint64_t bad_value = 0
    cdef _batch_args x = _batch_of(_K_RUN_SCORE, a, &bad, &bad_value, nt)
    x.out32 = &o[0] if o.shape[0] else NULL
    cdef int32_t rc = _run_batch(&x)
    _batch_check(rc, "batch_run_score", bad, bad_value)
    return out


def batch_longest_suit_run(object arr, *, object out=None, object threads=1):
    """longest_suit_run of each bitset of a uint64 array (int32 array)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_longest_suit_run")
    cdef int32_t nt = _threads_arg(threads, "batch_longest_suit_run")
    out = _out_array(out, "batch_longest_suit_run", "out", np.int32, (a.shape[0],), (arr,))
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef uint64_t bad_value = 0
    cdef _batch_args x = _batch_of(_K_SUIT_RUN, a, &bad, &bad_value, nt)
    x.out32 = &o[0] if o.shape[0] else NULL
    cdef int32_t rc = _run_batch(&x)
    _batch_check(rc, "batch_longest_suit_run", bad, bad_value)
    return out


def batch_hand_stats(object arr, object target=15, *, object out=None, object threads=1):
    """Fifteens (int64), pairs (int32), run score (int32) and suit counts (uint8, (n, 4)) of
    each bitset in one pass.  ``out``: None or a sequence of those four arrays."""
    return _batch_hand_stats_path(CC_PATH_AUTO, arr, target, out=out, threads=threads)


def _combos_paths():
    """(private: tests, benchmarks) The kernel paths this CPU runs (cc_combos.h CC_PATH_*)."""
    cdef uint32_t paths = cc_combos_paths()
    return [p for p in range(CC_NUM_PATHS) if p == CC_PATH_AUTO or (paths >> p) & 1]


def _batch_hand_stats_path(object path, object arr, object target=15, *, object out=None,
                           object threads=1):
    """(private: tests, benchmarks) batch_hand_stats on one kernel path."""
    cdef int32_t p_ = _c_int32(path, "batch_hand_stats: path")
    cdef const uint64_t[::1] a = _u64_array(arr, "batch_hand_stats")
    cdef int32_t t = _c_int32(target, "batch_hand_stats: target")
    cdef int32_t nt = _threads_arg(threads, "batch_hand_stats")
    cdef Py_ssize_t n = a.shape[0]
    if out is None:
        # One allocation for the four results (20 bytes per set, each part
        # aligned for its dtype): cheaper than four.
        block = np.empty(20 * n, dtype=np.uint8)
        fifteens = block[:8 * n].view(np.int64)
        pairs = block[8 * n:12 * n].view(np.int32)
        run_score = block[12 * n:16 * n].view(np.int32)
        suits = block[16 * n:].reshape(n, 4)
    else:
        if isinstance(out, (str, bytes)) or not hasattr(out, "__len__"):
            raise TypeError(f"batch_hand_stats: out must be a sequence of 4 arrays "
                            f"(fifteens, pairs, run_score, suit_counts), got {type(out).__name__}")
        if len(out) != 4:
            raise ValueError(f"batch_hand_stats: out must hold 4 arrays, got {len(out)}")
        fifteens = _out_array(out[0], "batch_hand_stats", "out[0] (fifteens)", np.int64, (n,),
                              (arr,))
        pairs = _out_array(out[1], "batch_hand_stats", "out[1] (pairs)", np.int32, (n,),
                           (arr, fifteens))
        run_score = _out_array(out[2], "batch_hand_stats", "out[2] (run_score)", np.int32, (n,),
                               (arr, fifteens, pairs))
        suits = _out_array(out[3], "batch_hand_stats", "out[3] (suit_counts)", np.uint8, (n, 4),
                           (arr, fifteens, pairs, run_score))
    cdef int64_t[::1] f = fifteens
    cdef int32_t[::1] p = pairs
    cdef int32_t[::1] r = run_score
    cdef uint8_t[:, ::1] s = suits
    cdef int64_t bad = -1
    cdef uint64_t bad_value = 0
    cdef _batch_args x = _batch_of(_K_HAND_STATS, a, &bad, &bad_value, nt)
    x.path = p_
    x.flag = t
    x.out64 = &f[0] if n else NULL
    x.out32 = &p[0] if n else NULL
    x.out32b = &r[0] if n else NULL
    x.suits = &s[0, 0] if n else NULL
    cdef int32_t rc = _run_batch(&x)
    if rc == CC_E_ARG and p_ not in _combos_paths():
        # (the target is checked by the same call: name the path first)
        raise ValueError(f"batch_hand_stats: kernel path {path!r} is not available here "
                         f"({_combos_paths()})")
    _batch_check(rc, "batch_hand_stats", bad, bad_value, target)
    return fifteens, pairs, run_score, suits


def random_hands(object n, object k, object seed):
    """``n`` (0..134,217,728) random ``k``-card (0..52) bitsets (uint64 array) from the
    engine's generator seeded with ``seed`` (0..2**64-1)."""
    cdef int64_t count = _c_int64(n, "random_hands: n")
    cdef int32_t size = _c_int32(k, "random_hands: k")
    cdef uint64_t s = _c_seed(seed, "random_hands: seed")
    out = np.empty(count if 0 <= count <= CC_MAX_RANDOM_HANDS else 0, dtype=np.uint64)
    cdef uint64_t[::1] o = out
    cdef int32_t rc
    with nogil:
        rc = cc_random_hands(s, size, count, &o[0] if o.shape[0] else NULL)
    if rc == CC_E_ARG and not 0 <= size <= 52:
        raise ValueError(f"random_hands: k must be 0..52, got {k!r}")
    _range_error(rc, "random_hands", "n", n, f"0..{CC_MAX_RANDOM_HANDS}")
    return out
