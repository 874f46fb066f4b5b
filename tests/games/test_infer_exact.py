"""Weighted worlds (pycards.bots.infer) in every game, checked by brute force.

* The true world weighs more than 0: at every step of the first deal of
  random games, the real state read back as a world and replayed along each
  seat's record has a positive weight (a card drawn after the deal, such as
  cribbage's starter or a No Takers? draw, goes where the engine draws it).
* Exact enumeration (cribbage and Nodde Knave, 2 players, late in the first
  deal, where the other seat has few cards the observer has not seen): every
  deck that puts other unseen cards in those places is replayed along the
  true actions, the other seat's steps branching over every legal action
  that shows the observer what he saw; each final position (every seat's
  observation) is a world and its weight the sum over the branches of the
  softened heuristic's probabilities.  The C weight of each world equals it
  (so the normalized weights are the exact posterior), and the sampled
  worlds' weights equal their world's, none outside the enumeration.
  The Game of Nancy has its own (tests/games/nancy/test_infer.py).
* No Takers? samples do not name the other hands' deal: inference does not
  apply there and every world weighs 1 (docs/search.rst, "Inference").
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import numpy as np
import pytest

from cardcore import _core
from pycards.bots.infer import infer_applies, observer_record, weighted_worlds
from pycards.game import REFEREE, State, load_game

EPS = 0.25
TIES = 4


def _prob(state: State[Any], a: int) -> float:
    """The softened heuristic's probability of action a at state."""
    legal = state.legal_actions()
    choices = {state.engine_state.heuristic_action(k) for k in range(TIES)} & set(legal)
    m = len(choices)
    if m == 0:
        return 1.0 / len(legal)
    if m == len(legal):
        return 1.0 / m
    return (1.0 - EPS) / m if a in choices else EPS / (len(legal) - m)


def _world_key(state: State[Any]) -> tuple[bytes, ...]:
    return tuple(state.observation_tensor(q).tobytes() for q in range(state.num_players))


def _brute(
    state: State[Any], deck: list[int], p: int, actions: list[int], record: np.ndarray
) -> dict[tuple[bytes, ...], tuple[float, list[int]]]:
    """Every world the deck leads to along p's record, with its weight and
    one action sequence that reaches it."""
    out: dict[tuple[bytes, ...], tuple[float, list[int]]] = {}
    start = state.game.new_initial_state(state.seed or 0, deck=deck)
    if start.observation_tensor(p).tobytes() != record[0].tobytes():
        return out

    def walk(cur: State[Any], t: int, w: float, path: list[int]) -> None:
        if t == len(actions):
            key = _world_key(cur)
            old = out.get(key, (0.0, path))
            out[key] = (old[0] + w, old[1])
            return
        want = record[t + 1].tobytes()
        if actions[t] >= 0:
            moves = [(actions[t], 1.0)]
        else:
            moves = [(a, _prob(cur, a)) for a in cur.legal_actions()]
        for a, pa in moves:
            if pa == 0.0:
                continue
            nxt = cur.clone()
            nxt.apply(a)
            if nxt.observation_tensor(p).tobytes() == want:
                walk(nxt, t + 1, w * pa, [*path, a])

    walk(start, 0, 1.0, [])
    return out


def _random_game(name: str, seed: int) -> tuple[State[Any], list[int], random.Random]:
    game = load_game(name, num_players=2)
    rng = random.Random(seed)
    deck = list(range(_core.game_info(name)["deck_size"]))
    rng.shuffle(deck)
    return game.new_initial_state(seed, deck=deck), deck, rng


@pytest.mark.parametrize("name", ["cribbage", "nancy", "nodde", "notakers"])
def test_the_true_world_weighs_more_than_zero(name: str) -> None:
    checked = capped = 0
    for seed in range(40):
        state, _deck, rng = _random_game(name, seed)
        while not state.is_terminal and _core.infer_supported(state.engine_state) and checked < 40:
            for p in range(state.num_players):
                actions, record = observer_record(state, p)
                try:
                    w, _nodes = _core.infer_weights(
                        [state.engine_state], state.seed or 0, p, actions, record, EPS, TIES, 100000
                    )
                except ValueError as e:  # the cap (hidden saves branch): not weighed
                    assert "too small" in str(e)
                    capped += 1
                    continue
                assert w[0] > 0.0, (name, seed, len(state.history), p)
            checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked == 40 and capped < checked


