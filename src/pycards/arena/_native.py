"""The native loop: a match whose bots are all built in runs in C.

``cardcore._core.play_match(setup, searchers, deal_seeds, bot_seeds)`` plays
games with one searcher per seat, without Python per move, and gives each
game's returns and each seat's moves and time.  The arena uses it when the
engine has it, every bot of the match is a built-in bot (it has
``native_searcher(game)``, or is the :class:`~pycards.bots.RandomBot`), and
no per-move time budget is set (a built-in bot's budget is its number of
simulations or its own time limit, which it always keeps).  It plays one game
per call, so every game keeps its own moves and time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cardcore import _core
from pycards.arena._records import GameRecord
from pycards.bots import RandomBot

if TYPE_CHECKING:  # the match plays here: its types are names only
    from pycards.arena._match import BotLike, Match, SeatBots

__all__ = ["native_possible", "play_native"]


def _searcher(bot: BotLike, match: Match) -> _core.Searcher | None:
    make = getattr(bot, "native_searcher", None)
    if make is not None:
        searcher: _core.Searcher = make(match.game)
        return searcher
    if type(bot) is RandomBot:
        return _core.Searcher(match.game._setup, "random")
    return None


def native_possible(match: Match, seats: SeatBots) -> bool:
    """True if ``match`` can run in the native loop (see the module's docstring)."""
    if "play_match" not in vars(_core) or match.move_time is not None:
        return False
    return all(_is_native(seats.get(b, 0)) for b in range(len(match.entries)))


def _is_native(bot: BotLike) -> bool:
    return callable(getattr(bot, "native_searcher", None)) or type(bot) is RandomBot


def play_native(
    match: Match,
    seats: SeatBots,
    indices: list[int],
    on_game: Callable[[GameRecord], None] | None = None,
) -> list[GameRecord]:
    """Play games ``indices`` in the native loop; their records in index order
    (each also passed to ``on_game`` as soon as it is played)."""
    play_match = _core.play_match  # there, as native_possible checked
    setup = match.game._setup
    cache: dict[int, _core.Searcher] = {}
    out = []
    for i in indices:
        seating = match.seating(i)
        searchers = []
        for bot in seats.at(seating):
            s = cache.get(id(bot))
            if s is None:
                made = _searcher(bot, match)
                if made is None:  # native_possible found every bot native
                    raise TypeError(f"bot {bot.name!r} cannot play in the native loop")
                s = cache[id(bot)] = made
            searchers.append(s)
        deal_seed = match.deal_seed(i)
        returns, moves, seconds = play_match(setup, searchers, [deal_seed], [match.bot_seeds(i)])
        record = GameRecord(
            index=i,
            group=match.group(i),
            deal_seed=deal_seed,
            seating=seating,
            returns=tuple(float(x) for x in returns[0]),
            failure=None,
            moves=tuple(int(x) for x in moves),
            seconds=tuple(float(x) for x in seconds),
        )
        out.append(record)
        if on_game is not None:
            on_game(record)
    return out
