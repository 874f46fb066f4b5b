"""The Game of Nancy's functions on the cffi binding (names of ``cardcore._core``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pycards._checks import int8_tricks, u64_rows

from ._common import check, ffi, lib

__all__ = [
    "nancy_base_score",
    "nancy_batch_legal_cards",
    "nancy_batch_objectives",
    "nancy_batch_trick_winner",
    "nancy_legal_cards",
    "nancy_objectives",
    "nancy_settlement",
    "nancy_trick_winner",
]

_LO_MASK = 0x3FFF3FFF3FFF3FFF
_HI_MASK = 0x3FFFFF
_M64 = (1 << 64) - 1


def _split(cards: int) -> tuple[int, int]:
    if not isinstance(cards, int):
        raise TypeError(f"card set must be an int, got {type(cards).__name__}")
    if cards < 0 or cards >> 128:
        raise ValueError(f"card set {cards!r} is not a 128-bit Nancy bitset")
    lo, hi = cards & _M64, cards >> 64
    if lo & ~_LO_MASK or hi & ~_HI_MASK:
        raise ValueError(f"card set {cards:#x} has bits outside the Nancy deck")
    return lo, hi


def _trick(trick: Sequence[int], cap: int) -> Any:
    trick = list(trick)
    if len(trick) > cap:
        raise ValueError(f"a trick holds at most {cap} cards, got {len(trick)}")
    seen: set[int] = set()
    for c in trick:
        if not isinstance(c, int):
            raise TypeError(f"trick card {c!r} is not an int")
        if not 0 <= c <= 77:
            raise ValueError(f"trick card id {c} out of range 0..77")
        if c in seen:
            raise ValueError(f"card {c} appears twice in the trick")
        seen.add(c)
    return ffi.new("int8_t[6]", trick), len(trick)


def nancy_legal_cards(holding: int, trick: Sequence[int], overtrump: bool = True) -> int:
    """Cards of ``holding`` playable to ``trick``."""
    lo, hi = _split(holding)
    buf, k = _trick(trick, 5)
    out_lo, out_hi = ffi.new("uint64_t *"), ffi.new("uint64_t *")
    check(lib.cc_nancy_legal_cards(lo, hi, buf, k, int(overtrump), out_lo, out_hi),
          "nancy_legal_cards")  # fmt: skip
    return int(out_lo[0]) | int(out_hi[0]) << 64


def nancy_trick_winner(trick: Sequence[int]) -> int:
    """Position of the winning card (-1 if only the Outsider was played)."""
    buf, k = _trick(trick, 6)
    r = int(lib.cc_nancy_trick_winner(buf, k))
    if r < -1:
        check(r, "nancy_trick_winner")
    return r


def nancy_objectives(nancy: int, arcane_sum_mode: int = 0) -> int:
    """Mask of objectives 1..7 met by the Nancy."""
    lo, hi = _split(nancy)
    if arcane_sum_mode not in (0, 1, 2):
        raise ValueError(f"arcane_sum_mode must be 0, 1 or 2, got {arcane_sum_mode}")
    return int(lib.cc_nancy_objectives(lo, hi, arcane_sum_mode))


def nancy_base_score(bid: int, completed: int, won: bool) -> int:
    """The round's base score."""
    if not (1 <= bid <= 9 and 0 <= completed <= 9):
        raise ValueError(f"bid must be 1..9 and completed 0..9, got {bid}, {completed}")
    return int(lib.cc_nancy_base_score(bid, completed, int(won)))


def nancy_settlement(
    nplayers: int, taker: int, partner: int, bid: int, completed: int, won: bool
) -> list[int]:
    """Points of each player for one round."""
    out = ffi.new("int32_t[8]")
    check(lib.cc_nancy_settlement(nplayers, taker, partner, bid, completed, int(won), out),
          "nancy_settlement")  # fmt: skip
    return [int(out[i]) for i in range(nplayers)]


def _ptr(ctype: str, arr: Any) -> Any:
    return ffi.cast(ctype, ffi.from_buffer(arr)) if arr.size else ffi.NULL


def nancy_batch_legal_cards(holdings: Any, tricks: Any, overtrump: bool = True) -> Any:
    """Legal cards per row: (n, 2) uint64 and (n, k<=5) int8 -> (n, 2) uint64."""
    u64_rows(holdings, "holdings")
    int8_tricks(tricks, "tricks", 5)
    if tricks.shape[0] != holdings.shape[0]:
        raise ValueError(f"holdings has {holdings.shape[0]} rows but tricks has {tricks.shape[0]}")
    n, k = holdings.shape[0], tricks.shape[1]
    out = np.empty((n, 2), dtype=np.uint64)
    if n == 0:
        return out
    bad = ffi.new("int64_t *", -1)
    rc = lib.cc_nancy_batch_legal_cards(
        _ptr("uint64_t *", holdings), _ptr("int8_t *", tricks), n, k, int(overtrump),
        _ptr("uint64_t *", out), bad,
    )  # fmt: skip
    if rc == lib.CC_E_CARDS:
        raise ValueError(f"holdings row {bad[0]} has bits outside the Nancy deck")
    if rc == lib.CC_E_ARG:
        raise ValueError(
            f"tricks row {bad[0]}: card ids must be 0..77, -1 only as padding at the end"
        )
    check(rc, "nancy_batch_legal_cards")
    return out


def nancy_batch_trick_winner(tricks: Any) -> Any:
    """Winning position per trick row (n, k<=6) int8 -> (n,) int8."""
    int8_tricks(tricks, "tricks", 6)
    n, k = tricks.shape
    out = np.empty(n, dtype=np.int8)
    if n == 0:
        return out
    bad = ffi.new("int64_t *", -1)
    rc = lib.cc_nancy_batch_trick_winner(_ptr("int8_t *", tricks), n, k,
                                         _ptr("int8_t *", out), bad)  # fmt: skip
    if rc == lib.CC_E_ARG:
        raise ValueError(
            f"tricks row {bad[0]}: card ids must be 0..77, distinct, -1 only as padding at the end"
        )
    check(rc, "nancy_batch_trick_winner")
    return out


def nancy_batch_objectives(nancies: Any, arcane_sum_mode: int = 0) -> Any:
    """Objectives 1..7 mask per Nancy row (n, 2) uint64 -> (n,) uint16."""
    u64_rows(nancies, "nancies")
    if arcane_sum_mode not in (0, 1, 2):
        raise ValueError(f"arcane_sum_mode must be 0, 1 or 2, got {arcane_sum_mode}")
    n = nancies.shape[0]
    out = np.empty(n, dtype=np.uint16)
    if n == 0:
        return out
    bad = ffi.new("int64_t *", -1)
    rc = lib.cc_nancy_batch_objectives(_ptr("uint64_t *", nancies), n, arcane_sum_mode,
                                       _ptr("uint16_t *", out), bad)  # fmt: skip
    if rc == lib.CC_E_CARDS:
        raise ValueError(f"nancies row {bad[0]} has bits outside the Nancy deck")
    check(rc, "nancy_batch_objectives")
    return out
