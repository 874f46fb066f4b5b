"""Positions for the search benchmarks: random play from a seeded deal to a
seeded random point of the game, keeping only decisions with 2+ legal actions."""

from __future__ import annotations

import random
from typing import Any

from _games import GAMES as REGISTRY

from pycards.game import State, load_game

#: The games of the ISMCTS speed targets: (engine name, players), from each
#: game's profile (``search_bench``).
GAMES = [
    (name, case.profile.search_bench[0])
    for name, case in REGISTRY.items()
    if case.profile.search_bench is not None
]
#: Their targets, simulations per second with random rollouts.
TARGETS = {
    name: case.profile.search_bench[1]
    for name, case in REGISTRY.items()
    if case.profile.search_bench is not None
}


def positions(name: str, nplayers: int, count: int, seed: int = 0) -> list[State[Any]]:
    """``count`` positions of ``name`` where the player to act has a choice."""
    game = load_game(name, num_players=nplayers)
    rng = random.Random(seed)
    out: list[State[Any]] = []
    deal = 0
    while len(out) < count:
        deal += 1
        moves = []
        state = game.new_initial_state(seed * 1_000_003 + deal)
        while not state.is_terminal:
            legal = state.legal_actions()
            moves.append(legal[rng.randrange(len(legal))])
            state.apply(moves[-1])
        stop = rng.randrange(len(moves))
        state = game.new_initial_state(seed * 1_000_003 + deal)
        for a in moves[:stop]:
            state.apply(a)
        if len(state.legal_actions()) > 1:
            out.append(state)
    return out
