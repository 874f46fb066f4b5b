"""No Takers? benchmarks (pytest-benchmark): the best split and random playouts.

Groups hold equal workloads only.  Targets (issue): a random 13-card hand in
at most 150 ns and the whole deck in at most 10 us (batch, per hand).
"""

from __future__ import annotations

import numpy as np
import pytest
import reference as ref

from cardcore import _core as c_core
from pycards.games.notakers import NoTakersGame, batch_split_points, best_split

FULL = 0x1FFF1FFF1FFF1FFF
N = 20000


def random_hands(k: int, n: int = N, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.zeros(n, dtype=np.uint64)
    for i in range(n):
        ids = rng.choice(52, k, replace=False)
        out[i] = sum(1 << int(16 * (c // 13) + c % 13) for c in ids)
    return out


HANDS13 = random_hands(13)
DECKS = np.full(2000, FULL, dtype=np.uint64)


@pytest.mark.benchmark(group="notakers-batch-13-cards")
def test_batch_points_13_cards(benchmark) -> None:
    out = benchmark(batch_split_points, HANDS13)
    assert len(out) == N


@pytest.mark.benchmark(group="notakers-batch-full-deck")
def test_batch_points_full_deck(benchmark) -> None:
    out = benchmark(batch_split_points, DECKS)
    assert int(out[0]) == 65


@pytest.mark.benchmark(group="notakers-best-split-13-cards")
def test_best_split_13_cards_c(benchmark) -> None:
    hands = [int(h) for h in HANDS13[:200]]
    benchmark(lambda: [c_core.notakers_best_split(h, 0, 0) for h in hands])


@pytest.mark.benchmark(group="notakers-best-split-13-cards")
def test_best_split_13_cards_reference(benchmark) -> None:
    hands = [int(h) for h in HANDS13[:200]]
    benchmark(lambda: [ref.notakers_best_split(h, 0, 0) for h in hands])


@pytest.mark.benchmark(group="notakers-best-split-full-deck")
def test_best_split_full_deck_facade(benchmark) -> None:
    split = benchmark(best_split, FULL)
    assert split.points == 65


@pytest.mark.benchmark(group="notakers-playouts-4p")
def test_native_playouts(benchmark) -> None:
    steps, _ = benchmark(c_core.random_playouts, "notakers", (0,) * 7, 4, 1, 20)
    assert steps > 0


@pytest.mark.benchmark(group="notakers-playouts-4p-one-game")
def test_python_api_playout(benchmark) -> None:
    game = NoTakersGame(num_players=4)

    def play() -> int:
        rng = np.random.default_rng(1)
        state = game.new_initial_state(1)
        steps = 0
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
            steps += 1
        return steps

    assert benchmark(play) > 0
