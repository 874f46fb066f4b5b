# Nodde Knave: scoring functions (the game itself runs through GameState).
# Included at the end of _core.pyx; converts types and maps status codes only.

cdef extern from "cc_nodde.h" nogil:
    int CC_NODDE_NUM_PARAMS
    int CC_NODDE_MAX_ITEMS
    int CC_NODDE_MAX_PLAY
    int CC_NODDE_HIST_SIZE

    ctypedef struct cc_nodde_item:
        int32_t kind
        int32_t points
        uint64_t cards

    int32_t cc_nodde_check_params(const int32_t *params)
    int32_t cc_nodde_hand_items(uint64_t hand, int32_t turnup, const int32_t *params,
                                cc_nodde_item *out, int32_t cap)
    int32_t cc_nodde_score_hand(uint64_t hand, int32_t turnup, const int32_t *params)
    int32_t cc_nodde_play_items(const uint8_t *seq, int32_t n, const int32_t *params,
                                cc_nodde_item *out, int32_t cap)
    int32_t cc_nodde_batch_score_hand(const uint64_t *hands, const uint8_t *turnups, int64_t n,
                                      const int32_t *params, int32_t *out, int64_t *bad_index)
    int32_t cc_nodde_hand_distribution(const int32_t *params, int64_t *hist)


cdef int _nodde_params(object params, int32_t *out) except -1:
    params = tuple(params)
    if len(params) != CC_NODDE_NUM_PARAMS:
        raise ValueError(f"nodde: expected {CC_NODDE_NUM_PARAMS} rules parameters, got {len(params)}")
    for i, v in enumerate(params):
        out[i] = v
    if cc_nodde_check_params(out) != CC_OK:
        raise ValueError(f"nodde: invalid rules parameters {params!r}")
    return 0


def nodde_score_hand(object hand, int turnup, object params):
    """Itemized hand score: a list of (kind, cards bitset, points)."""
    cdef int32_t p[16]
    _nodde_params(params, p)
    cdef uint64_t h = _mask52(hand)
    cdef cc_nodde_item items[32]
    cdef int32_t n = cc_nodde_hand_items(h, turnup, p, items, 32)
    if n == CC_E_CARDS:
        raise ValueError(
            f"nodde_score_hand: hand {h:#x} must be 3 cards and the turn-up {turnup} "
            "a card id 0..51 not in the hand"
        )
    _check(n, "nodde_score_hand")
    return [(items[i].kind, items[i].cards, items[i].points) for i in range(n)]


def nodde_score_play(object seq, object params):
    """What the last card of a play sequence makes: a list of (kind, cards, points)."""
    cdef int32_t p[16]
    _nodde_params(params, p)
    seq = list(seq)
    if not 1 <= len(seq) <= CC_NODDE_MAX_PLAY:
        raise ValueError(f"nodde_score_play: 1 to {CC_NODDE_MAX_PLAY} cards, got {len(seq)}")
    cdef uint8_t buf[12]
    for i, c in enumerate(seq):
        if not 0 <= c < 52:
            raise ValueError(f"nodde_score_play: card id {c!r} out of range 0..51")
        buf[i] = c
    cdef cc_nodde_item items[8]
    cdef int32_t n = cc_nodde_play_items(buf, len(seq), p, items, 8)
    if n == CC_E_CARDS:
        raise ValueError(f"nodde_score_play: repeated card in {seq!r}")
    if n == CC_E_ARG:
        raise ValueError(f"nodde_score_play: {seq!r} totals over 31")
    _check(n, "nodde_score_play")
    return [(items[i].kind, items[i].cards, items[i].points) for i in range(n)]


def nodde_batch_score_hand(object hands, object turnups, object params):
    """Hand scores of (hands[i], turnups[i]): uint64 bitsets and uint8 card ids -> int32."""
    cdef int32_t p[16]
    _nodde_params(params, p)
    cdef const uint64_t[::1] h = _u64_array(hands, "hands")
    if not isinstance(turnups, np.ndarray):
        raise TypeError(f"turnups: expected a numpy.ndarray of uint8, got {type(turnups).__name__}")
    if turnups.dtype != np.uint8:
        raise TypeError(f"turnups: expected dtype uint8, got {turnups.dtype}")
    if turnups.ndim != 1:
        raise ValueError(f"turnups: expected a 1-D array, got {turnups.ndim} dimensions")
    if not turnups.flags.c_contiguous:
        raise ValueError("turnups: array must be C-contiguous (use numpy.ascontiguousarray)")
    if turnups.shape[0] != h.shape[0]:
        raise ValueError(f"hands and turnups differ in length ({h.shape[0]} != {turnups.shape[0]})")
    cdef const uint8_t[::1] t = turnups
    cdef int64_t n = h.shape[0]
    out = np.empty(n, dtype=np.int32)
    if n == 0:
        return out
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_nodde_batch_score_hand(&h[0], &t[0], n, p, &o[0], &bad)
    if rc == CC_E_CARDS:
        raise ValueError(
            f"nodde_batch_score_hand: deal {bad}: hand {h[bad]:#x} must be 3 cards and the "
            f"turn-up {t[bad]} a card id 0..51 not in the hand"
        )
    _check(rc, "nodde_batch_score_hand")
    return out


def nodde_hand_distribution(object params):
    """Counts of hand scores over all 22,100 x 49 deals (int64 array, index = score)."""
    cdef int32_t p[16]
    _nodde_params(params, p)
    out = np.zeros(CC_NODDE_HIST_SIZE, dtype=np.int64)
    cdef int64_t[::1] o = out
    cdef int32_t rc
    with nogil:
        rc = cc_nodde_hand_distribution(p, &o[0])
    _check(rc, "nodde_hand_distribution")
    return out
