"""The generic state API's per-call costs, for every game: ``observation()``
(typed, decoded from the tensor's segments), ``observation_tensor()``, and
``clone()`` (Python ``State`` and the engine's ``GameState``), measured on
random positions of random games.  Targets (issue "One engine, one binding,
one convention"): observation <= 10 us, No Takers clone <= 1 us.

Usage: ``PYTHONPATH=src python benchmarks/compare_state.py [--quick]``.
"""

from __future__ import annotations

import random
import sys
import timeit
from typing import Any

from pycards.game import State, game_names, load_game

QUICK = "--quick" in sys.argv


def positions(name: str, players: int, count: int) -> list[State[Any]]:
    """``count`` states at random points of random games."""
    game = load_game(name, num_players=players)
    rng = random.Random(1)
    out = []
    seed = 0
    while len(out) < count:
        state = game.new_initial_state(seed)
        seed += 1
        stop = rng.randint(0, 300)
        k = 0
        while not state.is_terminal and k < stop:
            state.apply(rng.choice(state.legal_actions()))
            k += 1
        if not state.is_terminal:
            out.append(state)
    return out


def per_call(fn: Any, states: list[State[Any]]) -> float:
    """Median over 5 runs of the mean time per call, in microseconds (each result
    is dropped at once, as a search loop drops its clones)."""
    number = 1 if QUICK else 5

    def run() -> None:
        for s in states:
            fn(s)

    run()  # warm-up
    runs = timeit.repeat(run, number=number, repeat=5)
    runs.sort()
    return runs[2] / number / len(states) * 1e6


def main() -> int:
    count = 50 if QUICK else 200
    print(f"{'game':10} {'players':>7} {'observation':>12} {'tensor':>8} "
          f"{'State.clone':>12} {'engine clone':>13} {'used bytes':>11} {'state size':>11}")
    for name in game_names():
        game = load_game(name)
        info = game.info
        for players in sorted({info["min_players"], min(4, info["max_players"])}):
            states = positions(name, players, count)
            obs = per_call(lambda s: s.observation(s.current_player), states)
            tensor = per_call(lambda s: s.observation_tensor(s.current_player), states)
            clone = per_call(lambda s: s.clone(), states)
            engine = per_call(lambda s: s._s.clone(), states)
            used = sum(len(s._s.raw()) for s in states) // len(states)
            print(f"{name:10} {players:7d} {obs:9.2f} us {tensor:5.2f} us {clone:9.2f} us "
                  f"{engine:10.2f} us {used:11,d} {info['state_size']:11,d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
