"""The old import paths of modules that moved, kept for one release.

Release 0.2 put the game facades under :mod:`pycards.games` and the command
line, the terminal and the browser table under :mod:`pycards.ui`.  Each old
module (``pycards.nancy``, ``pycards.cli``, ``pycards.web.tables``...) is a
two-line file that calls :func:`moved`: importing it warns once with a
:class:`DeprecationWarning` that names the new path, and then *is* the new
module (the same object in :data:`sys.modules`, so classes, registries and
monkeypatches are shared).  The old paths go in the release after.
"""

from __future__ import annotations

import importlib
import sys
import warnings

__all__ = ["MOVED", "moved", "warn_moved"]

#: Old module -> new module, every path that moved in release 0.2.
MOVED: dict[str, str] = {
    "pycards.nancy": "pycards.games.nancy",
    "pycards.nodde": "pycards.games.nodde",
    "pycards.notakers": "pycards.games.notakers",
    "pycards.cribbage": "pycards.games.cribbage",
    "pycards.cribbage_table": "pycards.games.cribbage_table",
    "pycards.cli": "pycards.ui.cli",
    "pycards.terminal": "pycards.ui.terminal",
    # a package: its old ``__init__`` re-exports the new one's names (its
    # submodules, each a file of its own below, are the new modules)
    "pycards.web": "pycards.ui.web",
    "pycards.web.app": "pycards.ui.web.app",
    "pycards.web.store": "pycards.ui.web.store",
    "pycards.web.tables": "pycards.ui.web.tables",
}


def warn_moved(old: str, *, stacklevel: int = 3) -> str:
    """Warn (:class:`DeprecationWarning`) that ``old`` moved; return the new path."""
    new = MOVED[old]
    warnings.warn(
        f"{old} moved to {new} in pycards 0.2; import {new} instead "
        "(the old path goes in the next release)",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
    return new


def moved(old: str) -> None:
    """Warn that ``old`` moved, and make ``sys.modules[old]`` the new module.

    Called at the top of the old module's file (which then stops mattering:
    the import system returns whatever ``sys.modules`` holds under the
    name once the file has run).
    """
    sys.modules[old] = importlib.import_module(warn_moved(old, stacklevel=4))
