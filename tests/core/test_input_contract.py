"""The input contract of cards, card sets, combinations, the batch API and the RNG.

Every bad input is tried on the public API (pycards.cards, pycards.combos,
pycards.batch) and on the binding (cardcore._core) directly:

* a float (Python or numpy), a bool (Python or numpy) or None is never an
  int, a card set, a target, a size or a seed: TypeError naming the argument;
  numpy integers are ints, and what comes back is a Python int;
* an int out of range is the documented ValueError naming the argument,
  whatever its size (never OverflowError), and every size has a cap;
* bits outside the deck are InvalidCardError, the same for the scalar and
  the batch forms of a function;
* cards are ASCII: a Unicode look-alike is no card;
* a French card or card set is not a 78-card one, and vice versa;
* a batch kernel checks and computes each set from one read of it;
* cards and card sets pickle and copy.
"""

from __future__ import annotations

import copy
import ctypes
import pickle
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from cardcore import _core
from pycards import batch, combos
from pycards.cards import (
    Card,
    CardSet,
    NancyCard,
    NancyCardSet,
    deal,
    parse_cards,
    parse_nancy_cards,
    shuffled_deck,
    to_mask52,
    to_mask78,
)
from pycards.errors import InvalidCardError

DECK52_MASK = 0x1FFF1FFF1FFF1FFF
HAND = parse_cards("5H 5S 5C 5D JH").mask
MAX_RNG_SEQUENCE = 1_048_576
MAX_RANDOM_HANDS = 134_217_728

# Values that are not ints, whatever they look like.
NOT_INTS: list[Any] = [
    True, False, np.bool_(True), np.bool_(False), 15.9, 15.0, 0.0, float("nan"),
    np.float64(15.0), np.float32(3.0), None, "15", b"15", 15 + 0j, [15], object(),
]  # fmt: skip
# numpy integer scalars of every width.
NP_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
# Ints far out of every C type's range.
HUGE = [2**31, 2**32, 2**63 - 1, 2**63, 2**64, 2**100, -(2**31) - 1, -(2**63) - 1, -(2**100)]


def u64(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.uint64)


# ---------------------------------------------------------------------------
# the functions under test, public and binding, as (name, call(cards))

SCALAR_CARDS: list[tuple[str, Callable[[Any], Any]]] = [
    ("combos.count_fifteens", lambda c: combos.count_fifteens(c)),
    ("combos.count_pairs", combos.count_pairs),
    ("combos.rank_counts", combos.rank_counts),
    ("combos.suit_counts", combos.suit_counts),
    ("combos.runs", combos.runs),
    ("combos.n_of_a_kind", combos.n_of_a_kind),
    ("combos.longest_suit_run", combos.longest_suit_run),
    ("to_mask52", to_mask52),
    ("CardSet", CardSet),
    ("_core.count_fifteens", lambda c: _core.count_fifteens(c)),
    ("_core.count_pairs", _core.count_pairs),
    ("_core.rank_counts", _core.rank_counts),
    ("_core.suit_counts", _core.suit_counts),
    ("_core.runs", _core.runs),
    ("_core.longest_suit_run", _core.longest_suit_run),
]
BINDING_CARDS = [(name, fn) for name, fn in SCALAR_CARDS if name.startswith("_core.")]

TARGET_FUNCTIONS: list[tuple[str, Callable[[Any], Any]]] = [
    ("combos.count_fifteens", lambda t: combos.count_fifteens(HAND, t)),
    ("batch.count_fifteens", lambda t: batch.count_fifteens(u64(HAND), t)),
    ("batch.hand_stats", lambda t: batch.hand_stats(u64(HAND), t)),
    ("_core.count_fifteens", lambda t: _core.count_fifteens(HAND, t)),
    ("_core.batch_count_fifteens", lambda t: _core.batch_count_fifteens(u64(HAND), t)),
    ("_core.batch_hand_stats", lambda t: _core.batch_hand_stats(u64(HAND), t)),
]

