"""The worked examples of the Game of Nancy rule book (docs/nancy.rst),
hand-computed there, checked against the engine."""

from __future__ import annotations

import pytest

from pycards.games import nancy


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
