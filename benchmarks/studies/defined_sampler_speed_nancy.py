"""The defined games' information-set sampler and ISMCTS, against the
Game of Nancy in the same run (issue 33: a defined game at >= 50% of a
hand-written game's ISMCTS simulations a second).

Prints, for Hearts as defined (:data:`pycards.define.HEARTS`, 4 players):
the cost of one ``sample_infoset`` at 0 actions and at 40 actions (``--at``;
random play, positions where some other seat has shown a void), then the ISMCTS
simulations a second of Hearts and of the Game of Nancy (4 players) from
positions of random play, with the horizon the whole game and the deal,
and their ratio.

Usage: ``python benchmarks/studies/defined_sampler_speed_nancy.py
[--simulations N] [--positions K] [--samples M] [--at 0,40]``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import _here  # noqa: F401

from pycards.bots import make_bot
from pycards.define import HEARTS
from pycards.game import load_game

_PLAY = 6  # the defined games' event kind of a card played


def _walk(game: Any, seed: int, steps: int) -> Any:
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def _shows_void(state: Any) -> bool:
    """Has a seat other than the one to act failed to follow suit?"""
    led, plays, p = -1, 0, state.current_player
    for kind, player, _, value, _, _ in state.engine_state.events():
        if kind == _PLAY:
            if plays % 4 == 0:
                led = value // 13
            elif value // 13 != led and player != p:
                return True
            plays += 1
    return False


def _sample_cost(game: Any, steps: int, samples: int) -> float:
    """Microseconds per sample_infoset over positions after `steps` actions
    (with a void shown, if steps > 0)."""
    states = []
    seed = 0
    while len(states) < 8:
        state = _walk(game, seed, steps)
        seed += 1
        if not state.is_terminal and (steps == 0 or _shows_void(state)):
            states.append(state)
    engines = [s.engine_state for s in states]
    players = [s.current_player for s in states]
    start = time.perf_counter()
    for i in range(samples):
        k = i % len(engines)
        engines[k].sample_infoset(players[k], i)
    return (time.perf_counter() - start) / samples * 1e6


def _sims_per_second(game: Any, horizon: str, simulations: int, positions: int) -> float:
    spec = f"ismcts:simulations={simulations}:horizon={horizon}"
    bot = make_bot(spec, 0)
    states = [_walk(game, seed, 16 + 3 * (seed % 10)) for seed in range(positions)]
    states = [s for s in states if not s.is_terminal]
    bot.reset(0)
    start = time.perf_counter()
    for s in states:
        bot.act(s.view(s.current_player))
    return simulations * len(states) / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--simulations", type=int, default=1000)
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--samples", type=int, default=20000)
    ap.add_argument("--at", default="0,40", help="actions before the sampled positions")
    args = ap.parse_args()
    hearts = HEARTS.register(listed=False)(num_players=4)
    nancy = load_game("nancy", num_players=4)
    for steps in (int(a) for a in args.at.split(",")):
        cost = _sample_cost(hearts, steps, args.samples)
        print(f"hearts (defined) sample_infoset at {steps} actions: {cost:.2f} us")
    for horizon in ("game", "deal") if args.positions > 0 else ():
        h = _sims_per_second(hearts, horizon, args.simulations, args.positions)
        n = _sims_per_second(nancy, horizon, args.simulations, args.positions)
        print(
            f"ismcts horizon={horizon}: hearts {h:,.0f} sims/s, nancy {n:,.0f} sims/s,"
            f" ratio {h / n:.0%}"
        )


if __name__ == "__main__":
    main()
