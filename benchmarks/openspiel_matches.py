"""OpenSpiel's search bots on the pycards games: its Python ``ISMCTSBot`` and
``MCTSBot`` (random-rollout evaluator) against a pycards random bot seated
through :class:`pycards.envs.openspiel.PycardsBot`, seats swapped every game.
Prints each bot's mean final points and the random bot's, per game.

No Takers? is capped at a few turns and Nancy plays a single deal (as in the
tests) so that a run stays within a couple of minutes.

Usage: ``PYTHONPATH=src python benchmarks/openspiel_matches.py [games] [simulations]``.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from pycards.envs.openspiel import PycardsBot

SETUPS: list[tuple[str, dict[str, Any]]] = [
    ("pycards_nodde", {"players": 2}),
    ("pycards_notakers", {"players": 2, "max_turns": 6}),
    ("pycards_nancy", {"players": 2, "match_rounds": 1}),
]


def play(game: Any, bots: list[Any]) -> list[float]:
    state = game.new_initial_state()
    for bot in bots:
        if not isinstance(bot, PycardsBot):
            bot.restart()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    result: list[float] = state.returns()
    return result


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    sims = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    print(f"{games} games per pairing, {sims} simulations per move, seats swapped each game")
    for name, params in SETUPS:
        game = pyspiel.load_game(name, params)
        rs = np.random.RandomState(0)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        searchers = {
            "ISMCTS": ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=rs),
            "MCTS": mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=rs),
        }
        for label, bot in searchers.items():
            ours, theirs = [], []
            t0 = time.perf_counter()
            for g in range(games):
                seat = g % 2
                rand = PycardsBot("random", 1 - seat, seed=g)
                bots = [bot, rand] if seat == 0 else [rand, bot]
                r = play(game, bots)
                ours.append(r[seat])
                theirs.append(r[1 - seat])
            dt = time.perf_counter() - t0
            print(
                f"{name:17} {label:6} mean points {np.mean(ours):7.2f}  "
                f"random {np.mean(theirs):7.2f}  ({dt:.1f} s)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
