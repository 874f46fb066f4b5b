"""Learner steps per second of the vector environment (``pycards.envs.vector``)
for every game, with 1 and 2 threads, next to a Python loop over the state API
doing the same work, and, when ``pyspiel`` is installed, OpenSpiel's own
vectorized environment and state loop on its hearts (a trick-taking card
game; its games of the fifteen-two family have no tensors for
``rl_environment``), measured in the same run.

One learner step: the learner's action (uniformly random among the legal
ones), the other seats' moves until the learner is to act again (uniformly
random), a new game when one ends, and the learner's observation tensor and
legal-action mask.  The vector steps N games per call (the learner's random
actions drawn by ``VectorEnv.random_actions``, inside the timing); the Python loop
steps N ``State`` objects one by one with ``random.choice``.  OpenSpiel's
``SyncVectorEnv`` over ``rl_environment.Environment`` steps every seat (its
environment has no built-in opponents), so each of its steps is one move; its
state loop applies random moves with the observation tensor of the player
to act (hearts has an information-state tensor, no observation tensor).
Each game is timed in 7 rounds after 3 warm-up rounds, in CPU time of the
process (``time.process_time``: steadier than wall-clock time on a shared
machine), except the vector with 2 threads, timed in wall-clock time (its CPU
time counts both threads).  The three runs of a game take turns within each
round (vector 1 thread, vector 2 threads, Python loop), and each ratio is the
median of the rounds' own ratios: the machine's speed drifts by more than a
third from one second to the next (a virtual machine's share of its host), and
the interpreter gains more from a fast spell than the vector, whose step is
partly bound by memory (it writes 256 observation rows per call), so a "best of"
taken on each side apart would set the Python loop's best spell against the
vector's.  Rates are the medians of the rounds.  Target: the vector at least 10 times the
Python loop for every game, with 1 and with 2 threads.  ``count_vecenv.py``
counts instructions instead.

Usage: ``python benchmarks/compare/compare_vecenv.py [--quick]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import _here  # noqa: F401
from _games import GAMES as REGISTERED
from _timing import QUICK, rate_once

from pycards.envs.vector import VectorEnv
from pycards.game import load_game

#: every registered game at each table its profile gives the speed benchmarks
#: (``bench_tables`` in ``tests/profiles``: the player counts the docs quote)
GAMES = [(name, n) for name, case in REGISTERED.items() for n in sorted(case.bench_tables)]
NUM_ENVS = 256
ROUNDS = 7
WARM_UP = 3


def best_rate(
    run: Callable[[], int], repeat: int = 3, clock: Callable[[], float] = time.process_time
) -> float:
    """Steps per second: the best of ``repeat`` runs (each returns its step count)."""
    run()  # warm-up
    best = 0.0
    for _ in range(repeat):
        best = max(best, rate_once(run, clock))
    return best


def vector_run(name: str, players: int, threads: int, calls: int) -> tuple[Callable[[], int], int]:
    """A run of ``calls`` steps of a vector, and its bytes per game."""
    venv = VectorEnv(name, NUM_ENVS, players, seed=1, threads=threads)

    def run() -> int:
        for _ in range(calls):
            venv.step(venv.random_actions())
        return calls * NUM_ENVS

    return run, venv.bytes_per_game


def python_run(name: str, players: int, steps: int) -> Callable[[], int]:
    """The same work over pycards.game.State, one game at a time."""
    game = load_game(name, None, players)
    rng = random.Random(0)
    seeds = iter(range(1 << 62))
    learner = 0

    def fresh() -> Any:
        while True:
            s = game.new_initial_state(next(seeds))
            advance(s)
            if s.current_player == learner:
                return s

    def advance(s: Any) -> None:
        while not s.is_terminal and s.current_player != learner:
            s.apply(rng.choice(s.legal_actions()))

    states = [fresh() for _ in range(16)]

    def run() -> int:
        done = 0
        while done < steps:
            for i, s in enumerate(states):
                s.apply(rng.choice(s.legal_actions()))
                advance(s)
                if s.is_terminal:
                    s = states[i] = fresh()
                s.observation_tensor(learner)
                s.legal_action_mask()
                done += 1
        return done

    return run


@dataclass
class GameRates:
    """Learner steps per second of one game: the median over the rounds of
    each run, and the median over the rounds of each round's ratios."""

    one: float
    two: float
    python: float
    one_ratio: float
    two_ratio: float
    bytes_per_game: int


