"""No Takers?: throughput of the C engine against the reference oracle and
OpenSpiel's go_fish, all measured in this run.

The oracle deals only from a given deck: its random playouts take, for game
``seed + i``, the deck the engine deals for that seed (``shuffled_deck``) and
choose actions with the engine's generator as ``random_playouts`` does, so it
plays the native loop's very games (checked: the step counts must agree).

Usage: ``python benchmarks/compare/compare_notakers.py [--quick]``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import _here  # noqa: F401
import numpy as np
import reference as ref
from _timing import QUICK, best_time
from reference.rng import Rng

from cardcore import _core as c_core
from pycards.games.notakers import NoTakersGame

FULL = 0x1FFF1FFF1FFF1FFF


def cpu_timed(fn: Callable[[], object], repeat: int = 5) -> float:
    """Best CPU time of this process (single-threaded work; robust on a shared machine)."""
    return best_time(fn, repeat, time.process_time)


def hands(k: int, n: int) -> np.ndarray:
    rng = random.Random(k)
    return np.array(
        [sum(1 << (16 * (c // 13) + c % 13) for c in rng.sample(range(52), k)) for _ in range(n)],
        dtype=np.uint64,
    )


def split_section() -> None:
    n = 20000 if QUICK else 200000
    h13 = hands(13, n)
    decks = np.full(n // 20, FULL, dtype=np.uint64)
    print("best split points, batch (GIL released), per hand, wall time (CPU time):")
    for ace, name in enumerate(("low", "high", "both")):
        t13 = best_time(lambda a=ace: c_core.notakers_batch_points(h13, a)) / n
        c13 = cpu_timed(lambda a=ace: c_core.notakers_batch_points(h13, a)) / n
        tfull = best_time(lambda a=ace: c_core.notakers_batch_points(decks, a)) / len(decks)
        cfull = cpu_timed(lambda a=ace: c_core.notakers_batch_points(decks, a)) / len(decks)
        line = f"  ace_in_runs={name:5s} 13 cards {t13 * 1e9:6.1f} ns ({c13 * 1e9:6.1f})"
        print(f"{line}   whole deck {tfull * 1e6:7.2f} us ({cfull * 1e6:7.2f})")
    print("  targets: 13 cards <= 150 ns, whole deck <= 10 us")
    m = 200 if QUICK else 1000
    small = [int(h) for h in h13[:m]]
    tc = best_time(lambda: [c_core.notakers_best_split(h, 0, 0) for h in small], 3) / m
    tr = best_time(lambda: [ref.notakers_best_split(h, 0, 0) for h in small], 1) / m
    tdeck = best_time(lambda: c_core.notakers_best_split(FULL, 0, 0), 3)
    print("best split with sets and key (scalar, through Python):")
    print(
        f"  13 cards: C {tc * 1e6:8.2f} us   reference {tr * 1e6:9.1f} us   ratio {tr / tc:7.0f}x"
    )
    print(f"  whole deck: C {tdeck * 1e6:8.1f} us (exhaustive reference: out of reach)")


def reference_playouts(params: tuple[int, ...], players: int, seed: int, games: int) -> int:
    """The oracle's random playouts of games ``seed .. seed + games - 1``, each
    dealt from the deck the engine deals for its seed; returns the steps."""
    rng = Rng(seed ^ 0xA5A5A5A5A5A5A5A5)  # the action chooser of random_playouts
    steps = 0
    for i in range(games):
        deck = c_core.shuffled_deck(seed + i, 52)
        state = ref.new_state("notakers", params, players, seed + i, deck=deck)
        while state.current_player() >= 0:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            steps += 1
    return steps


def python_api_playouts(players: int, games: int) -> tuple[float, int]:
    game = NoTakersGame(num_players=players)
    rng = random.Random(0)
    steps = 0
    t = time.perf_counter()
    for seed in range(games):
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return time.perf_counter() - t, steps


def openspiel_go_fish(games: int) -> tuple[float, int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("go_fish")
    rng = random.Random(0)
    steps = 0
    t = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return time.perf_counter() - t, steps


def playout_section() -> None:
    print("random playouts (uniform legal actions):")
    for players in (2, 4):
        native_games = 200 if QUICK else 2000
        tn = best_time(
            lambda p=players, g=native_games: c_core.random_playouts("notakers", (0,) * 7, p, 1, g),
            3,
        )
        steps_n, _ = c_core.random_playouts("notakers", (0,) * 7, players, 1, native_games)
        rg = 5 if QUICK else 20
        t = time.perf_counter()
        steps_r = reference_playouts((0,) * 7, players, 1, rg)
        tr = time.perf_counter() - t
        steps_c, _ = c_core.random_playouts("notakers", (0,) * 7, players, 1, rg)
        if steps_r != steps_c:
            raise SystemExit(f"the oracle played {steps_r} steps, the engine {steps_c}")
        ag = 5 if QUICK else 20
        ta, steps_a = python_api_playouts(players, ag)
        print(
            f"  {players} players: native {native_games / tn:9.0f} games/s "
            f"({steps_n / tn / 1e6:5.2f} M steps/s, {steps_n / native_games:6.0f} steps/game); "
            f"Python API {ag / ta:7.1f} games/s ({steps_a / ta / 1e3:6.1f} k steps/s); "
            f"reference {rg / tr:6.1f} games/s; native/API {(native_games / tn) / (ag / ta):6.0f}x"
        )
    go = openspiel_go_fish(50 if QUICK else 500)
    if go is None:
        print("  OpenSpiel go_fish: pyspiel not importable, skipped")
    else:
        tg, steps_g = go
        games = 50 if QUICK else 500
        print(
            f"  OpenSpiel go_fish (2 players, Python API incl. chance nodes): "
            f"{games / tg:7.1f} games/s ({steps_g / tg / 1e3:6.1f} k steps/s, "
            f"{steps_g / games:5.0f} steps/game)"
        )


if __name__ == "__main__":
    split_section()
    playout_section()
