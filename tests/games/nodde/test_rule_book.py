"""The worked examples of the Nodde Knave rule book (docs/nodde.rst),
hand-computed there, checked against the engine."""

from __future__ import annotations

import pytest

from pycards.games import nodde
from pycards.games.nodde import NoddeRules

W = NoddeRules.willughby()


# docs/nodde.rst, Worked examples: (hand, turn-up, default, willughby)
@pytest.mark.parametrize(
    ("hand", "turnup", "default", "willughby"),
    [
        ("6H 6S 9C", "3D", 8, 8),
        ("TH 5S 5C", "KD", 10, 10),
        ("5H 5S 5C", "5D", 20, 20),
        ("4H 5H 6H", "6C", 13, 15),
        ("JC 7C 8C", "9C", 9, 10),
        ("6H 6S 9C", "KD", 8, 6),
        ("QH KS AC", "2D", 0, 0),
        ("3H 4H 5H", "JH", 8, 9),
        ("4H 6H KS", "QD", 0, 0),
        ("5H 3C 9S", "QD", 2, 2),
    ],
)
def test_nodde_hands(hand: str, turnup: str, default: int, willughby: int) -> None:
    assert nodde.score_hand(hand, turnup).total == default
    assert nodde.score_hand(hand, turnup, W).total == willughby


@pytest.mark.parametrize(
    ("hand", "turnup", "rules", "total"),
    [
        ("AS 7H 9H", "KH", NoddeRules(), 3),
        ("AS 7H 9H", "KH", NoddeRules(flush_rule="hand3_required"), 0),
        ("QS 5S 9S", "7S", NoddeRules(), 8),
        ("QS 5S 9S", "7S", NoddeRules(hand_31="flat4"), 10),
        ("TH 5S KC", "5D", NoddeRules(), 10),
        ("TH 5S KC", "5D", NoddeRules(score_25="flat4"), 18),
        ("TH 5S KC", "5D", NoddeRules(score_25="per_card"), 16),
    ],
)
def test_nodde_hand_variants(hand: str, turnup: str, rules: NoddeRules, total: int) -> None:
    assert nodde.score_hand(hand, turnup, rules).total == total


@pytest.mark.parametrize(
    ("cards", "default", "willughby"),
    [
        ("7H 8S", 2, 2),
        ("7H 8S 9H", 2, 3),
        ("7H 8S 9H 6C", 4, 4),
        ("KH 5H QH", 3, 3),
        ("KH 5H QH 6S", 2, 2),
        ("5S 5H 5D", 8, 8),
        ("5S 5H 5D 5C", 12, 12),
        ("3S 4S 5H 5D", 2, 2),
        ("9C 6C 8C 7C", 8, 8),
        ("TS 5D KD", 0, 0),
        # the deal worked through
        ("4H 5H 6H", 7, 8),
        ("4H 5H 6H 3C", 4, 4),
        ("4H 5H 6H 3C KS", 0, 0),
    ],
)
def test_nodde_plays(cards: str, default: int, willughby: int) -> None:
    assert nodde.score_play(cards).total == default
    assert nodde.score_play(cards, W).total == willughby


def test_nodde_play_25() -> None:
    assert nodde.score_play("TS 5D KD", NoddeRules(score_25="flat4")).total == 4
    assert nodde.score_play("TS 5D KD", NoddeRules(score_25="per_card")).total == 3
