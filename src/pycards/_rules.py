"""Validation shared by the rules dataclasses of the games (one place for the
checks and their messages).  Every failure raises :class:`RulesError`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pycards.errors import RulesError

__all__ = ["check_bools", "check_choices", "check_int"]


def check_choices(rules: object, choices: Mapping[str, tuple[str, ...]]) -> None:
    """Each field named in ``choices`` holds one of its allowed strings."""
    for name, allowed in choices.items():
        value = getattr(rules, name)
        if value not in allowed:
            options = ", ".join(repr(c) for c in allowed)
            raise RulesError(f"{name} must be one of {options}, got {value!r}")


def check_bools(rules: object, names: Iterable[str]) -> None:
    """Each named field is a ``bool``."""
    for name in names:
        value = getattr(rules, name)
        if not isinstance(value, bool):
            raise RulesError(f"{name} must be a bool, got {value!r}")


def check_int(
    rules: object, name: str, lo: int, hi: int, *, optional: bool = False, what: str = "an int"
) -> None:
    """The field is an int (not a bool) in ``lo..hi``, or ``None`` if ``optional``."""
    value = getattr(rules, name)
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        prefix = "None or " if optional else ""
        raise RulesError(f"{name} must be {prefix}{what} {lo}..{hi}, got {value!r}")
