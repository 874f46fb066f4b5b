"""The pure-Python reference backend: the oracle of the differential tests.

Written for obviousness, never optimized, and sharing no code with the C
engine.  It exposes exactly the names of ``cardcore._core``.
"""

from . import cribbage as cribbage  # registers the game's oracle
from .combos import (
    batch_count_fifteens,
    batch_count_pairs,
    batch_hand_stats,
    batch_longest_suit_run,
    batch_run_score,
    batch_suit_counts,
    count_fifteens,
    count_pairs,
    longest_suit_run,
    random_hands,
    rank_counts,
    runs,
    suit_counts,
)
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
from .nodde import (
    nodde_batch_score_hand,
    nodde_hand_distribution,
    nodde_score_hand,
    nodde_score_play,
)
from .notakers import (
    batch_notakers_points,
    notakers_best_split,
    notakers_knowledge,
    notakers_points,
    notakers_splits_exactly,
)
from .rng import rng_sequence, shuffled_deck

__all__ = [
    "batch_count_fifteens",
    "batch_count_pairs",
    "batch_hand_stats",
    "batch_longest_suit_run",
    "batch_notakers_points",
    "batch_run_score",
    "batch_suit_counts",
    "count_fifteens",
    "count_pairs",
    "cribbage",
    "game_info",
    "game_names",
    "longest_suit_run",
    "nancy_base_score",
    "nancy_batch_legal_cards",
    "nancy_batch_objectives",
    "nancy_batch_trick_winner",
    "nancy_legal_cards",
    "nancy_objectives",
    "nancy_settlement",
    "nancy_trick_winner",
    "new_state",
    "nodde_batch_score_hand",
    "nodde_hand_distribution",
    "nodde_score_hand",
    "nodde_score_play",
    "notakers_best_split",
    "notakers_knowledge",
    "notakers_points",
    "notakers_splits_exactly",
    "random_hands",
    "random_playouts",
    "rank_counts",
    "rng_sequence",
    "runs",
    "shuffled_deck",
    "suit_counts",
]
