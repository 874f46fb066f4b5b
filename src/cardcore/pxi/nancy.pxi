# The Game of Nancy: scalar rule functions and batch kernels (cc_nancy.h).
# The game itself is served by the generic GameState ("nancy").

from libc.stdint cimport int8_t, uint16_t

cdef extern from "cc_nancy.h" nogil:
    int32_t cc_nancy_legal_cards(uint64_t lo, uint64_t hi, const int8_t *trick, int32_t k,
                                 int32_t overtrump, uint64_t *out_lo, uint64_t *out_hi)
    int32_t cc_nancy_trick_winner(const int8_t *trick, int32_t k)
    int32_t cc_nancy_objectives(uint64_t lo, uint64_t hi, int32_t arcane_mode)
    int32_t cc_nancy_base_score(int32_t bid, int32_t completed, int32_t won)
    int32_t cc_nancy_settlement(int32_t nplayers, int32_t taker, int32_t partner, int32_t bid,
                                int32_t completed, int32_t won, int32_t *out)
    int32_t cc_nancy_batch_legal_cards(const uint64_t *holdings, const int8_t *tricks,
                                       int64_t n, int32_t k, int32_t overtrump, uint64_t *out,
                                       int64_t *bad_index)
    int32_t cc_nancy_batch_trick_winner(const int8_t *tricks, int64_t n, int32_t k,
                                        int8_t *out, int64_t *bad_index)
    int32_t cc_nancy_batch_objectives(const uint64_t *nancies, int64_t n, int32_t arcane_mode,
                                      uint16_t *out, int64_t *bad_index)


cdef _nancy_split(object cards, str name="card set"):
    """Validate an int (or numpy integer) as a 78-card Nancy bitset; return (lo, hi)."""
    if isinstance(cards, (bool, np.bool_)) or not isinstance(cards, (int, np.integer)):
        raise TypeError(f"{name} must be an int bitset, got {type(cards).__name__} ({cards!r})")
    cards = int(cards)
    if cards < 0 or cards >= (1 << 128):
        raise ValueError(f"{name} {cards!r} is not a 128-bit Nancy bitset")
    lo = cards & 0xFFFFFFFFFFFFFFFF
    hi = cards >> 64
    if lo & ~CC_NANCY_LO_MASK or hi & ~CC_NANCY_HI_MASK:
        raise ValueError(f"{name} {cards:#x} has bits outside the Nancy deck")
    return lo, hi


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


cdef int _flag(object value, str name) except -1:
    """A flag argument: a bool (or numpy bool) only, as 0 or 1."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__} ({value!r})")
    return 1 if value else 0


cdef int _arcane_mode(object value) except -1:
    return _int_arg(value, "arcane_sum_mode", 0, 2)


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


def nancy_objectives(object nancy, object arcane_sum_mode=0):
    """Bit mask of objectives 1..7 (bit k-1 for objective k) met by the Nancy ``nancy``."""
    lo, hi = _nancy_split(nancy, "nancy")
    cdef int mode = _arcane_mode(arcane_sum_mode)
    return cc_nancy_objectives(lo, hi, mode)


def nancy_base_score(object bid, object completed, object won):
    """The round's base score (docs/nancy.rst, "Result and score")."""
    cdef int32_t b = _int_arg(bid, "bid", 1, 9)
    cdef int32_t c = _int_arg(completed, "completed", 0, 9)
    cdef int32_t w = _flag(won, "won")
    return cc_nancy_base_score(b, c, w)


def nancy_settlement(object nplayers, object taker, object partner, object bid,
                     object completed, object won):
    """Points of each player for one round (``partner`` -1 when the Taker plays alone)."""
    cdef int32_t n = _int_arg(nplayers, "nplayers", 2, 6)
    cdef int32_t t = _int_arg(taker, "taker", 0, n - 1)
    cdef int32_t q = _int_arg(partner, "partner", -1, n - 1)
    cdef int32_t b = _int_arg(bid, "bid", 1, 9)
    cdef int32_t c = _int_arg(completed, "completed", 0, 9)
    cdef int32_t w = _flag(won, "won")
    cdef int32_t out[8]
    _check(cc_nancy_settlement(n, t, q, b, c, w, out), "nancy_settlement")
    return [out[i] for i in range(n)]


cdef object _nancy_rows(object arr, str name):
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name}: expected a numpy.ndarray of uint64, got {type(arr).__name__}")
    if arr.dtype != np.uint64:
        raise TypeError(f"{name}: expected dtype uint64, got {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name}: expected shape (n, 2) (lo, hi words), got {arr.shape}")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name}: array must be C-contiguous (use numpy.ascontiguousarray)")
    if not arr.flags.aligned:
        raise ValueError(f"{name}: array must be aligned (use a copy: arr.copy())")
    return arr


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


def nancy_batch_objectives(object nancies, object arcane_sum_mode=0):
    """Objectives 1..7 mask per Nancy row: (n, 2) uint64 -> (n,) uint16."""
    _nancy_rows(nancies, "nancies")
    cdef int mode = _arcane_mode(arcane_sum_mode)
    cdef int64_t n = nancies.shape[0]
    out = np.empty(n, dtype=np.uint16)
    if n == 0:
        return out
    cdef const uint64_t[:, ::1] h = nancies
    cdef uint16_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_nancy_batch_objectives(&h[0, 0], n, mode, &o[0], &bad)
    if rc == CC_E_CARDS:
        raise ValueError(f"nancies row {bad} has bits outside the Nancy deck")
    _check(rc, "nancy_batch_objectives")
    return out