def game_rates(name: str, players: int, calls: int, steps: int) -> GameRates:
    """Vector with 1 and 2 threads and the Python loop, taking turns in each
    of ROUNDS rounds after WARM_UP warm-up rounds."""
    one, size = vector_run(name, players, 1, calls)
    two, _ = vector_run(name, players, 2, calls)
    py = python_run(name, players, steps)
    runs = [(one, time.process_time), (two, time.perf_counter), (py, time.process_time)]
    for _ in range(WARM_UP):
        for run, _ in runs:
            run()
    rounds = [[rate_once(run, clock) for run, clock in runs] for _ in range(ROUNDS)]
    a, b, c = (statistics.median(r[k] for r in rounds) for k in range(3))
    one_ratio = statistics.median(r[0] / r[2] for r in rounds)
    two_ratio = statistics.median(r[1] / r[2] for r in rounds)
    return GameRates(a, b, c, one_ratio, two_ratio, size)


def openspiel_rates(steps: int) -> tuple[float, float] | None:
    """OpenSpiel's hearts: SyncVectorEnv steps/s and a pyspiel state loop's."""
    try:
        import pyspiel
        from open_spiel.python import rl_environment
        from open_spiel.python.rl_agent import StepOutput
        from open_spiel.python.vector_env import SyncVectorEnv
    except ImportError:
        return None
    rng = random.Random(0)
    envs = SyncVectorEnv(
        [
            rl_environment.Environment(
                "hearts",
                observation_type=rl_environment.ObservationType.INFORMATION_STATE,
                chance_event_sampler=rl_environment.ChanceEventSampler(seed=i),
            )
            for i in range(16)
        ]
    )

    def run_vector() -> int:
        time_steps = envs.reset()
        done = 0
        while done < steps:
            outs = []
            for ts in time_steps:
                p = ts.observations["current_player"]
                legal = ts.observations["legal_actions"][p]
                outs.append(StepOutput(action=rng.choice(legal), probs=None))
            time_steps, _, _, _ = envs.step(outs, reset_if_done=True)
            done += len(outs)
        return done

    game = pyspiel.load_game("hearts")

    def run_loop() -> int:
        done = 0
        state = game.new_initial_state()
        while done < steps:
            if state.is_terminal():
                state = game.new_initial_state()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
                continue
            p = state.current_player()
            state.information_state_tensor(p)
            state.apply_action(rng.choice(state.legal_actions(p)))
            done += 1
        return done

    return best_rate(run_vector), best_rate(run_loop)


def main() -> int:
    calls = 10 if QUICK else 100
    py_steps = 400 if QUICK else 5000
    print(
        f"vector of {NUM_ENVS} games; learner steps per second (medians of {ROUNDS} rounds; "
        "CPU time, 2 threads wall-clock); ratios: medians of each round's ratios"
    )
    print(
        f"{'game':9} {'players':>7} {'vector 1t':>11} {'vector 2t':>11} {'python':>9} "
        f"{'1t/py':>6} {'2t/py':>6} {'bytes/game':>10}"
    )
    worst = float("inf")
    for name, players in GAMES:
        g = game_rates(name, players, calls, py_steps)
        worst = min(worst, g.one_ratio, g.two_ratio)
        print(
            f"{name:9} {players:7d} {g.one:11,.0f} {g.two:11,.0f} {g.python:9,.0f} "
            f"{g.one_ratio:6.1f} {g.two_ratio:6.1f} {g.bytes_per_game:10,d}",
            flush=True,
        )
    peers = openspiel_rates(py_steps)
    if peers is None:
        print("OpenSpiel: pyspiel not installed, no peer figures")
    else:
        vec, loop = peers
        print(
            f"OpenSpiel hearts, 4 players, moves per second: SyncVectorEnv of 16 "
            f"{vec:,.0f}, pyspiel state loop {loop:,.0f}"
        )
    print(f"lowest ratio vector (1 or 2 threads) / Python loop: {worst:.1f} (target >= 10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
