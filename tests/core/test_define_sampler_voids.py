"""The defined games' constructive sampler on positions with several voids
and with passed cards: counted exactly against a brute force (every
consistent deal drawn, nothing else, equally often: chi-square, fixed
seeds), and checked for consistency on random positions of every port at
up to seven players (the hands' sizes, no card of a suit a seat has shown
it lacks, the observer's view unchanged)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from cardcore import _core
from pycards.define import PORTS, Passing, TrickGame

NEW_DEAL, PLAY, PASS = 0, 6, 3

THREE = TrickGame(
    name="voids_three", title="VoidsThree", players=3, ranks="AKQJT9", hand_sizes=(5,)
)
PASSING = TrickGame(
    name="voids_passing",
    title="VoidsPassing",
    players=4,
    ranks="AKQJT9",
    hand_sizes=(6,),
    passing=Passing(count=2, directions=(1,)),
)
SEVEN = TrickGame(name="voids_seven", title="VoidsSeven", players=7, hand_sizes=(7,))

Hands = tuple[frozenset[int], ...]


def _hand(state: _core.GameState, q: int) -> frozenset[int]:
    tensor = state.observe_tensor(q)
    return frozenset(c for c in range(52) if tensor[c])


def _voids(state: _core.GameState, n: int) -> dict[int, set[int]]:
    voids: dict[int, set[int]] = {}
    led, plays = -1, 0
    for kind, player, _, value, _, _ in state.events():
        if kind == NEW_DEAL:
            voids, plays = {}, 0
        if kind == PLAY:
            if plays % n == 0:
                led = value // 13
            elif value // 13 != led:
                voids.setdefault(player, set()).add(led)
            plays += 1
    return voids


def _consistent(state: _core.GameState, p: int, n: int, deck: set[int]) -> set[Hands]:
    """Every deal of the other hands p's view allows (a game of one deal) (brute force): the
    unknown cards (not p's, not played, not passed by p) split among the
    other seats by their counts, none of a suit a seat lacks, the cards p
    passed fixed in the hands that hold them, the rest undealt."""
    events = state.events()
    played = {v for k, _, _, v, _, _ in events if k == PLAY}
    passed = {v for k, q, _, v, _, _ in events if k == PASS and q == p}
    others = [q for q in range(n) if q != p]
    fixed = {q: _hand(state, q) & passed for q in others}
    need = {q: len(_hand(state, q)) - len(fixed[q]) for q in others}
    unknown = sorted(deck - _hand(state, p) - played - passed)
    voids = _voids(state, n)
    out: set[Hands] = set()

    def rec(i: int, left: list[int], acc: tuple[frozenset[int], ...]) -> None:
        if i == len(others):
            out.add(acc)
            return
        q = others[i]
        allowed = [c for c in left if c // 13 not in voids.get(q, ())]
        for hand in itertools.combinations(allowed, need[q]):
            rest = [c for c in left if c not in hand]
            rec(i + 1, rest, (*acc, frozenset(hand) | fixed[q]))

    rec(0, unknown, ())
    return out


def _position(game: TrickGame, n: int, lo: int, hi: int) -> tuple[_core.GameState, int]:
    """A position where at least two seats other than the one to act have
    shown a void, with lo..hi consistent deals for the one to act (and, in a
    game that passes, a card it passed still in its receiver's hand)."""
    game.register(listed=False)
    deck = {s * 13 + r for s in range(4) for r in range(13) if "A23456789TJQK"[r] in game.ranks}
    for seed in range(2000):
        state = _core.GameSetup(game.name, (0,), n).new_state(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(n * 2, n * 5)):
            state.apply(rng.choice(state.legal_actions()))
        p = state.current_player()
        voids = _voids(state, n)
        if p < 0 or len([q for q in voids if q != p]) < 2:
            continue
        played = sum(1 for k, *_ in state.events() if k == PLAY)
        ways, left = 1, len(deck) - len(_hand(state, p)) - played
        for q in range(n):
            if q != p:
                ways *= math.comb(left, len(_hand(state, q)))
                left -= len(_hand(state, q))
        if ways > 10**6:  # a bound on the consistent deals, for the brute force
            continue
        passed = {v for k, q, _, v, _, _ in state.events() if k == PASS and q == p}
        if game.passing is not None and not any(passed & _hand(state, q) for q in range(n)):
            continue
        if lo <= len(_consistent(state, p, n, deck)) <= hi:
            return state, p
    raise AssertionError("no position")


def _check_uniform(game: TrickGame, n: int) -> None:
    state, p = _position(game, n, 20, 600)
    deck = {s * 13 + r for s in range(4) for r in range(13) if "A23456789TJQK"[r] in game.ranks}
    expected = _consistent(state, p, n, deck)
    others = [q for q in range(n) if q != p]
    draws = 60 * len(expected)
    seen: Counter[Hands] = Counter()
    view = state.observe_tensor(p).tolist()
    for seed in range(draws):
        sample = state.sample_infoset(p, seed)
        seen[tuple(_hand(sample, q) for q in others)] += 1
        assert sample.observe_tensor(p).tolist() == view
    assert set(seen) == expected
    mean = draws / len(expected)
    chi2 = sum((seen[k] - mean) ** 2 / mean for k in expected)
    dof = len(expected) - 1
    # a fixed seed; the bound is the chi-square's mean plus 6 standard deviations
    assert chi2 < dof + 6 * (2 * dof) ** 0.5


def test_several_voids_and_the_undealt_rest_are_sampled_uniformly() -> None:
    _check_uniform(THREE, 3)


def test_several_voids_and_passed_cards_are_sampled_uniformly() -> None:
    _check_uniform(PASSING, 4)


@pytest.mark.parametrize(
    ("game", "n"), [(SEVEN, 7), *((g, 4) for g in PORTS.values()), (PORTS["whist"], 4)]
)
def test_every_sample_is_consistent(game: TrickGame, n: int) -> None:
    game.register(listed=False)
    for seed in range(25):
        state = _core.GameSetup(game.name, (0,), n).new_state(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 60)):
            if state.current_player() < 0:
                break
            state.apply(rng.choice(state.legal_actions()))
        p = state.current_player()
        if p < 0:
            continue
        voids = _voids(state, n)
        view = state.observe_tensor(p).tolist()
        for k in range(8):
            sample = state.sample_infoset(p, seed * 8 + k)
            assert sample.observe_tensor(p).tolist() == view
            held: set[int] = set()
            for q in range(n):
                hand = _hand(sample, q)
                assert len(hand) == len(_hand(state, q))
                assert not held & hand
                held |= hand
                if q != p:
                    suits = {c // 13 for c in hand - _hand(state, q)}
                    assert not suits & voids.get(q, set())
