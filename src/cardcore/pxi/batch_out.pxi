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
