"""The arena: matches between bots, with duplicate deals, confidence
intervals, a rating, failure handling and scale-out on Dask.

>>> from pycards.arena import Match
>>> from pycards.bots import RandomBot
>>> match = Match("nodde", [RandomBot(), RandomBot()], games=20, players=2, seed=7)
>>> result = match.run(progress=False)
>>> result.games_played, [b.name for b in result.bots]
(20, ['random', 'random#2'])

See ``docs/arena.rst`` for the schedule, the statistics and the rating.
"""

from __future__ import annotations

from collections.abc import Sequence

from pycards.arena._cli import add_arguments, main
from pycards.arena._match import BotLike, Match, derive_seed
from pycards.arena._records import FAILURE_KINDS, Failure, GameRecord
from pycards.arena._results import (
    RATING_METHOD,
    Z95,
    BotStats,
    MatchResult,
    bradley_terry,
    game_scores,
    mean_ci,
)
from pycards.game import Game, Rules

__all__ = [
    "FAILURE_KINDS",
    "RATING_METHOD",
    "Z95",
    "BotLike",
    "BotStats",
    "Failure",
    "GameRecord",
    "Match",
    "MatchResult",
    "add_arguments",
    "bradley_terry",
    "derive_seed",
    "game_scores",
    "main",
    "mean_ci",
    "run_match",
]


def run_match(
    game: str | Game[Rules, object],
    bots: Sequence[str | BotLike] | str,
    games: int = 100,
    *,
    players: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    move_time: float | None = None,
    rules: Rules | str | None = None,
    max_actions: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    chunk_size: int | None = None,
) -> MatchResult:
    """Build a :class:`Match` and run it: ``run_match("nodde", ["heuristic",
    "random"], 1000)``.  The arguments are those of :class:`Match` and
    :meth:`Match.run`."""
    match = Match(
        game,
        bots,
        games,
        players=players,
        seed=seed,
        duplicate=duplicate,
        move_time=move_time,
        rules=rules,
        max_actions=max_actions,
    )
    return match.run(workers=workers, scheduler=scheduler, progress=progress, chunk_size=chunk_size)
