"""The cffi backend: ``cardcore._cffi`` (API mode) adapted to the backend names.

Selected with ``PYCARDS_BACKEND=cffi`` (for PyPy and embedders without Cython);
build the binding with ``PYCARDS_CFFI=1 pip install .`` or
``python src/cardcore/_cffi_build.py``.  Like the Cython layer it only converts
types, checks inputs and maps status codes; every rule stays in C.
"""

from __future__ import annotations

from ._common import ffi, lib
from .core import (
    GameState,
    from_raw,
    game_info,
    game_names,
    new_state,
    random_playouts,
    rng_sequence,
    shuffled_deck,
)
from .notakers import (
    batch_notakers_points,
    notakers_best_split,
    notakers_points,
    notakers_splits_exactly,
)

__all__ = [
    "GameState",
    "batch_notakers_points",
    "ffi",
    "from_raw",
    "game_info",
    "game_names",
    "lib",
    "new_state",
    "notakers_best_split",
    "notakers_points",
    "notakers_splits_exactly",
    "random_playouts",
    "rng_sequence",
    "shuffled_deck",
]
