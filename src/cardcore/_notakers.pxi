# No Takers? (cc_notakers.h): the best-split scorer.  Included by _core.pyx.

cdef extern from "cc_notakers.h" nogil:
    int CC_NOTAKERS_MAX_SETS

    ctypedef struct cc_notakers_set:
        uint64_t cards
        int32_t kind
        int32_t points
        int32_t position
        int32_t top
        int32_t suit
        int32_t descriptor

    ctypedef struct cc_notakers_split:
        int32_t points
        int32_t nsets
        cc_notakers_set sets[26]

    int32_t cc_notakers_points(uint64_t cards, int32_t ace_in_runs)
    int32_t cc_notakers_splits_exactly(uint64_t cards, int32_t ace_in_runs)
    int32_t cc_notakers_best_split(uint64_t cards, int32_t ace_in_runs, int32_t tiebreak_ace,
                                   cc_notakers_split *out)
    int32_t cc_batch_notakers_points(const uint64_t *cards, int64_t n, int32_t ace_in_runs,
                                     int32_t *out, int64_t *bad_index)
    int32_t cc_notakers_knowledge(const void *state, int32_t player, uint64_t *out)
    const cc_game cc_game_notakers


cdef int _notakers_ace(int ace_in_runs) except -1:
    if ace_in_runs < 0 or ace_in_runs > 2:
        raise ValueError(f"ace_in_runs must be 0 (low), 1 (high) or 2 (both), got {ace_in_runs}")
    return 0


def notakers_points(object cards, int ace_in_runs):
    """Maximum points of a split of ``cards`` (a 52-card bitset) into sets."""
    cdef uint64_t m = _mask52(cards)
    _notakers_ace(ace_in_runs)
    cdef int32_t rc = cc_notakers_points(m, ace_in_runs)
    _check(rc, "notakers_points")
    return rc


def notakers_splits_exactly(object cards, int ace_in_runs):
    """Whether ``cards`` split into sets with no card left over."""
    cdef uint64_t m = _mask52(cards)
    _notakers_ace(ace_in_runs)
    cdef int32_t rc = cc_notakers_splits_exactly(m, ace_in_runs)
    _check(rc, "notakers_splits_exactly")
    return rc == 1


def notakers_best_split(object cards, int ace_in_runs, int tiebreak_ace):
    """The best split: (points, [(kind, cards, points, position, top, suit), ...]) best first."""
    cdef uint64_t m = _mask52(cards)
    _notakers_ace(ace_in_runs)
    if tiebreak_ace < 0 or tiebreak_ace > 1:
        raise ValueError(f"tiebreak_ace must be 0 (high) or 1 (low), got {tiebreak_ace}")
    cdef cc_notakers_split out
    cdef int32_t rc
    with nogil:
        rc = cc_notakers_best_split(m, ace_in_runs, tiebreak_ace, &out)
    _check(rc, "notakers_best_split")
    return out.points, [
        (out.sets[i].kind, out.sets[i].cards, out.sets[i].points, out.sets[i].position,
         out.sets[i].top, out.sets[i].suit)
        for i in range(out.nsets)
    ]


def batch_notakers_points(object arr, int ace_in_runs):
    """``notakers_points`` of each set of a 1-D uint64 array; int32 out (GIL released)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "arr")
    _notakers_ace(ace_in_runs)
    out = np.zeros(a.shape[0], dtype=np.int32)
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    cdef int64_t n = a.shape[0]
    if n == 0:
        return out
    with nogil:
        rc = cc_batch_notakers_points(&a[0], n, ace_in_runs, &o[0], &bad)
    if rc == CC_E_CARDS:
        raise ValueError(f"arr[{bad}]: card set {a[bad]:#x} has bits outside the 52-card deck")
    _check(rc, "batch_notakers_points")
    return out


def notakers_knowledge(GameState state not None, int player):
    """What ``player`` knows of the other seats' cards in a No Takers? state:
    (in_hand, held, not_in_hand), each a list of 52-card bitsets by seat."""
    if state.game != &cc_game_notakers:
        raise ValueError("notakers_knowledge needs a No Takers? state")
    if player < 0 or player >= state.nplayers:
        raise ValueError(f"player {player} out of range 0..{state.nplayers - 1}")
    cdef uint64_t out[24]
    _check(cc_notakers_knowledge(state.state, player, out), "notakers_knowledge")
    n = state.nplayers
    return ([out[q] for q in range(n)], [out[8 + q] for q in range(n)],
            [out[16 + q] for q in range(n)])
