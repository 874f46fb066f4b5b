"""The 78-card deck of the Game of Nancy: cards, names and aliases, sets
(``pycards.cards``)."""

from __future__ import annotations

import numpy as np
import pytest

from pycards import InvalidCardError, NancyCard, NancyCardSet, parse_nancy_cards
from pycards.cards import NANCY_MASK, TRUMP_NAMES


def test_nancy_deck_is_78_cards() -> None:
    cards = [NancyCard(i) for i in range(78)]
    assert sum(c.is_trump for c in cards) == 21
    assert sum(c.is_outsider for c in cards) == 1
    assert sum(c.is_face for c in cards) == 16
    assert sum(c.bit for c in cards) == NANCY_MASK
    for c in cards:
        assert NancyCard.parse(str(c)) == c
        assert NancyCard.parse(c.name) == c
    assert len(NancyCardSet.full()) == 78


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("King of Rats", 13),
        ("king of cups", 13),
        ("Knight of Coins", 2 * 14 + 11),
        ("Page of Batons", 3 * 14 + 10),
        ("XXI", 76),
        ("Death", 76),
        ("death", 76),
        ("I", 56),
        ("Judgement", 56),
        ("The Outsider", 77),
        ("Fool", 77),
        ("Excuse", 77),
        ("OUT", 77),
        ("10S", 14 + 9),
        ("QX", 2 * 14 + 12),
        ("The World", 75),
        ("XII", 67),
    ],
)
def test_nancy_names_and_aliases(text: str, expected: int) -> None:
    assert NancyCard.parse(text) == expected


def test_nancy_unconfirmed_trumps_print_their_number() -> None:
    for n in (12, 13, 18, 19):
        assert n not in TRUMP_NAMES
        assert NancyCard.trump(n).name == ["XII", "XIII", "XVIII", "XIX"][[12, 13, 18, 19].index(n)]


@pytest.mark.parametrize("bad", ["Cruelty", "XXII", "Queen of Hearts", "0R", "T22", "ZZ"])
def test_nancy_unknown(bad: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        NancyCard.parse(bad)
    assert info.value.token == bad


def test_nancy_sets() -> None:
    s = parse_nancy_cards("King of Rats, Death, The Outsider")
    assert s == NancyCardSet("KR XXI OUT")
    lo, hi = s.words
    assert lo == 1 << 13 and hi == (1 << 21) | 1
    arr = NancyCardSet.to_array([s, NancyCardSet()])
    assert arr.shape == (2, 2) and arr.dtype == np.uint64
    assert NancyCardSet.from_array(arr) == [s, NancyCardSet()]
    with pytest.raises(InvalidCardError, match="duplicate"):
        parse_nancy_cards("KR, King of Rats")
    with pytest.raises(InvalidCardError, match="Nancy"):
        NancyCardSet.from_mask(1 << 14)
