"""The oracle of Spades: the defined games' reference (:mod:`reference.defined`)
over the game's description."""

from __future__ import annotations

from pycards.games.spades import DESCRIPTION

from .defined import oracle_for
from .game import register

__all__ = ["SpadesRef"]

#: The reference state of Spades.
SpadesRef = register(oracle_for(DESCRIPTION))
