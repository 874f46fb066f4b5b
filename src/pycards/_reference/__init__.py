"""The pure-Python reference backend: the oracle of the differential tests.

Written for obviousness, never optimized, and sharing no code with the C
engine.  It exposes exactly the names of ``cardcore._core``.
"""

from .game import game_info, game_names, new_state, random_playouts
from .notakers import (
    batch_notakers_points,
    notakers_best_split,
    notakers_points,
    notakers_splits_exactly,
)
from .rng import rng_sequence, shuffled_deck

__all__ = [
    "batch_notakers_points",
    "game_info",
    "game_names",
    "new_state",
    "notakers_best_split",
    "notakers_points",
    "notakers_splits_exactly",
    "random_playouts",
    "rng_sequence",
    "shuffled_deck",
]
