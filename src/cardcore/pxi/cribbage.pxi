# Cribbage: the scoring and discard-analysis functions (the game itself runs
# through GameState).  Included by _core.pyx; converts types and maps status
# codes only: every check of a value is made by the C engine (cc_cribbage.h).

cdef extern from "cc_cribbage.h" nogil:
    int CC_CRIBBAGE_NUM_PARAMS
    int CC_CRIBBAGE_MAX_PLAY
    int CC_CRIBBAGE_HIST_SIZE

    ctypedef struct cc_cribbage_item:
        int32_t kind
        int32_t points
        uint64_t cards

    const cc_game cc_game_cribbage
    int32_t cc_cribbage_show_items(uint64_t hand, int32_t starter, int32_t is_crib,
                                   const int32_t *params, cc_cribbage_item *out, int32_t cap)
    int32_t cc_cribbage_play_items(const uint8_t *seq, int32_t n, cc_cribbage_item *out,
                                   int32_t cap)
    int32_t cc_cribbage_batch_score_show(const uint64_t *hands, const uint8_t *starters,
                                         int64_t n, int32_t is_crib, const int32_t *params,
                                         int32_t *out, int64_t *bad_index)
    int32_t cc_cribbage_show_distribution(int32_t is_crib, const int32_t *params, int64_t *hist)
    int32_t cc_cribbage_batch_discards(const uint64_t *hands, int64_t n, const int32_t *params,
                                       int32_t *hand_sum, double *crib, int64_t *bad_index)
    int32_t cc_cribbage_crib_exact(uint64_t hand, const int32_t *params, double *out15)


cdef int _cribbage_params(str fn, object params, int32_t *out) except -1:
    return _game_params(fn, params, &cc_game_cribbage, out)


cdef int32_t _is_crib(str fn, object is_crib) except -1:
    if not isinstance(is_crib, bool):
        raise TypeError(f"{fn}: is_crib must be a bool, got {is_crib!r}")
    return 1 if is_crib else 0


def cribbage_score_show(object hand, object starter, object is_crib, object params):
    """Itemized show score of a 4-card hand or crib: a list of (kind, cards bitset, points)."""
    cdef int32_t p[8]
    _cribbage_params("cribbage_score_show", params, p)
    cdef int32_t crib = _is_crib("cribbage_score_show", is_crib)
    cdef uint64_t h = _mask52(_int_arg(hand, "cribbage_score_show: hand", 0, 0xFFFFFFFFFFFFFFFF),
                              "cribbage_score_show: hand")
    cdef int32_t t = _int_arg(starter, "cribbage_score_show: starter", -2147483648, 2147483647)
    cdef cc_cribbage_item items[32]
    cdef int32_t n = cc_cribbage_show_items(h, t, crib, p, items, 32)
    if n == CC_E_CARDS:
        _hand_error("cribbage_score_show", h, 4, "starter", t)
    _check(n, "cribbage_score_show")
    return [(items[i].kind, items[i].cards, items[i].points) for i in range(n)]


def cribbage_score_play(object seq):
    """What the last card of a count makes: a list of (kind, cards, points)."""
    cdef uint8_t buf[16]
    seq = _play_seq("cribbage_score_play", seq, CC_CRIBBAGE_MAX_PLAY, buf)
    cdef cc_cribbage_item items[8]
    cdef int32_t n = cc_cribbage_play_items(buf, len(seq), items, 8)
    _play_status(n, "cribbage_score_play", seq)
    return [(items[i].kind, items[i].cards, items[i].points) for i in range(n)]


def cribbage_batch_score_show(object hands, object starters, object is_crib, object params, *,
                              object out=None, object threads=1):
    """Show scores of (hands[i], starters[i]): uint64 bitsets and uint8 card ids -> int32
    (``out=``, ``threads=``: pxi/batch_out.pxi)."""
    cdef int32_t p[8]
    _cribbage_params("cribbage_batch_score_show", params, p)
    cdef int32_t crib = _is_crib("cribbage_batch_score_show", is_crib)
    cdef const uint64_t[::1] h = _u64_array(hands, "hands")
    cdef const uint8_t[::1] t = _card_ids_array(starters, "starters", h.shape[0])
    cdef int64_t n = h.shape[0]
    cdef int32_t nt = _threads_arg(threads, "cribbage_batch_score_show")
    out = _out_array(out, "cribbage_batch_score_show", "out", np.int32, (n,), (hands, starters))
    if n == 0:
        return out
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_cribbage_batch_score_show_threads(&h[0], &t[0], n, crib, p, &o[0], &bad, nt)
    if rc == CC_E_CARDS:
        raise ValueError(
            f"cribbage_batch_score_show: deal {bad}: the hand must be 4 cards and the "
            "starter a card id 0..51 not in the hand"
        )
    _check(rc, "cribbage_batch_score_show")
    return out


def cribbage_show_distribution(object is_crib, object params):
    """Counts of show scores over all 270,725 x 48 (hand, starter) pairs (int64, index = score)."""
    cdef int32_t p[8]
    _cribbage_params("cribbage_show_distribution", params, p)
    cdef int32_t crib = _is_crib("cribbage_show_distribution", is_crib)
    out = np.zeros(CC_CRIBBAGE_HIST_SIZE, dtype=np.int64)
    cdef int64_t[::1] o = out
    cdef int32_t rc
    with nogil:
        rc = cc_cribbage_show_distribution(crib, p, &o[0])
    _check(rc, "cribbage_show_distribution")
    return out


def cribbage_batch_discards(object hands, object params, object with_crib):
    """Discard analysis of 6-card hands: (hand sums int32 (n, 15), crib means float64
    (n, 15) or None)."""
    cdef int32_t p[8]
    _cribbage_params("cribbage_batch_discards", params, p)
    if not isinstance(with_crib, bool):
        raise TypeError(f"cribbage_batch_discards: with_crib must be a bool, got {with_crib!r}")
    cdef const uint64_t[::1] h = _u64_array(hands, "hands")
    cdef int64_t n = h.shape[0]
    sums = np.empty((n, 15), dtype=np.int32)
    cribs = np.empty((n, 15), dtype=np.float64) if with_crib else None
    if n == 0:
        return sums, cribs
    cdef int32_t[:, ::1] s = sums
    cdef double[:, ::1] c
    cdef double *cp = NULL
    if with_crib:
        c = cribs
        cp = &c[0, 0]
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_cribbage_batch_discards(&h[0], n, p, &s[0, 0], cp, &bad)
    if rc == CC_E_CARDS:
        raise ValueError(f"cribbage_batch_discards: hand {bad} must be 6 cards of the deck")
    _check(rc, "cribbage_batch_discards")
    return sums, cribs


def cribbage_crib_exact(object hand, object params):
    """Exact expected crib of the 15 discards of one 6-card hand (float64 (15,))."""
    cdef int32_t p[8]
    _cribbage_params("cribbage_crib_exact", params, p)
    cdef uint64_t h = _mask52(_int_arg(hand, "cribbage_crib_exact: hand", 0, 0xFFFFFFFFFFFFFFFF),
                              "cribbage_crib_exact: hand")
    out = np.empty(15, dtype=np.float64)
    cdef double[::1] o = out
    cdef int32_t rc
    with nogil:
        rc = cc_cribbage_crib_exact(h, p, &o[0])
    if rc == CC_E_CARDS:
        _hand_error("cribbage_crib_exact", h, 6, None, 0)
    _check(rc, "cribbage_crib_exact")
    return out