# (scalar, batch) twins: a bad set must give the same exception either way.
TWINS: list[tuple[str, Callable[[Any], Any], Callable[[Any], Any]]] = [
    ("count_fifteens", combos.count_fifteens, batch.count_fifteens),
    ("count_pairs", combos.count_pairs, batch.count_pairs),
    ("runs", combos.runs, batch.runs),
    ("suit_counts", combos.suit_counts, batch.suit_counts),
    ("longest_suit_run", combos.longest_suit_run, batch.longest_suit_run),
    ("hand_stats", combos.count_fifteens, lambda a: batch.hand_stats(a)),
    ("_core count_fifteens", _core.count_fifteens, _core.batch_count_fifteens),
    ("_core count_pairs", _core.count_pairs, _core.batch_count_pairs),
    ("_core runs", _core.runs, _core.batch_run_score),
    ("_core suit_counts", _core.suit_counts, _core.batch_suit_counts),
    ("_core longest_suit_run", _core.longest_suit_run, _core.batch_longest_suit_run),
    ("_core hand_stats", _core.count_pairs, _core.batch_hand_stats),
]


# ---------------------------------------------------------------------------
# floats, bools and None are not ints, card sets, targets, sizes or seeds


@pytest.mark.parametrize(
    ("name", "fn", "bad"),
    [
        pytest.param(name, fn, bad, id=f"{name}-{bad!r}")
        for name, fn in SCALAR_CARDS
        for bad in NOT_INTS[:12]
        # (the public API parses strings as card names)
        if name.startswith("_core.") or not isinstance(bad, str)
    ],
)
def test_not_a_card_set(name: str, fn: Callable[[Any], Any], bad: Any) -> None:
    with pytest.raises(TypeError, match="cards"):
        fn(bad)


@pytest.mark.parametrize("bad", [*NOT_INTS, 1 + 0j], ids=repr)
@pytest.mark.parametrize(("name", "fn"), TARGET_FUNCTIONS, ids=[n for n, _ in TARGET_FUNCTIONS])
def test_not_a_target(name: str, fn: Callable[[Any], Any], bad: Any) -> None:
    with pytest.raises(TypeError, match="target"):
        fn(bad)


def test_issue_examples() -> None:
    h = "5H 5S 5C 5D JH"
    with pytest.raises(TypeError, match=r"target must be an int, got float 15\.9"):
        combos.count_fifteens(h, 15.9)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="cards"):
        combos.count_pairs(True)
    with pytest.raises(TypeError, match="cards"):
        combos.count_fifteens(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="count_fifteens: target must be an int"):
        _core.count_fifteens(HAND, 15.9)
    with pytest.raises(TypeError, match="count_pairs: cards must be an int, got bool"):
        _core.count_pairs(True)
    with pytest.raises(TypeError, match="count_fifteens: cards must be an int, got NoneType"):
        _core.count_fifteens(None)


SIZED: list[tuple[str, Callable[..., Any], tuple[Any, ...], int]] = [
    # (name, function, good arguments, index of the argument under test)
    ("rng_sequence seed", _core.rng_sequence, (1, 3), 0),
    ("rng_sequence n", _core.rng_sequence, (1, 3), 1),
    ("_core.shuffled_deck seed", _core.shuffled_deck, (1, 52), 0),
    ("_core.shuffled_deck n", _core.shuffled_deck, (1, 52), 1),
    ("shuffled_deck seed", shuffled_deck, (1, 52), 0),
    ("shuffled_deck size", shuffled_deck, (1, 52), 1),
    ("_core.random_hands n", _core.random_hands, (3, 5, 1), 0),
    ("_core.random_hands k", _core.random_hands, (3, 5, 1), 1),
    ("_core.random_hands seed", _core.random_hands, (3, 5, 1), 2),
    ("batch.random_hands n", batch.random_hands, (3, 5, 1), 0),
    ("batch.random_hands k", batch.random_hands, (3, 5, 1), 1),
    ("batch.random_hands seed", batch.random_hands, (3, 5, 1), 2),
    ("deal seed", deal, (1, 4, 13), 0),
    ("deal hands", deal, (1, 4, 13), 1),
    ("deal cards_each", deal, (1, 4, 13), 2),
    ("_batch_hand_stats_path path", _core._batch_hand_stats_path, (0, u64(HAND), 15), 0),
]


@pytest.mark.parametrize("bad", NOT_INTS, ids=repr)
@pytest.mark.parametrize(("name", "fn", "args", "at"), SIZED, ids=[s[0] for s in SIZED])
def test_not_a_size_or_seed(
    name: str, fn: Callable[..., Any], args: tuple[Any, ...], at: int, bad: Any
) -> None:
    fn(*args)  # the good call works
    bad_args = list(args)
    bad_args[at] = bad
    with pytest.raises(TypeError, match="must be an int"):
        fn(*bad_args)


