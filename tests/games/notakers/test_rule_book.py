"""The worked examples of the No Takers? rule book (docs/notakers.rst),
hand-computed there, checked against the engine."""

from __future__ import annotations

import pytest

from pycards.games import notakers
from pycards.games.notakers import NoTakersRules


# docs/notakers.rst, Scoring and The winner
@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("3H 4H 5H 6H 7H 7S 7C 7D", 9),
        ("5H 5S 6H 6S 7H 7S", 6),
        ("9D 9S 9C JH QH KH 2S", 5),
        ("AH 2H 3H QH KH", 3),
        ("AH AS AD 2H 3H 4H", 5),
    ],
)
def test_notakers_points(cards: str, points: int) -> None:
    assert notakers.best_split(cards).points == points


def test_notakers_best_lists() -> None:
    low = notakers.best_split("AH AS AD 2H 3H 4H")
    assert [(s.kind, len(s.cards)) for s in low.sets] == [("run", 4), ("pair", 2)]
    both = notakers.best_split("AH 2H 3H QH KH", NoTakersRules(ace_in_runs="both"))
    assert str(both.sets[0].cards) == "AH QH KH"
    assert notakers.best_split("AH 2H 3H QH KH", NoTakersRules(ace_in_runs="high")).points == 3


def test_notakers_ties() -> None:
    assert notakers.winners(["2H 3H 4H 5H 6H", "9D 9S 9C 9H 4S"]) == [0]
    assert notakers.winners(["8H 9H TH 3D 3S", "8S 9S TS 2D 2H"]) == [0]
    assert notakers.winners(["7H 7S", "7D 7C"]) == [0]
    assert notakers.winners(["AH AS 3D 3C", "KS KD 3H 3S"]) == [0]
    low = NoTakersRules(tiebreak_ace="low")
    assert notakers.winners(["AH AS 3D 3C", "KS KD 3H 3S"], low) == [1]
