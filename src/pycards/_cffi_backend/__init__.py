"""The cffi backend: ``cardcore._cffi`` (API mode) adapted to the backend names.

Selected with ``PYCARDS_BACKEND=cffi`` (for PyPy and embedders without Cython);
build the binding with ``PYCARDS_CFFI=1 pip install .`` or
``python src/cardcore/_cffi_build.py``.  Like the Cython layer it only converts
types, checks inputs and maps status codes; every rule stays in C.
"""

from __future__ import annotations

from ._common import ffi, lib
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
from .core import (
    GameState,
    game_info,
    game_names,
    new_state,
    random_playouts,
    rng_sequence,
    shuffled_deck,
)
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

__all__ = [
    "GameState",
    "batch_count_fifteens",
    "batch_count_pairs",
    "batch_hand_stats",
    "batch_longest_suit_run",
    "batch_notakers_points",
    "batch_run_score",
    "batch_suit_counts",
    "count_fifteens",
    "count_pairs",
    "ffi",
    "game_info",
    "game_names",
    "lib",
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
