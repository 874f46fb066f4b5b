# Cards, card sets and the engine's generator (cards.c, rng.c; cardcore.h),
# and the argument conversions of the binding.  Included from _core.pyx.
#
# The conversions only convert types; the C functions decide what is valid
# and answer with a status code, which the callers map to an exception.
#
# * An int argument is a Python int or a numpy integer (converted to a
#   Python int here, never kept as a numpy scalar); a bool, a float (Python
#   or numpy), None or anything else raises TypeError naming the argument
#   (``what``: "function: argument").
# * An int that does not fit the C parameter's type is saturated to the
#   type's extreme, which every C entry point behind these conversions
#   refuses (their documented ranges stop well short of it), so the C check
#   is the only check and an out-of-range value gives the documented
#   ValueError, never an OverflowError.  A card set outside 0..2^64-1
#   becomes all 64 bits set: bits outside the deck.
# * A seed is 0..2^64-1, the whole of uint64_t: anything else is a
#   ValueError naming the argument.  Seeds are converted last, so that a
#   wrong type anywhere is a TypeError before any ValueError.

from cpython.long cimport PyLong_AsLongLongAndOverflow
from libc.stdint cimport INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN

cdef object _U64_MAX = 0xFFFFFFFFFFFFFFFF


cdef inline object _int(object v, str what):
    """``v`` as a Python int: an int (not a bool) or a numpy integer."""
    if type(v) is int:
        return v
    if isinstance(v, int) and not isinstance(v, bool):
        return int(v)
    if isinstance(v, np.integer):
        return int(v)
    raise TypeError(f"{what} must be an int, got {type(v).__name__} {v!r}")


cdef object _int_arg(object value, str name, object lo, object hi):
    """An int argument as a Python int in lo..hi.

    Takes an int or a numpy integer scalar (converted); refuses a bool, a float,
    None or anything else with TypeError, and a value out of range with
    ValueError, both naming the argument."""
    v = _int(value, name)
    if not lo <= v <= hi:
        raise ValueError(f"{name} must be {lo}..{hi}, got {v}")
    return v


cdef int32_t _i32_arg(object value, str name, int32_t lo, int32_t hi) except? -2147483648:
    """``_int_arg`` for an int32 argument, with the common case (a Python int in
    range) decided in C: the hot path of apply, verify and observe."""
    cdef int overflow = 0
    cdef long long x
    if type(value) is int:
        x = PyLong_AsLongLongAndOverflow(value, &overflow)
        if overflow == 0 and lo <= x <= hi:
            return <int32_t>x
    return _int_arg(value, name, lo, hi)


cdef uint64_t _mask52(object cards, str what) except? 0xFFFFFFFFFFFFFFFF:
    """A 52-card bitset: an int (not a bool, a float or None) with no bit outside
    the deck (InvalidCardError otherwise); ``what`` ("function: argument")
    opens every message."""
    cards = _int_arg(cards, what, -(1 << 200), 1 << 200)
    if cards < 0 or cards > 0xFFFFFFFFFFFFFFFF:
        raise _errors.InvalidCardError(f"{what}: card set {cards!r} is not a 64-bit bitset")
    cdef uint64_t m = <uint64_t>cards
    if m & ~(<uint64_t>CC_DECK52_MASK):
        raise _errors.InvalidCardError(
            f"{what}: card set {m:#x} has bits outside the 52-card deck "
            f"({m & ~(<uint64_t>CC_DECK52_MASK):#x})"
        )
    return m


cdef inline long long _c_llong(object v, str what, int *overflow) except? -1:
    """``v`` (an int, strictly) as a long long; *overflow is -1 or 1 (and the
    result -1) if it does not fit."""
    if type(v) is not int:
        v = _int(v, what)
    return PyLong_AsLongLongAndOverflow(v, overflow)


cdef inline int32_t _c_int32(object v, str what) except? -1:
    """``v`` for an int32_t parameter (saturated)."""
    cdef int overflow = 0
    cdef long long x = _c_llong(v, what, &overflow)
    if overflow > 0 or x > INT32_MAX:
        return INT32_MAX
    if overflow < 0 or x < INT32_MIN:
        return INT32_MIN
    return <int32_t>x


cdef inline int64_t _c_int64(object v, str what) except? -1:
    """``v`` for an int64_t parameter (saturated)."""
    cdef int overflow = 0
    cdef long long x = _c_llong(v, what, &overflow)
    if overflow > 0:
        return INT64_MAX
    if overflow < 0:
        return INT64_MIN
    return <int64_t>x


cdef inline uint64_t _c_cards52(object v, str what) except? 0xFFFFFFFFFFFFFFFF:
    """``v`` for a 52-card set parameter: an int bitset (outside 0..2^64-1:
    all bits set, which the C functions refuse as bits outside the deck)."""
    cdef int overflow = 0
    cdef long long x = _c_llong(v, what, &overflow)
    if overflow == 0 and x >= 0:
        return <uint64_t>x
    if overflow > 0:
        v = _int(v, what)
        if v <= _U64_MAX:
            return <uint64_t>v
    return 0xFFFFFFFFFFFFFFFF


