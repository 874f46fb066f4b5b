"""The training curve drawn with matplotlib (the ``plot`` extra, imported lazily)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

__all__ = ["plot_curve", "read_curve"]

_PLOT_EXTRA = "plotting the curve needs matplotlib: pip install 'pycards[plot]'"


def read_curve(path: str | Path) -> list[dict[str, float]]:
    """The lines of a training log (one JSON object a line)."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def plot_curve(curve: Sequence[dict[str, float]], path: str | Path, title: str = "") -> None:
    """Draw the loss and the strength (with its 95% interval) against the
    frames, into ``path`` (png, svg, pdf...)."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError(_PLOT_EXTRA) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    lossy = [c for c in curve if "loss" in c]
    top.plot([c["frames"] for c in lossy], [c["loss"] for c in lossy], label="policy loss")
    top.plot([c["frames"] for c in lossy], [c["value_loss"] for c in lossy], label="value loss")
    top.set_yscale("log")
    top.set_ylabel("loss (scaled)")
    top.legend()
    rated = [c for c in curve if "strength" in c]
    x = [c["frames"] for c in rated]
    y = [c["strength"] for c in rated]
    ci = [c["strength_ci"] for c in rated]
    bottom.errorbar(x, y, yerr=ci, marker="o", capsize=3)
    bottom.axhline(0.0, color="grey", linewidth=0.8)
    bottom.set_xlabel("frames (learner steps)")
    bottom.set_ylabel("points a game vs opponents")
    if title:
        top.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
