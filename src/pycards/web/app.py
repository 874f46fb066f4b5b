"""Deprecated: moved to :mod:`pycards.ui.web.app` (this path goes in the next release)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pycards.ui.web.app import *  # noqa: F403
else:
    from pycards._moved import moved

    moved("pycards.web.app")
