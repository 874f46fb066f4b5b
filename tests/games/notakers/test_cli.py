"""The ``pycards`` command line on No Takers?: a sampled score distribution, plotted."""

from __future__ import annotations

from pathlib import Path

import pytest

from pycards.ui.cli import main


def test_distribution_sampled_and_plotted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "d.png"
    assert main(["distribution", "notakers", "--hands", "2000", "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "sampled" in out and "2,000 hands" in out
    assert png.read_bytes()[:4] == b"\x89PNG"
