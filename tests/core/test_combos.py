"""Combination primitives: C (``cardcore._core``) against the reference
(``pycards._reference``), hand-computed numbers, and the public API."""

from __future__ import annotations

import itertools
from types import ModuleType

import numpy as np
import numpy.typing as npt
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import combos as ref_combos

from pycards import combos
from pycards.cards import CardSet, parse_cards
from pycards.errors import InvalidCardError

C: ModuleType = pytest.importorskip("cardcore._core")
BACKENDS = [pytest.param(C, id="c"), pytest.param(ref, id="reference")]

DECK52_MASK = 0x1FFF1FFF1FFF1FFF
PIPS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def bit(card_id: int) -> int:
    return 1 << (16 * (card_id // 13) + card_id % 13)


def mask_of(ids: tuple[int, ...] | list[int]) -> int:
    return sum(bit(i) for i in ids)


def masks_of(ids: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
    """Bitsets of the rows of an (n, k) array of dense card ids."""
    pos = (16 * (ids // 13) + ids % 13).astype(np.uint64)
    return np.bitwise_or.reduce(np.left_shift(np.uint64(1), pos), axis=1)


def rank_keys(ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """A key naming the rank multiset of each row: sum of 5**rank over its cards."""
    result: npt.NDArray[np.int64] = np.sum(5 ** (ids % 13), axis=1)
    return result


def slow_enabled(config: pytest.Config) -> bool:
    expr = str(config.getoption("markexpr") or "")
    return "slow" in expr and "not slow" not in expr


def card_sets() -> st.SearchStrategy[int]:
    """Any subset of the deck, 0 to 52 cards, biased to every size."""
    return st.tuples(st.integers(0, 52), st.permutations(range(52))).map(
        lambda t: mask_of(t[1][: t[0]])
    )


# ---------------------------------------------------------------------------
# hand-computed numbers (and the 29 hand, 5-5-5-5-J)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("hand", "fifteens", "pairs", "runs"),
    [
        ("5H 5S 5C 5D JH", 8, 6, []),  # the 29 hand: 4 x (J+5), 4 x (5+5+5)
        ("6H 6S 9C 3D", 3, 1, []),  # 6+9, 6+9, 3+6+6
        ("TH 5S 5C KD", 4, 1, []),  # T+5 x2, K+5 x2
        ("5H 5S 5C 5D", 4, 6, []),  # four three-card fifteens, double pair royal
        ("4H 5H 6H 6C", 2, 1, [(3, 2, 3)]),  # 4+5+6 x2; two runs of 3
        ("JC 7C 8C 9C", 1, 0, [(3, 1, 6)]),  # 7+8; run 7-8-9
        ("6H 6S 9C KD", 2, 1, []),  # 6+9 x2
        ("QH KS AC 2D", 0, 0, []),  # no wrap, no fifteen
        ("AC 2C 3C 4C 5C", 1, 0, [(5, 1, 0)]),  # 1+2+3+4+5
        # 5 + 10 x 9 and 5+5+5; three pairs; runs 3-4-5 (x3) and 9-T-J-Q
        ("3C 4D 5H 5S 5C 9D TD JD QD", 10, 3, [(3, 3, 2), (4, 1, 8)]),
    ],
)
def test_hand_computed(
    backend: ModuleType, hand: str, fifteens: int, pairs: int, runs: list[tuple[int, int, int]]
) -> None:
    m = parse_cards(hand).mask
    assert backend.count_fifteens(m, 15) == fifteens
    assert backend.count_pairs(m) == pairs
    assert backend.runs(m) == runs


@pytest.mark.parametrize("backend", BACKENDS)
def test_small_sets_by_hand(backend: ModuleType) -> None:
    assert backend.count_fifteens(0, 15) == 0
    assert backend.count_fifteens(parse_cards("5C").mask, 5) == 0  # one card is no subset of 2+
    assert backend.count_fifteens(parse_cards("5C TD").mask, 15) == 1
    assert backend.runs(parse_cards("4C 5D 6H 6S 6C 6D").mask) == [(3, 4, 3)]
    assert backend.rank_counts(parse_cards("AS AH KD").mask) == (2,) + (0,) * 11 + (1,)
    assert backend.suit_counts(parse_cards("AS TD 10H 2C").mask) == (1, 1, 1, 1)
    assert backend.longest_suit_run(0) == 0
    assert backend.longest_suit_run(parse_cards("QH KH AH").mask) == 2  # no wrap
    assert backend.longest_suit_run(parse_cards("3C 4C 5C 6C 7C 7S").mask) == 5


def full_deck_counts() -> list[int]:
    """Subsets of 2+ cards of the whole deck by pip total, by a generating function.

    The product over the 52 cards of (1 + y x^pip), with y marking the number of
    cards capped at 2: three polynomials in x for 0, 1 and 2+ cards.
    """
    none, one, more = [1] + [0] * 340, [0] * 341, [0] * 341
    for card in range(52):
        p = PIPS[card % 13]
        shifted = [0] * p
        none, one, more = (
            none,
            [a + b for a, b in zip(one, shifted + none[: 341 - p], strict=True)],
            [a + b + c for a, b, c in
             zip(more, shifted + one[: 341 - p], shifted + more[: 341 - p], strict=True)],
        )  # fmt: skip
    return more


def test_full_deck_every_target() -> None:
    expected = full_deck_counts()
    assert sum(expected) == 2**52 - 53  # every subset of 2 or more cards has some total
    assert expected[15] == 17264
    for target in range(1, 341):
        assert C.count_fifteens(DECK52_MASK, target) == expected[target], target
    for target in (1, 2, 15, 31, 100, 170, 339, 340):
        assert ref.count_fifteens(DECK52_MASK, target) == expected[target], target
    assert C.count_fifteens(DECK52_MASK, 170) == max(expected)  # fits int64 easily
    assert C.count_pairs(DECK52_MASK) == 13 * 6
    assert C.runs(DECK52_MASK) == [(13, 4**13, 0)]
    assert C.longest_suit_run(DECK52_MASK) == 13


# ---------------------------------------------------------------------------
# exhaustive and sampled C against the reference


def check_rank_functions(ids: npt.NDArray[np.int64], target: int = 15) -> None:
    """C batch on every row against the reference evaluated once per rank multiset.

    Fifteens, pairs and runs depend only on the ranks held, so the reference
    runs on one set per multiset; the C runs on every set.
    """
    masks = masks_of(ids)
    f, p, r, s = C.batch_hand_stats(masks, target)
    keys, first, inverse = np.unique(rank_keys(ids), return_index=True, return_inverse=True)
    reps = [int(masks[i]) for i in first]
    ref_f = np.array([ref.count_fifteens(m, target) for m in reps], dtype=np.int64)
    ref_p = np.array([ref.count_pairs(m) for m in reps], dtype=np.int32)
    ref_r = np.array(
        [sum(length * mult for length, mult, _ in ref.runs(m)) for m in reps], dtype=np.int32
    )
    inverse = inverse.reshape(-1)
    np.testing.assert_array_equal(f, ref_f[inverse])
    np.testing.assert_array_equal(p, ref_p[inverse])
    np.testing.assert_array_equal(r, ref_r[inverse])
    suits = np.stack([np.sum(ids // 13 == q, axis=1) for q in range(4)], axis=1)
    np.testing.assert_array_equal(s, suits)
    assert len(keys) == len(reps)


def test_all_4_card_sets() -> None:
    ids = np.array(list(itertools.combinations(range(52), 4)), dtype=np.int64)
    assert len(ids) == 270725
    check_rank_functions(ids)
    check_rank_functions(ids[::7], target=31)


def test_4_card_sets_suit_functions_sample() -> None:
    ids = np.array(list(itertools.combinations(range(52), 4))[::97], dtype=np.int64)
    masks = masks_of(ids)
    np.testing.assert_array_equal(C.batch_suit_counts(masks), ref.batch_suit_counts(masks))
    np.testing.assert_array_equal(
        C.batch_longest_suit_run(masks), ref.batch_longest_suit_run(masks)
    )


def test_5_card_sample() -> None:
    rng = np.random.default_rng(2024)
    ids = np.argsort(rng.random((200_000, 52)), axis=1)[:, :5].astype(np.int64)
    check_rank_functions(ids)
    sample = masks_of(ids[:3000])
    np.testing.assert_array_equal(
        C.batch_longest_suit_run(sample), ref.batch_longest_suit_run(sample)
    )


@pytest.mark.slow
def test_all_5_card_hands(request: pytest.FixtureRequest) -> None:
    if not slow_enabled(request.config):
        pytest.skip("exhaustive: opt in with -m slow")
    ids = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.int64
    ).reshape(-1, 5)
    assert len(ids) == 2598960
    check_rank_functions(ids)
    masks = masks_of(ids)
    # each of the 78 same-rank pairs of the deck is in C(50, 3) hands
    assert int(C.batch_count_pairs(masks).sum()) == 78 * 19600


@settings(max_examples=150, deadline=None)
@given(cards=card_sets(), target=st.integers(1, 340))
def test_c_equals_reference_any_set(cards: int, target: int) -> None:
    assert C.count_fifteens(cards, target) == ref.count_fifteens(cards, target)
    assert C.count_fifteens(cards, 15) == ref.count_fifteens(cards, 15)
    assert C.count_pairs(cards) == ref.count_pairs(cards)
    assert C.rank_counts(cards) == ref.rank_counts(cards)
    assert C.suit_counts(cards) == ref.suit_counts(cards)
    assert C.runs(cards) == ref.runs(cards)
    assert C.longest_suit_run(cards) == ref.longest_suit_run(cards)


@settings(max_examples=60, deadline=None)
@given(
    ids=st.lists(st.integers(0, 51), max_size=12, unique=True),
    target=st.integers(1, 120),
)
def test_reference_listing_equals_counting(ids: list[int], target: int) -> None:
    pips = [PIPS[i % 13] for i in ids]
    assert ref_combos._fifteens_by_listing(pips, target) == ref_combos._fifteens_by_counting(
        pips, target
    )


@settings(max_examples=100, deadline=None)
@given(cards=card_sets())
def test_definitions_hold(cards: int) -> None:
    """Properties straight from the definitions, on the C backend."""
    counts = C.rank_counts(cards)
    n = bin(cards).count("1")
    assert sum(counts) == n == sum(C.suit_counts(cards))
    assert C.count_pairs(cards) == sum(c * (c - 1) // 2 for c in counts)
    total = sum(PIPS[r] * c for r, c in enumerate(counts))
    # a subset totals 15 exactly when its complement totals total - 15; above
    # 25 no set of all cards or all but one totals 15
    if total > 25:
        assert C.count_fifteens(cards, 15) == C.count_fifteens(cards, total - 15)
    for length, mult, low in C.runs(cards):
        assert all(counts[r] for r in range(low, low + length))
        assert mult == int(np.prod([counts[r] for r in range(low, low + length)]))
        assert low == 0 or counts[low - 1] == 0
        assert low + length == 13 or counts[low + length] == 0


# ---------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (-1, "not a 64-bit bitset"),
        (1 << 64, "not a 64-bit bitset"),
        (1 << 13, "bits outside the 52-card deck"),
        (DECK52_MASK | 1 << 63, "bits outside the 52-card deck"),
    ],
)
def test_bad_card_sets(backend: ModuleType, cards: int, message: str) -> None:
    for fn in (
        backend.count_pairs,
        backend.rank_counts,
        backend.suit_counts,
        backend.runs,
        backend.longest_suit_run,
    ):
        with pytest.raises(ValueError, match=message):
            fn(cards)
    with pytest.raises(ValueError, match=message):
        backend.count_fifteens(cards, 15)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("target", [0, -5, 341, 10**6])
def test_bad_target(backend: ModuleType, target: int) -> None:
    with pytest.raises(ValueError, match=r"target must be 1\.\.340"):
        backend.count_fifteens(0x1F, target)


# ---------------------------------------------------------------------------
# public API


def test_public_api_accepts_card_likes() -> None:
    hand = "5H 5S 5C 5D JH"
    forms = [hand, parse_cards(hand), parse_cards(hand).mask, list(parse_cards(hand))]
    for form in forms:
        assert combos.count_fifteens(form) == 8
        assert combos.count_pairs(form) == 6
        assert combos.n_of_a_kind(form) == [(4, 4)]
        assert combos.suit_counts(form) == (1, 1, 2, 1)
    assert combos.runs("4H 5H 6H 6C") == [(3, 2)]
    assert combos.runs(CardSet.full()) == [(13, 4**13)]
    assert combos.rank_counts(CardSet.full()) == (4,) * 13
    assert combos.longest_suit_run("9S TS JS QS KS") == 5
    assert combos.count_fifteens("5H TD", target=5) == 0
    assert combos.MAX_TARGET == 340


def test_public_api_errors() -> None:
    with pytest.raises(InvalidCardError, match="'ZZ'"):
        combos.count_pairs("AS ZZ")
    with pytest.raises(InvalidCardError, match="outside"):
        combos.count_pairs(1 << 13)
    with pytest.raises(ValueError, match="target"):
        combos.count_fifteens("AS", 341)
