"""Deprecated: moved to :mod:`pycards.ui.cli` (this path goes in the next release)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pycards.ui.cli import *  # noqa: F403
else:
    from pycards._moved import moved

    moved("pycards.cli")
