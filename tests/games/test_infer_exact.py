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
* No Takers? worlds are whole histories (the history sampler,
  ``_core.notakers_sample_history``, drawn with a known probability q):
  on a small position (seat 1 stripped by seat 0's asks down to three
  dealt cards seat 0 never saw, a pass, then a hidden Save of three of its
  four cards) every history consistent with seat 0's record is enumerated
  by brute force; the sampler draws exactly these, each with its reported
  probability (chi-square), the C weight of each is the softened
  heuristic's probability of its history, and weighted_worlds weighs each
  by that over q.  On random games the true world weighs more than 0 and
  every world shows the observer what he saw; twin states (cards or hidden
  Save cards the observer cannot tell apart) give the same worlds.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import numpy as np
import pytest
from _stats import Z_1E6, chi2, chi2_limit

from cardcore import _core
from pycards.bots.infer import infer_applies, observer_record, weighted_worlds
from pycards.errors import IllegalActionError
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


# ---- No Takers?: worlds with a history -------------------------------------

A_SAVE, A_SAVE_DONE, A_GIVE_DONE, A_GIVE, A_ASK = 4, 1, 3, 56, 108
PHASE_TURN, PHASE_GIVE = 0, 2


def _hand(state: State[Any], q: int) -> list[int]:
    return sorted(state.observation(q).hand.ids())


