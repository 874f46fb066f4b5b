"""The exceptions of the engine and of pycards.

They live here, at the bottom, so that the compiled binding
(:mod:`cardcore._core`) maps the engine's status codes to them without
importing anything of :mod:`pycards`; :mod:`pycards.errors` is their public
home and re-exports them (each class names it as its ``__module__``, so
tracebacks, reprs and pickles say ``pycards.errors``).
"""

from __future__ import annotations

__all__ = [
    "EventsDroppedError",
    "EventsRewrittenError",
    "IllegalActionError",
    "InvalidCardError",
    "NetworkError",
    "PycardsError",
    "RecordError",
    "RulesError",
]


class PycardsError(Exception):
    """Base class of every pycards exception."""


class InvalidCardError(PycardsError, ValueError):
    """An unknown, malformed or duplicated card, or a card set with bits outside its deck.

    :ivar token: the offending token (or ``None`` when not from text).
    """

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class IllegalActionError(PycardsError, ValueError):
    """An action that the rules do not allow in this state.

    The state is left exactly as it was.

    :ivar action: the rejected action id (``None`` when it had no id).
    :ivar reason: why it was rejected, e.g. ``"over 31"`` or ``"not your turn"``.
    :ivar name: the action's name, e.g. ``"play 2C"`` (``None`` if unknown).
    :ivar index: when replaying a record, the index of the offending action.

    >>> str(IllegalActionError(1, "over 31", name="play 2C"))
    "illegal action 'play 2C': over 31"
    """

    def __init__(
        self,
        action: int | None,
        reason: str,
        *,
        name: str | None = None,
        index: int | None = None,
    ) -> None:
        what = repr(name) if name is not None else str(action)
        where = f"action {index}: " if index is not None else ""
        super().__init__(f"{where}illegal action {what}: {reason}")
        self.action = action
        self.reason = reason
        self.name = name
        self.index = index


class RecordError(PycardsError, ValueError):
    """A game record (JSON or text) that cannot be read: a missing or malformed
    field, or an action that fails when replayed.

    :ivar field: the field at fault (e.g. ``"history[3]"``), or ``None``.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


class RulesError(PycardsError, ValueError):
    """Contradictory or out-of-range rules settings, or an unsupported player count."""


class NetworkError(PycardsError, ValueError):
    """A network file or network object that cannot be used: a wrong format
    or version, a missing or malformed field, a shape that does not match,
    weights too large to quantize, or a network made for another game.

    :ivar field: the field at fault (e.g. ``"trunk0.weight"``), or ``None``.

    >>> str(NetworkError("expected int16, got float64", field="policy.weight"))
    'policy.weight: expected int16, got float64'
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


class EventsDroppedError(PycardsError, LookupError):
    """The events asked for (from a cursor on) are no longer all in the log:
    the ring keeps the most recent events of a long game only.

    :ivar since: the cursor asked for.
    :ivar first: the index of the oldest event the log still keeps.
    :ivar dropped: how many of the events asked for are gone (``first - since``).

    >>> str(EventsDroppedError(10, 25))
    'since: the log no longer keeps events 10 to 24 (15 dropped); it starts at 25'
    """

    def __init__(self, since: int, first: int) -> None:
        super().__init__(
            f"since: the log no longer keeps events {since} to {first - 1} "
            f"({first - since} dropped); it starts at {first}"
        )
        self.since = since
        self.first = first
        self.dropped = first - since


class EventsRewrittenError(PycardsError, LookupError):
    """The events asked for (from a cursor on) were rewritten: an undo took
    back events at or after the cursor's place after the cursor was taken, so
    the cursor points into a log that no longer exists.  Read again from
    ``rewound_to``, the first index the undo rewrote (the events before it
    are the same as when the cursor was taken).

    :ivar since: the cursor's index.
    :ivar rewound_to: the first event index the undo rewrote.

    >>> err = EventsRewrittenError(12, 9)
    >>> err.since, err.rewound_to, str(err).endswith("read again from 9")
    (12, 9, True)
    """

    def __init__(self, since: int, rewound_to: int) -> None:
        super().__init__(
            f"since: an undo rewrote the log from event {rewound_to} on after this cursor "
            f"({since}) was taken; read again from {rewound_to}"
        )
        self.since = since
        self.rewound_to = rewound_to


for _cls in (
    PycardsError,
    InvalidCardError,
    IllegalActionError,
    NetworkError,
    RecordError,
    RulesError,
    EventsDroppedError,
    EventsRewrittenError,
):
    _cls.__module__ = "pycards.errors"
del _cls
