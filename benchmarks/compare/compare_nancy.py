"""Game of Nancy throughput, with ratios against the reference oracle and OpenSpiel's tarok.

Measured in one run on this machine:

* random playouts through the Python API (``pycards.games.nancy`` states, one
  ``legal_actions()`` + ``apply()`` per step), 3 and 4 players;
* native random playouts (``random_playouts``, the C loop), 3 and 4 players;
* random playouts of the pure-Python reference (the test oracle in
  ``tests/reference``) under the same rules, with the same action-choice
  generator; the oracle shuffles its own decks (Python's ``random``), so it
  plays games of the same distribution, not the engine's very games;
* batch legal-card masks per second (``batch_legal_cards``);
* information-set samples per second (``sample_infoset``) in the C engine,
  4 and 6 players, with the default 6 face-up cards each and with none
  (``face_up_count=0``: more unknown cards, larger count tables), over whole
  passes of the same 200 states (50 with ``--quick``) taken at random from
  random single-deal games (4 per game), each sampled for a random seat.
  The oracle has no sampler (the tests check the engine's by exact counts and
  chi-square tests), so there is no reference figure for it;
* OpenSpiel's ``tarok`` (3 and 4 players) through pyspiel, random legal
  actions, with bids restricted to contracts that play every trick (no
  beggar or valat contracts, which can end early), when pyspiel is importable.

A "step" is one player decision (chance outcomes are not counted; for tarok
they are reported apart).  Usage: ``python benchmarks/compare/compare_nancy.py [--quick]``.
"""

from __future__ import annotations

import random
import time
from typing import Any

import _here  # noqa: F401
import numpy as np
import reference as _reference
from _timing import QUICK
from _timing import rate as counts_per_second

from cardcore import _core
from pycards.games.nancy import NancyGame, NancyRules

BUDGET = 0.5 if QUICK else 2.0  # seconds per measurement
RULES = NancyRules()  # the rule book's defaults: matches of one deal per player
PARAMS = RULES.to_params()


def python_api(n: int) -> float:
    game = NancyGame(RULES, n)
    rng = random.Random(1)
    seed = [0]

    def one() -> int:
        state = game.new_initial_state(seed[0])
        seed[0] += 1
        choice = rng.choice
        steps = 0
        while not state.is_terminal:
            state.apply(choice(state.legal_actions()))
            steps += 1
        return steps

    return counts_per_second(one, BUDGET)


def native(n: int) -> float:
    seed = [0]

    def batch() -> int:
        steps, _ = _core.random_playouts("nancy", PARAMS, n, seed[0], 200)
        seed[0] += 200
        return int(steps)

    return counts_per_second(batch, BUDGET)


def reference(n: int) -> float:
    """The oracle's random playouts (its own shuffles, the engine's action chooser)."""
    seed = [0]

    def one() -> int:
        steps, _ = _reference.random_playouts("nancy", PARAMS, n, seed[0], 1)
        seed[0] += 1
        return int(steps)

    return counts_per_second(one, BUDGET)


def legal_masks() -> float:
    rng = np.random.default_rng(0)
    rows = 1 << 16
    holdings = np.zeros((rows, 2), dtype=np.uint64)
    tricks = np.full((rows, 3), -1, dtype=np.int8)
    for i in range(rows):
        deck = rng.permutation(78)
        for c in deck[:18]:
            c = int(c)
            if c < 56:
                holdings[i, 0] |= np.uint64(1 << (16 * (c // 14) + c % 14))
            else:
                holdings[i, 1] |= np.uint64(1 << (0 if c == 77 else c - 55))
        k = int(rng.integers(0, 4))
        tricks[i, :k] = deck[18 : 18 + k]

    def run() -> int:
        for _ in range(20):
            _core.nancy_batch_legal_cards(holdings, tricks)
        return 20 * rows

    return counts_per_second(run, BUDGET)


def infoset_states(n: int, face_up: int, count: int = 200) -> list[tuple[Any, int]]:
    """``count`` engine (state, observer) pairs: 4 states at random from each
    random single-deal game, each with a random seat."""
    params = NancyRules(face_up_count=face_up, match_rounds=1).to_params()
    rng = random.Random(n * 100 + face_up)
    out: list[tuple[Any, int]] = []
    game = 0
    while len(out) < count:
        state = _core.new_state("nancy", params, n, game)
        game += 1
        trajectory = []
        while state.current_player() >= 0:
            trajectory.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        out += [(s, rng.randrange(n)) for s in rng.sample(trajectory, 4)]
    return out[:count]


INFOSET_STATES = 50 if QUICK else 200


def infoset_samples(n: int, face_up: int) -> float:
    """Samples per second of the engine's ``sample_infoset`` over whole passes
    of infoset_states (at least one, so every state is sampled)."""
    states = infoset_states(n, face_up, INFOSET_STATES)
    passes = [0]

    def one_pass() -> int:
        for i, (state, player) in enumerate(states):
            state.sample_infoset(player, passes[0] * len(states) + i)
        passes[0] += 1
        return len(states)

    return counts_per_second(one_pass, BUDGET)


TAROK_EARLY_END = ("beggar", "valat")


def openspiel_tarok(n: int) -> tuple[float, float] | None:
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("tarok", {"players": n})
    rng = random.Random(1)
    chance_total = [0]

    def one() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                chance_total[0] += 1
                continue
            legal = state.legal_actions()
            if len(legal) < 12 and state.move_number() < 12:
                player = state.current_player()
                full = [
                    a
                    for a in legal
                    if not any(
                        w in state.action_to_string(player, a).lower() for w in TAROK_EARLY_END
                    )
                ]
                legal = full or legal
            state.apply_action(rng.choice(legal))
            steps += 1
        return steps

    start = time.perf_counter()
    steps_per_second = counts_per_second(one, BUDGET)
    elapsed = time.perf_counter() - start
    return steps_per_second, chance_total[0] / elapsed


def main() -> int:
    print(f"Game of Nancy, rules {RULES}")
    for n in (3, 4):
        api, nat, ref = python_api(n), native(n), reference(n)
        print(f"\n{n} players (a match of {n} deals):")
        print(f"  Python API        {api / 1e6:8.3f} M steps/s   ({api / ref:6.1f} x reference)")
        print(f"  native (C loop)   {nat / 1e6:8.3f} M steps/s   ({nat / ref:6.1f} x reference)")
        print(f"  reference         {ref / 1e6:8.3f} M steps/s")
        tarok = openspiel_tarok(n)
        if tarok is None:
            print("  OpenSpiel tarok   (pyspiel not importable)")
        else:
            rate, chance = tarok
            print(
                f"  OpenSpiel tarok   {rate / 1e6:8.3f} M steps/s   "
                f"(+{chance / 1e6:.3f} M chance steps/s)"
            )
            print(
                f"  ratios: Python API / tarok = {api / rate:.2f}, "
                f"native / tarok = {nat / rate:.2f}"
            )
    masks = legal_masks()
    print(
        f"\nbatch legal-card masks: {masks / 1e6:8.1f} M rows/s (18-card holdings, 0-3 card tricks)"
    )
    print(
        f"\ninformation-set samples ({INFOSET_STATES} random states of random deals; "
        "the reference has no sampler):"
    )
    for n in (4, 6):
        for face_up in (6, 0):
            c = infoset_samples(n, face_up)
            print(f"  {n} players, face_up_count={face_up:<2}  C {c:9,.0f} samples/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
