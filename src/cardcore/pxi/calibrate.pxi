# The benchmark guard's fixed C workload (calibrate.c, cc_calibrate.h;
# docs/benchmarks.rst).  Included from _core.pyx.  Private: for
# benchmarks/guard.py and its tests.

cdef extern from "cc_calibrate.h" nogil:
    uint64_t cc_calibrate(int64_t n)
    int32_t cc_slow_switch_built()


def _calibrate(object rounds):
    """(private: benchmarks) Run ``rounds`` (0..2**62) rounds of the fixed C
    calibration loop with the GIL released; returns its checksum."""
    cdef int64_t n = _int_arg(rounds, "rounds", 0, 1 << 62)
    cdef uint64_t r
    with nogil:
        r = cc_calibrate(n)
    return r


def _slow_switch_built():
    """(private: benchmarks) True if this build honours ``PYCARDS_SLOW_PATH``
    (a debug build: ``PYCARDS_DEBUG=1``)."""
    return cc_slow_switch_built() != 0
