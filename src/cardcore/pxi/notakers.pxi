# No Takers? (cc_notakers.h): the best-split scorer and the knowledge of a
# state.  Included by _core.pyx.

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
    int32_t cc_notakers_batch_points(const uint64_t *cards, int64_t n, int32_t ace_in_runs,
                                     int32_t *out, int64_t *bad_index)
    int32_t cc_notakers_knowledge(const void *state, int32_t player, uint64_t *out)
    const cc_game cc_game_notakers
    int CC_NOTAKERS_P_ACE_IN_RUNS
    int CC_NOTAKERS_P_TIEBREAK_ACE


# Conversions only (_cards.pxi: strict ints, saturated to the C type): every
# check of a value (card bits, ace_in_runs, tiebreak_ace, player) is made by
# the C engine; its status codes become exceptions naming the argument.

cdef str _notakers_param_range(int index):
    """'lo..hi' of a rules parameter, from the engine's params[] table."""
    return f"{cc_game_notakers.params[index].min}..{cc_game_notakers.params[index].max}"


cdef int _notakers_status(int32_t rc, str fn, object cards, object args) except -1:
    """Raise for the status rc of fn(cards, *args): CC_E_CARDS names the card set,
    CC_E_ARG the argument(s) (name, params[] index, value given) outside the
    range the engine's params[] table declares."""
    if rc == CC_E_ARG:
        bad = [
            f"{name} must be {_notakers_param_range(index)}, got {value}"
            for name, index, value in args
            if not cc_game_notakers.params[index].min <= value <= cc_game_notakers.params[index].max
        ]
        raise ValueError(f"{fn}: " + ("; ".join(bad) or "argument out of range"))
    return _check_cards52(rc, fn, "cards", cards)


def notakers_points(object cards, object ace_in_runs):
    """Maximum points of a split of ``cards`` (a 52-card bitset) into sets."""
    cdef uint64_t m = _c_cards52(cards, "cards")
    cdef int32_t ace = _c_int32(ace_in_runs, "ace_in_runs")
    cdef int32_t rc = cc_notakers_points(m, ace)
    _notakers_status(rc, "notakers_points", cards,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, int(ace_in_runs)),))
    return rc


def notakers_splits_exactly(object cards, object ace_in_runs):
    """Whether ``cards`` split into sets with no card left over."""
    cdef uint64_t m = _c_cards52(cards, "cards")
    cdef int32_t ace = _c_int32(ace_in_runs, "ace_in_runs")
    cdef int32_t rc = cc_notakers_splits_exactly(m, ace)
    _notakers_status(rc, "notakers_splits_exactly", cards,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, int(ace_in_runs)),))
    return rc == 1


def notakers_best_split(object cards, object ace_in_runs, object tiebreak_ace):
    """The best split: (points, [(kind, cards, points, position, top, suit), ...]) best first."""
    cdef uint64_t m = _c_cards52(cards, "cards")
    cdef int32_t ace = _c_int32(ace_in_runs, "ace_in_runs")
    cdef int32_t tie = _c_int32(tiebreak_ace, "tiebreak_ace")
    cdef cc_notakers_split out
    cdef int32_t rc
    with nogil:
        rc = cc_notakers_best_split(m, ace, tie, &out)
    _notakers_status(rc, "notakers_best_split", cards,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, int(ace_in_runs)),
                      ("tiebreak_ace", CC_NOTAKERS_P_TIEBREAK_ACE, int(tiebreak_ace))))
    return out.points, [
        (out.sets[i].kind, out.sets[i].cards, out.sets[i].points, out.sets[i].position,
         out.sets[i].top, out.sets[i].suit)
        for i in range(out.nsets)
    ]


def notakers_batch_points(object arr, object ace_in_runs, *, object out=None,
                          object threads=1):
    """``notakers_points`` of each set of a 1-D uint64 array; int32 out (GIL released;
    ``out=``, ``threads=``: pxi/batch_out.pxi)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "arr")
    cdef int32_t ace = _c_int32(ace_in_runs, "ace_in_runs")
    cdef int64_t n = a.shape[0]
    cdef int32_t nt = _threads_arg(threads, "notakers_batch_points")
    out = _out_array(out, "notakers_batch_points", "out", np.int32, (n,), (arr,))
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        # n == 0: the engine still checks ace_in_runs (no element is read)
        rc = cc_notakers_batch_points_threads(&a[0] if n else NULL, n, ace,
                                              &o[0] if n else NULL, &bad, nt)
    if rc == CC_E_CARDS:
        # each element is read once, by the C loop: the message gives the index only
        raise _errors.InvalidCardError(
            f"notakers_batch_points: arr[{bad}] has bits outside the 52-card deck"
        )
    _notakers_status(rc, "notakers_batch_points", None,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, int(ace_in_runs)),))
    return out


def notakers_knowledge(GameState state not None, object player):
    """What ``player`` knows of the other seats' cards in a No Takers? state:
    (in_hand, held, not_in_hand), each a list of 52-card bitsets by seat."""
    if state.game != &cc_game_notakers:
        raise ValueError("notakers_knowledge needs a No Takers? state")
    cdef int32_t p = _c_int32(player, "player")
    cdef uint64_t out[24]
    cdef int32_t rc = cc_notakers_knowledge(state.state, p, out)
    if rc == CC_E_ARG:
        raise ValueError(f"notakers_knowledge: player must be 0..{state.nplayers - 1}, got {int(player)}")
    _check(rc, "notakers_knowledge")
    n = state.nplayers
    return ([out[q] for q in range(n)], [out[8 + q] for q in range(n)],
            [out[16 + q] for q in range(n)])
