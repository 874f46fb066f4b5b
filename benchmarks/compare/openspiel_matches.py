"""OpenSpiel's search bots on the pycards games: its Python ``ISMCTSBot`` and
``MCTSBot`` and its C++ ``MCTSBot`` (random-rollout evaluators) against a
pycards random bot seated through :class:`pycards.envs.openspiel.PycardsBot`,
and OpenSpiel's Python ``ISMCTSBot`` against the pycards ISMCTS bot at the same
number of simulations; seats swapped every game.  Prints each bot's mean final
points and its opponent's, per game.

The C++ bot is asked through ``step_with_policy``, which keeps the GIL (its
``step`` binding releases it, and a Python game cannot run without it; see
docs/envs_openspiel.rst).  OpenSpiel's MCTS bots search the true state: they
see every hidden card, so they are not a fair opponent, only a working one.

Each game plays the short rules of its test profile (a turn cap, a single
deal, a low target; ``tests/profiles/<name>.py``, as in the tests) so that a
run stays within a couple of minutes.

Usage: ``python benchmarks/compare/openspiel_matches.py [games] [simulations]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import _here  # noqa: F401
import numpy as np
import pyspiel
from _games import GAMES
from open_spiel.python.algorithms import ismcts, mcts

from pycards.envs.openspiel import PycardsBot

#: every game, 2 players, at the short rules of its test profile
SETUPS: list[tuple[str, dict[str, Any]]] = [
    (f"pycards_{name}", {"players": 2, **case.profile.short_params}) for name, case in GAMES.items()
]


def play(game: Any, bots: list[Any]) -> list[float]:
    state = game.new_initial_state()
    for bot in bots:
        if isinstance(bot, PycardsBot):
            bot.restart_at(state)
        else:
            bot.restart()
    while not state.is_terminal():
        bot = bots[state.current_player()]
        if isinstance(bot, pyspiel.MCTSBot):
            action = bot.step_with_policy(state)[1]  # keeps the GIL
        else:
            action = bot.step(state)
        state.apply_action(action)
    result: list[float] = state.returns()
    return result


def pairing(game: Any, label: str, make: Callable[[int], Any], other: str, games: int) -> None:
    """``games`` games of an OpenSpiel bot (``make(seat)``) against the pycards
    bot ``other`` (a bot spec, seeded with the game number), seats swapped."""
    ours, theirs = [], []
    t0 = time.perf_counter()
    for g in range(games):
        seat = g % 2
        pycards_bot = PycardsBot(other, 1 - seat, seed=g)
        bot = make(seat)
        bots = [bot, pycards_bot] if seat == 0 else [pycards_bot, bot]
        r = play(game, bots)
        ours.append(r[seat])
        theirs.append(r[1 - seat])
    dt = time.perf_counter() - t0
    print(
        f"{game.get_type().short_name:17} {label:8} {np.mean(ours):7.2f}  vs {other:24} "
        f"{np.mean(theirs):7.2f}  ({dt:.1f} s)",
        flush=True,
    )


def run_game(name: str, params: dict[str, Any], games: int, sims: int) -> None:
    """Every pairing on one game."""
    game = pyspiel.load_game(name, params)
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    cpp_evaluator = pyspiel.RandomRolloutEvaluator(1, 0)

    def python_ismcts(seat: int) -> Any:
        return ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=rs)

    def python_mcts(seat: int) -> Any:
        return mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=rs)

    def cpp_mcts(seat: int) -> Any:
        return pyspiel.MCTSBot(game, cpp_evaluator, 2.0, sims, 256, False, seat, False)

    for label, make in (("ISMCTS", python_ismcts), ("MCTS", python_mcts), ("C++ MCTS", cpp_mcts)):
        pairing(game, label, make, "random", games)
    pairing(game, "ISMCTS", python_ismcts, f"ismcts:simulations={sims}", games)


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    sims = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    print(
        f"{games} games per pairing, {sims} simulations per move, seats swapped each game; "
        "mean final points of each side"
    )
    for name, params in SETUPS:
        run_game(name, params, games, sims)
    return 0


if __name__ == "__main__":
    sys.exit(main())
