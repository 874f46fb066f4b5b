"""Inference from the other players' actions: weighted worlds and a bot.

A *world* is a state drawn by the game's exact sampler
(:meth:`pycards.game.State.sample_infoset`), read back as the deal it came
from and replayed along the observer's own record of the game (its
observation after each action and its own actions; never another seat's
hidden action or card).  Its *weight* is the probability of the other seats'
past decisions under a model of their play: the game's heuristic, softened
(probability ``1 - eps`` spread over the heuristic's choices, ``eps`` over the
other legal actions).  Weighting uniform samples so is importance sampling
of the posterior over worlds: exact in the limit of many samples.  The
replay runs in C (``cc_infer.h``); docs/search.rst, "Inference".

Only the first deal of a game can be read back; later, :func:`weighted_worlds`
gives every world weight 1 (plain sampling).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from cardcore import _core

from .._args import as_int
from ..game import State
from ..view import PlayerView
from .base import register_bot

__all__ = ["InferBot", "observer_record", "weighted_worlds"]

_M64 = 2**64 - 1


def _as_eps(eps: object) -> float:
    if isinstance(eps, bool) or not isinstance(eps, (int, float)):
        raise TypeError(f"eps: expected a float, got {type(eps).__name__}")
    value = float(eps)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"eps: expected 0 <= eps <= 1, got {eps!r}")
    return value


def observer_record(state: State[Any], player: int) -> tuple[list[int], np.ndarray]:
    """What ``player`` has seen of ``state``'s game: its own action at each
    step (-1 for another seat's) and its observation tensor after 0, 1, ...
    actions (shape ``(steps + 1, tensor_size)``), from a replay of the game's
    record.  ``ValueError`` for a sampled state (it has no record)."""
    if state.is_sample:
        raise ValueError("state: a sampled state has no record to infer from")
    p = state._check_seat(player)
    replay = state.game.new_initial_state(state.seed or 0, deck=state.deck)
    rows = [replay.observation_tensor(p)]
    actions: list[int] = []
    for a in state.history:
        actions.append(a if replay.current_player == p else -1)
        replay.apply(a)
        rows.append(replay.observation_tensor(p))
    return actions, np.ascontiguousarray(np.stack(rows), dtype=np.float32)


def weighted_worlds(
    state: State[Any],
    player: int,
    n: int,
    *,
    seed: int = 0,
    eps: float = 0.2,
    ties: int = 4,
    max_nodes: int = 0,
) -> list[tuple[State[Any], float]]:
    """``n`` worlds for ``player`` with their weights (importance sampling).

    The worlds are ``state.sample_infoset(player, k)`` for ``n`` seeds drawn
    from ``seed``; the weight of each is the likelihood of the other seats'
    past decisions under the softened heuristic (``eps`` in [0, 1]; the
    heuristic's choices are the distinct actions it picks under ``ties``
    tie-break seeds).  A weighted mean over the worlds estimates the mean
    over the posterior of worlds, exactly in the limit.  Weights are not
    normalized; outside the first deal they are all 1.  ``max_nodes`` (0:
    none) bounds the replay's positions per world (past it ``ValueError``).

    The inputs are what ``player`` may know: two states that differ only in
    cards hidden from ``player`` give the same worlds and weights.
    """
    p = state._check_seat(player)
    count = as_int(n, "n", 1, 1 << 20)
    sd = as_int(seed, "seed", 0, _M64)
    e = _as_eps(eps)
    t = as_int(ties, "ties", 1, 1 << 20)
    limit = as_int(max_nodes, "max_nodes", 0, 1 << 62)
    rng = random.Random(sd)
    worlds = [state.sample_infoset(p, rng.getrandbits(64)) for _ in range(count)]
    if not _core.infer_supported(state._s):
        return [(w, 1.0) for w in worlds]
    actions, record = observer_record(state, p)
    weights, _nodes = _core.infer_weights(
        [w._s for w in worlds], state.seed or 0, p, actions, record, e, t, limit
    )
    return [(w, float(x)) for w, x in zip(worlds, weights, strict=True)]


class InferBot:
    """PIMC over weighted worlds: per world, each legal action is valued by
    the game's exact solver when it takes the world (:attr:`State.solve_depth`
    >= 0), else by ``rollouts`` heuristic playouts to the end of the game
    (own points minus the mean of the others'); the weighted mean over the
    worlds picks the action (the lowest id among equals).

    ``infer=0`` gives every world weight 1 (plain PIMC, the baseline);
    ``eps`` softens the model of the other seats (see :func:`weighted_worlds`).
    """

    name = "pimc_infer"

    def __init__(
        self,
        seed: int = 0,
        worlds: int = 16,
        eps: float = 0.2,
        infer: int = 1,
        rollouts: int = 1,
    ) -> None:
        self._seed = as_int(seed, "seed", 0, _M64)
        self.worlds = as_int(worlds, "worlds", 1, 1 << 16)
        self.eps = _as_eps(eps)
        self.infer = as_int(infer, "infer", 0, 1)
        self.rollouts = as_int(rollouts, "rollouts", 1, 1 << 16)
        self._rng = random.Random(self._seed)

    def reset(self, seed: int) -> None:
        """Reseed for a new game."""
        self._seed = as_int(seed, "seed", 0, _M64)
        self._rng = random.Random(self._seed)

    def _values(self, world: State[Any], seat: int, legal: list[int]) -> dict[int, float]:
        if world.solve_depth >= 0:
            return world.solve()
        out: dict[int, float] = {}
        n = world.num_players
        for a in legal:
            total = 0.0
            for _ in range(self.rollouts):
                s = world.clone()
                s.apply(a)
                while not s.is_terminal:
                    s.apply(s._s.heuristic_action(self._rng.getrandbits(64)))
                r = s.returns()
                total += r[seat] - (sum(r) - r[seat]) / max(n - 1, 1)
            out[a] = total / self.rollouts
        return out

    def act(self, view: PlayerView[Any]) -> int:
        """The action with the best weighted mean value over the worlds."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (not its turn, or game over)")
        if len(legal) == 1:
            return legal[0]
        state = view._state
        seed = self._rng.getrandbits(64)
        if self.infer:
            pairs = weighted_worlds(state, view.seat, self.worlds, seed=seed, eps=self.eps)
        else:
            rng = random.Random(seed)
            pairs = [
                (state.sample_infoset(view.seat, rng.getrandbits(64)), 1.0)
                for _ in range(self.worlds)
            ]
        if sum(w for _, w in pairs) <= 0.0:
            pairs = [(s, 1.0) for s, _ in pairs]
        score = dict.fromkeys(legal, 0.0)
        for world, w in pairs:
            if w == 0.0:
                continue
            for a, v in self._values(world, view.seat, legal).items():
                score[a] += w * v
        return max(legal, key=lambda a: (score[a], -a))

    def __repr__(self) -> str:
        return (
            f"InferBot(seed={self._seed}, worlds={self.worlds}, eps={self.eps}, "
            f"infer={self.infer}, rollouts={self.rollouts})"
        )


register_bot("pimc_infer", InferBot)
