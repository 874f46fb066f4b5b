"""Play loops that several tests share."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np

from cardcore import _core
from pycards.bots import RandomBot
from pycards.engine import game_info
from pycards.game import Game, State, load_game

__all__ = [
    "advance",
    "first_moves",
    "mixed_moves",
    "mixed_positions",
    "random_game",
    "random_moves",
    "rank_reward",
    "searcher",
]


def mixed_moves(state: State[Any], rng: random.Random) -> Iterator[State[Any]]:
    """``state`` before each move of the game played on from it to its end,
    each move the heuristic's or a random one (a coin of ``rng`` decides), so
    that the positions are varied.  The same object each time: clone what is
    kept; ``rng`` may be drawn from between two moves."""
    while not state.is_terminal:
        yield state
        if rng.random() < 0.5:
            action = state.engine_state.heuristic_action(rng.getrandbits(64))
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)


def mixed_positions(
    game: Game[Any, Any], seed: int, max_steps: int, every: int = 1
) -> list[State[Any]]:
    """States along a game of :func:`mixed_moves`, every ``every`` move of
    the first ``max_steps``."""
    rng = random.Random(seed)
    out = []
    for step, state in enumerate(mixed_moves(game.new_initial_state(seed), rng)):
        if step >= max_steps:
            break
        if step % every == 0:
            out.append(state.clone())
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


def random_game(
    name: str, players: int, preset: str | None, seed: int, steps: int | None, stacked: bool
) -> State[Any]:
    """Game ``name`` at ``players`` seats (with rules ``preset``, or the
    defaults) through :func:`random_moves`."""
    game = load_game(name, num_players=players)
    if preset is not None:
        game = load_game(name, getattr(game.RULES_TYPE, preset)(), players)
    return random_moves(game, seed, steps, stacked)


def random_moves(game: Game[Any, Any], seed: int, steps: int | None, stacked: bool) -> State[Any]:
    """``game`` dealt from ``seed`` (from a deck shuffled by ``seed`` when
    ``stacked`` and the game can stack one), then ``steps`` uniformly random
    actions (every one to the end when ``None``)."""
    deck = None
    if stacked and game_info(game.NAME).can_stack_deck:
        deck = list(range(game_info(game.NAME).deck_size))
        random.Random(seed).shuffle(deck)
    state = game.new_initial_state(seed, deck)
    rng = random.Random(seed ^ 0x5EED)
    n = 0
    while not state.is_terminal and (steps is None or n < steps):
        state.apply(rng.choice(state.legal_actions()))
        n += 1
    return state


def first_moves(name: str, seed: int, steps: int | None = None) -> State[Any]:
    """Game ``name`` (its defaults) dealt from ``seed``, then the first legal
    action at every turn, ``steps`` times (to the end when ``None``)."""
    state = load_game(name).new_initial_state(seed)
    n = 0
    while not state.is_terminal and (steps is None or n < steps):
        state.apply(state.legal_actions()[0])
        n += 1
    return state
