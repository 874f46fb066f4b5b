"""The pure-Python reference backend: the oracle of the differential tests.

Written for obviousness, never optimized, and sharing no code with the C
engine.  It exposes exactly the names of ``cardcore._core``.
"""

from .game import game_info, game_names, new_state, random_playouts
from .nancy import (
    nancy_base_score,
    nancy_batch_legal_cards,
    nancy_batch_objectives,
    nancy_batch_trick_winner,
    nancy_legal_cards,
    nancy_objectives,
    nancy_settlement,
    nancy_trick_winner,
)
from .rng import rng_sequence, shuffled_deck

__all__ = [
    "game_info",
    "game_names",
    "nancy_base_score",
    "nancy_batch_legal_cards",
    "nancy_batch_objectives",
    "nancy_batch_trick_winner",
    "nancy_legal_cards",
    "nancy_objectives",
    "nancy_settlement",
    "nancy_trick_winner",
    "new_state",
    "random_playouts",
    "rng_sequence",
    "shuffled_deck",
]