@pytest.mark.parametrize("np_int", NP_INTS, ids=lambda t: t.__name__)
def test_numpy_integers_are_ints(np_int: Any) -> None:
    small = np_int(5)
    assert combos.count_fifteens(np.uint64(HAND), np_int(15)) == 8
    assert type(combos.count_fifteens(HAND, np_int(15))) is int
    assert type(_core.count_fifteens(HAND, np_int(15))) is int
    assert type(_core.count_pairs(np.uint64(HAND))) is int
    assert _core.count_pairs(np.int64(HAND)) == 6
    assert batch.count_fifteens(u64(HAND), np_int(15)).tolist() == [8]
    assert _core.rng_sequence(np_int(7), small) == _core.rng_sequence(7, 5)
    assert all(type(x) is int for x in _core.rng_sequence(np_int(7), small))
    assert _core.shuffled_deck(np_int(7), np_int(52)) == _core.shuffled_deck(7, 52)
    assert shuffled_deck(np_int(7), np_int(52)) == shuffled_deck(7, 52)
    assert np.array_equal(batch.random_hands(small, small, np_int(9)), batch.random_hands(5, 5, 9))
    assert deal(np_int(3), np_int(4), np_int(13)) == deal(3, 4, 13)
    assert Card(np_int(5)) == 5 and type(int(Card(np_int(5)))) is int
    assert CardSet(np_int(3)) == CardSet("AC 2C")
    assert CardSet.from_mask(np_int(3)) == CardSet("AC 2C")
    assert Card.from_rank_suit(np_int(1), np_int(2)) == Card.parse("2H")
    assert NancyCard.trump(np_int(21)) == NancyCard.parse("Death")


# ---------------------------------------------------------------------------
# out of range: ValueError naming the argument, never OverflowError


@pytest.mark.parametrize("bad", [0, -1, 341, 10**6, *HUGE, np.int64(341), np.uint64(2**64 - 1)])
@pytest.mark.parametrize(("name", "fn"), TARGET_FUNCTIONS, ids=[n for n, _ in TARGET_FUNCTIONS])
def test_target_out_of_range(name: str, fn: Callable[[Any], Any], bad: Any) -> None:
    with pytest.raises(ValueError, match=r"target must be 1\.\.340") as info:
        fn(bad)
    assert not isinstance(info.value, (OverflowError, InvalidCardError))


@pytest.mark.parametrize("bad", [-1, 2**64, 2**100, -(2**100)])
@pytest.mark.parametrize(("name", "fn"), SCALAR_CARDS, ids=[n for n, _ in SCALAR_CARDS])
def test_card_set_out_of_range(name: str, fn: Callable[[Any], Any], bad: int) -> None:
    with pytest.raises(InvalidCardError):
        fn(bad)


BOUNDS: list[tuple[str, Callable[..., Any], tuple[Any, ...], int, list[int], str]] = [
    # (name, function, good arguments, index, bad values, the message's name)
    ("rng_sequence", _core.rng_sequence, (1, 3), 1,
     [-1, MAX_RNG_SEQUENCE + 1, 2**63 - 1, *HUGE], "n"),
    ("rng_sequence", _core.rng_sequence, (1, 3), 0, [-1, 2**64, 2**100, -(2**64)], "seed"),
    ("_core.shuffled_deck", _core.shuffled_deck, (1, 52), 1, [-1, 256, *HUGE], "n"),
    ("_core.shuffled_deck", _core.shuffled_deck, (1, 52), 0, [-1, 2**64], "seed"),
    ("shuffled_deck", shuffled_deck, (1, 52), 1, [-1, 256, *HUGE], "n"),
    ("shuffled_deck", shuffled_deck, (1, 52), 0, [-1, 2**64, 2**100], "seed"),
    ("_core.random_hands", _core.random_hands, (3, 5, 1), 0,
     [-1, MAX_RANDOM_HANDS + 1, *HUGE], "n"),
    ("_core.random_hands", _core.random_hands, (3, 5, 1), 1, [-1, 53, *HUGE], "k"),
    ("_core.random_hands", _core.random_hands, (3, 5, 1), 2, [-1, 2**64, 2**100], "seed"),
    ("batch.random_hands", batch.random_hands, (3, 5, 1), 0,
     [-1, MAX_RANDOM_HANDS + 1, *HUGE], "n"),
    ("batch.random_hands", batch.random_hands, (3, 5, 1), 1, [-1, 53, *HUGE], "k"),
    ("deal", deal, (1, 4, 13), 1, [-1, 53, 2**70], "hands"),
    ("_batch_hand_stats_path", _core._batch_hand_stats_path, (0, u64(HAND), 15), 0,
     [-1, 99, *HUGE], "path"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "fn", "args", "at", "bads", "word"), BOUNDS, ids=[f"{b[0]}-{b[5]}" for b in BOUNDS]
)
def test_sizes_and_seeds_are_bounded(
    name: str, fn: Callable[..., Any], args: tuple[Any, ...], at: int, bads: list[int], word: str
) -> None:
    for bad in bads:
        bad_args = list(args)
        bad_args[at] = bad
        with pytest.raises(ValueError, match=word) as info:
            fn(*bad_args)
        assert not isinstance(info.value, OverflowError), (bad, info.value)


