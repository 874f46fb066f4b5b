# cython: language_level=3
"""cardcore._core: the one hand-written binding of the cardcore C engine.

It converts Python values to C types (refusing what is not of the right
type), releases the GIL around C loops and maps the engine's status codes
to exceptions from one table (``_ERRORS``).  It holds no game rule and no
validation of its own beyond types: what is valid is the engine's answer.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
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

# ---------------------------------------------------------------------------
# long calls: stopped by a signal handler's exception (Ctrl-C)

import _thread
import threading as _threading

# A C call with its arguments (a struct of the caller's, on its stack) and
# the call's stop flag (const volatile int32_t * in C): its status.
ctypedef int32_t (*_stoppable_fn)(void *args, const int32_t *stop) noexcept nogil

# The smallest long calls, which run in a thread of their own (see
# _run_stoppable): a thread costs 0.1 to 0.3 ms to start and join, so a
# call under these (a few ms, at most a few hundred on the slowest inputs)
# runs in the calling thread.  Searches: a time budget in seconds, or
# simulations (a heuristic rollout counts as _HEURISTIC_ROLLOUT random
# ones); a match with no search bot: games; random playouts: games; a
# vector environment: games; the batch kernels: sets (the combinations'
# kernels, the games' scorers); the exact solver: cards to play.
cdef double _LONG_SECONDS = 0.02
cdef int64_t _LONG_SIMULATIONS = 256
cdef int64_t _HEURISTIC_ROLLOUT = 16
cdef int64_t _LONG_MATCH_GAMES = 64
cdef int64_t _LONG_PLAYOUTS = 256
cdef int64_t _LONG_VECTOR = 16384
cdef int64_t _LONG_BATCH = 1 << 19
cdef int64_t _LONG_SCORER = 1 << 16
cdef int32_t _LONG_SOLVE_DEPTH = 12


cdef class _Stoppable:
    """One call of :func:`_run_stoppable` run in a thread of its own: the C
    function, its arguments, its stop flag and its status; ``done`` is held
    until the call has returned and ``finished`` is set."""
    cdef _stoppable_fn fn
    cdef void *args
    cdef int32_t stop             # read by the engine with the GIL released
    cdef int32_t rc
    cdef bint finished
    cdef object done

    def run(self):
        with nogil:
            self.rc = self.fn(self.args, &self.stop)
        self.finished = True
        self.done.release()


cdef int _run_stoppable(_stoppable_fn fn, void *args, bint long_call, int32_t *rc) except -1:
    """Run ``fn(args, stop)`` with the GIL released, its status in ``*rc``.

    A long call (``long_call``) made from the main thread runs in a thread
    of its own while this one waits, GIL released, waking every 50 ms to let
    Python's signal handlers run: an exception from one (KeyboardInterrupt
    on Ctrl-C) sets the call's stop flag, the engine's loops see it within
    a few thousand steps and return CC_E_STOPPED, and the exception is
    raised here once the call has returned (never before: ``args`` and what
    it points to are the caller's).  Any other call (a short one, or one
    from another thread, which Python's signals never reach) runs in the
    calling thread with a flag that is never set.

    The wait is on a lock of the call's own, its end told by ``finished``
    alone: ``Thread.join`` cannot be trusted here, as a join interrupted by
    a signal's exception may take a running thread for finished (CPython
    3.11, bpo-45274's fix).  The handlers are run by PyErr_CheckSignals
    after each step: a lock's timed wait runs them only when a real signal
    interrupts it (not for ``_thread.interrupt_main()``)."""
    cdef int32_t never = 0
    if not long_call or _thread.get_ident() != _threading.main_thread().ident:
        with nogil:
            rc[0] = fn(args, &never)
        return 0
    cdef _Stoppable call = _Stoppable()
    call.fn = fn
    call.args = args
    call.done = _thread.allocate_lock()
    call.done.acquire()
    try:
        _thread.start_new_thread(call.run, ())
    except RuntimeError:          # no thread to be had: the call runs here
        with nogil:
            rc[0] = fn(args, &never)
        return 0
    try:
        while not call.done.acquire(True, 0.05):
            PyErr_CheckSignals()  # the signal handlers run between the waits
    except BaseException:
        call.stop = 1
        while not call.finished:  # the call's memory is the caller's: wait for its end
            try:
                call.done.acquire(True, 0.05)
                PyErr_CheckSignals()
            except BaseException:
                pass              # a second signal: the first exception is raised
        raise
    rc[0] = call.rc
    return 0


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
include "pxi/nets.pxi"
include "pxi/bots.pxi"
include "pxi/infer.pxi"
include "pxi/vecenv.pxi"
