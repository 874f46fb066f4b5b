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

Only the first deal of a game, as its deck dealt it, can be read back
(:func:`infer_applies`); elsewhere :func:`weighted_worlds` gives every world
weight 1 (plain sampling).

No Takers? samples leave the other hands' deal and draws unnamed, so its
worlds come from a history sampler instead
(:func:`cardcore._core.notakers_sample_history`): a whole game as it may
have been, drawn by sequential importance sampling with a known probability
``q``; its weight is the likelihood over ``q``.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np

from cardcore import _core

from .._args import as_int
from ..errors import NetworkError
from ..game import Game, Rules, State
from ..nets import load_engine_net, resolve_network
from ..view import PlayerView
from .base import register_bot
from .native import PIMCBot

__all__ = ["InferBot", "infer_applies", "observer_record", "weighted_worlds"]

_M64 = 2**64 - 1

#: The games whose worlds are drawn with their history (the sampler, and
#: its draws per world before it gives up).
_HISTORY_GAMES = frozenset({"notakers"})
_HISTORY_TRIES = 20000


def _as_eps(eps: object) -> float:
    if isinstance(eps, bool) or not isinstance(eps, (int, float)):
        raise TypeError(f"eps: expected a float, got {type(eps).__name__}")
    value = float(eps)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"eps: expected 0 <= eps <= 1, got {eps!r}")
    return value


def observer_record(state: State[object], player: int) -> tuple[list[int], np.ndarray]:
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


def infer_applies(state: State[object]) -> bool:
    """Can the worlds of ``state`` be weighed (read back and replayed)?  True
    if the game is dealt from a deck (:func:`cardcore._core.infer_supported`)
    and ``state`` is still in the deal its deck dealt: its first deal, not
    dealt again (a redeal after every player passed deals from a shuffle, not
    from the deck: it shows in the log as the deal's events logged again),
    with its whole log kept, in a game whose samples name the cards of their
    deal or whose worlds are drawn with their history (No Takers?).  False
    for a sampled state (it has no record).  Where it is False,
    :func:`weighted_worlds` weighs every world 1."""
    if state.is_sample or not _core.infer_supported(state._s) or state.events_dropped():
        return False
    if state._s.game_name in _HISTORY_GAMES:
        return True
    start = state.game.new_initial_state(state.seed or 0, deck=state.deck)
    dealt = Counter(e.kind for e in start.events())
    now = Counter(e.kind for e in state.events() if e.kind in dealt)
    if now != dealt:
        return False
    # a sample must name the cards of its deal (No Takers?' samples do not)
    seat = state.current_player if 0 <= state.current_player < state.num_players else 0
    try:
        _core.infer_world_deck(state.sample_infoset(seat, 0)._s, state.seed or 0)
    except ValueError:
        return False
    return True


