# Nodde Knave: the scoring functions (the game itself runs through GameState).
# Included at the end of _core.pyx; converts types and maps status codes only:
# every check of a value is made by the C engine (cc_nodde.h).

cdef extern from "cc_nodde.h" nogil:
    int CC_NODDE_NUM_PARAMS
    int CC_NODDE_MAX_ITEMS
    int CC_NODDE_MAX_PLAY
    int CC_NODDE_HIST_SIZE

    ctypedef struct cc_nodde_item:
        int32_t kind
        int32_t points
        uint64_t cards

    const cc_game cc_game_nodde
    int32_t cc_nodde_hand_items(uint64_t hand, int32_t turnup, const int32_t *params,
                                cc_nodde_item *out, int32_t cap)
    int32_t cc_nodde_play_items(const uint8_t *seq, int32_t n, const int32_t *params,
                                cc_nodde_item *out, int32_t cap)
    int32_t cc_nodde_batch_score_hand(const uint64_t *hands, const uint8_t *turnups, int64_t n,
                                      const int32_t *params, int32_t *out, int64_t *bad_index)
    int32_t cc_nodde_hand_distribution(const int32_t *params, int64_t *hist)


cdef int _nodde_params(str fn, object params, int32_t *out) except -1:
    return _game_params(fn, params, &cc_game_nodde, out)


def nodde_score_hand(object hand, object turnup, object params):
    """Itemized hand score: a list of (kind, cards bitset, points)."""
    cdef int32_t p[16]
    _nodde_params("nodde_score_hand", params, p)
    cdef uint64_t h = _mask52(_int_arg(hand, "nodde_score_hand: hand", 0, 0xFFFFFFFFFFFFFFFF),
                              "nodde_score_hand: hand")
    cdef int32_t t = _int_arg(turnup, "nodde_score_hand: turnup", -2147483648, 2147483647)
    cdef cc_nodde_item items[32]
    cdef int32_t n = cc_nodde_hand_items(h, t, p, items, 32)
    if n == CC_E_CARDS:
        _hand_error("nodde_score_hand", h, 3, "turnup", t)
    _check(n, "nodde_score_hand")
    return [(items[i].kind, items[i].cards, items[i].points) for i in range(n)]


def nodde_score_play(object seq, object params):
    """What the last card of a play sequence makes: a list of (kind, cards, points)."""
    cdef int32_t p[16]
    _nodde_params("nodde_score_play", params, p)
    cdef uint8_t buf[12]
    seq = _play_seq("nodde_score_play", seq, CC_NODDE_MAX_PLAY, buf)
    cdef cc_nodde_item items[8]
    cdef int32_t n = cc_nodde_play_items(buf, len(seq), p, items, 8)
    _play_status(n, "nodde_score_play", seq)
    return [(items[i].kind, items[i].cards, items[i].points) for i in range(n)]


def nodde_batch_score_hand(object hands, object turnups, object params, *, object out=None,
                           object threads=1):
    """Hand scores of (hands[i], turnups[i]): uint64 bitsets and uint8 card ids -> int32
    (``out=``, ``threads=``: pxi/batch_out.pxi)."""
    cdef int32_t p[16]
    _nodde_params("nodde_batch_score_hand", params, p)
    cdef const uint64_t[::1] h = _u64_array(hands, "hands")
    cdef const uint8_t[::1] t = _card_ids_array(turnups, "turnups", h.shape[0])
    cdef int64_t n = h.shape[0]
    cdef int32_t nt = _threads_arg(threads, "nodde_batch_score_hand")
    out = _out_array(out, "nodde_batch_score_hand", "out", np.int32, (n,), (hands, turnups))
    if n == 0:
        return out
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_nodde_batch_score_hand_threads(&h[0], &t[0], n, p, &o[0], &bad, nt)
    if rc == CC_E_CARDS:
        # bad is the first offending deal; the values are read once, by the C loop,
        # so the message quotes the index only (the arrays may be shared)
        raise ValueError(
            f"nodde_batch_score_hand: deal {bad}: the hand must be 3 cards and the "
            "turn-up a card id 0..51 not in the hand"
        )
    _check(rc, "nodde_batch_score_hand")
    return out


def nodde_hand_distribution(object params):
    """Counts of hand scores over all 22,100 x 49 deals (int64 array, index = score)."""
    cdef int32_t p[16]
    _nodde_params("nodde_hand_distribution", params, p)
    out = np.zeros(CC_NODDE_HIST_SIZE, dtype=np.int64)
    cdef int64_t[::1] o = out
    cdef int32_t rc
    with nogil:
        rc = cc_nodde_hand_distribution(p, &o[0])
    _check(rc, "nodde_hand_distribution")
    return out
