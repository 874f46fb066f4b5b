"""The pure-Python reference backend: the oracle of the differential tests.

Written for obviousness, never optimized, and sharing no code with the C
engine.  It exposes exactly the names of ``cardcore._core``.

Every public module of this package is imported here and its functions (the
lower-case names of its ``__all__``) are re-exported.  A game's oracle is the
module that registers its :class:`~reference.game.RefState` subclass
(``@register``, with the game's ``NAME``): adding one is adding its module,
nothing here names it.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from .game import game_info, game_names, new_state, random_playouts

__all__ = ["game_info", "game_names", "new_state", "random_playouts"]


def _export_modules() -> None:
    exported: dict[str, str] = {}
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module_info.name.startswith("_") or module_info.name == "game":
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        globals()[module_info.name] = module
        names: list[str] = getattr(module, "__all__", [])
        for name in names:
            if not name[:1].islower():
                continue  # classes stay in their module: reference.<module>.<Class>
            value: Any = getattr(module, name)
            if name in exported and globals()[name] is value:
                continue  # one module re-exporting another's function
            if name in exported or name in __all__:
                raise ImportError(
                    f"reference: {name!r} is exported by both {exported.get(name, 'game')} "
                    f"and {module_info.name}"
                )
            exported[name] = module_info.name
            globals()[name] = value
            __all__.append(name)


_export_modules()
