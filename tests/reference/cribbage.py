"""Cribbage scoring, written for obviousness (docs/cribbage.rst).

Brute force over subsets with :mod:`itertools`, sharing nothing with the C
engine: the oracle of the show, the play and the discard analysis.  Cards are
dense ids ``suit * 13 + rank`` (rank 0 = Ace .. 12 = King).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

__all__ = [
    "crib_expectation",
    "expected_hand",
    "play_points",
    "show_points",
]

JACK = 10


def _rank(card: int) -> int:
    return card % 13


def _suit(card: int) -> int:
    return card // 13


def _pips(card: int) -> int:
    return min(_rank(card) + 1, 10)


def _is_run(cards: Sequence[int]) -> bool:
    ranks = sorted(_rank(c) for c in cards)
    return all(b == a + 1 for a, b in itertools.pairwise(ranks))


def show_points(
    hand: Sequence[int], starter: int, crib: bool = False, crib_four_flush: bool = False
) -> dict[str, int]:
    """Points by kind of a 4-card hand (or crib) with the starter."""
    assert len(hand) == 4 and len(set(hand)) == 4 and starter not in hand
    five = [*hand, starter]
    points = {"fifteen": 0, "pair": 0, "run": 0, "flush": 0, "nobs": 0}
    for size in range(2, 6):
        for combo in itertools.combinations(five, size):
            if sum(_pips(c) for c in combo) == 15:
                points["fifteen"] += 2
    for a, b in itertools.combinations(five, 2):
        if _rank(a) == _rank(b):
            points["pair"] += 2
    # runs: the longest length that has any run; every combination of that length
    for size in (5, 4, 3):
        runs = [c for c in itertools.combinations(five, size) if _is_run(c)]
        if runs:
            points["run"] = size * len(runs)
            break
    suits = {_suit(c) for c in hand}
    if len(suits) == 1:
        if _suit(starter) in suits:
            points["flush"] = 5
        elif not crib or crib_four_flush:
            points["flush"] = 4
    for c in hand:
        if _rank(c) == JACK and _suit(c) == _suit(starter):
            points["nobs"] = 1
    return points


def play_points(count: Sequence[int]) -> dict[str, int]:
    """Points by kind the last card of a count makes (no go or last card)."""
    points = {"fifteen": 0, "pair": 0, "run": 0, "thirty_one": 0}
    total = sum(_pips(c) for c in count)
    assert total <= 31
    if total == 15:
        points["fifteen"] = 2
    same = 1
    while same < len(count) and _rank(count[-1 - same]) == _rank(count[-1]):
        same += 1
    points["pair"] = {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for size in range(len(count), 2, -1):
        tail = count[-size:]
        if len({_rank(c) for c in tail}) == size and _is_run(tail):
            points["run"] = size
            break
    if total == 31:
        points["thirty_one"] = 2
    return points


def expected_hand(kept: Sequence[int], dealt: Sequence[int]) -> float:
    """Mean show score of ``kept`` over the starters outside ``dealt``."""
    starters = [s for s in range(52) if s not in dealt]
    return sum(sum(show_points(kept, s).values()) for s in starters) / len(starters)


def _crib_key(crib: Sequence[int], starter: int) -> tuple[object, ...]:
    """What decides a crib's score: the ranks, whether all five cards share a
    suit, and whether a crib Jack has the starter's suit."""
    return (
        tuple(sorted(_rank(c) for c in crib)),
        _rank(starter),
        len({_suit(c) for c in [*crib, starter]}) == 1,
        any(_rank(c) == JACK and _suit(c) == _suit(starter) for c in crib),
    )


def crib_expectation(discards: Sequence[int], pool: Sequence[int]) -> float:
    """Mean crib score of ``discards`` plus two cards and a starter drawn as a
    uniform 3-subset of ``pool``, the starter uniform among the three (the
    brute force memoized by :func:`_crib_key`)."""
    memo: dict[tuple[object, ...], int] = {}
    total = 0
    count = 0
    for three in itertools.combinations(pool, 3):
        for s in range(3):
            crib = [*discards, *(three[k] for k in range(3) if k != s)]
            key = _crib_key(crib, three[s])
            if key not in memo:
                memo[key] = sum(show_points(crib, three[s], crib=True).values())
            total += memo[key]
            count += 1
    return total / count