def _stripped(seed: int) -> State[Any] | None:
    """Seat 0 asks seat 1 for its longest suit until seat 1 holds three
    cards (seat 1 answers a pass with its highest card), asks a rank
    neither holds (a pass: seat 0 then gives seat 1 its lowest card), and
    seat 1 saves the lowest three of its four.  None if the deal does not
    allow it."""
    game = load_game("notakers", num_players=2)
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    st: State[Any] = game.new_initial_state(seed, deck=deck)
    for _ in range(60):
        phase = st.observation(0).phase
        if st.current_player == 0 and phase == PHASE_TURN:
            h1 = _hand(st, 1)
            if len(h1) == 3:
                held = h1 + _hand(st, 0)
                lack = [r for r in range(13) if all(c % 13 != r for c in held)]
                if not lack:
                    return None
                st.apply(A_ASK + lack[0])
                st.apply(A_GIVE + _hand(st, 0)[0])
                for c in _hand(st, 1)[:3]:
                    st.apply(A_SAVE + c)
                st.apply(A_SAVE_DONE)
                return st
            s = max(range(4), key=lambda k: sum(c // 13 == k for c in h1))
            st.apply(A_ASK + 13 + s)
            while st.current_player == 1 and st.observation(1).phase == PHASE_GIVE:
                if len(_hand(st, 1)) == 3:
                    st.apply(A_GIVE_DONE)
                    break
                st.apply(A_GIVE + next(c for c in _hand(st, 1) if c // 13 == s))
        elif st.current_player == 1 and phase == PHASE_TURN and len(_hand(st, 1)) > 3:
            lack = [r for r in range(13) if all(c % 13 != r for c in _hand(st, 0))]
            if not lack:
                return None
            st.apply(A_ASK + lack[0])
            st.apply(A_GIVE + _hand(st, 1)[-1])
        else:
            return None
    return None


def _history_key(world: State[Any] | Any) -> tuple[object, ...]:
    """A world with its history: the cards of its deal and draws (read back
    from its log), each seat's observation, and its log (every card)."""
    if not isinstance(world, State):
        world = State(load_game("notakers", num_players=world.nplayers), world, None, None)
    es = world.engine_state
    top = 52 - int(world.observation(0).pile_size)
    return (
        tuple(_core.infer_world_deck(es, 0)[:top]),
        tuple(world.observation_tensor(q).tobytes() for q in range(world.num_players)),
        tuple((e.kind, e.player, e.target, e.value) for e in world.events(REFEREE)),
    )


def _brute_histories(state: State[Any]) -> dict[tuple[object, ...], float]:
    """Every history consistent with seat 0's record, with the softened
    heuristic's probability of seat 1's decisions in it: the deal's places
    seat 0 never saw get every set of the cards seat 0 never saw (ascending:
    the order inside a deal does not change the game), and seat 1's hidden
    Save cards branch over every card it holds; its other actions are
    public (seat 0 sees which), so only the real one can match."""
    actions, record = observer_record(state, 0)
    assert state.deck is not None
    real = list(state.deck)
    seen = {e.value for e in state.events(0) if e.card is not None and e.value is not None}
    places = list(range(1, 26, 2))
    known = [real[i] for i in places if real[i] in seen]
    pool = [c for c in range(52) if c not in seen]
    hidden = len(places) - len(known)
    out: dict[tuple[object, ...], float] = {}
    game = state.game

    def walk(cur: State[Any], t: int, w: float) -> None:
        if t == len(actions):
            key = _history_key(cur)
            out[key] = out.get(key, 0.0) + w
            return
        a = state.history[t]
        if actions[t] >= 0:
            moves = [(a, 1.0)]
        elif A_SAVE <= a < A_GIVE:
            moves = [(b, _prob(cur, b)) for b in cur.legal_actions() if A_SAVE <= b < A_GIVE]
        else:
            moves = [(a, _prob(cur, a))]
        for b, pb in moves:
            nxt = cur.clone()
            nxt.apply(b)
            if nxt.observation_tensor(0).tobytes() == record[t + 1].tobytes():
                walk(nxt, t + 1, w * pb)

    for cards in itertools.combinations(pool, hidden):
        deck = list(real)
        for k, c in zip(places, sorted(known + list(cards)), strict=True):
            deck[k] = c
        deck[26:] = sorted(set(range(52)) - set(deck[:26]))
        start = game.new_initial_state(0, deck=deck)
        if start.observation_tensor(0).tobytes() == record[0].tobytes():
            walk(start, 0, 1.0)
    return out


def test_notakers_histories_are_drawn_and_weighed_exactly() -> None:
    state = next(s for s in map(_stripped, range(40)) if s is not None)
    worlds = _brute_histories(state)
    assert len(worlds) >= 50
    # the true history is one of them (seat 1's deal in the order the
    # sampler gives: ascending)
    assert state.deck is not None
    deck = list(state.deck)
    deck[1:26:2] = sorted(deck[1:26:2])
    truth = state.game.new_initial_state(0, deck=deck)
    for a in state.history:
        truth.apply(a)
    assert _history_key(truth) in worlds
    # the sampler: only these worlds, each with a fixed q, drawn as q says
    draws = 30 * len(worlds)
    counts: dict[tuple[object, ...], int] = {}
    logq: dict[tuple[object, ...], float] = {}
    one: dict[tuple[object, ...], Any] = {}
    for k in range(draws):
        world, lq = _core.notakers_sample_history(state.engine_state, 0, k, 1000)
        key = _history_key(world)
        assert key in worlds, "a world the observer's record rules out"
        assert logq.setdefault(key, lq) == lq
        counts[key] = counts.get(key, 0) + 1
        one.setdefault(key, world)
    assert set(counts) == set(worlds), "a consistent world never drawn"
    total = sum(math.exp(x) for x in logq.values())
    keys = sorted(worlds)
    stat = chi2([counts[k] for k in keys], [draws * math.exp(logq[k]) / total for k in keys])
    assert stat < chi2_limit(len(keys) - 1, Z_1E6), stat
    # the weights: the model's probability of each history, over q
    actions, record = observer_record(state, 0)
    for key in keys:
        got, _n = _core.infer_weights(
            [one[key]], 0, 0, actions, record, EPS, TIES, 0, follow_log=True
        )
        assert worlds[key] > 0.0
        assert math.isclose(got[0], worlds[key], rel_tol=1e-9), (got[0], worlds[key])
    for weighed, x in weighted_worlds(state, 0, 40, seed=5, eps=EPS, ties=TIES):
        key = _history_key(weighed)
        assert math.isclose(x * math.exp(logq[key]), worlds[key], rel_tol=1e-9)
    assert infer_applies(state)


def _heuristic_game(players: int, seed: int, steps: int) -> State[Any]:
    game = load_game("notakers", num_players=players)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal and len(state.history) < steps:
        if rng.random() < 0.15:
            state.apply(rng.choice(state.legal_actions()))
        else:
            state.apply(state.engine_state.heuristic_action(rng.getrandbits(32)))
    return state


@pytest.mark.parametrize("players", [2, 3])
def test_notakers_worlds_show_what_was_seen_and_the_truth_weighs(players: int) -> None:
    checked = 0
    for seed in range(12):
        state = _heuristic_game(players, seed, 10 + 7 * seed)
        if state.is_terminal or state.events_dropped():
            continue
        p = state.current_player
        actions, record = observer_record(state, p)
        truth, _n = _core.infer_weights(
            [state.engine_state], 0, p, actions, record, EPS, TIES, 200000, follow_log=True
        )
        assert truth[0] > 0.0
        for k in range(3):
            es, _lq = _core.notakers_sample_history(state.engine_state, p, k, 20000)
            world = State(state.game, es, None, None)
            assert world.events(p) == state.events(p)
            assert world.observation_tensor(p).tobytes() == state.observation_tensor(p).tobytes()
            w, _n = _core.infer_weights(
                [es], 0, p, actions, record, EPS, TIES, 200000, follow_log=True
            )
            assert w[0] > 0.0
        checked += 1
    assert checked >= 6


def _save_twin(state: State[Any], p: int) -> State[Any] | None:
    """The same game with one card of another seat's hidden Save changed
    for one it held, if p sees no difference."""
    hist = list(state.history)
    game = state.game
    for t, a in enumerate(hist):
        replay = game.new_initial_state(0, deck=state.deck)
        for b in hist[:t]:
            replay.apply(b)
        if replay.current_player == p or not A_SAVE <= a < A_GIVE:
            continue
        for c in _hand(replay, replay.current_player):
            other = [*hist[:t], A_SAVE + c, *hist[t + 1 :]]
            if other == hist:
                continue
            twin = game.new_initial_state(0, deck=state.deck)
            try:
                for b in other:
                    twin.apply(b)
            except IllegalActionError:
                continue
            if observer_record(twin, p)[1].tobytes() == observer_record(state, p)[1].tobytes():
                return twin
    return None


def test_notakers_twin_states_give_the_same_worlds() -> None:
    from games.test_sampler_exact import _twins

    pairs = [(a, b, p) for a, b, p in _twins("notakers", 2, 51, 3)]
    state = next(s for s in map(_stripped, range(40)) if s is not None)
    twin = _save_twin(state, 0)
    assert twin is not None and twin.engine_state.raw() != state.engine_state.raw()
    pairs.append((state, twin, 0))
    assert len(pairs) >= 3
    for a, b, p in pairs:
        if a.events_dropped():
            continue
        for k in (0, 1, 99):
            x, lx = _core.notakers_sample_history(a.engine_state, p, k, 20000)
            y, ly = _core.notakers_sample_history(b.engine_state, p, k, 20000)
            assert x.raw() == y.raw() and lx == ly
