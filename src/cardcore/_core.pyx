# cython: language_level=3
"""cardcore._core: the one hand-written binding of the cardcore C engine.

It converts Python values to C types (refusing what is not of the right
type), releases the GIL around C loops and maps the engine's status codes
to exceptions from one table (``_ERRORS``).  It holds no game rule and no
validation of its own beyond types: what is valid is the engine's answer.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from cardcore._cardcore cimport *

import numpy as np

from cardcore import errors as _errors

# ---------------------------------------------------------------------------
# errors: one table from status code to exception type and text

cdef dict _ERRORS = {
    CC_E_ARG: ValueError,
    CC_E_CARDS: _errors.InvalidCardError,
    CC_E_GAME_OVER: _errors.IllegalActionError,
    CC_E_ILLEGAL: _errors.IllegalActionError,
    CC_E_PLAYERS: _errors.RulesError,
    CC_E_PARAMS: _errors.RulesError,
    CC_E_CAPACITY: ValueError,
    CC_E_STOPPED: RuntimeError,
}

cdef dict _STATUS_TEXT = {
    CC_E_ARG: "argument out of range",
    CC_E_CARDS: "card set has bits outside the deck",
    CC_E_GAME_OVER: "game over",
    CC_E_ILLEGAL: "illegal action",
    CC_E_PLAYERS: "unsupported number of players",
    CC_E_PARAMS: "invalid rules parameters",
    CC_E_CAPACITY: "output buffer too small",
    CC_E_STOPPED: "stopped on request",
}


cdef int _check(int32_t rc, str what) except -1:
    """Raise the exception of a negative status code (from ``_ERRORS``)."""
    if rc < 0:
        cls = _ERRORS.get(rc, _errors.PycardsError)
        text = f"{what}: {_STATUS_TEXT.get(rc, f'error {rc}')}"
        if cls is _errors.IllegalActionError:
            raise _errors.IllegalActionError(None, text)
        raise cls(text)
    return 0


cdef const uint64_t[::1] _u64_array(object arr, str name) except *:
    """Check a batch input: a 1-D C-contiguous numpy uint64 array."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name}: expected a numpy.ndarray of uint64, got {type(arr).__name__}")
    if arr.dtype != np.uint64:
        raise TypeError(f"{name}: expected dtype uint64, got {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, got {arr.ndim} dimensions")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name}: array must be C-contiguous (use numpy.ascontiguousarray)")
    if not arr.flags.aligned:
        # the C loops read whole uint64 words (an unaligned load is undefined)
        raise ValueError(f"{name}: array must be aligned (use a copy: arr.copy())")
    return arr


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


def _slow_switch_built():
    """(private: benchmarks) True if this build honours ``PYCARDS_SLOW_PATH``
    (a debug build: ``PYCARDS_DEBUG=1``; guard_internal.h)."""
    return cc_slow_switch_built() != 0

# ---------------------------------------------------------------------------
# one include per concern (never per game; see docs/internals.rst): the
# declarations are in _cardcore.pxd
include "pxi/cards.pxi"
include "pxi/batch_out.pxi"
include "pxi/combos.pxi"
include "pxi/scoring.pxi"
include "pxi/game.pxi"
include "pxi/rules.pxi"
include "pxi/bots.pxi"
include "pxi/infer.pxi"
include "pxi/vecenv.pxi"
