"""Deprecated: moved to :mod:`pycards.ui.terminal` (this path goes in the next release)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pycards.ui.terminal import *  # noqa: F403
else:
    from pycards._moved import moved

    moved("pycards.terminal")
