"""Brute-force helpers shared by the exactness tests."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence


def splits(items: Sequence[int], sizes: Sequence[int]) -> Iterator[tuple[frozenset[int], ...]]:
    """Every way of dealing ``items`` into parts of ``sizes`` (in order), each
    once: the first part is every combination of ``sizes[0]`` items, the rest
    split the remaining items the same way."""
    if not sizes:
        if not items:
            yield ()
        return
    for first in itertools.combinations(items, sizes[0]):
        chosen = frozenset(first)
        rest = [c for c in items if c not in chosen]
        for tail in splits(rest, sizes[1:]):
            yield (chosen, *tail)
