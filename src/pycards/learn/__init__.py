"""Bots that learn: deep Monte Carlo training on the engine's vector environment.

:func:`train` trains a network (:class:`pycards.nets.Network`) for a game
from games played in C against the engine's policies; :func:`strength`
measures a network's greedy policy against them.  numpy only (the progress
bar needs rich, Dask sharding the ``dask`` extra, the plot matplotlib).  The
command is ``pycards train GAME``; see the training page of the docs.
"""

from __future__ import annotations

from pycards.learn.mlp import Mlp, masked_argmax
from pycards.learn.plot import plot_curve, read_curve
from pycards.learn.train import CHECKPOINT_FORMAT, Settings, Trainer, TrainResult, strength, train

__all__ = [
    "CHECKPOINT_FORMAT",
    "Mlp",
    "Settings",
    "TrainResult",
    "Trainer",
    "masked_argmax",
    "plot_curve",
    "read_curve",
    "strength",
    "train",
]
