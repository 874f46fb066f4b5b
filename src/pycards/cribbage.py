"""Deprecated: moved to :mod:`pycards.games.cribbage` (this path goes in the next release)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pycards.games.cribbage import *  # noqa: F403
else:
    from pycards._moved import moved

    moved("pycards.cribbage")
