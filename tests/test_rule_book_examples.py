"""The worked examples of the rule book (docs/nancy.rst, docs/nodde.rst,
docs/notakers.rst), hand-computed there, checked against the engine."""

from __future__ import annotations

import pytest

from pycards import nancy, nodde, notakers
from pycards.nodde import NoddeRules
from pycards.notakers import NoTakersRules

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


# docs/nancy.rst, Result and score: (players, partner, bid, made, won, base, row)
@pytest.mark.parametrize(
    ("players", "partner", "bid", "made", "won", "base", "row"),
    [
        (4, -1, 3, 2, False, -4, [-12, 4, 4, 4]),
        (4, -1, 3, 4, True, 13, [39, -13, -13, -13]),
        (4, -1, 2, 0, False, -21, [-63, 21, 21, 21]),
        (4, -1, 2, 3, False, 1, [3, -1, -1, -1]),
        (4, -1, 2, 0, True, -11, [-33, 11, 11, 11]),
        (5, 2, 3, 4, True, 13, [39, -26, 39, -26, -26]),
        (5, -1, 3, 4, True, 13, [52, -13, -13, -13, -13]),
        (6, 2, 3, 4, True, 13, [52, -26, 52, -26, -26, -26]),
        (2, -1, 1, 1, True, 7, [7, -7]),
    ],
)
def test_nancy_scores(
    players: int, partner: int, bid: int, made: int, won: bool, base: int, row: list[int]
) -> None:
    assert nancy.base_score(bid, made, won) == base
    assert nancy.settlement(players, 0, partner, bid, made, won) == row


@pytest.mark.parametrize(
    ("trick", "holding", "overtrump", "legal"),
    [
        (["7R", "IX"], "2P 5P V XII 9S OUT", True, "XII OUT"),
        (["7R", "IX"], "2P 5P V 9S OUT", True, "V OUT"),
        (["7R", "IX"], "2P 5P 9S OUT", True, "2P 5P 9S OUT"),
        (["7R", "IX"], "2P 3R 9S XII", True, "3R"),
        (["VIII"], "2P V XII", True, "XII"),
        (["VIII"], "2P V XII", False, "V XII"),
        (["OUT"], "2P 3R V", True, "2P 3R V"),
        (["OUT", "7R"], "2P 3R V", True, "3R"),
    ],
)
def test_nancy_obligations(trick: list[str], holding: str, overtrump: bool, legal: str) -> None:
    got = nancy.legal_cards(holding, trick, overtrump=overtrump)
    assert got == nancy.legal_cards(legal, [], overtrump=overtrump)


def test_nancy_tricks_and_objectives() -> None:
    assert nancy.trick_winner(["7R", "KR", "2S"]) == 1
    assert nancy.trick_winner(["7R", "KR", "II", "XX"]) == 3
    assert nancy.trick_winner(["OUT", "3S", "KS"]) == 2
    arcane, bodyguard = 1 << 6, 1 << 0
    assert nancy.objectives("I III XVIII") == arcane
    assert nancy.objectives("XXI I") == arcane | bodyguard
    assert nancy.objectives("V VII X XIV") == 0
    assert nancy.objectives("V VII X XIV", arcane_sum_mode="subset_sum") == arcane
    assert nancy.objectives("V VII X XIV", arcane_sum_mode="at_least") == arcane


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
