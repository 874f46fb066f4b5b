"""Data and strength from the engine's vector environment, in seeded shards.

A *shard* is a pure function of its :class:`Shard` description and the
network's arrays: it builds its own vectors (one per seat, the learner at
that seat, the other seats played in C by the engine's policy), chooses the
learner's moves for all its games at once in numpy, steps the games in C and
returns plain arrays.  So a shard gives the same arrays in this process or
on any Dask worker, and a run split into the same shards gives the same
result for any number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pycards.envs.vector import VectorEnv
from pycards.game import Rules, load_game
from pycards.learn.blas import blas_threads
from pycards.learn.mlp import Mlp, masked_argmax
from pycards.nets import Network, QuantizedNetwork, evaluate

__all__ = ["Batch", "Score", "Shard", "evaluate_shard", "play_shard", "shard_seed"]

F32 = npt.NDArray[np.float32]


def shard_seed(*words: int) -> int:
    """A 64-bit seed from a run's seed and the indices that name a vector
    (iteration, shard, seat...), through numpy's ``SeedSequence``."""
    state = np.random.SeedSequence([w % (1 << 64) for w in words]).generate_state(2, np.uint32)
    return int(state[0]) | (int(state[1]) << 32)


@dataclass(frozen=True)
class Shard:
    """What a shard plays: the game, the vectors' seeds, their size and how
    long, the exploration and the learner's input scale."""

    game: str
    num_players: int
    rules: Rules
    seed: int
    iteration: int
    index: int
    envs: int
    steps: int
    epsilon: float
    opponent: str
    in_scale: F32


@dataclass(frozen=True)
class Batch:
    """The transitions of a shard's finished games: each learner observation
    (raw, not scaled), the action taken, and every seat's final points of its
    game in seat order from the mover (``[m, num_players]``), the mover's
    points before the step (``scored``: the policy head learns the points
    still to come, ``returns[:, 0] - scored``); ``frames``
    counts every learner step the shard played (finished games or not)."""

    obs: F32
    actions: npt.NDArray[np.int32]
    returns: F32
    scored: F32
    frames: int
    episodes: int


@dataclass(frozen=True)
class Score:
    """A shard's games against the opponents: for each game, the learner's
    final points minus the mean of the other seats' (its margin)."""

    margins: npt.NDArray[np.float64]
    frames: int


def _vector(spec: Shard, seat: int, salt: int) -> VectorEnv:
    game = load_game(spec.game, spec.rules, spec.num_players)
    seed = shard_seed(spec.seed, salt, spec.iteration, spec.index, seat)
    return VectorEnv(game, spec.envs, seed=seed, learner=seat, opponent=spec.opponent)


def _relative(finals: npt.NDArray[np.int32], seat: int) -> npt.NDArray[np.int32]:
    """Every seat's points in seat order from ``seat`` (the mover first)."""
    p = finals.shape[1]
    out: npt.NDArray[np.int32] = finals[:, (seat + np.arange(p)) % p]
    return out


def play_shard(spec: Shard, arrays: Sequence[F32]) -> Batch:
    """Play ``spec.steps`` learner steps in each game of each seat's vector,
    the learner epsilon-greedy on the policy head of the network ``arrays``
    (:meth:`Mlp.arrays` order); the transitions of the games that finished.
    numpy's BLAS runs on one thread meanwhile (the same bits on every worker)."""
    with blas_threads(1):
        return _play(spec, arrays)


