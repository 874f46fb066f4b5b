"""The cribbage heuristic (the table's ``heuristic`` slot, docs/cribbage.rst
"The heuristic bot"), called through the generic cffi binding: legal
actions only, a sensible discard, and it beats random play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pycards.cards import CardSet
from pycards.games.cribbage import analyze_discards

_cffi = pytest.importorskip("cardcore._cffi")
ffi, lib = _cffi.ffi, _cffi.lib
GAME = lib.cc_game_by_name(b"cribbage")


def new_state(n: int, seed: int, target: int = 121) -> tuple[Any, Any]:
    words = ffi.new("uint64_t[]", (GAME.state_size + 7) // 8)
    state = ffi.cast("void *", words)
    params = ffi.new("int32_t[]", [target, 0, -1, 0, 0, 1])  # 4 players: seats 0+2, 1+3
    assert GAME.init(state, params, n, seed) == 0
    return words, state


def legal(state: Any) -> list[int]:
    mask = ffi.new("uint64_t[]", 16)
    k = GAME.legal_actions(state, mask)
    out = [a for a in range(136) if mask[a >> 6] >> (a & 63) & 1]
    assert len(out) == k
    return out


def heuristic(state: Any, rng: Any) -> int:
    action = ffi.new("int32_t *")
    assert GAME.heuristic(state, rng, action) == 0
    return int(action[0])


def new_rng(seed: int) -> Any:
    rng = ffi.new("cc_rng *")
    lib.cc_rng_seed(rng, seed)
    return rng


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_beats_random_with_legal_actions(players: int) -> None:
    rng, py = new_rng(1), random.Random(players)
    wins = 0
    games = 12
    for g in range(games):
        _words, state = new_state(players, 100 + g)
        while GAME.current_player(state) != -4:
            moves = legal(state)
            seat = GAME.current_player(state)
            if seat == 0 or (players == 4 and seat == 2):  # seat 0 and its partner
                action = heuristic(state, rng)
                assert action in moves
            else:
                action = py.choice(moves)
            assert GAME.apply(state, action) == 0
        out = ffi.new("int32_t[]", players)
        GAME.returns(state, out)
        wins += out[0] == max(out[q] for q in range(players))
        action = ffi.new("int32_t *")
        assert GAME.heuristic(state, rng, action) == -3  # CC_E_GAME_OVER
    # against one random side 3 in 4; against two random seats (3 players) half
    assert wins >= (games * 3) // 4 if players != 3 else wins >= games // 2


def test_heuristic_discard_is_near_the_best() -> None:
    """The two-player discard: within a tenth of a point of the best discard by
    expected hand score plus or minus the table-model crib (the heuristic's crib
    table averages the suits and rounds to hundredths)."""
    rng = new_rng(2)
    for seed in range(30):
        _words, state = new_state(2, seed)
        obs = ffi.new("float[]", 264 + 58 * 2)
        assert GAME.observe_tensor(state, GAME.current_player(state), obs) == 0
        hand = CardSet([c for c in range(52) if obs[c]])
        first = heuristic(state, rng)
        assert GAME.apply(state, first) == 0
        chosen = CardSet([first, heuristic(state, rng)])
        # the first to discard is the pone: the crib is the opponent's
        options = analyze_discards(hand, dealer=False, exact_crib=False)
        value = next(o.value for o in options if o.discard == chosen)
        assert value >= options[0].value - 0.1, (hand, chosen, options[0])
