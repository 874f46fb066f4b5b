"""numpy's BLAS on a given number of threads, for the length of a block.

OpenBLAS, which numpy's wheels ship, keeps its threads spinning between
calls; on a machine whose cores are busy, a small matrix product on two
spinning threads took ten to a hundred times the time it takes on one (the
training page has the figures).  Training runs its products on the threads
it is told (one by default), and the same thread count gives the same bits.

The library is found among the process's loaded libraries (``/proc/self/maps``,
Linux) and driven through its ``*openblas_set_num_threads*`` entry, as
threadpoolctl does; where it cannot be found (another BLAS, another
system) :func:`blas_threads` changes nothing and says so by returning False.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["blas_threads"]

_SETTERS = (
    "openblas_set_num_threads",
    "scipy_openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
)
_GETTERS = (
    "openblas_get_num_threads",
    "scipy_openblas_get_num_threads64_",
    "scipy_openblas_get_num_threads",
    "openblas_get_num_threads64_",
)


def _openblas() -> tuple[object, object] | None:
    """The (get, set) functions of the loaded OpenBLAS, or None."""
    maps = Path("/proc/self/maps")
    try:
        text = maps.read_text()
    except OSError:
        return None
    paths = {line.split()[-1] for line in text.splitlines() if "openblas" in line.lower()}
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        get = next((getattr(lib, n) for n in _GETTERS if hasattr(lib, n)), None)
        put = next((getattr(lib, n) for n in _SETTERS if hasattr(lib, n)), None)
        if get is not None and put is not None:
            get.restype = ctypes.c_int
            put.argtypes = [ctypes.c_int]
            return get, put
    return None


@contextmanager
def blas_threads(threads: int) -> Iterator[bool]:
    """Run the block with numpy's OpenBLAS on ``threads`` threads, and put
    the former count back after it.  Yields whether the count was set."""
    found = _openblas()
    if found is None:
        yield False
        return
    get, put = found
    before = int(get())  # type: ignore[operator]
    put(threads)  # type: ignore[operator]
    try:
        yield True
    finally:
        put(before)  # type: ignore[operator]
