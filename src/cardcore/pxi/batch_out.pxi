# The batch functions' shared arguments: ``out=`` (the caller's output
# arrays, checked here for type, shape and layout only) and ``threads=``
# (cc_threads.h).  Included from _core.pyx before the batch functions.

def batch_threads_default():
    """The thread count ``threads=0`` means: the number of online cores."""
    return cc_batch_threads_default()


cdef int32_t _threads_arg(object threads, str fn) except -1:
    """``threads=``: an int 0..CC_MAX_BATCH_THREADS (0: every core)."""
    return _i32_arg(threads, f"{fn}: threads", 0, CC_MAX_BATCH_THREADS)


cdef object _out_array(object out, str fn, str what, object dtype, tuple shape, tuple inputs):
    """``out`` (or a part of it, named ``what``): a new array of dtype and shape when
    None; else the caller's, which must be a numpy.ndarray of exactly that dtype and
    shape, C-contiguous, aligned, writeable, and share no memory with the inputs."""
    if out is None:
        return np.empty(shape, dtype=dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{fn}: {what} must be a numpy.ndarray of {np.dtype(dtype)}, "
                        f"got {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"{fn}: {what} must have dtype {np.dtype(dtype)}, got {out.dtype}")
    if out.shape != shape:
        raise ValueError(f"{fn}: {what} must have shape {shape}, got {out.shape}")
    if not out.flags.c_contiguous:
        raise ValueError(f"{fn}: {what} must be C-contiguous")
    if not out.flags.aligned:
        raise ValueError(f"{fn}: {what} must be aligned")
    if not out.flags.writeable:
        raise ValueError(f"{fn}: {what} must be writeable")
    for a in inputs:
        if np.may_share_memory(out, a):
            raise ValueError(f"{fn}: {what} overlaps an input array")
    return out


# The threaded kernels (cc_threads.h) as long calls (_run_stoppable): a
# batch of _LONG_BATCH sets or more (_LONG_SCORER for the games' scorers)
# called from the main thread runs in a thread of its own, and a signal's
# exception (KeyboardInterrupt on Ctrl-C) stops it within a piece of each
# thread's chunk and is raised; the output then holds the results of the
# pieces done and whatever it held before elsewhere.  One argument struct
# for every kernel, named by its kind.

cdef enum _kernel:
    _K_HAND_STATS, _K_FIFTEENS, _K_PAIRS, _K_SUITS, _K_RUN_SCORE, _K_SUIT_RUN
    _K_NOTAKERS_POINTS, _K_CRIBBAGE_SHOW, _K_NODDE_HAND


cdef struct _batch_args:
    _kernel kind
    int32_t path
    int32_t flag                  # the target, ace_in_runs or is_crib
    const uint64_t *cards
    const uint8_t *cards8         # the starters or turn-ups
    int64_t n
    const int32_t *params
    int64_t *out64
    int32_t *out32
    int32_t *out32b
    uint8_t *suits
    int64_t *bad
    uint64_t *bad_value
    int32_t threads


cdef int32_t _batch_go(void *a, const int32_t *stop) noexcept nogil:
    cdef _batch_args *x = <_batch_args *> a
    if x.kind == _K_HAND_STATS:
        return cc_batch_hand_stats_threads(x.path, x.cards, x.n, x.flag, x.out64, x.out32,
                                           x.out32b, x.suits, x.bad, x.bad_value, x.threads,
                                           stop)
    if x.kind == _K_FIFTEENS:
        return cc_batch_count_fifteens_threads(x.cards, x.n, x.flag, x.out64, x.bad,
                                               x.bad_value, x.threads, stop)
    if x.kind == _K_PAIRS:
        return cc_batch_count_pairs_threads(x.cards, x.n, x.out32, x.bad, x.bad_value,
                                            x.threads, stop)
    if x.kind == _K_SUITS:
        return cc_batch_suit_counts_threads(x.cards, x.n, x.suits, x.bad, x.bad_value,
                                            x.threads, stop)
    if x.kind == _K_RUN_SCORE:
        return cc_batch_run_score_threads(x.cards, x.n, x.out32, x.bad, x.bad_value,
                                          x.threads, stop)
    if x.kind == _K_SUIT_RUN:
        return cc_batch_longest_suit_run_threads(x.cards, x.n, x.out32, x.bad, x.bad_value,
                                                 x.threads, stop)
    if x.kind == _K_NOTAKERS_POINTS:
        return cc_notakers_batch_points_threads(x.cards, x.n, x.flag, x.out32, x.bad,
                                                x.threads, stop)
    if x.kind == _K_CRIBBAGE_SHOW:
        return cc_cribbage_batch_score_show_threads(x.cards, x.cards8, x.n, x.flag, x.params,
                                                    x.out32, x.bad, x.threads, stop)
    return cc_nodde_batch_score_hand_threads(x.cards, x.cards8, x.n, x.params, x.out32,
                                             x.bad, x.threads, stop)


cdef _batch_args _batch_of(_kernel kind, const uint64_t[::1] cards, int64_t *bad,
                           uint64_t *bad_value, int32_t threads):
    """The arguments of a kernel over ``cards`` (the others zero)."""
    cdef _batch_args x
    memset(&x, 0, sizeof(_batch_args))
    x.kind = kind
    x.cards = &cards[0] if cards.shape[0] else NULL
    x.n = cards.shape[0]
    x.bad = bad
    x.bad_value = bad_value
    x.threads = threads
    return x


cdef int32_t _run_batch(_batch_args *x) except? -1000:
    """Run a threaded kernel as a long call; its status."""
    cdef int32_t rc
    cdef int64_t least = _LONG_SCORER if x.kind >= _K_NOTAKERS_POINTS else _LONG_BATCH
    _run_stoppable(_batch_go, x, x.n >= least, &rc)
    return rc
