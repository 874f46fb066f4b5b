"""Exceptions raised by pycards.

The classes are defined in :mod:`cardcore.errors` (the engine's binding
raises them and imports nothing of pycards) and exported here, their public
home.
"""

from __future__ import annotations

from cardcore.errors import (
    EventsDroppedError,
    EventsRewrittenError,
    IllegalActionError,
    InvalidCardError,
    PycardsError,
    RecordError,
    RulesError,
)

__all__ = [
    "EventsDroppedError",
    "EventsRewrittenError",
    "IllegalActionError",
    "InvalidCardError",
    "PycardsError",
    "RecordError",
    "RulesError",
]
