"""The generic state API's per-call costs, for every game: ``observation()``
(typed, decoded from the tensor's segments), ``observation_tensor()``,
``clone()`` (Python ``State`` and the engine's ``GameState``) and
``sample_infoset()`` (Python ``State`` and the engine's ``GameState``), measured
on random positions of random games.  Each sample is drawn for the player to
act (the seat a search bot samples for), with a fresh seed per call.

Targets: observation <= 10 us and No Takers clone <= 1 us (issue "One engine,
one binding, one convention"); per sample, each game's profile
(``tests/profiles/<name>.py``, ``sampler_bench``).

Usage: ``python benchmarks/compare/compare_state.py [--quick]``.
"""

from __future__ import annotations

import itertools
import random
import timeit
from typing import Any

import _here  # noqa: F401
from _games import GAMES
from _timing import QUICK

from pycards.game import State, game_names, load_game


def positions(name: str, players: int, count: int, rules: Any = None) -> list[State[Any]]:
    """``count`` states at random points of random games."""
    game = load_game(name, rules, num_players=players)
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


def per_call(fn: Any, states: list[State[Any]], number: int | None = None) -> float:
    """Median over 5 runs of the mean time per call, in microseconds (each result
    is dropped at once, as a search loop drops its clones)."""
    if number is None:
        number = 1 if QUICK else 5

    def run() -> None:
        for s in states:
            fn(s)

    run()  # warm-up
    runs = timeit.repeat(run, number=number, repeat=5)
    runs.sort()
    return runs[2] / number / len(states) * 1e6


def samplers(states: list[State[Any]]) -> tuple[float, float]:
    """Per-call microseconds of ``State.sample_infoset`` and of the engine's
    ``GameState.sample_infoset`` for the player to act, a new seed each call."""
    seeds = itertools.count()
    api = per_call(lambda s: s.sample_infoset(s.current_player, next(seeds)), states, 1)
    engine = per_call(
        lambda s: s.engine_state.sample_infoset(s.current_player, next(seeds)), states, 1
    )
    return api, engine


def main() -> int:
    count = 50 if QUICK else 200
    print(
        f"{'game':10} {'players':>7} {'observation':>12} {'tensor':>8} "
        f"{'State.clone':>12} {'engine clone':>13} {'used bytes':>11} {'state size':>11}"
    )
    sampled: list[tuple[str, int, list[State[Any]]]] = []
    for name in game_names():
        game = load_game(name)
        info = game.info
        for players in sorted({info.min_players, min(4, info.max_players)}):
            states = positions(name, players, count)
            sampled.append((name, players, states))
            obs = per_call(lambda s: s.observation(s.current_player), states)
            tensor = per_call(lambda s: s.observation_tensor(s.current_player), states)
            clone = per_call(lambda s: s.clone(), states)
            engine = per_call(lambda s: s.engine_state.clone(), states)
            used = sum(len(s.engine_state.raw()) for s in states) // len(states)
            print(
                f"{name:10} {players:7d} {obs:9.2f} us {tensor:5.2f} us {clone:9.2f} us "
                f"{engine:10.2f} us {used:11,d} {info.state_size:11,d}"
            )
    print(f"\ninformation-set samples for the player to act ({count} random positions each):")
    print(
        f"{'game':10} {'players':>7} {'rules':>18} {'State.sample_infoset':>21} "
        f"{'engine sample':>14}"
    )
    cases = [(name, players, "defaults", states) for name, players, states in sampled]
    cases += [
        (name, players, label, positions(name, players, count, rules))
        for name, case in GAMES.items()
        for players, rules, label, _ in case.sampler_cases()
        if rules is not None
    ]
    for name, players, label, states in cases:
        api, engine = samplers(states)
        print(f"{name:10} {players:7d} {label:>18} {api:18.2f} us {engine:11.2f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
