"""No Takers? part of the cffi adapter: the best-split scorer (same names as ``_notakers.pxi``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import check, ffi, lib, mask52, u64_array

__all__ = [
    "batch_notakers_points",
    "notakers_best_split",
    "notakers_knowledge",
    "notakers_points",
    "notakers_splits_exactly",
]


def _ace(ace_in_runs: int) -> int:
    if ace_in_runs not in (0, 1, 2):
        raise ValueError(f"ace_in_runs must be 0 (low), 1 (high) or 2 (both), got {ace_in_runs}")
    return ace_in_runs


def notakers_points(cards: int, ace_in_runs: int) -> int:
    """Maximum points of a split of ``cards`` (a 52-card bitset) into sets."""
    rc = int(lib.cc_notakers_points(mask52(cards), _ace(ace_in_runs)))
    check(rc, "notakers_points")
    return rc


def notakers_splits_exactly(cards: int, ace_in_runs: int) -> bool:
    """Whether ``cards`` split into sets with no card left over."""
    rc = int(lib.cc_notakers_splits_exactly(mask52(cards), _ace(ace_in_runs)))
    check(rc, "notakers_splits_exactly")
    return rc == 1


def notakers_best_split(
    cards: int, ace_in_runs: int, tiebreak_ace: int
) -> tuple[int, list[tuple[int, int, int, int, int, int]]]:
    """The best split: (points, [(kind, cards, points, position, top, suit), ...]) best first."""
    m = mask52(cards)
    _ace(ace_in_runs)
    if tiebreak_ace not in (0, 1):
        raise ValueError(f"tiebreak_ace must be 0 (high) or 1 (low), got {tiebreak_ace}")
    out = ffi.new("cc_nt_split *")
    check(int(lib.cc_notakers_best_split(m, ace_in_runs, tiebreak_ace, out)), "notakers_best_split")
    sets = [out.sets[i] for i in range(out.nsets)]
    return int(out.points), [
        (int(s.kind), int(s.cards), int(s.points), int(s.position), int(s.top), int(s.suit))
        for s in sets
    ]


def batch_notakers_points(arr: Any, ace_in_runs: int) -> Any:
    """``notakers_points`` of each set of a 1-D uint64 array; int32 out."""
    a = u64_array(arr, "arr")
    _ace(ace_in_runs)
    out = np.zeros(a.shape[0], dtype=np.int32)
    if a.shape[0] == 0:
        return out
    bad = ffi.new("int64_t *", -1)
    rc = int(
        lib.cc_batch_notakers_points(
            ffi.from_buffer("uint64_t[]", a),
            a.shape[0],
            ace_in_runs,
            ffi.from_buffer("int32_t[]", out),
            bad,
        )
    )
    if rc == lib.CC_E_CARDS:
        raise ValueError(
            f"arr[{bad[0]}]: card set {int(a[bad[0]]):#x} has bits outside the 52-card deck"
        )
    check(rc, "batch_notakers_points")
    return out


def notakers_knowledge(state: Any, player: int) -> tuple[list[int], list[int], list[int]]:
    """What ``player`` knows of the other seats' cards in a No Takers? state:
    (in_hand, held, not_in_hand), each a list of 52-card bitsets by seat."""
    from .core import GameState

    if not isinstance(state, GameState) or ffi.string(state._g.name) != b"notakers":
        raise ValueError("notakers_knowledge needs a No Takers? state")
    n = state.nplayers
    if not 0 <= player < n:
        raise ValueError(f"player {player} out of range 0..{n - 1}")
    out = ffi.new("uint64_t[24]")
    check(int(lib.cc_notakers_knowledge(state._buf, player, out)), "notakers_knowledge")
    return (
        [int(out[q]) for q in range(n)],
        [int(out[8 + q]) for q in range(n)],
        [int(out[16 + q]) for q in range(n)],
    )
