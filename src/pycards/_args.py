"""Strict argument conversion shared by the Python modules: an int is an int or
a numpy integer (converted to a Python int, never kept), never a bool, a float
or ``None``; a flag is a bool.  Errors name the argument."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

import numpy as np

__all__ = ["as_flag", "as_int", "echo"]

#: A JSON value as :func:`json.loads` gives it and :func:`json.dumps` takes it.
#: Arrays and objects are read-only (``Sequence``, ``Mapping``), so that a
#: ``list[str]`` or a ``dict[str, int]`` is one.
JSONValue: TypeAlias = (
    "bool | int | float | str | Sequence[JSONValue] | Mapping[str, JSONValue] | None"
)
#: A JSON object that is being built (messages, records, results).
JSONObject: TypeAlias = "dict[str, JSONValue]"


def as_int(value: object, name: str, lo: int, hi: int) -> int:
    """``value`` as a Python int in ``lo..hi``: TypeError for a bool, a float,
    ``None`` or anything else; ValueError out of range; both name ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} ({value!r})")
    v = int(value)
    if not lo <= v <= hi:
        raise ValueError(f"{name} must be {lo}..{hi}, got {v}")
    return v


def as_flag(value: object, name: str) -> bool:
    """``value`` as a bool: only a bool (or numpy bool) is a flag."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__} ({value!r})")
    return bool(value)


def echo(value: object, limit: int = 40) -> str:
    """``repr(value)`` for an error message, cut after ``limit`` characters of
    text (a hostile input is not echoed whole)."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= limit + 2 else text[:limit] + "..."