def _play(spec: Shard, arrays: Sequence[F32]) -> Batch:
    net = Mlp.from_arrays(arrays)
    obs_parts: list[F32] = []
    act_parts: list[npt.NDArray[np.int32]] = []
    ret_parts: list[F32] = []
    scored_parts: list[F32] = []
    frames = episodes = 0
    for seat in range(spec.num_players):
        venv = _vector(spec, seat, 1)
        rng = np.random.default_rng([spec.seed, 2, spec.iteration, spec.index, seat])
        k = venv.num_envs
        steps_obs = np.empty((spec.steps, k, venv.tensor_size), dtype=np.float32)
        steps_act = np.empty((spec.steps, k), dtype=np.int32)
        steps_ep = np.empty((spec.steps, k), dtype=np.int64)
        steps_scored = np.empty((spec.steps, k), dtype=np.float32)
        scored = np.zeros(k, dtype=np.float32)  # the learner's points so far in each game
        episode = np.arange(k, dtype=np.int64)  # each game's episode id in this vector
        next_id = k
        finals: list[npt.NDArray[np.int32]] = []  # by episode id - k... filled at each end
        ended_ids: list[npt.NDArray[np.int64]] = []
        for t in range(spec.steps):
            obs, masks = venv.observations, venv.action_masks
            q, _ = net.forward(obs * spec.in_scale)
            greedy = masked_argmax(q, masks)
            explore = rng.random(k) < spec.epsilon
            actions = np.where(explore, venv.random_actions(), greedy).astype(np.int32)
            steps_obs[t] = obs
            steps_act[t] = actions
            steps_ep[t] = episode
            steps_scored[t] = scored
            _, _, rewards, terms = venv.step(actions)
            scored += rewards
            scored[terms] = 0.0
            if terms.any():
                done = np.flatnonzero(terms)
                finals.append(_relative(venv.final_returns()[done], seat))
                ended_ids.append(episode[done].copy())
                episode[done] = next_id + np.arange(len(done))
                next_id += len(done)
        frames += spec.steps * k
        if not ended_ids:
            continue
        ids = np.concatenate(ended_ids)
        result = np.zeros((next_id, spec.num_players), dtype=np.float32)
        ended = np.zeros(next_id, dtype=np.bool_)
        result[ids] = np.concatenate(finals)
        ended[ids] = True
        episodes += len(ids)
        flat_ep = steps_ep.reshape(-1)
        keep = ended[flat_ep]
        obs_parts.append(steps_obs.reshape(-1, venv.tensor_size)[keep])
        act_parts.append(steps_act.reshape(-1)[keep])
        ret_parts.append(result[flat_ep[keep]])
        scored_parts.append(steps_scored.reshape(-1)[keep])
    size = int(spec.in_scale.shape[0])
    return Batch(
        np.concatenate(obs_parts) if obs_parts else np.empty((0, size), np.float32),
        np.concatenate(act_parts) if act_parts else np.empty(0, np.int32),
        np.concatenate(ret_parts) if ret_parts else np.empty((0, spec.num_players), np.float32),
        np.concatenate(scored_parts) if scored_parts else np.empty(0, np.float32),
        frames,
        episodes,
    )


def evaluate_shard(spec: Shard, arrays: Sequence[F32] | Network | QuantizedNetwork) -> Score:
    """Play one game in each of ``spec.envs`` slots of each seat's vector
    with the greedy policy (``arrays`` as in :func:`play_shard`, scaled by
    ``spec.in_scale``; or a network of :mod:`pycards.nets`, evaluated as the
    engine evaluates it, on the raw observation) against ``spec.opponent``:
    each slot's first game, whatever its length, so short games count no
    more than long ones.  The margins, seat 0's games first."""
    with blas_threads(1):
        return _evaluate(spec, arrays)


def _evaluate(spec: Shard, arrays: Sequence[F32] | Network | QuantizedNetwork) -> Score:
    net = None if isinstance(arrays, (Network, QuantizedNetwork)) else Mlp.from_arrays(arrays)
    margins: list[npt.NDArray[np.float64]] = []
    frames = 0
    for seat in range(spec.num_players):
        venv = _vector(spec, seat, 3)
        k = venv.num_envs
        first = np.full(k, np.nan)
        while np.isnan(first).any():
            obs, masks = venv.observations, venv.action_masks
            if net is not None:
                q, _ = net.forward(obs * spec.in_scale)
            else:
                assert isinstance(arrays, (Network, QuantizedNetwork))
                q, _ = evaluate(arrays, obs)
            _, _, _, terms = venv.step(masked_argmax(q, masks))
            frames += k
            new = terms & np.isnan(first)
            if new.any():
                rel = _relative(venv.final_returns()[new], seat).astype(np.float64)
                others = rel[:, 1:].mean(axis=1) if rel.shape[1] > 1 else 0.0
                first[new] = rel[:, 0] - others
        margins.append(first)
    return Score(np.concatenate(margins), frames)
