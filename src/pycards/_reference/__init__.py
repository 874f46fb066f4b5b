"""The pure-Python reference backend: the oracle of the differential tests.

Written for obviousness, never optimized, and sharing no code with the C
engine.  It exposes exactly the names of ``cardcore._core``.
"""

from .game import game_info, game_names, new_state, random_playouts
from .nodde import (
    nodde_batch_score_hand,
    nodde_hand_distribution,
    nodde_score_hand,
    nodde_score_play,
)
from .rng import rng_sequence, shuffled_deck

__all__ = [
    "game_info",
    "game_names",
    "new_state",
    "nodde_batch_score_hand",
    "nodde_hand_distribution",
    "nodde_score_hand",
    "nodde_score_play",
    "random_playouts",
    "rng_sequence",
    "shuffled_deck",
]