cdef inline uint64_t _c_seed(object v, str what) except? 0xFFFFFFFFFFFFFFFF:
    """``v`` for a uint64_t seed: 0..2^64-1, else ValueError."""
    cdef int overflow = 0
    cdef long long x = _c_llong(v, what, &overflow)
    if overflow == 0 and x >= 0:
        return <uint64_t>x
    v = _int(v, what)
    if 0 <= v <= _U64_MAX:
        return <uint64_t>v
    raise ValueError(f"{what} must be 0..2**64-1, got {v}")


cdef int _hand_error(str fn, uint64_t hand, int size, str card_arg, int32_t card) except -1:
    """Raise the ValueError of a scoring function ``fn`` that refused a hand
    (CC_E_CARDS): naming ``hand`` if it does not hold ``size`` cards, else the
    card argument ``card_arg`` (the turn-up, the starter)."""
    cdef int32_t k = cc_card52_count(hand)
    if k != size or card_arg is None:
        raise ValueError(f"{fn}: hand: {hand:#x} must be {size} cards (it holds {k})")
    raise ValueError(f"{fn}: {card_arg}: {card} must be a card id 0..51 not in the hand {hand:#x}")


cdef object _bad_cards(str message):
    """cardcore.errors.InvalidCardError(message)."""
    return _errors.InvalidCardError(message)


cdef int _check_cards52(int64_t rc, str fn, str what, object value) except -1:
    """Map CC_E_CARDS from a function given the card set ``value`` (the Python
    int the caller was given) to InvalidCardError; other codes to _check."""
    if rc == CC_E_CARDS:
        if value < 0 or value > _U64_MAX:
            raise _bad_cards(f"{fn}: {what} {value:#x} is not a 64-bit bitset "
                             f"(bits outside the 52-card deck)")
        raise _bad_cards(
            f"{fn}: {what} {value:#x} has bits outside the 52-card deck "
            f"({value & ~(<uint64_t>CC_DECK52_MASK):#x})"
        )
    return _check(<int32_t>rc if rc < 0 else 0, fn)


cdef int _range_error(int64_t rc, str fn, str what, object value, str valid) except -1:
    """Map CC_E_ARG (the C function refused ``what``) to ValueError."""
    if rc == CC_E_ARG:
        raise ValueError(f"{fn}: {what} must be {valid}, got {value!r}")
    return _check(<int32_t>rc if rc < 0 else 0, fn)


# ---------------------------------------------------------------------------
# RNG

def rng_sequence(object seed, object n):
    """The first ``n`` outputs (0..1,048,576) of the engine's generator seeded with
    ``seed`` (0..2**64-1)."""
    cdef int64_t count = _c_int64(n, "rng_sequence: n")
    cdef uint64_t s = _c_seed(seed, "rng_sequence: seed")
    cdef uint64_t *buf = NULL
    cdef int32_t rc
    if 0 < count <= CC_MAX_RNG_SEQUENCE:
        buf = <uint64_t *>PyMem_Malloc(count * sizeof(uint64_t))
        if buf == NULL:
            raise MemoryError()
    try:
        with nogil:
            rc = cc_rng_sequence(s, count, buf)
        _range_error(rc, "rng_sequence", "n", n, f"0..{CC_MAX_RNG_SEQUENCE}")
        return [buf[i] for i in range(count)]
    finally:
        PyMem_Free(buf)


def shuffled_deck(object seed, object n):
    """A permutation of ``range(n)`` (n 0..255) shuffled by the generator seeded with
    ``seed`` (0..2**64-1)."""
    cdef int32_t size = _c_int32(n, "shuffled_deck: n")
    cdef uint64_t s = _c_seed(seed, "shuffled_deck: seed")
    cdef uint8_t buf[256]
    _range_error(cc_shuffled_deck(s, buf, size), "shuffled_deck", "n", n, f"0..{CC_MAX_SHUFFLE}")
    return [buf[i] for i in range(size)]


cdef class Rng:
    """The engine's generator (xoshiro256** seeded by splitmix64), for Python code
    that must draw exactly as a native bot does: same seed, same draws."""

    cdef cc_rng _r

    def __init__(self, object seed):
        cc_rng_seed(&self._r, _c_seed(seed, "Rng: seed"))

    def seed(self, object seed):
        """Reseed (0..2**64-1)."""
        cc_rng_seed(&self._r, _c_seed(seed, "Rng.seed: seed"))

    def next(self):
        """The next 64-bit output."""
        return cc_rng_next(&self._r)

    def below(self, object n):
        """A uniform int in 0..n-1 (n 1..2**64-1), drawn as the engine does."""
        cdef uint64_t m = _c_seed(n, "Rng.below: n")
        if m == 0:
            raise ValueError("Rng.below: n must be 1..2**64-1, got 0")
        return cc_rng_below(&self._r, m)

# ---- the 78-card deck's bitsets and flags (scoring.pxi, rules.pxi) ------------

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


cdef int _flag(object value, str name) except -1:
    """A flag argument: a bool (or numpy bool) only, as 0 or 1."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__} ({value!r})")
    return 1 if value else 0
