"""The native loop: a match whose bots are all built in runs in C.

``cardcore._core.play_match(setup, searchers, deal_seeds, bot_seeds)`` plays
a list of games with one searcher per seat, without Python per move, and
gives each game's returns and each seat's moves and time.  The arena uses it
when the engine has it, every bot of the match is a built-in bot exposing its
``searcher``, and no per-move time budget is set (a built-in bot's budget is
its number of simulations, which it always keeps).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardcore import _core

if TYPE_CHECKING:
    from pycards.arena._match import GameRecord, Match

__all__ = ["native_searchers", "play_native"]


def native_searchers(match: Match) -> list[Any] | None:
    """The searcher of each bot of ``match``, or ``None`` if the match cannot
    run natively (see the module's docstring)."""
    if not hasattr(_core, "play_match") or match.move_time is not None:
        return None
    out = []
    for e in match.entries:
        if e.spec is None:
            return None
        from pycards.arena._match import _make_bot

        searcher = getattr(_make_bot(e.spec), "searcher", None)
        if searcher is None:
            return None
        out.append(searcher)
    return out


def play_native(match: Match, searchers: list[Any], indices: list[int]) -> list[GameRecord]:
    """Play games ``indices`` with the native loop; the records in index order."""
    from pycards.arena._match import GameRecord

    by_seating: dict[tuple[int, ...], list[int]] = {}
    for i in indices:
        by_seating.setdefault(match.seating(i), []).append(i)
    records: dict[int, GameRecord] = {}
    setup = match.game._setup
    play_match: Any = vars(_core)["play_match"]
    for seating, games in by_seating.items():
        deal_seeds = [match.deal_seed(i) for i in games]
        bot_seeds = [match.bot_seeds(i) for i in games]
        returns, moves, seconds = play_match(
            setup, [searchers[b] for b in seating], deal_seeds, bot_seeds
        )
        for j, i in enumerate(games):
            records[i] = GameRecord(
                index=i,
                group=match.group(i),
                deal_seed=deal_seeds[j],
                seating=seating,
                returns=tuple(float(x) for x in returns[j]),
                failure=None,
                moves=tuple(int(x) for x in moves[j]),
                seconds=tuple(float(x) for x in seconds[j]),
            )
    return [records[i] for i in indices]
