"""Random playouts in the engine: whole games of uniformly random legal moves,
played in C without the GIL.

>>> from pycards.game import load_game
>>> result = random_playouts(load_game("nodde"), 100, seed=1)
>>> result.games, len(result.points)
(100, 2)
>>> result == random_playouts(load_game("nodde"), 100, seed=1)
True
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards._args import as_int
from pycards.game import Game, Rules

__all__ = [
    "ACTION_CAP_FACTOR",
    "ACTION_CAP_FLOOR",
    "ACTION_CAP_GAMES",
    "Playouts",
    "action_cap",
    "random_playouts",
    "stalled_message",
]

_M64 = (1 << 64) - 1


@dataclasses.dataclass(frozen=True, eq=False)
class Playouts:
    """The outcome of :func:`random_playouts`.

    :ivar games: games played.
    :ivar actions: actions applied in all the games.
    :ivar points: each seat's points summed over the games.
    :ivar returns: each game's points per seat, shape ``(games, players)``
        (only with ``per_game=True``, else ``None``).
    """

    games: int
    actions: int
    points: tuple[int, ...]
    returns: npt.NDArray[np.int64] | None = None

    def mean_points(self) -> list[float]:
        """Each seat's mean points per game."""
        return [p / self.games if self.games else 0.0 for p in self.points]

    def win_rates(self) -> list[float]:
        """Each seat's share of the wins, ties split: a game won by ``k`` seats
        together (the highest points) gives each ``1/k``.  Needs ``per_game=True``.

        >>> from pycards.game import load_game
        >>> r = random_playouts(load_game("nodde"), 50, seed=3, per_game=True)
        >>> round(sum(r.win_rates()), 9)
        1.0
        """
        if self.returns is None:
            raise ValueError("win rates need each game's result: use per_game=True")
        if self.games == 0:
            return [0.0] * len(self.points)
        best = self.returns.max(axis=1, keepdims=True)
        winners = self.returns == best
        share = winners / winners.sum(axis=1, keepdims=True)
        return [float(x) for x in share.sum(axis=0) / self.games]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Playouts):
            return NotImplemented
        same_returns = (self.returns is None) == (other.returns is None) and (
            self.returns is None
            or other.returns is None
            or bool(np.array_equal(self.returns, other.returns))
        )
        return (self.games, self.actions, self.points) == (
            other.games,
            other.actions,
            other.points,
        ) and same_returns

    __hash__ = None  # type: ignore[assignment]


def random_playouts(
    game: Game[Rules, object],
    games: int,
    seed: int = 0,
    *,
    per_game: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Playouts:
    """Play ``games`` games of uniformly random legal moves in the engine.

    Game ``g`` is dealt from ``seed + g``.  With ``per_game=False`` one native
    call plays them all and only the sums are kept; with ``per_game=True``
    each game is one native call (its moves drawn from a generator seeded
    from ``seed + g``) and :attr:`Playouts.returns` keeps every result, for
    win rates.  Same arguments, same result on every platform.  ``progress``,
    if given, is called with the number of games done after each chunk.
    """
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, got {type(game).__name__}")
    n = as_int(games, "games", 0, 1 << 40)
    sd = as_int(seed, "seed", 0, _M64)
    if not isinstance(per_game, bool):
        raise TypeError(f"per_game must be a bool, got {type(per_game).__name__}")
    name, params, players = game.NAME, game.params, game.num_players
    if not per_game:
        actions = 0
        points = np.zeros(players, dtype=np.int64)
        chunk = 2_000
        done = 0
        while done < n:
            k = min(chunk, n - done)
            steps, pts = _core.random_playouts(name, params, players, (sd + done) & _M64, k)
            actions += steps
            points += np.asarray(pts, dtype=np.int64)
            done += k
            if progress is not None:
                progress(done)
        return Playouts(n, actions, tuple(int(p) for p in points))
    returns = np.zeros((n, players), dtype=np.int64)
    actions = 0
    for g in range(n):
        steps, pts = _core.random_playouts(name, params, players, (sd + g) & _M64, 1)
        actions += steps
        returns[g] = pts
        if progress is not None and (g + 1) % 500 == 0:
            progress(g + 1)
    if progress is not None:
        progress(n)
    return Playouts(n, actions, tuple(int(p) for p in returns.sum(axis=0)), returns)


#: :func:`action_cap` is this many times the longest of its random games...
ACTION_CAP_FACTOR = 20
#: ...of this many random games (dealt from seeds 0, 1, ...)...
ACTION_CAP_GAMES = 16
#: ...and at least this many actions.
ACTION_CAP_FLOOR = 10_000


@functools.lru_cache(maxsize=256)
def _cap(game: Game[Rules, object]) -> int:
    name, params, players = game.NAME, game.params, game.num_players
    longest = max(
        _core.random_playouts(name, params, players, seed, 1)[0] for seed in range(ACTION_CAP_GAMES)
    )
    return max(ACTION_CAP_FLOOR, ACTION_CAP_FACTOR * int(longest))


def action_cap(game: Game[Rules, object]) -> int:
    """The default cap of actions of one game of ``game`` (its rules and player
    count) in the arena and the environments: :data:`ACTION_CAP_FACTOR` (20)
    times the longest of :data:`ACTION_CAP_GAMES` (16) random games of the same
    game, rules and players (seeds 0 to 15, played in the engine), and at
    least :data:`ACTION_CAP_FLOOR` (10,000).  Real games are far shorter: the
    cap stops only a game with no end in sight, such as a Game of Nancy whose
    bots never bid (a deal where every seat passes is dealt again).  The same
    on every platform; computed once per game, rules and player count.

    >>> from pycards.game import load_game
    >>> action_cap(load_game("nodde")) >= ACTION_CAP_FLOOR
    True
    """
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, got {type(game).__name__}")
    return _cap(game)


def stalled_message(game: Game[Rules, object], actions: int) -> str:
    """What :class:`~pycards.errors.StalledGameError` says of a game of ``game``
    stopped after ``actions`` actions: that, and why such a game may never end
    where the game knows (its ``STALL_NOTE``)."""
    text = f"{game.NAME}: game stopped after {actions:,} actions: no end in sight"
    note = type(game).STALL_NOTE
    return f"{text}; {note}" if note else text
