"""Exceptions raised by pycards.

The classes are defined in :mod:`cardcore.errors` (the engine's binding
raises them and imports nothing of pycards) and exported here, their public
home; :class:`StalledGameError`, which only the Python layer raises, is
defined here.
"""

from __future__ import annotations

from cardcore.errors import (
    EventsDroppedError,
    EventsRewrittenError,
    IllegalActionError,
    InvalidCardError,
    NetworkError,
    PycardsError,
    RecordError,
    RulesError,
)

__all__ = [
    "DefinitionError",
    "EventsDroppedError",
    "EventsRewrittenError",
    "IllegalActionError",
    "InvalidCardError",
    "NetworkError",
    "PycardsError",
    "RecordError",
    "RulesError",
    "StalledGameError",
]


class StalledGameError(PycardsError, RuntimeError):
    """A game was stopped after its cap of actions without reaching its end
    (the arena's ``max_actions``, :func:`pycards.playouts.action_cap`): the
    message says how many actions were played and, where the game knows one,
    why a game can go on for ever (in the Game of Nancy a deal where every
    seat passes is dealt again)."""


class DefinitionError(RulesError):
    """A game description (:mod:`pycards.define`) that cannot be built: the
    message and :attr:`field` name the field at fault."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(f"{field}: {message}")
        #: The description's field at fault (``"passing.count"``...).
        self.field = field
