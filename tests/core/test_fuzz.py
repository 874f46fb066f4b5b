"""Memory safety of the C core: hammer every public function of ``cardcore._core``.

The promise (docs/internals.rst): the engine never crashes and never reads
out of bounds on any input Python can hand it.  Every call here either
returns a well-formed result or raises TypeError, ValueError or
OverflowError; anything else (another exception, a crash, a sanitizer
report under ``.ci/sanitize``) fails.  Inputs mix valid values with edge
and junk values: integers far outside every C type, wrong dtypes, shapes
and strides, read-only and misaligned arrays, bad card ids, rules
parameters out of range, decks that are not permutations, action ids out
of range, players out of range, and states deep into long games.

``PYCARDS_FUZZ_SCALE`` multiplies the number of examples (default 1: about
20 s in all; ``.ci/sanitize`` runs it under AddressSanitizer and UBSan).
``test_every_public_function_is_fuzzed`` keeps the list complete: a new
function of the binding fails it until it is fuzzed here.
"""

from __future__ import annotations

import copy
import math
import os
import pickle
import random
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from pycards.define import PORTS
from pycards.errors import InvalidCardError, RulesError

C: ModuleType = pytest.importorskip("cardcore._core")

ALLOWED = (TypeError, ValueError, OverflowError)
DECK52_MASK = 0x1FFF1FFF1FFF1FFF
NANCY_LO_MASK = 0x3FFF3FFF3FFF3FFF
NANCY_HI_MASK = 0x3FFFFF
U64 = 2**64 - 1
TERMINAL = -4
SCALE = float(os.environ.get("PYCARDS_FUZZ_SCALE", "1"))


