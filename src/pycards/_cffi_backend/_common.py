"""Shared helpers of the cffi adapter: status codes and input checks."""

from __future__ import annotations

from cardcore._cffi import ffi, lib

from pycards._checks import u64_array

__all__ = ["check", "ffi", "lib", "mask52", "u64_array"]


STATUS_TEXT = {
    lib.CC_E_ARG: "argument out of range",
    lib.CC_E_CARDS: "card set has bits outside the deck",
    lib.CC_E_GAME_OVER: "game over",
    lib.CC_E_ILLEGAL: "illegal action",
    lib.CC_E_PLAYERS: "unsupported number of players",
    lib.CC_E_PARAMS: "invalid rules parameters",
    lib.CC_E_CAPACITY: "output buffer too small",
}


def check(rc: int, what: str) -> None:
    """Raise ``ValueError`` for a negative status code."""
    if rc < 0:
        raise ValueError(f"{what}: {STATUS_TEXT.get(rc, rc)}")


def mask52(cards: int) -> int:
    """Validate an int as a 52-card bitset."""
    cards = int(cards)
    if cards < 0 or cards > 0xFFFFFFFFFFFFFFFF:
        raise ValueError(f"card set {cards!r} is not a 64-bit bitset")
    if cards & ~lib.CC_DECK52_MASK:
        raise ValueError(
            f"card set {cards:#x} has bits outside the 52-card deck "
            f"({cards & ~lib.CC_DECK52_MASK:#x})"
        )
    return cards
