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
    int32_t cc_batch_notakers_points(const uint64_t *cards, int64_t n, int32_t ace_in_runs,
                                     int32_t *out, int64_t *bad_index)
    int32_t cc_notakers_knowledge(const void *state, int32_t player, uint64_t *out)
    const cc_game cc_game_notakers
    int CC_NOTAKERS_P_ACE_IN_RUNS
    int CC_NOTAKERS_P_TIEBREAK_ACE


# Conversions only: every check of a value (card bits, ace_in_runs,
# tiebreak_ace, player) is made by the C engine; its status codes become
# exceptions naming the argument.

cdef uint64_t _notakers_cards(object cards, str what) except? 0xFFFFFFFFFFFFFFFF:
    """A card set argument (an int bitset, numpy ints accepted) as a uint64.

    A bool, a float, None or any other type is refused with TypeError; an int
    that is no 64-bit bitset with InvalidCardError; both name the argument.
    (Bits outside the 52-card deck are the engine's to refuse.)"""
    if isinstance(cards, (bool, np.bool_)) or not isinstance(cards, (int, np.integer)):
        raise TypeError(f"{what} must be a card set (an int bitset), got {type(cards).__name__}")
    v = int(cards)
    if not 0 <= v <= 0xFFFFFFFFFFFFFFFF:
        raise _errors.InvalidCardError(f"{what}: {v:#x} is not a 64-bit card set")
    return <uint64_t>v


cdef int32_t _notakers_int(object value, str what) except? -1:
    """An int argument passed through to the engine (int32; the engine checks its range)."""
    return _int_arg(value, what, -2147483648, 2147483647)


cdef str _notakers_param_range(int index):
    """'lo..hi' of a rules parameter, from the engine's params[] table."""
    return f"{cc_game_notakers.params[index].min}..{cc_game_notakers.params[index].max}"


cdef int _notakers_status(int32_t rc, str fn, uint64_t cards, object args) except -1:
    """Raise for the status rc of fn(cards, *args): CC_E_CARDS names the card set,
    CC_E_ARG the argument(s) outside the range the engine declares."""
    if rc == CC_E_CARDS:
        raise _errors.InvalidCardError(
            f"{fn}: cards {cards:#x} has bits outside the 52-card deck "
            f"({cards & ~(<uint64_t>CC_DECK52_MASK):#x})"
        )
    if rc == CC_E_ARG:
        bad = [
            f"{name} must be {_notakers_param_range(index)}, got {value}"
            for name, index, value in args
            if not cc_game_notakers.params[index].min <= value <= cc_game_notakers.params[index].max
        ]
        raise ValueError(f"{fn}: " + ("; ".join(bad) or "argument out of range"))
    return _check(rc, fn)


def notakers_points(object cards, object ace_in_runs):
    """Maximum points of a split of ``cards`` (a 52-card bitset) into sets."""
    cdef uint64_t m = _notakers_cards(cards, "cards")
    cdef int32_t ace = _notakers_int(ace_in_runs, "ace_in_runs")
    cdef int32_t rc = cc_notakers_points(m, ace)
    _notakers_status(rc, "notakers_points", m,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, ace),))
    return rc


def notakers_splits_exactly(object cards, object ace_in_runs):
    """Whether ``cards`` split into sets with no card left over."""
    cdef uint64_t m = _notakers_cards(cards, "cards")
    cdef int32_t ace = _notakers_int(ace_in_runs, "ace_in_runs")
    cdef int32_t rc = cc_notakers_splits_exactly(m, ace)
    _notakers_status(rc, "notakers_splits_exactly", m,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, ace),))
    return rc == 1


def notakers_best_split(object cards, object ace_in_runs, object tiebreak_ace):
    """The best split: (points, [(kind, cards, points, position, top, suit), ...]) best first."""
    cdef uint64_t m = _notakers_cards(cards, "cards")
    cdef int32_t ace = _notakers_int(ace_in_runs, "ace_in_runs")
    cdef int32_t tie = _notakers_int(tiebreak_ace, "tiebreak_ace")
    cdef cc_notakers_split out
    cdef int32_t rc
    with nogil:
        rc = cc_notakers_best_split(m, ace, tie, &out)
    _notakers_status(rc, "notakers_best_split", m,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, ace),
                      ("tiebreak_ace", CC_NOTAKERS_P_TIEBREAK_ACE, tie)))
    return out.points, [
        (out.sets[i].kind, out.sets[i].cards, out.sets[i].points, out.sets[i].position,
         out.sets[i].top, out.sets[i].suit)
        for i in range(out.nsets)
    ]


def batch_notakers_points(object arr, object ace_in_runs):
    """``notakers_points`` of each set of a 1-D uint64 array; int32 out (GIL released)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "arr")
    cdef int32_t ace = _notakers_int(ace_in_runs, "ace_in_runs")
    cdef int64_t n = a.shape[0]
    out = np.zeros(n, dtype=np.int32)
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        # n == 0: the engine still checks ace_in_runs (no element is read)
        rc = cc_batch_notakers_points(&a[0] if n else NULL, n, ace, &o[0] if n else NULL, &bad)
    if rc == CC_E_CARDS:
        # each element is read once, by the C loop: the message gives the index only
        raise _errors.InvalidCardError(
            f"batch_notakers_points: arr[{bad}] has bits outside the 52-card deck"
        )
    _notakers_status(rc, "batch_notakers_points", 0,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, ace),))
    return out


def notakers_knowledge(GameState state not None, object player):
    """What ``player`` knows of the other seats' cards in a No Takers? state:
    (in_hand, held, not_in_hand), each a list of 52-card bitsets by seat."""
    if state.game != &cc_game_notakers:
        raise ValueError("notakers_knowledge needs a No Takers? state")
    cdef int32_t p = _notakers_int(player, "player")
    cdef uint64_t out[24]
    cdef int32_t rc = cc_notakers_knowledge(state.state, p, out)
    if rc == CC_E_ARG:
        raise ValueError(f"notakers_knowledge: player must be 0..{state.nplayers - 1}, got {p}")
    _check(rc, "notakers_knowledge")
    n = state.nplayers
    return ([out[q] for q in range(n)], [out[8 + q] for q in range(n)],
            [out[16 + q] for q in range(n)])
