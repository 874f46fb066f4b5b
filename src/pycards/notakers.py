"""Deprecated: moved to :mod:`pycards.games.notakers` (this path goes in the next release)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pycards.games.notakers import *  # noqa: F403
else:
    from pycards._moved import moved

    moved("pycards.notakers")
