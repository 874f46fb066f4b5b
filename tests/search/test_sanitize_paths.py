"""The search and sampler paths of every registered game, small and quick.

Written for the sanitizer build (``.ci/sanitize`` runs this file under
AddressSanitizer and UBSan at -O0): every game, every player count, the
default rules and every preset, one seeded game played to its end, and at
each of a few of its turns the information-set sampler drawn many times and
the native bots (the heuristic, PIMC and ISMCTS with both rollouts) asked
for a move with a small budget.  In the normal build the same calls check
the plain promises: a sample looks the same to its player, a bot's move is
legal.  A sanitizer report fails the sanitizer job whatever this file asserts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardcore import _core
from pycards.bots import make_bot
from pycards.game import Game, State, game_names, load_game

#: the bots, with budgets small enough for the sanitizer build
BOTS = (
    "heuristic",
    "pimc:simulations=24:samples=3",
    "pimc:simulations=24:samples=3:rollout=heuristic",
    "ismcts:simulations=24",
    "ismcts:simulations=24:rollout=heuristic",
)
#: turns played for each game, player count and rules (whole games, the
#: last one cut off there): short games are played many times over
TURNS = 500
#: the bots are asked at every BOT_EVERY-th turn (the sampler at every turn)
BOT_EVERY = 50


def _cases() -> list[tuple[str, int, str]]:
    cases = []
    for name in game_names():
        info = _core.game_info(name)
        presets = ["default", *load_game(name).RULES_TYPE.PRESETS]
        for n in range(info["min_players"], info["max_players"] + 1):
            for preset in presets:
                cases.append((name, n, preset))
    return cases


def _game(name: str, players: int, preset: str) -> Game[Any, Any] | None:
    cls = load_game(name).RULES_TYPE
    rules = cls() if preset == "default" else getattr(cls, preset)()
    try:
        return load_game(name, rules=rules, num_players=players)
    except ValueError:  # a preset made for other player counts
        return None


def _bots(state: State[Any], seed: int) -> None:
    """Every bot at the seat to act."""
    view = state.view(state.current_player)
    for spec in BOTS:
        bot = make_bot(spec, seed=seed)
        assert bot.act(view) in state.legal_actions(), spec


def _samples(state: State[Any], seed: int, turn: int) -> None:
    """A sample for the seat to act and for one other seat in turn (each
    seat's own view unchanged in it)."""
    n = state.num_players
    for p in {state.current_player, turn % n}:
        sample = state.sample_infoset(p, seed + p)
        assert sample.current_player == state.current_player
        assert sample.observation_tensor(p).tobytes() == state.observation_tensor(p).tobytes()


@pytest.mark.parametrize(("name", "players", "preset"), _cases())
def test_sampler_and_bots_along_games(name: str, players: int, preset: str) -> None:
    game = _game(name, players, preset)
    if game is None:
        pytest.skip(f"{name} {preset}: not for {players} players")
    base = sum(map(ord, f"{name}{players}{preset}")) * 1000
    turn = 0
    for seed in range(base, base + TURNS):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal and turn < TURNS:
            _samples(state, seed * 4096 + turn * 8, turn)
            if turn % BOT_EVERY == 0:
                _bots(state, seed + turn)
            state.apply(rng.choice(state.legal_actions()))
            turn += 1
        if turn >= TURNS:
            break
