"""Play loops that several tests share."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from cardcore import _core
from pycards.bots import RandomBot
from pycards.game import Game, State

__all__ = ["advance", "mixed_positions", "rank_reward", "searcher"]


def mixed_positions(
    game: Game[Any, Any], seed: int, max_steps: int, every: int = 1
) -> list[State[Any]]:
    """States along a game where each move is the heuristic's or a random
    one (a coin decides), so that the positions are varied."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    out = []
    for step in range(max_steps):
        if state.is_terminal:
            break
        if step % every == 0:
            out.append(state.clone())
        if rng.random() < 0.5:
            action = state._s.heuristic_action(rng.getrandbits(64))
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
    return out


def searcher(game: Game[Any, Any], kind: str, **kw: Any) -> _core.Searcher:
    """The engine's searcher of ``kind`` for ``game``."""
    return _core.Searcher(game._setup, kind, **kw)


def advance(game: Game[Any, Any], seed: int, steps: int) -> Any:
    """A position ``steps`` random actions into the game dealt from ``seed``
    (fewer if the game ends; never a finished one)."""
    state = game.new_initial_state(seed)
    bot = RandomBot(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        before = state.clone()
        state.apply(bot.act(state.view(state.current_player)))
        if state.is_terminal:
            return before
    return state


def rank_reward(ret: np.ndarray, seat: int) -> float:
    """The search's reward of a finished game for ``seat`` (docs/search.rst)."""
    others = np.delete(ret, seat)
    below = float((others < ret[seat]).sum())
    equal = float((others == ret[seat]).sum())
    return (below + 0.5 * equal) / len(others)
