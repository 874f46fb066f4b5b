"""The oracle of OhHell: the defined games' reference (:mod:`reference.defined`)
over the game's description."""

from __future__ import annotations

from pycards.games.oh_hell import DESCRIPTION

from .defined import oracle_for
from .game import register

__all__ = ["OhHellRef"]

#: The reference state of OhHell.
OhHellRef = register(oracle_for(DESCRIPTION))
