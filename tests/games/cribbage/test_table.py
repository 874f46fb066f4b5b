"""The discard table job (pycards.games.cribbage_table): the reduction by suit
permutation proved, the job run on a small part, the query helper against
the direct analysis."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from pycards.cards import CardSet
from pycards.games.cribbage import DISCARD_PAIRS, analyze_discards, batch_discards
from pycards.games.cribbage_table import (
    NUM_CLASSES,
    NUM_HANDS,
    DiscardTable,
    build_table,
    canonical,
    crib_table,
    suit_classes,
)

PERMS = list(itertools.permutations(range(4)))


def permute(mask: int, perm: tuple[int, ...]) -> int:
    """The hand with suit s renamed perm[s]."""
    return sum(((mask >> (16 * s)) & 0x1FFF) << (16 * perm[s]) for s in range(4))


def random_hands(n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [int(CardSet(rng.sample(range(52), 6))) for _ in range(n)]


def test_classes_partition_every_hand_once() -> None:
    """The reduction, proved: (1) every key is in canonical form (its own
    class key) and the keys are distinct; (2) each key's size is the size of
    its orbit under the 24 suit permutations, counted directly; (3) the
    sizes add up to C(52, 6), so the orbits of the keys, disjoint by (1),
    cover every six-card hand."""
    keys, sizes = suit_classes()
    assert len(keys) == NUM_CLASSES and math.comb(52, 6) == NUM_HANDS
    assert np.all(np.diff(keys.astype(np.int64)) > 0)  # sorted, distinct
    assert np.array_equal(canonical(keys), keys)
    assert int(sizes.sum()) == NUM_HANDS
    assert all(bin(int(k)).count("1") == 6 for k in keys[::997])
    rng = random.Random(0)
    for i in [*rng.sample(range(len(keys)), 3000), 0, len(keys) - 1]:
        orbit = {permute(int(keys[i]), p) for p in PERMS}
        assert len(orbit) == sizes[i]
        assert all(int(canonical(np.array([h], dtype=np.uint64))[0]) == keys[i] for h in orbit)


def test_analysis_is_invariant_under_suit_permutation() -> None:
    """One analysis serves a class: the same numbers for every relabelling of
    the suits, discard for discard (the discards mapped with the cards)."""
    cases = [(mask, perm) for mask in random_hands(60, 1) for perm in PERMS]
    masks = np.array([permute(m, p) for m, p in cases], dtype=np.uint64)
    base = np.array([m for m, _ in cases], dtype=np.uint64)
    hand, crib = batch_discards(masks)
    base_hand, base_crib = batch_discards(base)
    assert crib is not None and base_crib is not None
    for row, (mask, perm) in enumerate(cases):
        cards = list(CardSet(mask))
        moved = [perm[c.suit] * 13 + c.rank for c in cards]  # card i -> its image
        order = sorted(moved)
        for k, (i, j) in enumerate(DISCARD_PAIRS):
            pair = sorted((order.index(moved[i]), order.index(moved[j])))
            kk = DISCARD_PAIRS.index((pair[0], pair[1]))
            assert hand[row, kk] == base_hand[row, k]
            assert crib[row, kk] == pytest.approx(base_crib[row, k], abs=1e-12)


def test_crib_table_is_the_batch_model() -> None:
    table = crib_table()
    masks = random_hands(300, 2)
    _, crib = batch_discards(np.array(masks, dtype=np.uint64))
    assert crib is not None
    for row, mask in enumerate(masks):
        cards = list(CardSet(mask))
        for k, (i, j) in enumerate(DISCARD_PAIRS):
            a, b = cards[i], cards[j]
            assert table[a.rank, b.rank, int(a.suit == b.suit)] == crib[row, k]


def test_job_on_a_part_resumes_and_answers_queries(tmp_path: object) -> None:
    pytest.importorskip("dask.distributed")
    import pathlib

    out = pathlib.Path(str(tmp_path)) / "table.npz"
    first = build_table(out, workers=1, chunk_size=4000, limit=3, progress=False)
    assert first["computed"] == 3 and first["classes"] == 12000
    again = build_table(out, workers=1, chunk_size=4000, limit=3, progress=False)
    assert again["computed"] == 0  # resumed from the finished chunks
    table = DiscardTable(out)
    assert len(table) == 12000
    keys = table.keys
    hits = 0
    for k in random.Random(3).sample(range(len(keys)), 6):
        key = int(keys[k])
        for perm in PERMS[::9]:
            hand = permute(key, perm)
            for dealer in (True, False):
                direct = analyze_discards(CardSet(hand), dealer=dealer, exact_crib=False)
                best = table.options(CardSet(hand), dealer=dealer)
                assert best[0][1] == pytest.approx(direct[0].value, abs=1e-9)
                if best[0][0] == direct[0].discard:
                    hits += 1
                else:  # a tie
                    assert direct[1].value == pytest.approx(direct[0].value, abs=1e-9)
    assert hits > 0
    with pytest.raises(KeyError):
        table.best_discard(CardSet(int(suit_classes()[0][-1])))
