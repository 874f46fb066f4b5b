"""The ``pycards`` command line."""

from __future__ import annotations

import pytest

from pycards.cli import main
from pycards.game import game_names


def test_default_job_scores_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "5000", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "5,000 random 5-card hands" in out
    assert "throughput:" in out and "M hands/s" in out
    for label in ("fifteens (to 15)", "pairs", "run points", "flush"):
        assert label in out


@pytest.mark.parametrize("game", game_names())
def test_playouts(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["playouts", game, "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert f"20 random games of {game}" in out and "M actions/s" in out


def test_bad_arguments_exit_with_usage() -> None:
    with pytest.raises(SystemExit):
        main(["--cards", "60"])
    with pytest.raises(SystemExit):
        main(["playouts", "nodde", "--players", "9"])
    with pytest.raises(SystemExit):
        main(["playouts", "whist"])
