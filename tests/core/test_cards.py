"""Cards, card sets, parsing and dealing."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycards import (
    Card,
    CardSet,
    InvalidCardError,
    NancyCard,
    NancyCardSet,
    deal,
    parse_cards,
)
from pycards.cards import DECK52_MASK, shuffled_deck, to_mask52
from pycards.combos import count_pairs


def test_all_52_cards_round_trip() -> None:
    seen = set()
    for cid in range(52):
        c = Card(cid)
        assert Card.parse(str(c)) == c
        assert Card.from_rank_suit(c.rank, c.suit) == c
        assert c.bit & DECK52_MASK == c.bit
        seen.add(c.bit)
    assert len(seen) == 52
    assert sum(seen) == DECK52_MASK


@pytest.mark.parametrize(
    ("text", "cid"),
    [("AS", 39), ("as", 39), ("TD", 22), ("10d", 22), ("2c", 1), ("KH", 38), ("qh", 37)],
)
def test_parse_french(text: str, cid: int) -> None:
    assert Card.parse(text) == cid


@pytest.mark.parametrize("bad", ["1S", "AX", "", "10", "11H", "ASS", "Z"])
def test_unknown_card_names_token(bad: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.parse(bad)
    assert repr(bad) in str(info.value)
    assert info.value.token == bad


def test_parse_cards_and_duplicates() -> None:
    s = parse_cards("AS TD 10h 2c")
    assert [str(c) for c in s] == ["2C", "TD", "TH", "AS"]
    with pytest.raises(InvalidCardError, match="duplicate card 'td'"):
        parse_cards("TD AS td")
    with pytest.raises(InvalidCardError, match="'QX'"):
        parse_cards("AS QX")
    assert parse_cards("AS, KD") == parse_cards("as kd")
    assert len(parse_cards("")) == 0


def test_card_set_is_a_set() -> None:
    a = CardSet("AS KS 5H")
    b = CardSet("KS 5H 2C")
    assert set(a | b) == set(a) | set(b)
    assert set(a & b) == set(a) & set(b)
    assert set(a - b) == set(a) - set(b)
    assert set(a ^ b) == set(a) ^ set(b)
    assert len(~a) == 49 and (~a).isdisjoint(a)
    assert CardSet("KS") <= a and CardSet("KS") < a and not a < a
    assert a == CardSet(int(a)) and hash(a) == hash(CardSet(list(a)))
    assert "KS" in a and Card.parse("KS") in a and "2C" not in a and "ZZ" not in a
    assert a.add("2C").remove("AS") == CardSet("KS 5H 2C")
    with pytest.raises(KeyError):
        a.remove("2C")
    with pytest.raises(AttributeError):
        a._mask = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        _ = a | NancyCardSet("KR")  # type: ignore[operator]


@given(st.sets(st.integers(0, 51)))
def test_cardset_from_ids_iterates_in_bit_order(ids: set[int]) -> None:
    s = CardSet(ids)
    assert len(s) == len(ids)
    assert sorted(s.ids()) == sorted(ids)
    bits = [c.bit for c in s]
    assert bits == sorted(bits)
    assert CardSet.from_mask(int(s)) == s
    assert CardSet(str(s)) == s


def test_bits_outside_deck_rejected() -> None:
    for bad in (1 << 13, 1 << 63, -1, 1 << 64):
        with pytest.raises(InvalidCardError, match="outside the 52-card deck"):
            CardSet.from_mask(bad)
        with pytest.raises(InvalidCardError):
            to_mask52(bad)


def test_numpy_round_trip() -> None:
    sets = [CardSet("AS"), CardSet("2C 3C"), CardSet()]
    arr = CardSet.to_array(sets)
    assert arr.dtype == np.uint64 and arr.shape == (3,)
    assert CardSet.from_array(arr) == sets
    with pytest.raises(TypeError, match="uint64"):
        CardSet.from_array(arr.astype(np.int64))
    with pytest.raises(ValueError, match="1-D"):
        CardSet.from_array(arr.reshape(3, 1))
    with pytest.raises(InvalidCardError):
        CardSet.from_array(np.array([1 << 14], dtype=np.uint64))


# --- dealing ------------------------------------------------------------------


def test_deal_is_seeded_and_disjoint() -> None:
    hands = deal(42, 4, 13)
    assert deal(42, 4, 13) == hands
    assert deal(43, 4, 13) != hands
    for a, b in itertools.combinations(hands, 2):
        assert a.isdisjoint(b)
    deck = shuffled_deck(42)
    assert hands[0] == CardSet(deck[0:52:4])
    with pytest.raises(ValueError):
        deal(1, 5, 11)


def test_bools_are_not_cards() -> None:
    for bad in (True, False):
        with pytest.raises(TypeError, match="card id must be an int, got bool"):
            Card(bad)
        with pytest.raises(TypeError, match="card id must be an int, got bool"):
            NancyCard(bad)


# ---------------------------------------------------------------------------
# inputs decided one by one (docs/cards.rst)


def test_parse_cards_takes_commas_without_blanks() -> None:
    # decided: any run of blanks and commas separates cards
    assert parse_cards("5H,6H") == parse_cards("5H, 6H") == CardSet("5H 6H")


def test_a_mapping_is_not_a_card_set() -> None:
    with pytest.raises(TypeError, match="got dict"):
        count_pairs({"AS": 1})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got dict"):
        CardSet({"AS": 1, "AH": 2})  # type: ignore[arg-type]
    assert count_pairs({"AS", "AH"}) == 1  # a set of names is still a card collection


@pytest.mark.parametrize(("hands", "each"), [(0, 5), (5, 0), (-1, 5), (53, 1), (5, 11)])
def test_deal_needs_a_hand_of_a_card(hands: int, each: int) -> None:
    with pytest.raises(ValueError, match="cannot deal"):
        deal(1, hands, each)
    assert [len(h) for h in deal(1, 52, 1)] == [1] * 52
