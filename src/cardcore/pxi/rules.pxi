# Rules: a game's rule functions beyond its table (the cards a holding may
# play to a trick, a trick's winner, what a seat knows of the others' cards),
# declared in _cardcore.pxd.  The game itself is played through GameState
# (game.pxi); these serve analysis and the facades.  Conversions and status
# codes only: every check of a value is the C engine's.  Included after
# game.pxi (a knowledge function takes a GameState).

# ---- the Game of Nancy (cc_nancy.h): legal cards and trick winners ------------

cdef int _nancy_trick(object trick, int8_t *buf, int cap) except -1:
    if isinstance(trick, (str, bytes, int, np.integer)) or not hasattr(trick, "__iter__"):
        raise TypeError(f"trick must be a sequence of card ids, got {type(trick).__name__}")
    trick = list(trick)
    if len(trick) > cap:
        raise ValueError(f"a trick holds at most {cap} cards, got {len(trick)}")
    seen = set()
    for i, c in enumerate(trick):
        c = _int_arg(c, f"trick[{i}]", -(1 << 63), 1 << 64)
        if c < 0 or c > 77:
            raise ValueError(f"trick[{i}]: card id {c} out of range 0..77")
        if c in seen:
            raise ValueError(f"card {c} appears twice in the trick")
        seen.add(c)
        buf[i] = <int8_t>c
    return len(trick)


cdef object _nancy_tricks(object arr, str name, int maxk):
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name}: expected a numpy.ndarray of int8, got {type(arr).__name__}")
    if arr.dtype != np.int8:
        raise TypeError(f"{name}: expected dtype int8 (card ids, -1 padding), got {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] > maxk:
        raise ValueError(f"{name}: expected shape (n, k) with k <= {maxk}, got {arr.shape}")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name}: array must be C-contiguous (use numpy.ascontiguousarray)")
    return arr


def nancy_legal_cards(object holding, object trick, object overtrump=True):
    """Cards of ``holding`` (Nancy bitset int) playable to ``trick`` (card ids in play order)."""
    lo, hi = _nancy_split(holding, "holding")
    cdef int8_t buf[6]
    cdef int k = _nancy_trick(trick, buf, 5)
    cdef int ot = _flag(overtrump, "overtrump")
    cdef uint64_t olo = 0, ohi = 0
    _check(cc_nancy_legal_cards(lo, hi, buf, k, ot, &olo, &ohi), "nancy_legal_cards")
    return int(olo) | (int(ohi) << 64)


def nancy_trick_winner(object trick):
    """Position in ``trick`` of the winning card (-1 if only the Outsider was played)."""
    cdef int8_t buf[6]
    cdef int k = _nancy_trick(trick, buf, 6)
    cdef int32_t r = cc_nancy_trick_winner(buf, k)
    if r < -1:
        _check(r, "nancy_trick_winner")
    return r


def nancy_batch_legal_cards(object holdings, object tricks, object overtrump=True):
    """Legal cards per row: holdings (n, 2) uint64, tricks (n, k<=5) int8 -> (n, 2) uint64."""
    _nancy_rows(holdings, "holdings")
    _nancy_tricks(tricks, "tricks", 5)
    if tricks.shape[0] != holdings.shape[0]:
        raise ValueError(f"holdings has {holdings.shape[0]} rows but tricks has {tricks.shape[0]}")
    cdef int ot = _flag(overtrump, "overtrump")
    cdef int64_t n = holdings.shape[0]
    cdef int32_t k = tricks.shape[1]
    out = np.empty((n, 2), dtype=np.uint64)
    if n == 0:
        return out
    cdef const uint64_t[:, ::1] h = holdings
    cdef const int8_t[:, ::1] t = tricks
    cdef uint64_t[:, ::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    cdef const int8_t *tp = &t[0, 0] if k > 0 else NULL
    with nogil:
        rc = cc_nancy_batch_legal_cards(&h[0, 0], tp, n, k, ot, &o[0, 0], &bad)
    if rc == CC_E_CARDS:
        raise ValueError(f"holdings row {bad} has bits outside the Nancy deck")
    if rc == CC_E_ARG:
        raise ValueError(f"tricks row {bad}: card ids must be 0..77, -1 only as padding at the end")
    _check(rc, "nancy_batch_legal_cards")
    return out


def nancy_batch_trick_winner(object tricks):
    """Winning position per trick row (n, k<=6) int8 -> (n,) int8 (-1: no winner)."""
    _nancy_tricks(tricks, "tricks", 6)
    cdef int64_t n = tricks.shape[0]
    cdef int32_t k = tricks.shape[1]
    out = np.empty(n, dtype=np.int8)
    if n == 0:
        return out
    cdef const int8_t[:, ::1] t = tricks
    cdef int8_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    cdef const int8_t *tp = &t[0, 0] if k > 0 else NULL
    with nogil:
        rc = cc_nancy_batch_trick_winner(tp, n, k, &o[0], &bad)
    if rc == CC_E_ARG:
        raise ValueError(f"tricks row {bad}: card ids must be 0..77, distinct, -1 only as padding at the end")
    _check(rc, "nancy_batch_trick_winner")
    return out


def nancy_deal_schedule(object params, object nplayers, object dealer):
    """Who receives each card of a stacked first deal, top of the deck first: a
    list of 78 seats, -1 for the Hound (the engine's own schedule, cc_nancy.h)."""
    cdef int32_t p[32]  # CC_MAX_PARAMS
    _game_params("nancy_deal_schedule", params, &cc_game_nancy, p)
    cdef int32_t n = _i32_arg(nplayers, "nplayers", -2147483648, 2147483647)
    cdef int32_t d = _i32_arg(dealer, "dealer", -2147483648, 2147483647)
    cdef int8_t out[78]
    cdef int32_t rc = cc_nancy_deal_schedule(p, n, d, out)
    if rc == CC_E_ARG:
        raise ValueError(f"nancy_deal_schedule: dealer must be a seat 0..{n - 1}, got {d}")
    _check(rc, "nancy_deal_schedule")
    return [out[i] for i in range(78)]


# ---- No Takers? (cc_notakers.h): what a seat knows ----------------------------

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