def test_issue_size_example() -> None:
    with pytest.raises(ValueError, match=r"rng_sequence: n must be 0\.\.1048576"):
        _core.rng_sequence(8, 2**63 - 1)
    # the caps are usable
    assert len(_core.shuffled_deck(1, 255)) == 255
    assert _core.random_hands(0, 52, 1).shape == (0,)


# ---------------------------------------------------------------------------
# bits outside the deck: the same exception from the scalar and batch forms

BAD_SETS = [1 << 13, 1 << 15, 1 << 29, 1 << 63, 2**64 - 1, DECK52_MASK | 1 << 47, HAND | 1 << 14]


@pytest.mark.parametrize("bad", BAD_SETS, ids=hex)
@pytest.mark.parametrize(("name", "scalar", "batched"), TWINS, ids=[t[0] for t in TWINS])
def test_scalar_and_batch_agree_on_bad_sets(
    name: str, scalar: Callable[[Any], Any], batched: Callable[[Any], Any], bad: int
) -> None:
    with pytest.raises(Exception) as one:
        scalar(bad)
    with pytest.raises(Exception) as many:
        batched(u64(HAND, HAND, bad, HAND))
    assert type(one.value) is type(many.value) is InvalidCardError
    # both name the value, the batch form its index as well
    assert f"{bad:#x}" in str(one.value)
    assert f"element 2 ({bad:#x})" in str(many.value)


@pytest.mark.parametrize("bad", [*NOT_INTS[:12], 0, 341, *HUGE], ids=repr)
def test_scalar_and_batch_agree_on_bad_targets(bad: Any) -> None:
    pairs = [
        (lambda t: combos.count_fifteens(HAND, t), lambda t: batch.count_fifteens(u64(HAND), t)),
        (lambda t: combos.count_fifteens(HAND, t), lambda t: batch.hand_stats(u64(HAND), t)),
        (
            lambda t: _core.count_fifteens(HAND, t),
            lambda t: _core.batch_count_fifteens(u64(HAND), t),
        ),
        (
            lambda t: _core.count_fifteens(HAND, t),
            lambda t: _core.batch_hand_stats(u64(HAND), t),
        ),
    ]
    for scalar, batched in pairs:
        with pytest.raises(Exception) as one:
            scalar(bad)
        with pytest.raises(Exception) as many:
            batched(bad)
        assert type(one.value) is type(many.value)
        assert type(one.value) in (TypeError, ValueError)


@pytest.mark.parametrize("bad", [True, 1.5, None, np.float64(2.0)], ids=repr)
def test_scalar_and_batch_agree_on_non_int_elements(bad: Any) -> None:
    arr = np.array([HAND, bad])
    for name, scalar, batched in TWINS:
        with pytest.raises(Exception) as one:
            scalar(bad)
        with pytest.raises(Exception) as many:
            batched(arr)
        assert type(one.value) is type(many.value) is TypeError, name


# ---------------------------------------------------------------------------
# cards are ASCII

LOOK_ALIKES = [
    "A\u017f",  # LATIN SMALL LETTER LONG S: upper() is "S"
    "\u212aS",  # KELVIN SIGN: lower() is "k"
    "\uff21S",  # FULLWIDTH LATIN CAPITAL LETTER A
    "T\u0438",  # CYRILLIC SMALL LETTER I
    "A\u0405",  # CYRILLIC CAPITAL LETTER DZE, looks like S
    "\u0391S",  # GREEK CAPITAL LETTER ALPHA
    "\u0661\u0660H",  # ARABIC-INDIC DIGITS ONE ZERO: int() reads them as 10
    "A\u0301S",  # a combining accent
]