def weighted_worlds(
    state: State[object],
    player: int,
    n: int,
    *,
    seed: int = 0,
    eps: float = 0.2,
    ties: int = 4,
    max_nodes: int = 0,
    model: _core.Net | None = None,
) -> list[tuple[State[object], float]]:
    """``n`` worlds for ``player`` with their weights (importance sampling).

    The worlds are ``state.sample_infoset(player, k)`` for ``n`` seeds drawn
    from ``seed``; the weight of each is the likelihood of the other seats'
    past decisions under the softened heuristic (``eps`` in [0, 1]; the
    heuristic's choices are the distinct actions it picks under ``ties``
    tie-break seeds).  A weighted mean over the worlds estimates the mean
    over the posterior of worlds, exactly in the limit.  Weights are not
    normalized; where inference does not apply (:func:`infer_applies`) they
    are all 1.  ``max_nodes`` (0:
    none) bounds the replay's positions per world (past it ``ValueError``).
    ``model`` (a :class:`cardcore._core.Net` for the game, or None) replaces
    the softened heuristic: another seat's action has probability ``1 -
    eps`` times the softmax of the network's policy over the legal actions,
    plus ``eps`` spread evenly (``ties`` is then not used).

    In No Takers? the worlds are whole histories
    (:func:`cardcore._core.notakers_sample_history`, drawn with probability
    ``q``, not uniformly) and each weight is the likelihood divided by ``q``
    (times one factor common to the call where ``1 / q`` would pass 1e260);
    ``ValueError`` if a world cannot be found in its draws.

    The inputs are what ``player`` may know: two states that differ only in
    cards hidden from ``player`` give the same worlds and weights.
    """
    if state.is_sample:
        raise ValueError("state: a sampled state has no record to infer from")
    p = state._check_seat(player)
    count = as_int(n, "n", 1, 1 << 20)
    sd = as_int(seed, "seed", 0, _M64)
    e = _as_eps(eps)
    t = as_int(ties, "ties", 1, 1 << 20)
    limit = as_int(max_nodes, "max_nodes", 0, 1 << 62)
    rng = random.Random(sd)
    if state._s.game_name in _HISTORY_GAMES and infer_applies(state):
        seeds = [rng.getrandbits(64) for _ in range(count)]
        return _history_worlds(state, p, seeds, e, t, limit, model)
    worlds = [state.sample_infoset(p, rng.getrandbits(64)) for _ in range(count)]
    if not infer_applies(state):
        return [(w, 1.0) for w in worlds]
    actions, record = observer_record(state, p)
    weights, _nodes = _core.infer_weights(
        [w._s for w in worlds], state.seed or 0, p, actions, record, e, t, limit, model
    )
    return [(w, float(x)) for w, x in zip(worlds, weights, strict=True)]


def _history_worlds(
    state: State[object],
    p: int,
    seeds: list[int],
    eps: float,
    ties: int,
    limit: int,
    model: _core.Net | None,
) -> list[tuple[State[object], float]]:
    """Worlds with their history (No Takers?), weighed likelihood / q."""
    drawn = [_core.notakers_sample_history(state._s, p, sd, _HISTORY_TRIES) for sd in seeds]
    actions, record = observer_record(state, p)
    like, _nodes = _core.infer_weights(
        [w for w, _ in drawn],
        state.seed or 0,
        p,
        actions,
        record,
        eps,
        ties,
        limit,
        model,
        follow_log=True,
    )
    shift = max(0.0, max(-lq for _, lq in drawn) - 600.0)
    return [
        (State(state.game, w, None, None), float(x) * math.exp(-lq - shift))
        for (w, lq), x in zip(drawn, like, strict=True)
    ]