def _unseen_places(state: State[Any], deck: list[int], p: int) -> tuple[list[int], list[int]]:
    """The deck positions of the cards dealt to the other seat that p never
    saw, and every card p never saw."""
    # a card value the deal shows whatever the deck (cribbage's cut for the
    # deal, drawn from the seed) is not a card of the deck's
    other = state.game.new_initial_state(state.seed or 0, deck=deck[::-1])
    fixed = {(e.index, e.value) for e in other.events(REFEREE)}
    seen = {
        e.value
        for e in state.events(p)
        if e.card is not None and e.value is not None and (e.index, e.value) not in fixed
    }
    dealt = {e.value for e in state.events(REFEREE) if e.card is not None and e.value is not None}
    places = [k for k, c in enumerate(deck) if c in dealt and c not in seen]
    unseen = [c for c in deck if c not in seen]
    return places, unseen


def _late(name: str, hidden: int) -> Any:
    """A 2-player first deal played at random until the other seat holds at
    most `hidden` cards p never saw (and some, so worlds differ)."""
    for seed in range(200):
        state, deck, rng = _random_game(name, seed)
        for _ in range(200):
            if state.is_terminal or not _core.infer_supported(state.engine_state):
                break
            p = state.current_player
            places, unseen = _unseen_places(state, deck, p)
            if 0 < len(places) <= hidden:
                return state, deck, p, places, unseen
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no position")


@pytest.mark.parametrize(("name", "hidden"), [("cribbage", 2), ("nodde", 1)])
def test_weights_are_the_exact_posterior(name: str, hidden: int) -> None:
    state, deck, p, places, unseen = _late(name, hidden)
    actions, record = observer_record(state, p)
    worlds: dict[tuple[bytes, ...], tuple[float, list[int], list[int]]] = {}
    for cards in itertools.combinations(unseen, len(places)):
        trial = list(deck)
        rest = [c for c in unseen if c not in cards]
        free = [k for k, c in enumerate(deck) if c in unseen and k not in places]
        for k, c in zip(places, cards, strict=True):
            trial[k] = c
        for k, c in zip(free, rest, strict=True):
            trial[k] = c
        for key, (w, path) in _brute(state, trial, p, actions, record).items():
            assert key not in worlds  # one deck (up to the stock) per world
            worlds[key] = (w, path, trial)
    true_key = _world_key(state)
    assert true_key in worlds and worlds[true_key][0] > 0.0
    assert len(worlds) >= 2
    # the C weight of every world, read back from a real state that is it
    for key, (w, path, trial) in worlds.items():
        twin = state.game.new_initial_state(state.seed or 0, deck=trial)
        for a in path:
            twin.apply(a)
        assert _world_key(twin) == key
        got, _n = _core.infer_weights(
            [twin.engine_state], state.seed or 0, p, actions, record, EPS, TIES, 0
        )
        assert w > 0.0
        assert math.isclose(got[0], w, rel_tol=1e-9), (got[0], w)
    # the sampled worlds: each one of them, with its weight
    total = sum(w for w, _path, _trial in worlds.values())
    mass = 0.0
    for world, x in weighted_worlds(state, p, 60, seed=5, eps=EPS, ties=TIES):
        key = _world_key(world)
        assert key in worlds, "a world outside the enumeration"
        assert math.isclose(x, worlds[key][0], rel_tol=1e-9)
        mass += x
    assert mass > 0.0 and total > 0.0


def test_notakers_worlds_are_not_weighed() -> None:
    state, _deck, rng = _random_game("notakers", 3)
    for _ in range(8):
        state.apply(rng.choice(state.legal_actions()))
    p = state.current_player
    assert not infer_applies(state)
    assert [x for _, x in weighted_worlds(state, p, 6, seed=1)] == [1.0] * 6
    with pytest.raises(ValueError):
        _core.infer_world_deck(state.sample_infoset(p, 1).engine_state, state.seed or 0)
