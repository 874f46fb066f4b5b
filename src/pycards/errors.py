"""Exceptions raised by pycards."""

from __future__ import annotations

__all__ = ["IllegalActionError", "InvalidCardError", "PycardsError", "RulesError"]


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

    :ivar action: the rejected action id.
    :ivar reason: why it was rejected, e.g. ``"over 31"`` or ``"not your turn"``.
    """

    def __init__(self, action: int, reason: str) -> None:
        super().__init__(f"illegal action {action}: {reason}")
        self.action = action
        self.reason = reason


class RulesError(PycardsError, ValueError):
    """Contradictory or out-of-range rules settings, or an unsupported player count."""