class InferBot:
    """PIMC over weighted worlds, searched in C: each move draws ``samples``
    worlds with :func:`weighted_worlds` (``eps``, ``ties``, ``max_nodes``) and
    hands them with their weights to the engine's PIMC
    (:meth:`cardcore._core.Searcher.act_worlds`): each legal action is scored
    in each world by rollouts (the game's search defaults for ``"pimc"``:
    rollout, reward, horizon, scale, ``simulations`` in all) or by the exact
    solver where ``solve`` applies, as :class:`~pycards.bots.PIMCBot` does;
    each world's results count with its weight and the best weighted mean
    wins.  Options left None take the game's defaults
    (:func:`~pycards.bots.native.search_defaults`), then the engine's.
    ``model`` (a network file or shipped model's name, :doc:`/networks`)
    models the other seats instead of the softened heuristic
    (``pimc_infer:model=path.npz``).

    ``infer=0`` weighs every world 1 (the same worlds: plain PIMC over them,
    the baseline).  Where inference does not apply (:func:`infer_applies`
    is False: a deal after the first, a redealt first deal, or a game that
    is not dealt from a deck), or where a world's replay passes
    ``max_nodes`` positions (0: no cap; a hidden action of another seat
    branches the replay), or where No Takers?' history sampler finds no
    world, every world of that move weighs 1 as well: plain PIMC.
    :attr:`moves` and :attr:`inferred` count the searched moves and those
    whose worlds were weighed.
    One thread; the bot is played from Python (it has no
    ``native_searcher``: the arena's C loop does not take it).
    """

    name = "pimc_infer"

    def __init__(
        self,
        seed: int = 0,
        *,
        samples: int | None = None,
        simulations: int | None = None,
        eps: float = 0.2,
        ties: int = 4,
        infer: int = 1,
        max_nodes: int = 5000,
        rollout: str | None = None,
        reward: str | None = None,
        horizon: str | None = None,
        scale: float | None = None,
        solve: int | None = None,
        model: str | None = None,
    ) -> None:
        self._seed = as_int(seed, "seed", 0, _M64)
        if model is not None:
            if not isinstance(model, str):
                raise TypeError(f"model must be a network name or path, got {model!r}")
            resolve_network(model)
        #: The network that models the other seats (its name), or None.
        self.model = model
        self.eps = _as_eps(eps)
        self.ties = as_int(ties, "ties", 1, 1 << 20)
        self.infer = as_int(infer, "infer", 0, 1)
        self.max_nodes = as_int(max_nodes, "max_nodes", 0, 1 << 62)
        # the engine's PIMC with these options and the game's defaults
        self._pimc = PIMCBot(
            self._seed,
            samples=samples,
            simulations=simulations,
            rollout=rollout,
            reward=reward,
            horizon=horizon,
            scale=scale,
            solve=solve,
        )
        self._rng = random.Random(self._seed)
        #: The moves searched (more than one legal action), and those among
        #: them whose worlds were weighed by inference.
        self.moves = 0
        self.inferred = 0

    def reset(self, seed: int) -> None:
        """Reseed for a new game."""
        self._seed = as_int(seed, "seed", 0, _M64)
        self._rng = random.Random(self._seed)
        self._pimc.reset(self._seed)

    def searcher(self, game: Game[Rules, object]) -> _core.Searcher:
        """The engine's PIMC searcher this bot searches its worlds with in
        ``game`` (made on first use, with the game's defaults)."""
        return self._pimc.native_searcher(game)

    @property
    def last_simulations(self) -> int:
        """The simulations (rollouts) of the last move (0 before the first)."""
        return self._pimc.last_simulations

    def worlds(self, view: PlayerView[object], seed: int) -> list[tuple[State[object], float]]:
        """The weighted worlds a move from ``view`` searches with world seed
        ``seed``: weighed by inference where it applies and the replays stay
        within ``max_nodes``, else (and with ``infer=0``) the same worlds at
        weight 1."""
        n = self.searcher(view.game).samples
        state = view._state
        if self.infer and infer_applies(state):
            try:
                return weighted_worlds(
                    state,
                    view.seat,
                    n,
                    seed=seed,
                    eps=self.eps,
                    ties=self.ties,
                    max_nodes=self.max_nodes,
                    model=None
                    if self.model is None
                    else load_engine_net(self.model, type(view.game).NAME, view.game.num_players),
                )
            except NetworkError:
                raise  # the model does not fit the game
            except ValueError as e:
                if not self.max_nodes and "no world" not in str(e):
                    raise  # not the cap nor a world not found: the arguments
        rng = random.Random(seed)
        return [(state.sample_infoset(view.seat, rng.getrandbits(64)), 1.0) for _ in range(n)]

    def act(self, view: PlayerView[object]) -> int:
        """The action with the best weighted mean value over the worlds."""
        if not isinstance(view, PlayerView):
            raise TypeError(f"act expects a PlayerView, got {type(view).__name__}")
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (not its turn, or game over)")
        if len(legal) == 1:
            return legal[0]
        seed = self._rng.getrandbits(64)
        pairs = self.worlds(view, seed)
        self.moves += 1
        self.inferred += len({x for _, x in pairs}) > 1
        searcher = self.searcher(view.game)
        action, _means = searcher.act_worlds(
            view._state._s, [w._s for w, _ in pairs], [x for _, x in pairs], view.seat
        )
        return action

    def __repr__(self) -> str:
        args = [
            f"seed={self._seed}",
            f"eps={self.eps}",
            f"ties={self.ties}",
            f"infer={self.infer}",
            *(f"{k}={v!r}" for k, v in self._pimc.options.items() if k != "threads"),
        ]
        if self.max_nodes != 5000:
            args.append(f"max_nodes={self.max_nodes}")
        if self.model is not None:
            args.append(f"model={self.model!r}")
        return f"InferBot({', '.join(args)})"


register_bot("pimc_infer", InferBot)
