"""Weighted worlds (pycards.bots.infer) checked by exact enumeration.

Late in a Nancy deal (3 and 4 players), every deal of the unknown cards into
the other hands is tried by replaying the game's actions on a deck that deals
it (tests/test_sampler_exact.py); each consistent deal's weight is computed
here by brute force (the softened heuristic's probability of every other
seat's action along the replay).  The C weights must equal them world by
world, and the importance-weighted frequencies of the sampled worlds must
match the normalized weights (a z-score per world from the delta-method
variance of the self-normalized estimate, Bonferroni at 1e-6).  Two real
states that differ only in cards hidden from the observer give the same
worlds and weights.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from test_sampler_exact import _consistent_deals, _late_nancy

from pycards.bots.infer import weighted_worlds
from pycards.game import State

EPS = 0.25
TIES = 4


def _model_weight(state: Any, deck: list[int], history: list[int], p: int) -> float:
    """The softened heuristic's probability of the other seats' actions."""
    replay = state.game.new_initial_state(state.seed or 0, deck=deck)
    w = 1.0
    for a in history:
        q = replay.current_player
        if q != p:
            legal = replay.legal_actions()
            choices = {replay._s.heuristic_action(k) for k in range(TIES)}
            m = len(choices)
            if m == len(legal):
                w *= 1.0 / m
            elif a in choices:
                w *= (1.0 - EPS) / m
            else:
                w *= EPS / (len(legal) - m)
        replay.apply(a)
    return w


def _deck_of(deck: list[int], state: Any, others: list[int], key: Any) -> list[int]:
    hands = [sorted(int(c) for c in state.observation(q).hand) for q in others]
    positions = [deck.index(c) for h in hands for c in h]
    trial = list(deck)
    for pos, c in zip(positions, [c for part in key for c in sorted(part)], strict=True):
        trial[pos] = c
    return trial


def _position(players: int, need: int) -> Any:
    for seed in range(400):
        late = _late_nancy(players, 0, 2, seed)
        if late is None:
            continue
        state, deck, history = late
        p = state.observation(0).taker
        if p is None:
            continue
        others, _real, consistent = _consistent_deals(state, deck, history, p)
        if len(consistent) < need:
            continue
        weights = {
            key: _model_weight(state, _deck_of(deck, state, others, key), history, p)
            for key in consistent
        }
        if len(set(weights.values())) < 2:
            continue  # the model tells these deals apart: the test can fail
        return state, deck, history, p, others, weights
    raise AssertionError("no position")


def _key(world: State[Any], others: list[int]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(int(c) for c in world.observation(q).hand) for q in others)


@pytest.mark.parametrize("players", [3, 4])
def test_weighted_worlds_match_the_enumeration(players: int) -> None:
    state, _deck, _history, p, others, weights = _position(players, 4)
    total = sum(weights.values())
    exact = {k: w / total for k, w in weights.items()}
    draws = 200 * len(exact)
    pairs = weighted_worlds(state, p, draws, seed=7, eps=EPS, ties=TIES)
    keys = [_key(s, others) for s, _ in pairs]
    ws = [w for _, w in pairs]
    for k, w in zip(keys, ws, strict=True):
        assert k in weights, "an inconsistent world was drawn"
        assert math.isclose(w, weights[k], rel_tol=1e-9), (w, weights[k])
    mean = sum(ws) / draws
    z_crit = 4.9 + math.sqrt(2 * math.log(len(exact)))  # 1e-6 over all worlds, loosely
    for k, pi in exact.items():
        hit = [1.0 if kk == k else 0.0 for kk in keys]
        est = sum(w * h for w, h in zip(ws, hit, strict=True)) / sum(ws)
        var = sum((w / mean) ** 2 * (h - pi) ** 2 for w, h in zip(ws, hit, strict=True))
        var /= draws * draws
        assert abs(est - pi) < z_crit * math.sqrt(var) + 1e-12, (k, est, pi)


def test_weights_see_only_what_the_observer_knows() -> None:
    state, deck, history, p, others, weights = _position(3, 4)
    real = _key(state, others)
    other_key = next(k for k in weights if k != real)
    twin = state.game.new_initial_state(
        state.seed or 0, deck=_deck_of(deck, state, others, other_key)
    )
    for a in history:
        twin.apply(a)
    assert _key(twin, others) != real
    a = weighted_worlds(state, p, 40, seed=3, eps=EPS)
    b = weighted_worlds(twin, p, 40, seed=3, eps=EPS)
    assert [w for _, w in a] == [w for _, w in b]
    assert [s._s.raw() for s, _ in a] == [s._s.raw() for s, _ in b]


def test_bad_arguments_are_refused() -> None:
    state, *_rest = _position(3, 4)
    with pytest.raises(TypeError):
        weighted_worlds(state, 0, 2, eps="0.2")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        weighted_worlds(state, 0, 2, eps=1.5)
    with pytest.raises(TypeError):
        weighted_worlds(state, 0, 2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        weighted_worlds(state.sample_infoset(0, 1), 0, 2)