@pytest.mark.parametrize("token", LOOK_ALIKES, ids=ascii)
def test_look_alikes_are_not_cards(token: str) -> None:
    with pytest.raises(InvalidCardError):
        Card.parse(token)
    with pytest.raises(InvalidCardError):
        parse_cards(f"2C {token}")
    with pytest.raises(InvalidCardError):
        CardSet(token)
    with pytest.raises(InvalidCardError):
        combos.count_pairs(token)


def test_issue_look_alike_example() -> None:
    assert Card.parse("as") == Card.parse("AS")  # case-insensitive ASCII still works
    with pytest.raises(InvalidCardError, match="not ASCII"):
        Card.parse("A\u017f")


@pytest.mark.parametrize(
    "token",
    [
        "\u212aing of Rats",  # KELVIN SIGN: lower() is "k"
        "\u212aR",
        "King of Rat\u017f",
        "Death\u200b",  # ZERO WIDTH SPACE
        "King\u2003of Rats",  # EM SPACE between words
        "\u2160",  # ROMAN NUMERAL ONE
        "XX\u0399",  # GREEK CAPITAL IOTA
    ],
    ids=ascii,
)
def test_look_alikes_are_not_nancy_cards(token: str) -> None:
    with pytest.raises(InvalidCardError):
        NancyCard.parse(token)
    with pytest.raises(InvalidCardError):
        parse_nancy_cards(token)
    with pytest.raises(InvalidCardError):
        NancyCardSet(token)


def test_unicode_separators_are_refused() -> None:
    for sep in ("\u2003", "\u00a0", "\u3000", "\uff0c"):
        with pytest.raises(InvalidCardError):
            parse_cards(f"AS{sep}KD")
        with pytest.raises(InvalidCardError):
            parse_nancy_cards(f"KR{sep}XXI")
    assert parse_cards("AS,\tKD\n") == CardSet("AS KD")


