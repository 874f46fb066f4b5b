"""The brute-force deal enumerator shared by the exactness tests: every way
of dealing cards into parts (:func:`deals`), and the deals of the others'
face-down cards that replay a game's history unchanged for a seat
(:func:`replayed_deals`).  What makes a deal consistent with a seat's
knowledge beyond a replay (a game's public facts) stays in that game's test."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator, Sequence
from typing import Any, TypeVar

from pycards.errors import IllegalActionError

__all__ = ["deals", "replayed_deals"]

T = TypeVar("T", bound=Hashable)


def deals(
    items: Sequence[T], sizes: Sequence[int], *, whole: bool = True
) -> Iterator[tuple[frozenset[T], ...]]:
    """Every way of dealing parts of ``sizes`` (in order) from ``items``, each
    once: the first part is every combination of ``sizes[0]`` items (in the
    order of :func:`itertools.combinations`), the rest deal the remaining items
    the same way.  With ``whole`` (the default) only the deals that use every
    item; without, the items left over stay undealt."""
    if not sizes:
        if not whole or not items:
            yield ()
        return
    for first in itertools.combinations(items, sizes[0]):
        chosen = frozenset(first)
        rest = [c for c in items if c not in chosen]
        for tail in deals(rest, sizes[1:], whole=whole):
            yield (chosen, *tail)


def replayed_deals(
    state: Any, deck: list[int], history: list[int], p: int
) -> tuple[list[int], list[frozenset[int]], list[tuple[frozenset[int], ...]]]:
    """Every deal of the other players' face-down cards into their hands that
    replays the history with the same observation for ``p``: the deck (the
    stacked deck that dealt ``state``) with the cards moved, each action legal
    and ``p``'s observation tensor the same at the end.  Returns the other
    seats, their real hands and the consistent deals (a hand per other seat)."""
    n = state.game.num_players
    others = [q for q in range(n) if q != p]
    hands = [sorted(int(c) for c in state.observation(q).hand) for q in others]
    sizes = [len(h) for h in hands]
    unknown = sorted(c for h in hands for c in h)
    positions = [deck.index(c) for h in hands for c in h]
    target = state.observation_tensor(p).tobytes()
    consistent = []
    for key in deals(unknown, sizes):
        trial = list(deck)
        for pos, c in zip(positions, [c for part in key for c in sorted(part)], strict=True):
            trial[pos] = c
        replay = state.game.new_initial_state(state.seed or 0, deck=trial)
        try:
            for a in history:
                replay.apply(a)
        except IllegalActionError:
            continue
        if replay.observation_tensor(p).tobytes() == target:
            consistent.append(key)
    return others, [frozenset(h) for h in hands], consistent