def examples(n: int) -> Any:
    """Hypothesis settings for n examples times PYCARDS_FUZZ_SCALE."""
    return settings(
        max_examples=max(1, int(n * SCALE)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def attempt(fn: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
    """(True, result), or (False, None) if fn raised an allowed exception.

    Any other exception propagates and fails the test."""
    try:
        return True, fn(*args)
    except ALLOWED:
        return False, None


# ---------------------------------------------------------------------------
# strategies

EDGE_INTS = [
    -(2**200), -(2**128), -(2**64), -(2**63) - 1, -(2**63), -(2**32), -(2**31) - 1, -(2**31),
    -256, -129, -128, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 15, 16, 31, 51, 52, 53,
    55, 56, 63, 64, 77, 78, 79, 127, 128, 255, 256, 321, 322, 340, 341, 1023, 1024, 1025,
    2**15, 2**16, 2**31 - 1, 2**31, 2**32, 2**52, 2**63 - 1, 2**63, 2**64 - 1, 2**64,
    2**127, 2**128 - 1, 2**128, 2**200,
]  # fmt: skip
# Integers that a C parameter used as a size or count may see without the
# test asking for a huge allocation: small ones, and ones no C type holds.
OVERFLOWING = [-(2**200), -(2**64), -(2**63) - 1, 2**63, 2**64, 2**200]

junk = st.one_of(
    st.none(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.binary(max_size=4),
    st.just(object()),
    st.just(np.uint64(3)),
    st.just(np.int8(-1)),
    st.complex_numbers(max_magnitude=10),
)
any_int = st.one_of(
    st.integers(-3, 400),
    st.sampled_from(EDGE_INTS),
    st.integers(-(2**130), 2**130),
    st.booleans(),
)
anything = st.one_of(any_int, any_int, junk)
# (junk with no float that truncates to a huge count: the binding takes
# floats for C integers, as Cython does)
count_junk = st.one_of(
    st.none(), st.floats(-3, 40), st.sampled_from([float("nan"), float("inf"), 1e300]),
    st.text(max_size=2), st.just(object()), st.just(np.int8(-1)),
)  # fmt: skip
count_arg = st.one_of(st.integers(-3, 40), st.sampled_from(OVERFLOWING), count_junk)
seed_arg = st.one_of(st.integers(0, U64), st.sampled_from([-1, 2**64, -(2**70)]), junk)


def card_set(ids: Sequence[int]) -> int:
    return sum(1 << (16 * (i // 13) + i % 13) for i in ids)


valid_sets = st.tuples(st.integers(0, 52), st.permutations(range(52))).map(
    lambda t: card_set(t[1][: t[0]])
)
dirty_sets = st.tuples(valid_sets, st.integers(0, 63)).map(lambda t: t[0] | 1 << t[1])
card_arg = st.one_of(valid_sets, valid_sets, dirty_sets, any_int, junk)

nancy_valid = st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**22 - 1)).map(
    lambda t: (t[0] & NANCY_LO_MASK) | t[1] << 64
)
nancy_arg = st.one_of(
    nancy_valid,
    nancy_valid,
    st.tuples(nancy_valid, st.integers(0, 127)).map(lambda t: t[0] | 1 << t[1]),
    any_int,
    junk,
)
card_id = st.one_of(st.integers(-2, 80), st.sampled_from(EDGE_INTS))
id_list = st.one_of(
    st.lists(st.integers(0, 77), max_size=7, unique=True),
    st.lists(card_id, max_size=7),
    st.lists(st.one_of(card_id, junk), max_size=3),
    anything,
)


def flags(arr: np.ndarray) -> str:
    return f"{arr.dtype} {arr.shape} {arr.strides} c={arr.flags.c_contiguous}"


@st.composite
def array_of(draw: st.DrawFn, values: st.SearchStrategy[Any], dtype: Any, ndim: int = 1) -> Any:
    """A numpy array meant to hold `values` as `dtype`, often broken: wrong
    dtype or byte order, other dimensions, non-contiguous, zero strides,
    read-only, misaligned, Fortran order, or not an array at all."""
    n = draw(st.integers(0, 12))
    cols = draw(st.integers(0, 7)) if ndim == 2 else 1
    size = n * cols if ndim == 2 else n
    raw = draw(st.lists(values, min_size=size, max_size=size))
    base = np.array(raw, dtype=object).astype(dtype)
    good = base.reshape(n, cols) if ndim == 2 else base
    how = draw(
        st.sampled_from(
            ["good"] * 6
            + ["dtype", "byteorder", "ndim", "strided", "zero_stride", "readonly"]
            + ["misaligned", "fortran", "list", "junk", "empty_2d"]
        )
    )
    if how == "good":
        return good
    if how == "dtype":
        other = draw(st.sampled_from([np.int64, np.uint32, np.int8, np.float64, np.bool_]))
        return good.astype(other) if other is not np.bool_ else good.astype(bool)
    if how == "byteorder":
        return good.astype(good.dtype.newbyteorder(">"))
    if how == "ndim":
        return good.reshape((*good.shape, 1)) if draw(st.booleans()) else np.ravel(good)[()]
    if how == "strided":
        doubled = np.repeat(good, 2, axis=0)
        return doubled[::2]
    if how == "zero_stride":
        row = good[:1] if len(good) else np.zeros((1, *good.shape[1:]), dtype=good.dtype)
        return np.broadcast_to(row, (draw(st.integers(1, 5)), *good.shape[1:]))
    if how == "readonly":
        good.setflags(write=False)
        return good
    if how == "misaligned":
        buf = np.zeros(good.nbytes + good.itemsize, dtype=np.uint8)
        view = buf[1 : 1 + good.nbytes].view(good.dtype).reshape(good.shape)
        view[...] = good
        return view
    if how == "fortran":
        return np.asfortranarray(good.reshape(good.shape[::-1]).T) if ndim == 2 else good
    if how == "list":
        return good.tolist()
    if how == "empty_2d":
        return np.zeros((0, 9), dtype=good.dtype)
    return draw(junk)


u64_values = st.one_of(valid_sets, valid_sets, valid_sets, dirty_sets, st.integers(0, U64))
u64_arrays = array_of(u64_values, np.uint64)


def is_proper(arr: Any, dtype: Any, ndim: int = 1) -> bool:
    """Whether arr is what the binding documents it accepts."""
    return (
        isinstance(arr, np.ndarray)
        and arr.dtype == np.dtype(dtype)
        and arr.ndim == ndim
        and arr.flags.c_contiguous
        and arr.flags.aligned
    )


def is_int(v: Any) -> bool:
    """An int by the input contract: int (not bool) or a numpy integer."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def strict(fn: Callable[..., Any], args: Sequence[Any], ranges: Sequence[Any]) -> Any:
    """Call fn(*args) where args[j] must be an int in ranges[j] (lo, hi), or
    anything if ranges[j] is None.  Returns the result if every argument is
    valid; else asserts the documented exception: TypeError if an argument is
    not an int, else ValueError (never OverflowError); returns None."""
    typed = all(r is None or is_int(a) for a, r in zip(args, ranges, strict=True))
    valid = typed and all(
        r is None or r[0] <= int(a) <= r[1] for a, r in zip(args, ranges, strict=True)
    )
    if valid:
        return fn(*args)
    with pytest.raises((TypeError, ValueError)) as info:
        fn(*args)
    assert not isinstance(info.value, OverflowError), (fn.__name__, args)
    assert isinstance(info.value, TypeError if not typed else ValueError), (fn.__name__, args)
    return None


# ---------------------------------------------------------------------------
# RNG


@examples(60)
@given(seed=seed_arg, n=count_arg, m=st.one_of(st.integers(-2, 260), count_arg))
def test_rng(seed: Any, n: Any, m: Any) -> None:
    seq = strict(C.rng_sequence, (seed, n), ((0, U64), (0, 2**20)))
    if seq is not None:
        assert len(seq) == int(n) and all(type(x) is int and 0 <= x <= U64 for x in seq)
    deck = strict(C.shuffled_deck, (seed, m), ((0, U64), (0, 255)))
    if deck is not None:
        assert sorted(deck) == list(range(len(deck))) and len(deck) == int(m)
    rng = strict(C.Rng, (seed,), ((0, U64),))
    if rng is not None:
        first = rng.next()
        assert type(first) is int and 0 <= first <= U64
        below = strict(rng.below, (m,), ((1, U64),))
        assert below is None or 0 <= below < int(m)
        strict(rng.seed, (n,), ((0, U64),))


# ---------------------------------------------------------------------------
# combination primitives, scalar and batch


def scalar_stats(cards: int) -> tuple[int, int, int, tuple[int, ...], int]:
    runs = C.runs(cards)
    return (
        C.count_fifteens(cards),
        C.count_pairs(cards),
        sum(length * mult for length, mult, _ in runs),
        C.suit_counts(cards),
        C.longest_suit_run(cards),
    )


@examples(600)
@given(cards=card_arg, target=st.one_of(st.integers(-2, 345), any_int, junk))
def test_scalar_combos(cards: Any, target: Any) -> None:
    valid = is_int(cards) and 0 <= int(cards) <= U64 and not int(cards) & ~DECK52_MASK
    results = {}
    for fn in (C.count_pairs, C.rank_counts, C.suit_counts, C.runs, C.longest_suit_run):
        ok, results[fn.__name__] = attempt(fn, cards)
        assert ok == valid, (fn.__name__, cards)
        if not is_int(cards):  # the documented error for each kind of bad input
            with pytest.raises(TypeError, match="cards"):
                fn(cards)
        elif not valid:
            with pytest.raises(InvalidCardError):
                fn(cards)
    ok, fifteens = attempt(C.count_fifteens, cards, target)
    assert ok == (valid and is_int(target) and 1 <= int(target) <= 340), (cards, target)
    if not valid:
        return
    cards = int(cards)
    n = bin(cards).count("1")
    ranks = results["rank_counts"]
    assert len(ranks) == 13 and all(0 <= c <= 4 for c in ranks) and sum(ranks) == n
    suits = results["suit_counts"]
    assert len(suits) == 4 and all(0 <= c <= 13 for c in suits) and sum(suits) == n
    assert results["count_pairs"] == sum(c * (c - 1) // 2 for c in ranks)
    for length, mult, low in results["runs"]:
        assert length >= 3 and low + length <= 13 and 1 <= mult <= 4**length
    assert len(results["runs"]) <= 4
    assert 0 <= results["longest_suit_run"] <= 13
    if ok:
        assert 0 <= fifteens < 2**n


BATCH_1D = [
    C.batch_count_fifteens,
    C.batch_count_pairs,
    C.batch_suit_counts,
    C.batch_run_score,
    C.batch_longest_suit_run,
    C.batch_hand_stats,
]


@examples(350)
@given(arr=u64_arrays, target=st.one_of(st.just(15), st.integers(-2, 345), any_int, junk))
def test_batch_combos(arr: Any, target: Any) -> None:
    proper = is_proper(arr, np.uint64)
    dirty = proper and bool(np.any(arr & np.uint64(~DECK52_MASK & U64)))
    good_target = is_int(target) and 1 <= int(target) <= 340
    outs = {}
    for fn in BATCH_1D:
        args = (arr, target) if fn in (C.batch_count_fifteens, C.batch_hand_stats) else (arr,)
        ok, outs[fn.__name__] = attempt(fn, *args)
        assert not ok or len(args) == 1 or good_target, (fn.__name__, target)
        if proper and not dirty and len(args) == 2:
            assert ok == good_target, (fn.__name__, target)
        if not proper or dirty:
            assert not ok or not proper, (fn.__name__, flags(arr))
            assert not (ok and dirty), fn.__name__
        elif len(args) == 1:
            assert ok, (fn.__name__, flags(arr))
    if not proper or dirty:
        return
    n = len(arr)
    expect = [scalar_stats(int(c)) for c in arr]
    assert outs["batch_count_pairs"].tolist() == [e[1] for e in expect]
    assert outs["batch_run_score"].tolist() == [e[2] for e in expect]
    assert outs["batch_suit_counts"].shape == (n, 4)
    assert [tuple(r) for r in outs["batch_suit_counts"].tolist()] == [e[3] for e in expect]
    assert outs["batch_longest_suit_run"].tolist() == [e[4] for e in expect]
    stats = outs["batch_hand_stats"]
    for path in C._combos_paths():  # every kernel path gives the same
        ok, forced = attempt(C._batch_hand_stats_path, path, arr, target)
        assert ok == (stats is not None)
        if ok:
            for got, want in zip(forced, stats, strict=True):
                assert np.array_equal(got, want)
    if stats is not None:
        fifteens, pairs, run_score, suits = stats
        assert fifteens.tolist() == [C.count_fifteens(int(c), target) for c in arr]
        assert fifteens.tolist() == outs["batch_count_fifteens"].tolist()
        assert pairs.tolist() == [e[1] for e in expect]
        assert run_score.tolist() == [e[2] for e in expect]
        assert np.array_equal(suits, outs["batch_suit_counts"])


@examples(100)
@given(path=anything, arr=u64_arrays, target=st.one_of(st.just(15), any_int))
def test_kernel_paths(path: Any, arr: Any, target: Any) -> None:
    ok, stats = attempt(C._batch_hand_stats_path, path, arr, target)
    if ok:
        assert is_int(path) and int(path) in C._combos_paths()
        want = C.batch_hand_stats(arr, target)
        for got, w in zip(stats, want, strict=True):
            assert np.array_equal(got, w)


@examples(80)
@given(n=count_arg, k=st.one_of(st.integers(-2, 54), any_int, junk), seed=seed_arg)
def test_random_hands(n: Any, k: Any, seed: Any) -> None:
    hands = strict(C.random_hands, (n, k, seed), ((0, 2**27), (0, 52), (0, U64)))
    if hands is not None:
        assert hands.dtype == np.uint64 and hands.shape == (int(n),)
        for h in hands.tolist():
            assert not h & ~DECK52_MASK and bin(h).count("1") == int(k)


# ---------------------------------------------------------------------------
# game-specific functions: the Game of Nancy


def strip_padding(row: Sequence[int]) -> list[int] | None:
    """A -1 padded trick row as a card list, None if the padding is not at the end."""
    cards = list(row)
    while cards and cards[-1] == -1:
        cards.pop()
    return None if -1 in cards else cards


@examples(600)
@given(holding=nancy_arg, trick=id_list, overtrump=anything, mode=anything)
def test_nancy_scalar(holding: Any, trick: Any, overtrump: Any, mode: Any) -> None:
    ok, legal = attempt(C.nancy_legal_cards, holding, trick, overtrump)
    if ok:
        assert legal & ~holding == 0
        assert legal or not holding  # some card is always playable
    ok, winner = attempt(C.nancy_trick_winner, trick)
    if ok:
        assert -1 <= winner < len(trick)
    ok, objectives = attempt(C.nancy_objectives, holding, mode)
    if ok:
        assert 0 <= objectives < 128


@examples(400)
@given(args=st.lists(anything, min_size=6, max_size=6))
def test_nancy_scores(args: list[Any]) -> None:
    nplayers, taker, partner, bid, completed, won = args
    ok, base = attempt(C.nancy_base_score, bid, completed, won)
    if ok:
        assert isinstance(base, int)
    ok, points = attempt(C.nancy_settlement, nplayers, taker, partner, bid, completed, won)
    if ok:
        assert len(points) == int(nplayers) and sum(points) == 0
    params = C.game_info("nancy")
    defaults = [p["default"] for p in params["params"]]
    for rules in (defaults, [bid] * len(defaults), bid):
        ok, schedule = attempt(C.nancy_deal_schedule, rules, nplayers, taker)
        if ok:
            assert len(schedule) == 78 and max(schedule) == int(nplayers) - 1


@examples(300)
@given(
    holdings=array_of(st.one_of(st.integers(0, U64), st.just(0)), np.uint64, ndim=2),
    tricks=array_of(st.one_of(st.integers(-1, 77), st.integers(-128, 127)), np.int8, ndim=2),
    mode=anything,
    overtrump=st.booleans(),
)
def test_nancy_batch(holdings: Any, tricks: Any, mode: Any, overtrump: bool) -> None:
    # keep most rows inside the deck so that the kernels run
    if is_proper(holdings, np.uint64, 2) and holdings.shape[1] == 2 and holdings.flags.writeable:
        holdings[:-1, 0] &= np.uint64(NANCY_LO_MASK)
        holdings[:-1, 1] &= np.uint64(NANCY_HI_MASK)
    ok, legal = attempt(C.nancy_batch_legal_cards, holdings, tricks, overtrump)
    if ok:
        assert legal.shape == (len(holdings), 2) and legal.dtype == np.uint64
        for row, (lo, hi), t in zip(
            legal.tolist(), holdings.tolist(), tricks.tolist(), strict=True
        ):
            holding = lo | hi << 64
            assert (row[0] | row[1] << 64) & ~holding == 0
            cards = strip_padding(t)
            if cards is not None:
                ok1, one = attempt(C.nancy_legal_cards, holding, cards, overtrump)
                if ok1:
                    assert one == row[0] | row[1] << 64
    ok, winners = attempt(C.nancy_batch_trick_winner, tricks)
    if ok:
        assert winners.shape == (len(tricks),) and winners.dtype == np.int8
        for w, t in zip(winners.tolist(), tricks.tolist(), strict=True):
            cards = strip_padding(t)
            assert cards is not None and -1 <= w < len(cards)
            assert w == C.nancy_trick_winner(cards)
    ok, objectives = attempt(C.nancy_batch_objectives, holdings, mode)
    if ok:
        assert objectives.shape == (len(holdings),) and objectives.dtype == np.uint16
        for o, (lo, hi) in zip(objectives.tolist(), holdings.tolist(), strict=True):
            assert o == C.nancy_objectives(lo | hi << 64, mode)


# ---------------------------------------------------------------------------
# game-specific functions: Nodde Knave

NODDE_PARAMS = st.one_of(
    st.tuples(
        *[st.integers(0, 1)] * 5, *[st.integers(0, 2)] * 2, st.integers(0, 1), st.integers(1, 121)
    ),
    st.lists(st.one_of(st.integers(-1, 3), st.sampled_from(EDGE_INTS)), min_size=9, max_size=9),
    st.lists(anything, max_size=11),
    junk,
)


@examples(500)
@given(hand=card_arg, turnup=st.one_of(card_id, junk), seq=id_list, params=NODDE_PARAMS)
def test_nodde_scalar(hand: Any, turnup: Any, seq: Any, params: Any) -> None:
    ok, items = attempt(C.nodde_score_hand, hand, turnup, params)
    if ok:
        cards = int(hand) | card_set([int(turnup)])
        for kind, item_cards, points in items:
            assert 0 <= kind <= 8 and item_cards & ~cards == 0 and points > 0
    ok, items = attempt(C.nodde_score_play, seq, params)
    if ok:
        for kind, item_cards, points in items:
            assert 0 <= kind <= 8 and item_cards & ~card_set([int(c) for c in seq]) == 0
            assert points > 0


@examples(200)
@given(
    hands=array_of(st.one_of(valid_sets, st.integers(0, U64)), np.uint64),
    turnups=array_of(st.integers(0, 255), np.uint8),
    params=NODDE_PARAMS,
    three=st.booleans(),
)
def test_nodde_batch(hands: Any, turnups: Any, params: Any, three: bool) -> None:
    if three and is_proper(hands, np.uint64) and hands.flags.writeable:
        # 3-card hands so that most rows are valid deals
        hands[:] = C.random_hands(len(hands), 3, len(hands))
    ok, scores = attempt(C.nodde_batch_score_hand, hands, turnups, params)
    if ok:
        assert scores.shape == (len(hands),) and scores.dtype == np.int32
        for s, h, t in zip(scores.tolist(), hands.tolist(), turnups.tolist(), strict=True):
            assert s == sum(points for _, _, points in C.nodde_score_hand(h, t, params))
    ok, hist = attempt(C.nodde_hand_distribution, params)
    if ok:
        assert hist.dtype == np.int64 and int(hist.sum()) == 22100 * 49 and hist.min() >= 0


# ---------------------------------------------------------------------------
# game-specific functions: cribbage

CRIBBAGE_PARAMS = st.one_of(
    st.tuples(
        st.integers(1, 121),
        st.integers(0, 1),
        st.integers(-1, 3),
        st.integers(0, 1),
        st.integers(0, 1),
        st.integers(0, 1),
    ),
    st.lists(st.one_of(st.integers(-2, 122), st.sampled_from(EDGE_INTS)), min_size=6, max_size=6),
    st.lists(anything, max_size=7),
    junk,
)
crib_flag = st.one_of(st.booleans(), anything)


@examples(500)
@given(
    hand=card_arg, starter=st.one_of(card_id, junk), crib=crib_flag, seq=id_list,
    params=CRIBBAGE_PARAMS,
)  # fmt: skip
def test_cribbage_scalar(hand: Any, starter: Any, crib: Any, seq: Any, params: Any) -> None:
    ok, items = attempt(C.cribbage_score_show, hand, starter, crib, params)
    if ok:
        cards = int(hand) | card_set([int(starter)])
        for kind, item_cards, points in items:
            assert 0 <= kind <= 4 and item_cards & ~cards == 0 and points > 0
    ok, items = attempt(C.cribbage_score_play, seq)
    if ok:
        for kind, item_cards, points in items:
            assert kind in (0, 1, 2, 5) and item_cards & ~card_set([int(c) for c in seq]) == 0
            assert points > 0


@examples(200)
@given(
    hands=array_of(st.one_of(valid_sets, st.integers(0, U64)), np.uint64),
    starters=array_of(st.integers(0, 255), np.uint8),
    crib=crib_flag,
    params=CRIBBAGE_PARAMS,
    size=st.sampled_from([4, 6]),
)
def test_cribbage_batch(hands: Any, starters: Any, crib: Any, params: Any, size: int) -> None:
    if is_proper(hands, np.uint64) and hands.flags.writeable:
        hands[:] = C.random_hands(len(hands), size, len(hands))
    ok, scores = attempt(C.cribbage_batch_score_show, hands, starters, crib, params)
    if ok:
        assert scores.shape == (len(hands),) and scores.dtype == np.int32
        for s, h, t in zip(scores.tolist(), hands.tolist(), starters.tolist(), strict=True):
            assert s == sum(points for _, _, points in C.cribbage_score_show(h, t, crib, params))
    ok, result = attempt(C.cribbage_batch_discards, hands, params, crib)
    if ok:
        sums, cribs = result
        assert sums.shape == (len(hands), 15) and (cribs is None) == (not crib)
        assert sums.min(initial=0) >= 0 and sums.max(initial=0) <= 46 * 29


@examples(20)
@given(hand=card_arg, crib=crib_flag, params=CRIBBAGE_PARAMS)
def test_cribbage_slow_functions(hand: Any, crib: Any, params: Any) -> None:
    ok, out = attempt(C.cribbage_crib_exact, hand, params)
    if ok:
        assert out.shape == (15,) and (out >= 0).all() and (out <= 29).all()
    ok, hist = attempt(C.cribbage_show_distribution, crib, params)
    if ok:
        assert hist.dtype == np.int64 and int(hist.sum()) == 270725 * 48 and hist.min() >= 0


# ---------------------------------------------------------------------------
# game-specific functions: No Takers? (when the engine has it)

NOTAKERS = hasattr(C, "notakers_points")


@pytest.mark.skipif(not NOTAKERS, reason="this engine has no No Takers?")
@examples(250)
@given(cards=card_arg, ace=anything, tiebreak=anything, arr=u64_arrays)
def test_notakers(cards: Any, ace: Any, tiebreak: Any, arr: Any) -> None:
    ok, points = attempt(C.notakers_points, cards, ace)
    if ok:
        assert isinstance(points, int) and points >= 0
    ok, exact = attempt(C.notakers_splits_exactly, cards, ace)
    if ok:
        assert isinstance(exact, bool)
    ok, best = attempt(C.notakers_best_split, cards, ace, tiebreak)
    if ok:
        total, sets = best
        assert total == C.notakers_points(cards, ace)
        for _kind, set_cards, *_ in sets:
            assert set_cards & ~cards == 0
    for junk_state in (None, cards, C.GameState(), C.GameState.__new__(C.GameState)):
        assert not attempt(C.notakers_knowledge, junk_state, 0)[0]
    ok, batch_points = attempt(C.notakers_batch_points, arr, ace)
    if ok:
        assert batch_points.shape == (len(arr),) and batch_points.dtype == np.int32
        assert batch_points.tolist() == [C.notakers_points(int(c), ace) for c in arr]


# ---------------------------------------------------------------------------
# the generic game table: every registered game

GAMES: list[str] = C.game_names()
INFO = {name: C.game_info(name) for name in GAMES}
PROBE_VALUES = [*range(-2, 14), 120, 121, 122, 999, 1000, 1001]


def _default_params(name: str) -> tuple[int, ...]:
    from pycards.game import load_game

    params: tuple[int, ...] = load_game(name).params
    return params


def _param_ranges(name: str) -> list[list[int]]:
    """For each rules parameter, the probe values the engine accepts."""
    base = list(_default_params(name))
    nplayers = INFO[name]["min_players"]
    ranges = []
    for i in range(len(base)):
        ok_values = []
        for v in PROBE_VALUES:
            params = [*base[:i], v, *base[i + 1 :]]
            if attempt(C.new_state, name, params, nplayers, 0)[0]:
                ok_values.append(v)
        ranges.append(ok_values or [base[i]])
    return ranges


def _deck_size(name: str) -> int | None:
    """Size of the game's deck for new_state(deck=...), None if it has none."""
    params = _default_params(name)
    for k in range(257):
        if attempt(C.new_state, name, params, INFO[name]["min_players"], 0, list(range(k)))[0]:
            return k
    return None


RANGES = {name: _param_ranges(name) for name in GAMES}
DECKS = {name: _deck_size(name) for name in GAMES}


def params_for(name: str, broken: bool = False) -> st.SearchStrategy[Any]:
    """Rules parameters in the engine's ranges, or (broken) anything near them."""
    valid = st.tuples(*[st.sampled_from(r) for r in RANGES[name]])
    if not broken:
        return valid
    size = INFO[name]["num_params"]
    mutated = st.tuples(valid, st.integers(0, size - 1), any_int).map(
        lambda t: (*t[0][: t[1]], t[2], *t[0][t[1] + 1 :])
    )
    wrong = st.lists(st.one_of(any_int, junk), max_size=size + 2)
    return st.one_of(mutated, mutated, wrong, junk)


def deck_for(name: str, broken: bool = False) -> st.SearchStrategy[Any]:
    """None or a permutation of the game's deck, or (broken) anything near one."""
    size = DECKS[name]
    if size is None:  # the game cannot be dealt from a given deck
        return st.lists(st.integers(0, 80), max_size=80) if broken else st.none()
    perm = st.permutations(range(size))
    if not broken:
        return st.one_of(st.none(), perm)
    return st.one_of(
        st.tuples(perm, st.integers(0, size - 1), card_id).map(
            lambda t: [*t[0][: t[1]], t[2], *t[0][t[1] + 1 :]]
        ),
        perm.map(lambda p: p[:-1]),
        perm.map(lambda p: [*p, 0]),
        perm.map(lambda p: [*p, *p]),
        st.lists(st.integers(0, 255), min_size=257, max_size=300),
        st.lists(st.one_of(card_id, junk), max_size=size + 2),
        junk,
    )


def legal_of(state: Any) -> list[int]:
    legal: list[int] = state.legal_actions()
    return legal


def check_state(state: Any) -> None:
    """A well-formed state: player, legal actions, mask, returns and tensors agree."""
    n = state.nplayers
    player = state.current_player()
    assert player == TERMINAL or 0 <= player < n
    num_actions = state.num_actions()
    assert 0 < num_actions <= 1024
    legal = legal_of(state)
    assert legal == sorted(set(legal)) and all(0 <= a < num_actions for a in legal)
    assert (player == TERMINAL) == (not legal)
    assert state.legal_mask() == sum(1 << a for a in legal)
    returns = state.returns()
    assert len(returns) == n and all(isinstance(r, int) for r in returns)
    for kind, who, target, value, extra, seen_by in state.events():
        assert all(isinstance(x, int) for x in (kind, who, target, value, extra))
        assert 0 <= seen_by <= 0xFFFFFFFF
    assert len(state.raw()) > 0


def play_random(state: Any, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        legal = legal_of(state)
        if not legal:
            return
        assert state.apply(rng.choice(legal)) == 0


action_arg = st.one_of(
    st.integers(-3, 1030), st.sampled_from(EDGE_INTS), st.integers(-(2**31), 2**31 - 1), junk
)


def apply_junk(state: Any, action: Any) -> None:
    """verify/apply of any action: legal ones apply, others leave the state as it was."""
    legal = set(legal_of(state))
    before = state.raw()
    ok, code = attempt(state.verify, action)
    # (the binding truncates a float to an int like every C integer argument)
    is_legal = ok and action in legal and isinstance(action, int)
    if ok and isinstance(action, int):
        assert (code == 0) == is_legal, (action, code)
    if ok:
        ok_text, text = attempt(state.reason_text, code)
        assert ok_text and isinstance(text, str)
    ok, rc = attempt(state.apply, action)
    if is_legal:
        assert ok and rc == 0
    elif ok and rc == 0:
        assert not isinstance(action, int), action
    else:
        assert state.raw() == before


@examples(1200)
@given(data=st.data())
def test_game_states(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(GAMES), label="game")
    info = INFO[name]
    # mostly valid arguments, sometimes one of them broken
    broken = data.draw(st.sampled_from(["none"] * 6 + ["nplayers", "params", "seed", "deck"]))
    players = st.integers(info["min_players"], info["max_players"])
    if broken == "nplayers":
        players = st.one_of(st.integers(info["min_players"] - 2, info["max_players"] + 2), anything)
    nplayers = data.draw(players, label="nplayers")
    params = data.draw(params_for(name, broken == "params"), label="params")
    seeds = seed_arg if broken == "seed" else st.integers(0, U64)
    seed = data.draw(seeds, label="seed")
    deck = data.draw(deck_for(name, broken == "deck"), label="deck")
    ok, state = attempt(C.new_state, name, params, nplayers, seed, deck)
    event(f"new_state {'made a state' if ok else 'refused'}")
    if not ok:
        return
    assert isinstance(state, C.GameState) and state.nplayers == int(nplayers)
    if deck is not None:
        assert sorted(deck) == list(range(DECKS[name] or 0))
    tensor_size = state.tensor_size()
    rng = random.Random(data.draw(st.integers(0, 2**32), label="play seed"))
    check_state(state)
    for _ in range(data.draw(st.integers(1, 12), label="ops")):
        op = data.draw(
            st.sampled_from(
                ["legal", "forward", "to_end", "junk", "sample", "observe", "clone", "knowledge"]
            )
        )
        if op == "legal":
            play_random(state, rng, 1)
        elif op == "forward":
            play_random(state, rng, data.draw(st.integers(0, 300)))
        elif op == "to_end":
            play_random(state, rng, 20000)
        elif op == "junk":
            apply_junk(state, data.draw(action_arg))
        elif op == "sample":
            player = data.draw(st.one_of(st.integers(-1, state.nplayers), anything))
            ok, sample = attempt(state.sample_infoset, player, data.draw(seed_arg))
            if ok:
                check_state(sample)
                assert sample.current_player() == state.current_player()
                assert np.array_equal(sample.observe_tensor(player), state.observe_tensor(player))
                if data.draw(st.booleans()):
                    state = sample
        elif op == "knowledge" and NOTAKERS:
            player = data.draw(st.one_of(st.integers(-1, state.nplayers), anything))
            ok, known = attempt(C.notakers_knowledge, state, player)
            if ok:
                assert name == "notakers" and len(known) == 3
                assert all(len(part) == state.nplayers for part in known)
        elif op == "observe":
            player = data.draw(st.one_of(st.integers(-1, state.nplayers), anything))
            ok, tensor = attempt(state.observe_tensor, player)
            if ok:
                assert tensor.shape == (tensor_size,) and tensor.dtype == np.float32
                assert np.all(np.isfinite(tensor))
        else:
            twin = state.clone()
            before = state.raw()
            assert twin.raw() == before
            play_random(twin, rng, 3)
            assert state.raw() == before
        check_state(state)
    event(f"ended {'terminal' if state.current_player() == TERMINAL else 'in play'}")
    for code in data.draw(st.lists(any_int, max_size=3)):
        ok, text = attempt(state.reason_text, code)
        assert not ok or isinstance(text, str)


@examples(120)
@given(data=st.data())
def test_game_table_lookups(data: st.DataObject) -> None:
    name = data.draw(st.one_of(st.sampled_from(GAMES), st.text(max_size=8), junk))
    ok, info = attempt(C.game_info, name)
    if ok:
        assert name in GAMES and info["name"] == name
        assert {"min_players", "max_players", "num_params", "params", "event_kinds"} <= set(info)
    if name in GAMES:
        params: Any = data.draw(params_for(name, data.draw(st.booleans())))
        nplayers = data.draw(st.integers(INFO[name]["min_players"] - 1, 9))
    else:
        params, nplayers = data.draw(anything), data.draw(anything)
    ok, _ = attempt(C.check_params, name, params, nplayers)
    ok_setup, setup = attempt(C.GameSetup, name, params, nplayers)
    assert ok_setup == ok or not ok
    if ok_setup:
        ok_state, state = attempt(setup.new_state, data.draw(seed_arg))
        if ok_state:
            assert state.nplayers == setup.nplayers and state.num_actions() == setup.num_actions
    ok_segments, segments = attempt(C.segments, name, params, nplayers)
    assert ok_segments == ok or not ok_segments or nplayers == 0
    if ok_segments:
        offset = 0
        for seg in segments:
            assert seg["offset"] == offset and seg["length"] > 0
            offset += seg["length"]
    ngames = data.draw(st.one_of(st.integers(-2, 2), st.sampled_from(OVERFLOWING), junk))
    ok, out = attempt(C.random_playouts, name, params, nplayers, data.draw(seed_arg), ngames)
    if ok:
        steps, points = out
        assert steps >= 0 and len(points) == int(nplayers)


@examples(60)
@given(data=st.data())
def test_deal_index_and_thread_default(data: st.DataObject) -> None:
    # deal_index takes a live GameState and nothing else; its answer is a
    # (deals finished, dealer seat) pair in range, or None for one-deal games
    arg = data.draw(anything)
    with pytest.raises(TypeError):
        C.deal_index(arg)
    name = data.draw(st.sampled_from(GAMES))
    nplayers = data.draw(st.integers(INFO[name]["min_players"], INFO[name]["max_players"]))
    params = data.draw(params_for(name))
    ok, state = attempt(C.new_state, name, params, nplayers, data.draw(st.integers(0, 2**64 - 1)))
    assume(ok)  # some rules exclude some player counts
    for a in data.draw(st.lists(st.integers(0, 10**6), max_size=40)):
        legal = state.legal_actions()
        if not legal:
            break
        state.apply(legal[a % len(legal)])
    got = C.deal_index(state)
    assert got is None or (got[0] >= 0 and -1 <= got[1] < nplayers), got
    threads = C.batch_threads_default()
    assert isinstance(threads, int) and threads >= 1
    # search_defaults takes nothing, and answers the engine's defaults, the same each call
    ok, _ = attempt(C.search_defaults, data.draw(anything))
    assert not ok
    defaults = C.search_defaults()
    assert type(defaults["simulations"]) is int and defaults == C.search_defaults(), defaults


@examples(60)
@given(data=st.data())
def test_weighted_worlds(data: st.DataObject) -> None:
    # infer_supported / infer_world_deck / infer_weights: a live GameState or
    # TypeError; any seed, observer, action list, record, eps, ties and node
    # cap is answered with a result or a typed error, never a crash
    for fn in (C.infer_supported, C.infer_world_deck):
        ok, _ = attempt(fn, *([data.draw(anything)] * (1 if fn is C.infer_supported else 2)))
        assert not ok
    name = data.draw(st.sampled_from(GAMES))
    nplayers = data.draw(st.integers(INFO[name]["min_players"], INFO[name]["max_players"]))
    params = data.draw(params_for(name))
    ok, state = attempt(C.new_state, name, params, nplayers, data.draw(st.integers(0, 2**64 - 1)))
    assume(ok)
    for a in data.draw(st.lists(st.integers(0, 10**6), max_size=30)):
        legal = state.legal_actions()
        if not legal:
            break
        state.apply(legal[a % len(legal)])
    assert isinstance(C.infer_supported(state), bool)
    observer = data.draw(st.one_of(st.integers(-2, nplayers + 1), junk))
    ok, sample = attempt(state.sample_infoset, observer, data.draw(seed_arg))
    if not ok:
        return
    ok, deck = attempt(C.infer_world_deck, sample, data.draw(seed_arg))
    if ok:
        assert sorted(deck) == list(range(len(deck)))
    steps = data.draw(st.integers(0, 6))
    actions = data.draw(
        st.lists(st.one_of(st.integers(-3, 400), st.sampled_from(OVERFLOWING), junk),
                 min_size=steps, max_size=steps)
    )  # fmt: skip
    rows = data.draw(st.sampled_from([steps + 1, steps, 0]))
    width = data.draw(st.sampled_from([state.tensor_size(), 1]))
    record = data.draw(
        st.sampled_from(
            [
                np.zeros((rows, width), dtype=np.float32),
                np.ones((rows, width), dtype=np.float64),
                np.zeros((rows, width), dtype=np.float32)[:, ::-1] if width > 1 else None,
                None,
            ]
        )
    )
    eps = data.draw(st.one_of(st.floats(allow_nan=True, allow_infinity=True), junk))
    ties = data.draw(st.one_of(st.integers(-1, 9), st.sampled_from(OVERFLOWING), junk))
    cap = data.draw(st.one_of(st.integers(0, 50), st.sampled_from(OVERFLOWING), junk))
    samples = data.draw(st.sampled_from([[sample], [sample, sample], [], [sample, None]]))
    ok, out = attempt(
        C.infer_weights, samples, data.draw(seed_arg), observer, actions, record, eps, ties, cap
    )
    if ok:
        weights, nodes = out
        assert len(weights) == len(samples) and nodes >= 0
        assert all(w >= 0.0 for w in weights)


@examples(60)
@given(data=st.data())
def test_notakers_sample_history_arguments(data: st.DataObject) -> None:
    # a No Takers? state with a history, or a typed refusal; any seat, seed
    # and number of tries: a world and log q <= 0, or a typed error
    name = data.draw(st.sampled_from(GAMES))
    nplayers = data.draw(st.integers(INFO[name]["min_players"], INFO[name]["max_players"]))
    ok, state = attempt(
        C.new_state,
        name,
        data.draw(params_for(name)),
        nplayers,
        data.draw(st.integers(0, 2**64 - 1)),
    )
    assume(ok)
    for a in data.draw(st.lists(st.integers(0, 10**6), max_size=40)):
        legal = state.legal_actions()
        if not legal:
            break
        state.apply(legal[a % len(legal)])
    player = data.draw(st.one_of(st.integers(-2, nplayers + 1), any_int, junk))
    tries = data.draw(st.one_of(st.integers(-1, 30), st.sampled_from(OVERFLOWING), junk))
    ok, sample = attempt(state.sample_infoset, 0, 1)
    subject = data.draw(st.sampled_from([state, state, state, sample, None, 3]))
    ok, out = attempt(C.notakers_sample_history, subject, player, data.draw(seed_arg), tries)
    if ok:
        world, lq = out
        assert name == "notakers" and subject is state
        assert isinstance(world, C.GameState) and math.isfinite(lq) and lq <= 1e-9
        assert world.current_player() == state.current_player()


def test_copies_of_states() -> None:
    """copy and pickle of a C state refuse (a state is only made by new_state)."""
    state = C.new_state(GAMES[0], _default_params(GAMES[0]), INFO[GAMES[0]]["min_players"], 1)
    for fn in (copy.copy, copy.deepcopy, pickle.dumps):
        ok, _ = attempt(fn, state)
        assert not ok
    for empty in (C.GameState(), C.GameState.__new__(C.GameState)):
        for method in ("current_player", "legal_actions", "events", "clone", "raw"):
            assert not attempt(getattr(empty, method))[0]


# ---------------------------------------------------------------------------
# the search bots and the vector environment: any argument is accepted or
# refused with TypeError/ValueError, never a crash


def _nodde_setup() -> Any:
    from pycards.game import load_game

    return load_game("nodde", num_players=2)._setup


kinds = st.one_of(st.sampled_from(["random", "heuristic", "pimc", "ismcts", "mcts", ""]), junk)
rollouts = st.one_of(st.sampled_from(["random", "heuristic", "greedy"]), junk)
reals = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.none(), junk, any_int)


@examples(80)
@given(
    kind=kinds,
    sims=st.one_of(count_arg, any_int),
    seconds=reals,
    rollout=rollouts,
    c=reals,
    samples=st.one_of(count_arg, any_int),
)
def test_search_bot_arguments(
    kind: Any, sims: Any, seconds: Any, rollout: Any, c: Any, samples: Any
) -> None:
    setup = _nodde_setup()
    ok, _ = attempt(C.check_bot, kind, sims, seconds, rollout, c, samples)
    ok2, bot = attempt(C.Searcher, setup, kind, sims, seconds, rollout, c, samples)
    assert ok == ok2
    if ok2 and isinstance(sims, int) and sims <= 50 and (seconds is None):
        state = C.GameSetup.new_state(setup, 1)
        attempt(bot.reset, 3)
        legal = state.legal_actions()
        ok3, action = attempt(bot.act, state)
        assert not ok3 or action in legal


@examples(60)
@given(
    deals=st.one_of(st.lists(seed_arg, max_size=3), junk),
    seeds=st.one_of(st.lists(st.lists(seed_arg, max_size=3), max_size=3), junk),
    count=st.integers(0, 3),
)
def test_play_match_arguments(deals: Any, seeds: Any, count: int) -> None:
    setup = _nodde_setup()
    bots = [C.Searcher(setup, "random") for _ in range(count)]
    ok, out = attempt(C.play_match, setup, bots, deals, seeds)
    if ok:
        returns, _moves, _secs = out
        assert returns.shape == (len(deals), 2) and count == 2


@examples(60)
@given(
    n=st.one_of(count_arg, any_int),
    seed=seed_arg,
    learner=any_int,
    opponent=st.one_of(st.sampled_from(["random", "heuristic", "ismcts"]), junk),
    threads=st.one_of(count_arg, any_int),
    events=st.one_of(st.booleans(), junk),
)
def test_vector_env_arguments(
    n: Any, seed: Any, learner: Any, opponent: Any, threads: Any, events: Any
) -> None:
    setup = _nodde_setup()
    ok, env = attempt(C.VecEnv, setup, n, seed, learner, opponent, threads, events)
    if not ok:
        return
    size, k = env.tensor_size, env.num_envs
    obs = np.zeros((k, size), np.float32)
    masks = np.zeros((k, env.num_actions), np.int8)
    env.reset(obs, masks)
    actions = np.zeros(k, np.int32)
    env.random_actions(actions)
    rewards, done = np.zeros(k, np.float32), np.zeros(k, np.bool_)
    env.step(actions, obs, masks, rewards, done)
    for bad in (obs[:, :-1], obs.astype(np.float64), masks.astype(np.int32)):
        with pytest.raises((TypeError, ValueError)):
            env.step(
                actions,
                bad if bad.dtype != np.int32 else obs,
                masks if bad.dtype != np.int32 else bad,
                rewards,
                done,
            )


# ---------------------------------------------------------------------------
# networks (cc_net.h): made from any arrays, evaluated on any observations

net_dim = st.one_of(st.integers(-2, 9), st.sampled_from(OVERFLOWING), count_junk)


@st.composite
def net_layers(draw: st.DrawFn, inputs: int, hidden: list[int], heads: tuple[int, int]) -> Any:
    """The layers of a network (hidden layers chained from ``inputs``, then
    the policy and value heads, both reading the last hidden layer), valid
    or with one piece spoilt: a dtype, a shape, a value, a shift, a layer
    that is not one, or junk for the whole."""
    layers: list[Any] = []
    fans = [inputs, *hidden]
    for k, out in enumerate([*hidden, *heads]):
        fan_in = fans[min(k, len(fans) - 1)]
        # small weights mostly (a sum that could pass 2**31 - 1 is refused)
        big = draw(st.integers(0, 5)) == 0
        wmax, bmax = (2**15 - 1, 2**31 - 1) if big else (40, 2**12)
        n = out * fan_in
        w = draw(st.lists(st.integers(-wmax - 1, wmax), min_size=n, max_size=n))
        b = draw(st.lists(st.integers(-bmax - 1, bmax), min_size=out, max_size=out))
        weight = np.array(w, np.int16).reshape(out, fan_in)
        layers.append((weight, np.array(b, np.int32), draw(st.integers(7, 14))))
    spoil = draw(st.integers(0, 8))
    k = draw(st.integers(0, len(layers) - 1))
    weight, bias, shift = layers[k]
    if spoil == 1:
        layers[k] = (
            weight.astype(draw(st.sampled_from([np.int32, np.int8, np.float32]))),
            bias,
            shift,
        )
    elif spoil == 2:
        layers[k] = (weight, bias.astype(draw(st.sampled_from([np.int16, np.int64]))), shift)
    elif spoil == 3:
        layers[k] = (weight.T, bias, shift)
    elif spoil == 4:
        layers[k] = (weight, bias, draw(st.one_of(st.integers(-2, 40), any_int, junk)))
    elif spoil == 5:
        layers[k] = draw(st.sampled_from([(weight, bias), junk, [weight, bias, shift]]))
    elif spoil == 6:
        del layers[k]
    elif spoil == 7:
        return draw(junk)
    return layers


@examples(150)
@given(data=st.data(), path=st.one_of(st.sampled_from(["auto", "portable", "avx2"]), junk))
def test_net_arguments(data: st.DataObject, path: Any) -> None:
    inputs = data.draw(st.integers(1, 6))
    hidden = data.draw(st.lists(st.integers(1, 5), max_size=data.draw(st.sampled_from([3, 4, 5]))))
    actions, players = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 4))
    layers = data.draw(net_layers(inputs, hidden, (actions, players)))
    sizes: list[Any] = [inputs, actions, players]
    if data.draw(st.integers(0, 3)) == 0:
        sizes = [data.draw(st.one_of(st.just(v), net_dim)) for v in sizes]
    ok, net = attempt(C.Net, *sizes, layers)
    if not ok:
        return
    assert (net.input_size, net.num_actions, net.num_players) == tuple(sizes)
    rows = data.draw(st.integers(0, 4))
    obs = np.array(
        data.draw(
            st.lists(
                st.floats(width=32, allow_nan=True, allow_infinity=True),
                min_size=rows * inputs,
                max_size=rows * inputs,
            )
        ),
        np.float32,
    ).reshape(rows, inputs)
    bad_obs = data.draw(
        st.sampled_from([obs, obs, obs[:, :-1], obs.astype(np.float64), obs.ravel(), None])
    )
    ok, out = attempt(net.evaluate, bad_obs, path)
    if ok:
        policy, value = out
        assert policy.shape == (rows, actions) and value.shape == (rows, players)
        assert policy.dtype == value.dtype == np.float32
    ok, seconds = attempt(net.evaluate_loop, bad_obs, data.draw(st.integers(-3, 3)), path)
    assert not ok or seconds >= 0.0


def test_net_paths() -> None:
    paths = C.net_paths()
    assert "portable" in paths and set(paths) <= {"portable", "avx2"}
    with pytest.raises(TypeError):
        C.net_paths(1)


# ---------------------------------------------------------------------------
# defined games (cc_defined.h): any table is checked, a refused one is never
# registered (nothing here registers a game: the registry is process-wide)

_PORT_TABLES = [port.table() for port in PORTS.values()]
# a table the engine refuses at its first field (the version), whatever the name
_REFUSED = [99, *_PORT_TABLES[0][1:]]
_BEFORE = frozenset(C.game_names())
table_value = st.one_of(st.integers(-3, 70), st.sampled_from(EDGE_INTS), junk)


@st.composite
def defined_tables(draw: st.DrawFn) -> Any:
    """A port's table with a few fields changed, a table of a wrong length,
    or not a table at all."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.one_of(junk, st.lists(table_value, max_size=5)))
    table: list[Any] = list(draw(st.sampled_from(_PORT_TABLES)))
    if kind == 1:
        return table[: draw(st.integers(0, len(table) - 1))]
    if kind == 2:
        return [*table, 0]
    for _ in range(draw(st.integers(1, 3))):
        table[draw(st.integers(0, len(table) - 1))] = draw(table_value)
    return draw(st.sampled_from([table, table, table, tuple(table)]))


@examples(300)
@given(table=defined_tables(), name=st.one_of(st.text(max_size=40), junk))
def test_defined_table_arguments(table: Any, name: Any) -> None:
    ok, bad = attempt(C.defined_check, table)
    if not ok:
        with pytest.raises(ALLOWED):
            C.define_game("fuzz_never_registered", table)
        return
    assert bad == -1 or 0 <= bad < len(table)
    if bad >= 0:
        # refused by the check: refused by the registry too, the same field named
        with pytest.raises(RulesError, match=f"field {bad} "):
            C.define_game("fuzz_never_registered", table)
    # a taken name, or a name that is not one, is refused whatever the table
    for taken in ("nodde", "", "Bad Name", "x" * 40, "a\x00b"):
        with pytest.raises(ALLOWED):
            C.define_game(taken, table)
    if not isinstance(name, str) or not name.isascii() or not name.isidentifier():
        with pytest.raises(ALLOWED):
            C.define_game(name, _PORT_TABLES[0] if bad >= 0 else [0])
    assert "fuzz_never_registered" not in C.game_names()


# ---------------------------------------------------------------------------
# the list of fuzzed functions is complete

FUZZED = {
    "rng_sequence", "shuffled_deck", "Rng",
    "count_fifteens", "count_pairs", "rank_counts", "suit_counts", "runs", "longest_suit_run",
    "batch_count_fifteens", "batch_count_pairs", "batch_suit_counts", "batch_run_score",
    "batch_longest_suit_run", "batch_hand_stats", "random_hands",
    "nancy_legal_cards", "nancy_trick_winner", "nancy_objectives", "nancy_base_score",
    "nancy_settlement", "nancy_deal_schedule", "nancy_batch_legal_cards",
    "nancy_batch_trick_winner", "nancy_batch_objectives",
    "nodde_score_hand", "nodde_score_play", "nodde_batch_score_hand", "nodde_hand_distribution",
    "cribbage_score_show", "cribbage_score_play", "cribbage_batch_score_show",
    "cribbage_show_distribution", "cribbage_batch_discards", "cribbage_crib_exact",
    "notakers_points", "notakers_splits_exactly", "notakers_best_split", "notakers_batch_points",
    "notakers_knowledge",
    "game_names", "game_info", "check_params", "segments", "new_state", "random_playouts",
    "GameState", "GameSetup", "Searcher", "check_bot", "play_match", "VecEnv",
    "deal_index", "batch_threads_default", "search_defaults",
    "infer_supported", "infer_world_deck", "infer_weights",
    "Net", "net_paths", "defined_check", "define_game", "notakers_sample_history",
}  # fmt: skip


def test_every_public_function_is_fuzzed() -> None:
    public = {
        name
        for name in dir(C)
        if not name.startswith("_") and callable(getattr(C, name)) and name != "np"
    }
    assert public - FUZZED == set(), "fuzz these in tests/core/test_fuzz.py"