def test_card_text_must_be_str() -> None:
    for bad in (b"AS", None, 5.0, ["AS"]):
        with pytest.raises(TypeError):
            Card.parse(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            NancyCard.parse(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            parse_cards(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            parse_nancy_cards(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# the two decks do not mix


def test_card_sets_of_the_two_decks_do_not_convert() -> None:
    with pytest.raises(TypeError, match="NancyCardSet"):
        CardSet(NancyCardSet("KR"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="CardSet"):
        NancyCardSet(CardSet("AD"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        to_mask52(NancyCardSet("KR"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        to_mask78(CardSet("AD"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        combos.count_pairs(NancyCardSet("KR 1R"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        CardSet.to_array([NancyCardSet("KR")])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        _ = CardSet("AS") | NancyCardSet("KR")  # type: ignore[operator]


def test_cards_of_the_two_decks_do_not_convert() -> None:
    kr, ad = NancyCard.parse("KR"), Card.parse("AD")
    with pytest.raises(TypeError, match="NancyCard is not a Card"):
        Card(kr)
    with pytest.raises(TypeError, match="Card is not a NancyCard"):
        NancyCard(ad)
    with pytest.raises(TypeError):
        CardSet([NancyCard(3)])
    with pytest.raises(TypeError):
        NancyCardSet([Card(3)])
    with pytest.raises(TypeError):
        CardSet("AS").add(NancyCard(0))
    with pytest.raises(TypeError):
        NancyCardSet("KR").add(Card(0))
    with pytest.raises(TypeError):
        combos.count_pairs([NancyCard(0), NancyCard(14)])
    assert NancyCard(0) not in CardSet.full()
    assert Card(0) not in NancyCardSet.full()
    # plain ids are still welcome in either
    assert CardSet([0, 13]) == CardSet("AC AD") and NancyCardSet([13]) == NancyCardSet("KR")


def test_card_sets_refuse_non_sets() -> None:
    for bad in (None, True, False, np.bool_(True), 1.0, np.float64(3.0), b"AS", 3 + 0j):
        with pytest.raises(TypeError):
            CardSet(bad)
        with pytest.raises(TypeError):
            NancyCardSet(bad)
        with pytest.raises(TypeError):
            to_mask52(bad)
        with pytest.raises(TypeError):
            to_mask78(bad)
    for bad in (None, True, 1.9, np.float64(3.0), "3"):
        with pytest.raises(TypeError, match="mask"):
            CardSet.from_mask(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="mask"):
            NancyCardSet.from_mask(bad)  # type: ignore[arg-type]
    for bad in (True, 1.0, None, np.float32(2.0)):
        with pytest.raises(TypeError):
            CardSet([0, bad])
        with pytest.raises(TypeError):
            Card(bad)
        with pytest.raises(TypeError):
            NancyCard(bad)
        with pytest.raises(TypeError):
            Card.from_rank_suit(bad, 0)
        with pytest.raises(TypeError):
            Card.from_rank_suit(0, bad)
        with pytest.raises(TypeError):
            NancyCard.trump(bad)
    assert CardSet() == CardSet([]) == CardSet(0) and len(NancyCardSet()) == 0


# ---------------------------------------------------------------------------
# batch kernels read each set once


def _flip(arr: np.ndarray, i: int, a: int, b: int, stop: threading.Event) -> None:
    va, vb = np.uint64(a), np.uint64(b)
    while not stop.is_set():
        arr[i] = va
        arr[i] = vb


def _race(a: int, b: int, call: Callable[[np.ndarray], Any], check: Callable[..., None]) -> None:
    """Call ``call`` on a large array whose element i another thread flips
    between a and b all the while, and check every outcome."""
    arr = np.full(200_000, HAND, dtype=np.uint64)
    i = 150_001
    arr[i] = a
    stop = threading.Event()
    writer = threading.Thread(target=_flip, args=(arr, i, a, b, stop))
    writer.start()
    try:
        for _ in range(150):
            try:
                out = call(arr)
            except InvalidCardError as e:
                check(i, None, e)
            else:
                check(i, out, None)
    finally:
        stop.set()
        writer.join()


@pytest.mark.parametrize("path", _core._combos_paths())
def test_batch_result_comes_from_one_read(path: int) -> None:
    # a 5-card set and a 7-card set: every result of element i is all of one
    # or all of the other (a kernel that re-read the 7-card set to finish it
    # could mix them)
    small, big = parse_cards("AC 2D 3H 4S 9C").mask, parse_cards("5C 5D 5H TS JS QS KS").mask
    want = {
        (
            _core.count_fifteens(v),
            _core.count_pairs(v),
            sum(x * m for x, m, _ in _core.runs(v)),
            _core.suit_counts(v),
        )
        for v in (small, big)
    }

    def check(i: int, out: Any, err: BaseException | None) -> None:
        assert err is None
        f, p, r, s = out
        assert (int(f[i]), int(p[i]), int(r[i]), tuple(int(x) for x in s[i])) in want

    _race(small, big, lambda arr: _core._batch_hand_stats_path(path, arr, 15), check)


@pytest.mark.parametrize(
    "kernel",
    [
        _core.batch_count_pairs,
        _core.batch_count_fifteens,
        _core.batch_run_score,
        _core.batch_suit_counts,
        _core.batch_longest_suit_run,
        _core.batch_hand_stats,
    ],
    ids=lambda k: k.__name__,
)
def test_batch_error_reports_the_value_checked(kernel: Callable[[np.ndarray], Any]) -> None:
    # element i flips between a good set and a bad one: an error must report
    # the bad value (the one that was checked), never the good one read again
    good = parse_cards("AC 2D 3H 4S 9C").mask
    bad = good | 1 << 13

    def check(i: int, out: Any, err: BaseException | None) -> None:
        if err is not None:
            assert f"element {i} ({bad:#x})" in str(err), str(err)

    _race(good, bad, kernel, check)


# ---------------------------------------------------------------------------
# the C entry points validate what they are handed (called through ctypes)


@pytest.fixture(scope="module")
def lib() -> ctypes.CDLL:
    return ctypes.CDLL(_core.__file__)


CC_OK, CC_E_ARG, CC_E_CARDS = 0, -1, -2
NULL = None


def _c(lib: ctypes.CDLL, name: str, restype: Any, *argtypes: Any) -> Any:
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


def test_c_scalar_entry_points(lib: ctypes.CDLL) -> None:
    i32, i64, u64t, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_uint64, ctypes.c_void_p
    out = (ctypes.c_uint8 * 64)()
    fifteens = _c(lib, "cc_count_fifteens", i64, u64t, i32)
    assert fifteens(HAND, 15) == 8
    for t in (0, -1, 341, 2**31 - 1, -(2**31)):
        assert fifteens(HAND, t) == CC_E_ARG
    assert fifteens(1 << 13, 15) == CC_E_CARDS
    for name in ("cc_rank_counts", "cc_suit_counts"):
        fn = _c(lib, name, i32, u64t, ptr)
        assert fn(HAND, ctypes.cast(out, ptr)) == CC_OK
        assert fn(HAND, NULL) == CC_E_ARG
        assert fn(1 << 13, ctypes.cast(out, ptr)) == CC_E_CARDS
    assert _c(lib, "cc_card52_count", i32, u64t)(1 << 13) == CC_E_CARDS
    assert _c(lib, "cc_card52_count", i32, u64t)(HAND) == 5
    ids = _c(lib, "cc_card52_ids", i32, u64t, ptr)
    assert ids(1 << 13, NULL) == CC_E_CARDS and ids(HAND, NULL) == 5
    assert _c(lib, "cc_card52_bit", u64t, i32)(52) == 0
    assert _c(lib, "cc_card52_bit", u64t, i32)(-1) == 0


def test_c_rng_entry_points(lib: ctypes.CDLL) -> None:
    i32, i64, u64t, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_uint64, ctypes.c_void_p
    assert _c(lib, "cc_rng_seed", i32, ptr, u64t)(NULL, 1) == CC_E_ARG
    assert _c(lib, "cc_rng_next", u64t, ptr)(NULL) == 0
    assert _c(lib, "cc_rng_below", u64t, ptr, u64t)(NULL, 10) == 0
    rng = (ctypes.c_uint64 * 4)()
    assert _c(lib, "cc_rng_seed", i32, ptr, u64t)(ctypes.cast(rng, ptr), 1) == CC_OK
    shuffle = _c(lib, "cc_rng_shuffle_u8", i32, ptr, ptr, i32)
    buf = (ctypes.c_uint8 * 8)(*range(8))
    assert shuffle(NULL, ctypes.cast(buf, ptr), 8) == CC_E_ARG
    assert shuffle(ctypes.cast(rng, ptr), NULL, 8) == CC_E_ARG
    assert shuffle(ctypes.cast(rng, ptr), ctypes.cast(buf, ptr), -1) == CC_E_ARG
    assert shuffle(ctypes.cast(rng, ptr), NULL, 0) == CC_OK
    assert shuffle(ctypes.cast(rng, ptr), ctypes.cast(buf, ptr), 8) == CC_OK
    assert sorted(buf) == list(range(8))
    deck = _c(lib, "cc_shuffled_deck", i32, u64t, ptr, i32)
    assert deck(1, NULL, 5) == CC_E_ARG and deck(1, ctypes.cast(buf, ptr), -1) == CC_E_ARG
    assert deck(1, ctypes.cast(buf, ptr), 256) == CC_E_ARG
    seq = _c(lib, "cc_rng_sequence", i32, u64t, i64, ptr)
    words = (ctypes.c_uint64 * 4)()
    assert seq(1, 4, NULL) == CC_E_ARG and seq(1, -1, ctypes.cast(words, ptr)) == CC_E_ARG
    assert seq(1, MAX_RNG_SEQUENCE + 1, ctypes.cast(words, ptr)) == CC_E_ARG
    assert seq(1, 2**63 - 1, ctypes.cast(words, ptr)) == CC_E_ARG
    assert seq(1, 4, ctypes.cast(words, ptr)) == CC_OK
    assert list(words) == _core.rng_sequence(1, 4)
    hands = _c(lib, "cc_random_hands", i32, u64t, i32, i64, ptr)
    assert hands(1, 5, 4, NULL) == CC_E_ARG and hands(1, 5, -1, ctypes.cast(words, ptr)) == CC_E_ARG
    assert hands(1, 53, 4, ctypes.cast(words, ptr)) == CC_E_ARG
    assert hands(1, -1, 4, ctypes.cast(words, ptr)) == CC_E_ARG
    assert hands(1, 5, MAX_RANDOM_HANDS + 1, ctypes.cast(words, ptr)) == CC_E_ARG


BATCH_C = [
    # (name, leading args before cards, the output's element size, has target)
    ("cc_batch_count_fifteens", 8, True),
    ("cc_batch_count_pairs", 4, False),
    ("cc_batch_suit_counts", 4, False),
    ("cc_batch_run_score", 4, False),
    ("cc_batch_longest_suit_run", 4, False),
]


@pytest.mark.parametrize(("name", "size", "has_target"), BATCH_C, ids=[b[0] for b in BATCH_C])
def test_c_batch_entry_points(lib: ctypes.CDLL, name: str, size: int, has_target: bool) -> None:
    i32, i64, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p
    head = [ptr, i64] + ([i32] if has_target else [])
    fn = _c(lib, name, i32, *head, ptr, ptr, ptr)
    cards = u64(HAND, HAND, 1 << 13 | HAND, 1 << 14)
    out = np.zeros(4 * 4 * size, dtype=np.uint8)
    bad_index, bad_value = ctypes.c_int64(-7), ctypes.c_uint64(0)

    def call(arr: Any, n: int, target: int = 15, o: Any = out, bi: Any = True) -> int:
        t = [target] if has_target else []
        refs = (ctypes.byref(bad_index), ctypes.byref(bad_value)) if bi else (NULL, NULL)
        a = arr.ctypes.data if arr is not None else NULL
        o_ = o.ctypes.data if o is not None else NULL
        result: int = fn(a, n, *t, o_, *refs)
        return result

    assert call(cards, 2) == CC_OK
    assert call(cards, 4) == CC_E_CARDS
    assert (bad_index.value, bad_value.value) == (2, 1 << 13 | HAND)
    assert call(cards, 4, bi=False) == CC_E_CARDS  # the report pointers are optional
    assert call(None, 4) == CC_E_ARG
    assert call(cards, 4, o=None) == CC_E_ARG
    assert call(cards, -1) == CC_E_ARG
    assert call(None, 0, o=None) == CC_OK
    if has_target:
        for t in (0, 341, -(2**31)):
            assert call(cards, 2, target=t) == CC_E_ARG


def test_c_hand_stats_entry_points(lib: ctypes.CDLL) -> None:
    i32, i64, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p
    fn = _c(lib, "cc_batch_hand_stats_path", i32, i32, ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
    cards = u64(HAND, 1 << 15)
    f, p, r, s = (np.zeros(8, dtype=t) for t in (np.int64, np.int32, np.int32, np.uint8))
    outs = [o.ctypes.data for o in (f, p, r, s)]
    bi, bv = ctypes.c_int64(-1), ctypes.c_uint64(0)
    refs = (ctypes.byref(bi), ctypes.byref(bv))
    for path in _core._combos_paths():
        assert fn(path, cards.ctypes.data, 1, 15, *outs, *refs) == CC_OK
        assert fn(path, cards.ctypes.data, 2, 15, *outs, *refs) == CC_E_CARDS
        assert (bi.value, bv.value) == (1, 1 << 15)
        for k in range(4):
            broken = list(outs)
            broken[k] = NULL
            assert fn(path, cards.ctypes.data, 2, 15, *broken, *refs) == CC_E_ARG
        assert fn(path, cards.ctypes.data, 1, 0, *outs, *refs) == CC_E_ARG
        assert fn(path, NULL, 1, 15, *outs, *refs) == CC_E_ARG
        assert fn(path, cards.ctypes.data, -1, 15, *outs, *refs) == CC_E_ARG
    for path in (-1, 6, 99):
        assert fn(path, cards.ctypes.data, 1, 15, *outs, *refs) == CC_E_ARG


# ---------------------------------------------------------------------------
# pickling and copying


VALUES: list[Any] = [
    Card.parse("QH"),
    Card(0),
    NancyCard.parse("KR"),
    NancyCard.parse("OUT"),
    NancyCard.trump(21),
    CardSet("AS TD 10h 2c"),
    CardSet(),
    CardSet.full(),
    NancyCardSet("KR XXI I OUT"),
    NancyCardSet(),
    NancyCardSet.full(),
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_pickle_and_copy_round_trip(value: Any) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(value, protocol))
        assert back == value and type(back) is type(value) and repr(back) == repr(value)
        assert hash(back) == hash(value)
    for twin in (copy.copy(value), copy.deepcopy(value), copy.deepcopy([value])[0]):
        assert twin == value and type(twin) is type(value) and str(twin) == str(value)


def test_unpickling_validates() -> None:
    # a set unpickles through its constructor, which checks the bitset
    for value, bad in ((CardSet("AS"), 1 << 13), (NancyCardSet("KR"), 1 << 14)):
        rebuild, args = value.__reduce__()
        assert rebuild(*args) == value
        with pytest.raises(InvalidCardError):
            rebuild(bad)
