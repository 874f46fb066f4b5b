"""Deprecated: the browser table moved to :mod:`pycards.ui.web` (this path goes
in the next release; its submodules ``app``, ``store`` and ``tables`` are the
new ones under their old names)."""

from pycards._moved import warn_moved
from pycards.ui.web import *  # noqa: F403
from pycards.ui.web import __all__  # noqa: F401

warn_moved("pycards.web")
