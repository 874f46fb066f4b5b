"""A vector of games stepped in C by one call (numpy only).

>>> import numpy as np
>>> from pycards.envs.vector import VectorEnv
>>> venv = VectorEnv("nodde", num_envs=8, num_players=2, seed=1)
>>> obs, masks = venv.reset()
>>> obs.shape, masks.shape
((8, 274), (8, 52))
>>> rng = np.random.default_rng(0)
>>> obs, masks, rewards, terminations = venv.step(venv.sample_actions(rng))
>>> rewards.dtype, terminations.dtype
(dtype('float32'), dtype('bool'))

Seat ``learner`` of every game is played by the caller; the other seats are
played inside C by a built-in policy, so the caller only ever sees the
learner's turns.  :meth:`VectorEnv.step` takes one action per game, plays the
opponents until the learner is to act again, and writes every game's
observation (the learner's tensor), action mask, reward (the change of the
learner's score since its previous step, from 0 at the deal: a game's rewards
sum to the learner's final score) and termination into arrays allocated once;
a finished game is replaced at once by a new one (auto-reset), and the
observation returned for it is the new game's first.  The returned arrays are
the vector's own buffers, overwritten by the next call (copy what you keep).

Game ``i`` has its own generator, seeded from ``(seed, i)``, for the seeds of
its games and the opponents' moves: the same seed gives the same games
whatever ``threads``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards.envs._common import make_game
from pycards.game import Game, Rules, State

__all__ = ["OPPONENTS", "VectorEnv"]

#: The built-in policies for the other seats: a uniformly random legal action,
#: or the game's rule-based heuristic (random for a game without one).  They
#: are the engine's per-move policies that the vector's C loop runs for every
#: game on every thread; the search bots (``"ismcts"``, ``"pimc"``,
#: ``"best"``...) and self-play are not among them (see :class:`VectorEnv`).
OPPONENTS = ("random", "heuristic")


class VectorEnv:
    """``num_envs`` games of one game, rules and player count, stepped in C.

    :param game: a game's name or a :class:`~pycards.game.Game`.
    :param num_envs: the number of games (1 to 2**24).
    :param num_players: the number of seats (with a game's name; default 2).
    :param rules: the game's rules (with a game's name).
    :param seed: the vector's seed (0 to 2**64 - 1).
    :param learner: the caller's seat in every game.
    :param opponent: the policy of the other seats, one of :data:`OPPONENTS`:
        ``"random"`` or ``"heuristic"``.  Any other bot spec raises
        ``ValueError``: the vector plays the other seats inside its C step,
        thread by thread, with the engine's two per-move policies, and it has
        no searcher per game to run ``"ismcts"``, ``"pimc"`` or ``"best"``,
        nor a way to hand the other seats back to Python (self-play).  For
        those, step :class:`pycards.envs.gymnasium.CardGameEnv` (``opponents``:
        any spec of :func:`pycards.bots.make_bot`) or the PettingZoo
        environment (every seat yours) in a ``gymnasium.vector`` vector.
        :class:`VectorEnv` is not a ``gymnasium.vector.VectorEnv`` either: its
        ``step`` returns observations, masks, rewards and terminations in
        numpy arrays of its own (there is no truncation: its games are
        stepped in C, the opponents' moves of one step capped by the engine
        at 1,000,000).
    :param threads: split each call across this many threads (the GIL is
        released either way); see :attr:`threads`.
    :param events: keep each game's event log (for :meth:`state` to show the
        game's history); off, the games keep no log, which changes nothing in
        them and saves a little time.
    """

    def __init__(
        self,
        game: str | Game[Rules, object] = "nodde",
        num_envs: int = 64,
        num_players: int | None = None,
        rules: Rules | str | None = None,
        *,
        seed: int = 0,
        learner: int = 0,
        opponent: str = "random",
        threads: int = 1,
        events: bool = False,
    ) -> None:
        self.game: Game[Rules, object] = make_game(game, num_players, rules)
        if isinstance(opponent, str) and opponent not in OPPONENTS:
            raise ValueError(
                f"opponent must be one of {', '.join(OPPONENTS)} (the engine's policies the "
                f"vector runs in C), got {opponent!r}; for a search bot or self-play use "
                "pycards.envs.gymnasium.CardGameEnv(opponents=...) or pycards.envs.pettingzoo"
            )
        self._v = _core.VecEnv(self.game._setup, num_envs, seed, learner, opponent, threads, events)
        n, t, a = self._v.num_envs, self._v.tensor_size, self._v.num_actions
        #: The number of games.
        self.num_envs: int = n
        #: The learner's seat.
        self.learner: int = self._v.learner
        #: The learner's observation in each game, ``float32 (num_envs, tensor_size)``.
        self.observations: npt.NDArray[np.float32] = np.zeros((n, t), dtype=np.float32)
        #: 1 for each legal action of the learner, ``int8 (num_envs, num_actions)``.
        self.action_masks: npt.NDArray[np.int8] = np.zeros((n, a), dtype=np.int8)
        #: The rewards of the last step, ``float32 (num_envs,)``.
        self.rewards: npt.NDArray[np.float32] = np.zeros(n, dtype=np.float32)
        #: True where a game ended at the last step (and was replaced), ``bool (num_envs,)``.
        self.terminations: npt.NDArray[np.bool_] = np.zeros(n, dtype=np.bool_)
        self._v.observe(self.observations, self.action_masks)

    def __repr__(self) -> str:
        return (
            f"VectorEnv({self.game!r}, num_envs={self.num_envs}, learner={self.learner}, "
            f"opponent={self._v.opponent!r}, threads={self.threads})"
        )

    @property
    def num_actions(self) -> int:
        """The size of the action space."""
        return int(self._v.num_actions)

    @property
    def tensor_size(self) -> int:
        """The length of an observation."""
        return int(self._v.tensor_size)

    @property
    def threads(self) -> int:
        """The threads each call splits the games across (1 to 64, at most one
        per game), settable between calls.  The calling thread and the
        vector's workers take chunks of 16 or more games in turn until none
        is left, so a late worker leaves its share to the others; a call on
        16 games or fewer, or with a few microseconds of work, stays on the
        calling thread.  The vector starts its worker threads at the first
        call that needs them and keeps them until it is freed (a worker polls
        briefly after a call, then sleeps), so a call pays no thread start.
        The games are the same whatever the number."""
        return int(self._v.threads)

    @threads.setter
    def threads(self, value: int) -> None:
        self._v.threads = value

    @property
    def episodes(self) -> int:
        """Games finished since the vector was made."""
        return int(self._v.episodes)

    @property
    def nbytes(self) -> int:
        """The vector's memory in C, in bytes (its games, the scratch states
        and a header; the numpy arrays come on top)."""
        return int(self._v.nbytes)

    @property
    def bytes_per_game(self) -> int:
        """Memory per game of the vector, in bytes (its state and a 256-byte
        slot; the observation, mask and reward rows come on top).  Without
        ``events`` a state ends before its log's entries, and the vector holds
        besides one whole state per thread that may run (up to 64) to deal
        in: ``nbytes`` is the total."""
        return int(self._v.bytes_per_game)

    def state(self, index: int) -> State[object]:
        """A copy of game ``index`` as it stands (the learner to act), as a
        :class:`~pycards.game.State` without a record (no seed, no history),
        e.g. to draw it: ``venv.state(0).table(venv.learner)``.  Its event log
        is the game's if the vector was made with ``events=True``, else empty
        (the table then shows no past deals)."""
        return State(self.game, self._v.state(index), None, None)

    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Deal a new game everywhere; the observations and action masks.

        The generators go on (a reset never replays a game); a vector made with
        the same seed and reset the same number of times deals the same games."""
        self._v.reset(self.observations, self.action_masks)
        self.rewards[:] = 0
        self.terminations[:] = False
        return self.observations, self.action_masks

    def step(
        self, actions: npt.NDArray[np.integer[Any]]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]:
        """Play ``actions`` (one per game: a numpy integer array of shape
        ``(num_envs,)``); the observations, action masks, rewards and
        terminations.

        The whole array is checked before anything runs: not an integer
        array raises ``TypeError`` naming ``actions``, a wrong shape or an id
        outside the action space ``ValueError`` naming the game (whatever the
        integer dtype), and an action outside its game's mask
        :class:`~pycards.errors.IllegalActionError` naming the game, with no
        game changed.  The call steps its own copy of ``actions``: changing
        the array during the call changes nothing.

        One call at a time: a vector's buffers are shared by its calls, so a
        call made while another thread's call on the same vector runs raises
        ``RuntimeError`` and changes nothing (give each thread its own
        vector, or a lock)."""
        if not isinstance(actions, np.ndarray):
            raise TypeError(f"actions: expected a numpy.ndarray, got {type(actions).__name__}")
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions: expected an integer dtype, got {actions.dtype}")
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions: expected shape ({self.num_envs},), got {actions.shape}")
        if actions.dtype != np.int32:
            # a copy of this call's own: checked, then converted exactly
            mine = actions.copy()
            bad = (mine < 0) | (mine >= self.num_actions)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                top = self.num_actions - 1
                raise ValueError(
                    f"actions[{i}] (game {i}): {int(mine[i])} is not an action id (0..{top}); "
                    "nothing was applied"
                )
            a32: npt.NDArray[np.int32] = mine.astype(np.int32)
        else:
            a32 = np.ascontiguousarray(actions, dtype=np.int32)
        # the binding copies an int32 array before the engine checks it
        self._v.step(a32, self.observations, self.action_masks, self.rewards, self.terminations)
        return self.observations, self.action_masks, self.rewards, self.terminations

    def final_returns(self) -> npt.NDArray[np.int32]:
        """Every seat's returns (points, seat order) at the end of each game's
        last finished game, ``int32 (num_envs, num_players)``; zeros for a
        game whose first deal is still on.  Read after :meth:`step`, the rows
        where ``terminations`` is true are the results of the games that just
        ended, for every seat (the rewards give the learner's alone).  A new
        array."""
        out = np.empty((self.num_envs, self.game.num_players), dtype=np.int32)
        self._v.final_returns(out)
        return out

    def random_actions(self) -> npt.NDArray[np.int32]:
        """A uniformly random legal action for every game, drawn in C from each
        game's own second generator (seeded from the vector's seed): a random
        learner policy at next to no cost.  A new array."""
        out = np.empty(self.num_envs, dtype=np.int32)
        self._v.random_actions(out)
        return out

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int32]:
        """A uniformly random legal action for every game, drawn with ``rng``
        from :attr:`action_masks` (a new array)."""
        keys = rng.random(self.action_masks.shape, dtype=np.float32)
        keys[self.action_masks == 0] = -1.0
        out: npt.NDArray[np.int32] = keys.argmax(axis=1).astype(np.int32)
        return out
