"""What a game of a match leaves: its record, and how a bot can fail it.

These are the plain data the rest of the arena passes around: the match
(:mod:`pycards.arena._match`) and the native loop (:mod:`pycards.arena._native`)
make them, the runner (:mod:`pycards.arena._run`) collects them and the
results (:mod:`pycards.arena._results`) read them.
"""

from __future__ import annotations

import dataclasses

from pycards._args import JSONObject

__all__ = ["FAILURE_KINDS", "Failure", "GameRecord"]

#: The ways a bot can fail a game, in the order the results list them:
#: ``error`` (``reset`` or ``act`` raised), ``illegal`` (an int that is not a
#: legal action), ``not_int`` (not an int: a bool, float, ``None``, a name...),
#: ``timeout`` (a move took longer than the match's ``move_time``).
FAILURE_KINDS = ("error", "illegal", "not_int", "timeout")


@dataclasses.dataclass(frozen=True)
class Failure:
    """A bot's failure that ended a game.

    :ivar seat: the seat whose bot failed.
    :ivar kind: one of :data:`FAILURE_KINDS`.
    :ivar message: what happened, for the log.
    """

    seat: int
    kind: str
    message: str


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """One game of a match as it was played.

    :ivar index: the game's index in the match.
    :ivar group: its unit of the statistics: the deal group in duplicate play
        (the games that replay one deal), else the game itself.
    :ivar deal_seed: the seed the game was dealt from.
    :ivar seating: the bot (its index in the match) in each seat.
    :ivar returns: each seat's return at the end, the failing seat's replaced
        by the game's worst return (see :class:`Failure` and the docs' scoring
        rule).
    :ivar failure: the failure that stopped the game, or ``None``.
    :ivar moves: moves made by each seat.
    :ivar seconds: time each seat's bot spent choosing its moves: its
        thread's CPU time in the Python loop, wall-clock time in the native
        loop (docs: "Time per move").
    """

    index: int
    group: int
    deal_seed: int
    seating: tuple[int, ...]
    returns: tuple[float, ...]
    failure: Failure | None
    moves: tuple[int, ...]
    seconds: tuple[float, ...]

    def to_dict(self) -> JSONObject:
        """The record as a JSON-friendly dict."""
        out: JSONObject = dataclasses.asdict(self)
        out["seating"] = list(self.seating)
        out["returns"] = list(self.returns)
        out["moves"] = list(self.moves)
        out["seconds"] = list(self.seconds)
        return out
