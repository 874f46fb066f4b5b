# The batch functions' shared arguments: ``out=`` (the caller's output
# arrays, checked here for type, shape and layout only) and ``threads=``
# (cc_threads.h).  Included from _core.pyx before the batch functions.

cdef extern from "cc_threads.h" nogil:
    int CC_MAX_BATCH_THREADS
    int32_t cc_batch_threads_default()
    int32_t cc_batch_count_fifteens_threads(const uint64_t *cards, int64_t n, int32_t target,
                                            int64_t *out, int64_t *bad_index,
                                            uint64_t *bad_value, int32_t threads)
    int32_t cc_batch_count_pairs_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                         int64_t *bad_index, uint64_t *bad_value,
                                         int32_t threads)
    int32_t cc_batch_suit_counts_threads(const uint64_t *cards, int64_t n, uint8_t *out,
                                         int64_t *bad_index, uint64_t *bad_value,
                                         int32_t threads)
    int32_t cc_batch_run_score_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                       int64_t *bad_index, uint64_t *bad_value, int32_t threads)
    int32_t cc_batch_longest_suit_run_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                              int64_t *bad_index, uint64_t *bad_value,
                                              int32_t threads)
    int32_t cc_batch_hand_stats_threads(int32_t path, const uint64_t *cards, int64_t n,
                                        int32_t target, int64_t *fifteens, int32_t *pairs,
                                        int32_t *run_score, uint8_t *suits, int64_t *bad_index,
                                        uint64_t *bad_value, int32_t threads)
    int32_t cc_notakers_batch_points_threads(const uint64_t *cards, int64_t n,
                                             int32_t ace_in_runs, int32_t *out,
                                             int64_t *bad_index, int32_t threads)
    int32_t cc_cribbage_batch_score_show_threads(const uint64_t *hands, const uint8_t *starters,
                                                 int64_t n, int32_t is_crib,
                                                 const int32_t *params, int32_t *out,
                                                 int64_t *bad_index, int32_t threads)
    int32_t cc_nodde_batch_score_hand_threads(const uint64_t *hands, const uint8_t *turnups,
                                              int64_t n, const int32_t *params, int32_t *out,
                                              int64_t *bad_index, int32_t threads)


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
