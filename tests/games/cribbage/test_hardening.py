"""What a hostile trial found in cribbage's Python layer: action names are
case-insensitive ASCII, and the exact distribution of its hands."""

from __future__ import annotations

import pytest

from pycards.game import load_game


def test_action_names_are_case_insensitive_ascii() -> None:
    # decided: names are case-insensitive, as card names are (docs/games.rst)
    game = load_game("cribbage")
    assert game.action_from_name("Pass") == game.action_from_name("pass")
    assert game.action_from_name("PLAY 5h") == game.action_from_name("play 5H")
    assert game.action_from_name("play\t5H") == game.action_from_name("play 5H")


def test_distribution_counts_every_cribbage_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pycards.games.cribbage import show_score_distribution
    from pycards.ui.cli import main

    assert main(["distribution", "cribbage"]) == 0
    out = capsys.readouterr().out
    hist = show_score_distribution()
    assert "exact, every 4-card hand with every starter: 12,994,800 deals" in out
    assert f"{int(hist[29]):14,d}" in out.splitlines()[-2]  # the 29 hand, 4 of them
    assert main(["distribution", "cribbage", "--crib"]) == 0
    crib = show_score_distribution(crib=True)
    assert f"{int(crib[0]):14,d}" in capsys.readouterr().out
