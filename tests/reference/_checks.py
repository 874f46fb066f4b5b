"""Input checks shared by the Python-side backends (the cffi adapter and the
reference).  The Cython binding has its own twins, compiled into the hot path.

Each check raises ``TypeError`` for a wrong type or dtype and ``ValueError`` for
a wrong shape or layout, naming the argument and the problem.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["deck_ids", "int8_tricks", "u64_array", "u64_rows"]


def _ndarray(arr: Any, name: str, dtype: Any, what: str) -> None:
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name}: expected a numpy.ndarray of {what}, got {type(arr).__name__}")
    if arr.dtype != dtype:
        raise TypeError(f"{name}: expected dtype {what}, got {arr.dtype}")


def _contiguous(arr: Any, name: str) -> None:
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name}: array must be C-contiguous (use numpy.ascontiguousarray)")
    if not arr.flags.aligned:
        raise ValueError(f"{name}: array must be aligned (use a copy: arr.copy())")


def u64_array(arr: Any, name: str) -> Any:
    """A 1-D C-contiguous ``uint64`` array of bitsets."""
    _ndarray(arr, name, np.uint64, "uint64")
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, got {arr.ndim} dimensions")
    _contiguous(arr, name)
    return arr


def u64_rows(arr: Any, name: str) -> Any:
    """An ``(n, 2)`` C-contiguous ``uint64`` array of 128-bit (lo, hi) bitsets."""
    _ndarray(arr, name, np.uint64, "uint64")
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name}: expected shape (n, 2) (lo, hi words), got {arr.shape}")
    _contiguous(arr, name)
    return arr


def int8_tricks(arr: Any, name: str, maxk: int) -> Any:
    """An ``(n, k)`` C-contiguous ``int8`` array of card ids with -1 padding, k <= maxk."""
    _ndarray(arr, name, np.int8, "int8 (card ids, -1 padding)")
    if arr.ndim != 2 or arr.shape[1] > maxk:
        raise ValueError(f"{name}: expected shape (n, k) with k <= {maxk}, got {arr.shape}")
    _contiguous(arr, name)
    return arr


def deck_ids(deck: Any, name: str) -> list[int]:
    """A stacked deck as a list of card ids 0..255 (at most 256 of them); whether it
    is a permutation of the game's deck is the engine's check."""
    cards = list(deck)
    if len(cards) > 256:
        raise ValueError(f"{name}: deck of {len(cards)} cards is too long")
    for i, c in enumerate(cards):
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= 255:
            raise ValueError(f"{name}: deck entry {i} is not a card id: {c!r}")
    return cards
