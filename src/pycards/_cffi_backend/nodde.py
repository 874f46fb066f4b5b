"""Nodde Knave part of the cffi adapter: the scoring functions of cc_nodde.h.

Converts types and maps status codes, like ``src/cardcore/_nodde.pxi``; no rule here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._common import check, ffi, lib, mask52, u64_array

__all__ = [
    "nodde_batch_score_hand",
    "nodde_hand_distribution",
    "nodde_score_hand",
    "nodde_score_play",
]


def _params(params: Sequence[int]) -> Any:
    values = tuple(params)
    if len(values) != lib.CC_NODDE_NUM_PARAMS:
        raise ValueError(
            f"nodde: expected {lib.CC_NODDE_NUM_PARAMS} rules parameters, got {len(values)}"
        )
    buf = ffi.new("int32_t[]", [int(v) for v in values])
    if lib.cc_nodde_check_params(buf) != lib.CC_OK:
        raise ValueError(f"nodde: invalid rules parameters {values!r}")
    return buf


def _items(buf: Any, n: int) -> list[tuple[int, int, int]]:
    return [(buf[i].kind, buf[i].cards, buf[i].points) for i in range(n)]


def nodde_score_hand(hand: int, turnup: int, params: Sequence[int]) -> list[tuple[int, int, int]]:
    """Itemized hand score: a list of (kind, cards bitset, points)."""
    p = _params(params)
    h = mask52(hand)
    items = ffi.new("cc_nodde_item[]", lib.CC_NODDE_MAX_ITEMS)
    n = lib.cc_nodde_hand_items(h, int(turnup), p, items, lib.CC_NODDE_MAX_ITEMS)
    if n == lib.CC_E_CARDS:
        raise ValueError(
            f"nodde_score_hand: hand {h:#x} must be 3 cards and the turn-up {turnup} "
            "a card id 0..51 not in the hand"
        )
    check(n, "nodde_score_hand")
    return _items(items, n)


def nodde_score_play(seq: Sequence[int], params: Sequence[int]) -> list[tuple[int, int, int]]:
    """What the last card of a play sequence makes: a list of (kind, cards, points)."""
    p = _params(params)
    cards = [int(c) for c in seq]
    if not 1 <= len(cards) <= lib.CC_NODDE_MAX_PLAY:
        raise ValueError(f"nodde_score_play: 1 to {lib.CC_NODDE_MAX_PLAY} cards, got {len(cards)}")
    for c in cards:
        if not 0 <= c < 52:
            raise ValueError(f"nodde_score_play: card id {c!r} out of range 0..51")
    items = ffi.new("cc_nodde_item[]", 8)
    n = lib.cc_nodde_play_items(ffi.new("uint8_t[]", cards), len(cards), p, items, 8)
    if n == lib.CC_E_CARDS:
        raise ValueError(f"nodde_score_play: repeated card in {cards!r}")
    if n == lib.CC_E_ARG:
        raise ValueError(f"nodde_score_play: {cards!r} totals over 31")
    check(n, "nodde_score_play")
    return _items(items, n)


def nodde_batch_score_hand(hands: Any, turnups: Any, params: Sequence[int]) -> Any:
    """Hand scores of (hands[i], turnups[i]): uint64 bitsets and uint8 card ids -> int32."""
    p = _params(params)
    h = u64_array(hands, "hands")
    if not isinstance(turnups, np.ndarray):
        raise TypeError(f"turnups: expected a numpy.ndarray of uint8, got {type(turnups).__name__}")
    if turnups.dtype != np.uint8:
        raise TypeError(f"turnups: expected dtype uint8, got {turnups.dtype}")
    if turnups.ndim != 1:
        raise ValueError(f"turnups: expected a 1-D array, got {turnups.ndim} dimensions")
    if not turnups.flags.c_contiguous:
        raise ValueError("turnups: array must be C-contiguous (use numpy.ascontiguousarray)")
    if len(turnups) != len(h):
        raise ValueError(f"hands and turnups differ in length ({len(h)} != {len(turnups)})")
    out = np.empty(len(h), dtype=np.int32)
    if len(h) == 0:
        return out
    bad = ffi.new("int64_t *", -1)
    rc = lib.cc_nodde_batch_score_hand(
        ffi.from_buffer("uint64_t[]", h),
        ffi.from_buffer("uint8_t[]", turnups),
        len(h),
        p,
        ffi.from_buffer("int32_t[]", out),
        bad,
    )
    if rc == lib.CC_E_CARDS:
        i = bad[0]
        raise ValueError(
            f"nodde_batch_score_hand: deal {i}: hand {int(h[i]):#x} must be 3 cards and the "
            f"turn-up {int(turnups[i])} a card id 0..51 not in the hand"
        )
    check(rc, "nodde_batch_score_hand")
    return out


def nodde_hand_distribution(params: Sequence[int]) -> Any:
    """Counts of hand scores over all 22,100 x 49 deals (int64 array, index = score)."""
    p = _params(params)
    out = np.zeros(lib.CC_NODDE_HIST_SIZE, dtype=np.int64)
    check(
        lib.cc_nodde_hand_distribution(p, ffi.from_buffer("int64_t[]", out)),
        "nodde_hand_distribution",
    )
    return out
