"""What the engine says about its games, and the registry of their Python classes.

This module is the bottom of the game layer: it reads the engine's tables
(:func:`game_info`), names the constants of the game protocol, and keeps the
registry of the :class:`pycards.game.Game` subclasses by their engine name.  A
game's class registers itself when its facade module is imported (see
:meth:`pycards.game.Game.__init_subclass__`).  The first call of
:func:`registered_games` loads the facade of every game the engine names
(``pycards.games.<name>``, when there is one), once: this is the one place where the
facades are found, by name, so nothing lists the games by hand.  (The facades
are not imported when :mod:`pycards` is: a facade reads the engine's
tables when it is imported, and a program that only scores hands need not
pay for it.)

The modules above (:mod:`pycards.game`, :mod:`pycards.record`,
:mod:`pycards.view`, the facades, the bots, the arena, the CLI) read the
games from here; this module imports none of them.

>>> from pycards.engine import game_info, registered_games
>>> sorted(registered_games())
['cribbage', 'nancy', 'nodde', 'notakers']
>>> game_info("nodde")["min_players"], game_info("nodde")["max_players"]
(2, 4)
"""

from __future__ import annotations

import functools
import importlib
import threading
import types
from collections.abc import Mapping
from typing import Any

from cardcore import _core

__all__ = [
    "CHANCE",
    "SEEN_ALL",
    "TERMINAL",
    "game_info",
    "register_game",
    "registered_games",
]

#: The "player" of a chance node (reserved; built-in games resolve chance internally).
CHANCE = -1
#: The "player" of a finished game.
TERMINAL = -4
#: ``seen_by`` value of a public event.
SEEN_ALL = 0xFFFFFFFF

# engine name -> the Game subclass of that name (type[pycards.game.Game])
_GAMES: dict[str, type[Any]] = {}
_REGISTERED: Mapping[str, type[Any]] = types.MappingProxyType(_GAMES)
_LOADED = threading.Event()
_LOADING = threading.RLock()


@functools.cache
def game_info(name: str) -> dict[str, Any]:
    """The engine's description of the game ``name``: players, deck and the
    tables of parameters, event kinds, action ranges and observation segments
    (read once; the same dict every call, not to be changed)."""
    info: dict[str, Any] = _core.game_info(name)
    return info


def register_game(cls: type[Any]) -> None:
    """Register ``cls`` (a :class:`pycards.game.Game` subclass) under its
    ``NAME``; a later class of the same name replaces it."""
    _GAMES[cls.NAME] = cls


def registered_games() -> Mapping[str, type[Any]]:
    """The registered game classes by engine name (a live, read-only view);
    the first call loads the facade of every engine game."""
    if not _LOADED.is_set():
        _load_facades()
    return _REGISTERED


def _load_facades() -> None:
    with _LOADING:
        if _LOADED.is_set():
            return
        for name in _core.game_names():
            try:
                importlib.import_module(f"pycards.games.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"pycards.games.{name}":
                    raise
        _LOADED.set()
