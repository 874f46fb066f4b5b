"""The oracle of Hearts: the defined games' reference (:mod:`reference.defined`)
over the game's description."""

from __future__ import annotations

from pycards.games.hearts import DESCRIPTION

from .defined import oracle_for
from .game import register

__all__ = ["HeartsRef"]

#: The reference state of Hearts.
HeartsRef = register(oracle_for(DESCRIPTION))
