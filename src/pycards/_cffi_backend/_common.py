"""Shared helpers of the cffi adapter: status codes and input checks."""

from __future__ import annotations

from typing import Any

import numpy as np
from cardcore._cffi import ffi, lib

__all__ = ["check", "ffi", "lib", "mask52", "u64_array"]

STATUS_TEXT = {
    lib.CC_E_ARG: "argument out of range",
    lib.CC_E_CARDS: "card set has bits outside the deck",
    lib.CC_E_GAME_OVER: "game over",
    lib.CC_E_ILLEGAL: "illegal action",
    lib.CC_E_PLAYERS: "unsupported number of players",
    lib.CC_E_PARAMS: "invalid rules parameters",
    lib.CC_E_CAPACITY: "output buffer too small",
}


def check(rc: int, what: str) -> None:
    """Raise ``ValueError`` for a negative status code."""
    if rc < 0:
        raise ValueError(f"{what}: {STATUS_TEXT.get(rc, rc)}")


def mask52(cards: int) -> int:
    """Validate an int as a 52-card bitset."""
    cards = int(cards)
    if cards < 0 or cards > 0xFFFFFFFFFFFFFFFF:
        raise ValueError(f"card set {cards!r} is not a 64-bit bitset")
    if cards & ~lib.CC_DECK52_MASK:
        raise ValueError(
            f"card set {cards:#x} has bits outside the 52-card deck "
            f"({cards & ~lib.CC_DECK52_MASK:#x})"
        )
    return cards


def u64_array(arr: Any, name: str) -> Any:
    """Check a batch input: a 1-D C-contiguous numpy uint64 array."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name}: expected a numpy.ndarray of uint64, got {type(arr).__name__}")
    if arr.dtype != np.uint64:
        raise TypeError(f"{name}: expected dtype uint64, got {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, got {arr.ndim} dimensions")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name}: array must be C-contiguous (use numpy.ascontiguousarray)")
    return arr
