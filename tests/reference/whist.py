"""The oracle of Whist: the defined games' reference (:mod:`reference.defined`)
over the game's description."""

from __future__ import annotations

from pycards.games.whist import DESCRIPTION

from .defined import oracle_for
from .game import register

__all__ = ["WhistRef"]

#: The reference state of Whist.
WhistRef = register(oracle_for(DESCRIPTION))
