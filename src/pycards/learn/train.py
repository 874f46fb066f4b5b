"""Deep Monte Carlo training against the engine's policies (see the training page).

Each iteration plays ``shards`` seeded shards (:func:`pycards.learn.dmc.play_shard`)
with the current network, epsilon-greedy, the learner at every seat in turn,
then fits the network to what it saw: the policy head's output for the action
taken regresses on the points the mover scored from that step to the end of
its game, the value head on every seat's final points (both scaled by the
run's return scale).  Every
random choice is drawn from the run's seed and the iteration's index, so a
run resumed from a checkpoint ends with the bits of a run that never stopped,
and the shards give the same arrays on any number of Dask workers.
"""

from __future__ import annotations

import importlib
import json
import logging
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

from pycards._args import as_int
from pycards.envs.vector import OPPONENTS, VectorEnv
from pycards.game import Game, Rules, load_game
from pycards.learn.blas import blas_threads
from pycards.learn.dmc import Batch, Score, Shard, evaluate_shard, play_shard, shard_seed
from pycards.learn.mlp import Adam, Mlp
from pycards.nets import Network, QuantizedNetwork, load_network, save_network

__all__ = ["CHECKPOINT_FORMAT", "Settings", "TrainResult", "Trainer", "strength", "train"]

F32 = npt.NDArray[np.float32]

#: The ``format`` field of a checkpoint file.
CHECKPOINT_FORMAT = "pycards-train-checkpoint-1"

if TYPE_CHECKING:
    from rich.progress import Progress

#: A line of the training curve: ``iteration``, ``frames``, ``loss``... (see :func:`train`).
CurveLine: TypeAlias = "dict[str, float]"
_In = TypeVar("_In")
_Out = TypeVar("_Out")

_DASK_EXTRA = "training on Dask needs the dask extra: pip install 'pycards[dask]'"
_RICH_EXTRA = "a progress bar needs rich: pip install 'pycards[cli]'"


@dataclass(frozen=True)
class Settings:
    """The settings of a run (every one is saved in its checkpoints).

    :ivar hidden: the widths of the hidden layers.
    :ivar envs: games in each seat's vector of a shard (``None``: 128, fewer
        for a game whose shard would hold more than 64 MB of observations).
    :ivar steps: learner steps of each game of a shard (``None``: four times
        the learner's mean steps a game under random play, 32 to 1024: most
        of a shard's games finish, and only finished games are learned from).
    :ivar shards: shards an iteration plays (the unit of Dask's work).
    :ivar epsilon: the chance that the learner plays a random legal action.
    :ivar lr: Adam's step size.
    :ivar batch_size: transitions in a gradient step.
    :ivar value_weight: the weight of the value head's loss.
    :ivar opponent: the policy of the other seats (:data:`~pycards.envs.vector.OPPONENTS`).
    :ivar eval_every: iterations between two strength measures (0: only at the end).
    :ivar eval_games: games of a strength measure, per seat.
    """

    hidden: tuple[int, ...] = (128, 128)
    envs: int | None = None
    steps: int | None = None
    shards: int = 4
    epsilon: float = 0.05
    lr: float = 3e-4
    batch_size: int = 128
    value_weight: float = 0.5
    opponent: str = "heuristic"
    eval_every: int = 10
    eval_games: int = 1000

    def __post_init__(self) -> None:
        if not isinstance(self.hidden, tuple) or not 1 <= len(self.hidden) <= 4:
            raise TypeError(f"hidden must be a tuple of 1 to 4 widths, got {self.hidden!r}")
        for i, w in enumerate(self.hidden):
            as_int(w, f"hidden[{i}]", 1, 1024)
        if self.envs is not None:
            as_int(self.envs, "envs", 1, 1 << 16)
        if self.steps is not None:
            as_int(self.steps, "steps", 1, 1 << 16)
        as_int(self.shards, "shards", 1, 4096)
        as_int(self.batch_size, "batch_size", 1, 1 << 20)
        as_int(self.eval_every, "eval_every", 0, 1 << 30)
        as_int(self.eval_games, "eval_games", 1, 1 << 24)
        for name in ("epsilon", "lr", "value_weight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"{name} must be a float, got {type(value).__name__}")
            if not math.isfinite(value) or value < 0 or (name == "epsilon" and value > 1):
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
        if self.lr <= 0:
            raise ValueError(f"lr must be > 0, got {self.lr!r}")
        if self.opponent not in OPPONENTS:
            raise ValueError(
                f"opponent must be one of {', '.join(OPPONENTS)}, got {self.opponent!r}"
            )

    def to_json(self) -> str:
        """The settings as the text of a JSON object."""
        d = asdict(self)
        d["hidden"] = list(self.hidden)
        return json.dumps(d, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Settings:
        """The inverse of :meth:`to_json`."""
        d = json.loads(text)
        return cls(**{**d, "hidden": tuple(d["hidden"])})


@dataclass(frozen=True)
class TrainResult:
    """What :func:`train` returns: the network, its float parameters' file
    (``out``, or ``None``), the training curve (one dict a logged iteration)
    and whether the budget (not Ctrl-C) ended the run."""

    network: Network
    out: Path | None
    curve: list[CurveLine] = field(default_factory=list)
    finished: bool = True


def _scales(game: Game[Rules, object], seed: int, opponent: str) -> tuple[F32, float, float]:
    """The input scale (1 / the largest magnitude of each input, at least 1),
    the return scale (the largest magnitude of a final score, at least 1) and
    the learner's mean steps a game, measured on 256 vectors' games of random
    play (seeded from the run's seed)."""
    venv = VectorEnv(game, 256, seed=shard_seed(seed, 0), opponent=opponent)
    top = np.ones(game.tensor_size, dtype=np.float32)
    ret = 1.0
    for _ in range(200):
        top = np.maximum(top, np.abs(venv.observations).max(axis=0))
        _, _, _, terms = venv.step(venv.random_actions())
        if terms.any():
            ret = max(ret, float(np.abs(venv.final_returns()[terms]).max()))
    length = 256 * 200 / max(1, venv.episodes)
    return (1.0 / top).astype(np.float32), ret, length


def _resolve(settings: Settings, game: Game[Rules, object], length: float) -> Settings:
    """``settings`` with ``envs`` and ``steps`` chosen for the game where None."""
    steps = settings.steps
    if steps is None:
        steps = min(1024, max(32, round(4 * length)))
    envs = settings.envs
    if envs is None:
        envs = max(8, min(128, (64 << 20) // (steps * game.tensor_size * 4)))
    return replace(settings, envs=envs, steps=steps)


class _Future(Protocol):
    def result(self) -> object: ...


class _Client(Protocol):  # a dask.distributed.Client
    def submit(self, fn: object, *args: object, pure: bool) -> _Future: ...
    def gather(self, futures: list[_Future]) -> list[_Out]: ...
    def close(self) -> None: ...


class _Closable(Protocol):
    def close(self) -> None: ...


class _Pool:
    """Runs shards here or on Dask, always answering in the shards' order."""

    def __init__(self, workers: int | None, scheduler: str | None) -> None:
        self.client: _Client | None = None
        self.cluster: _Closable | None = None
        if workers is None and scheduler is None:
            return
        try:
            dist = importlib.import_module("distributed")
        except ImportError:
            raise ImportError(_DASK_EXTRA) from None
        if scheduler is not None:
            try:
                self.client = dist.Client(scheduler)
            except OSError as exc:
                raise ConnectionError(
                    f"cannot reach the Dask scheduler at {scheduler!r}: {exc}"
                ) from exc
        else:
            self.cluster = dist.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            self.client = dist.Client(self.cluster)

    def map(
        self, fn: Callable[[Shard, _In], _Out], specs: Sequence[Shard], arrays: _In
    ) -> list[_Out]:
        if self.client is None:
            return [fn(s, arrays) for s in specs]
        futures = [self.client.submit(fn, s, arrays, pure=False) for s in specs]
        return list(self.client.gather(futures))

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


class _Bar:
    """A rich progress bar over frames on standard error, or nothing."""

    def __init__(self, total: int, enabled: bool | None, label: str) -> None:
        self.bar: Progress | None = None
        if enabled is None:
            enabled = sys.stderr.isatty()
            try:
                importlib.import_module("rich.progress")
            except ImportError:
                enabled = False
        if not enabled:
            return
        try:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
        except ImportError:
            raise ImportError(_RICH_EXTRA) from None
        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed:,.0f}/{task.total:,.0f} {task.fields[unit]}"),
            TextColumn("{task.fields[info]}"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self.bar.start()
        self.task = self.bar.add_task(label, total=total, unit="", info="")

    def update(self, done: float, unit: str, info: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done, unit=unit, info=info)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


class Trainer:
    """A training run's state: the network, Adam's moments, the iteration
    and the frames so far, the curve; :meth:`save`/:meth:`load` write and read
    it as a checkpoint (``.npz``, no pickle)."""

    def __init__(
        self,
        game: Game[Rules, object],
        settings: Settings,
        seed: int,
        *,
        command: str = "",
    ) -> None:
        self.game = game
        self.in_scale, self.return_scale, length = _scales(game, seed, settings.opponent)
        self.settings = settings = _resolve(settings, game, length)
        self.seed = seed
        self.command = command
        rng = np.random.default_rng([seed, 0])
        self.net = Mlp.init(
            game.tensor_size, settings.hidden, game.num_actions, game.num_players, rng
        )
        self.adam = Adam.like(self.net, settings.lr)
        self.iteration = 0
        self.frames = 0
        self.curve: list[CurveLine] = []

    # -- one iteration ------------------------------------------------------

    def shards(
        self, iteration: int, envs: int, steps: int, epsilon: float, count: int
    ) -> list[Shard]:
        """The shards of ``iteration`` (``iteration`` -1 - k: strength measures)."""
        return [
            Shard(
                self.game.NAME,
                self.game.num_players,
                self.game.rules,
                self.seed,
                iteration,
                j,
                envs,
                steps,
                epsilon,
                self.settings.opponent,
                self.in_scale,
            )
            for j in range(count)
        ]

    def fit(self, data: Batch) -> tuple[float, float]:
        """One pass of Adam over ``data`` in an order drawn from the seed and
        the iteration; the mean policy and value losses."""
        s = self.settings
        n = len(data.actions)
        if n == 0:
            return math.nan, math.nan
        order = np.random.default_rng([self.seed, 1, self.iteration]).permutation(n)
        scale = np.float32(1.0 / self.return_scale)
        x_all = data.obs * self.in_scale
        ret = data.returns * scale
        to_come = (data.returns[:, 0] - data.scored) * scale
        q_sum = v_sum = 0.0
        count = 0
        for start in range(0, n, s.batch_size):
            rows = order[start : start + s.batch_size]
            q_loss, v_loss, grads = self.net.loss_and_grads(
                x_all[rows], data.actions[rows], to_come[rows], ret[rows], s.value_weight
            )
            self.adam.step(self.net, grads)
            q_sum += q_loss * len(rows)
            v_sum += v_loss * len(rows)
            count += len(rows)
        return q_sum / count, v_sum / count

    def step(self, pool: _Pool) -> CurveLine:
        """Play and fit one iteration; its line of the curve."""
        s = self.settings
        t0 = time.perf_counter()
        assert s.envs is not None and s.steps is not None  # resolved by __init__
        specs = self.shards(self.iteration, s.envs, s.steps, s.epsilon, s.shards)
        batches: list[Batch] = pool.map(play_shard, specs, self.net.arrays())
        data = Batch(
            np.concatenate([b.obs for b in batches]),
            np.concatenate([b.actions for b in batches]),
            np.concatenate([b.returns for b in batches]),
            np.concatenate([b.scored for b in batches]),
            sum(b.frames for b in batches),
            sum(b.episodes for b in batches),
        )
        t1 = time.perf_counter()
        q_loss, v_loss = self.fit(data)
        t2 = time.perf_counter()
        self.iteration += 1
        self.frames += data.frames
        return {
            "iteration": self.iteration,
            "frames": self.frames,
            "loss": q_loss,
            "value_loss": v_loss,
            "episodes": data.episodes,
            "seconds_play": round(t1 - t0, 3),
            "seconds_fit": round(t2 - t1, 3),
        }

    def strength(self, pool: _Pool) -> tuple[float, float]:
        """The greedy policy's mean margin a game against the opponents and
        its 95% half-interval (``settings.eval_games`` games a seat, the same
        deals at every measure)."""
        s = self.settings
        count = max(1, math.ceil(s.eval_games / 250))
        per = math.ceil(s.eval_games / count)
        specs = [replace(x, iteration=-1) for x in self.shards(0, per, 0, 0.0, count)]
        scores: list[Score] = pool.map(evaluate_shard, specs, self.net.arrays())
        return _mean_ci(np.concatenate([sc.margins for sc in scores]))

    # -- output ---------------------------------------------------------------

    def network(self) -> Network:
        """The network in the file format's shape: weights ``[out, in]``, the
        input scale folded into the first layer and the return scale into
        the heads, so it reads the raw observation and answers in points."""
        layers = [(w.T.copy(), b.copy()) for w, b in self.net.layers]
        w0, b0 = layers[0]
        layers[0] = ((w0 * self.in_scale[None, :]).astype(np.float32), b0)
        r = np.float32(self.return_scale)
        heads = [
            ((w.T * r).astype(np.float32), (b * r).astype(np.float32))
            for w, b in (self.net.policy, self.net.value)
        ]
        meta = {
            "command": self.command,
            "seed": str(self.seed),
            "method": "deep Monte Carlo (pycards.learn)",
            "opponent": self.settings.opponent,
            "frames": str(self.frames),
            "iterations": str(self.iteration),
            "rules": json.dumps(self.game.rules.to_dict(), sort_keys=True),
            "settings": self.settings.to_json(),
        }
        return Network(
            self.game.NAME,
            self.game.num_players,
            self.game.tensor_size,
            self.game.num_actions,
            tuple(layers),
            heads[0],
            heads[1],
            meta,
        )

    def save(self, path: str | Path) -> None:
        """Write a checkpoint (atomically: a temporary file, then a rename)."""
        path = Path(path)
        header = {
            "format": CHECKPOINT_FORMAT,
            "game": self.game.NAME,
            "num_players": self.game.num_players,
            "rules": self.game.rules.to_dict(),
            "settings": self.settings.to_json(),
            "seed": self.seed,
            "command": self.command,
            "iteration": self.iteration,
            "frames": self.frames,
            "adam_t": self.adam.t,
            "return_scale": self.return_scale,
            "curve": self.curve,
        }
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "header": np.array(json.dumps(header)),
            "in_scale": self.in_scale,
        }
        for i, a in enumerate(self.net.arrays()):
            arrays[f"p{i}"] = a
            arrays[f"m{i}"] = self.adam.m[i]
            arrays[f"v{i}"] = self.adam.v[i]
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)  # type: ignore[arg-type]
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> Trainer:
        """A run from its checkpoint (``ValueError`` for a file that is not one)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                files = {k: data[k] for k in data.files}
        except (OSError, ValueError) as exc:
            raise ValueError(f"resume: {path}: not a training checkpoint ({exc})") from None
        try:
            header = json.loads(str(files["header"]))
            if header.get("format") != CHECKPOINT_FORMAT:
                raise KeyError("format")
            game = load_game(header["game"], None, header["num_players"])
            rules = type(game.rules).from_dict(header["rules"])
            game = load_game(header["game"], rules, header["num_players"])
            self = cls.__new__(cls)
            self.game = game
            self.settings = Settings.from_json(header["settings"])
            self.seed = int(header["seed"])
            self.command = str(header["command"])
            n = sum(1 for k in files if k.startswith("p"))
            self.net = Mlp.from_arrays([files[f"p{i}"] for i in range(n)])
            self.adam = Adam(
                self.settings.lr,
                [files[f"m{i}"] for i in range(n)],
                [files[f"v{i}"] for i in range(n)],
                int(header["adam_t"]),
            )
            self.in_scale = files["in_scale"]
            self.return_scale = float(header["return_scale"])
            self.iteration = int(header["iteration"])
            self.frames = int(header["frames"])
            self.curve = list(header["curve"])
        except (KeyError, TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"resume: {path}: not a training checkpoint (missing {exc})") from None
        return self


def _game(
    game: str | Game[Rules, object], num_players: int | None, rules: Rules | str | None
) -> Game[Rules, object]:
    if isinstance(game, Game):
        if num_players is not None or rules is not None:
            raise ValueError("num_players and rules come with the Game: leave them out")
        return game
    if not isinstance(game, str):
        raise TypeError(f"game must be a game's name or a Game, got {type(game).__name__}")
    players = 2 if num_players is None else as_int(num_players, "num_players", 1, 64)
    return load_game(game, rules, players)


def _mean_ci(x: npt.NDArray[np.float64]) -> tuple[float, float]:
    if len(x) < 2:
        return float(x.mean()), math.inf
    return float(x.mean()), float(1.96 * x.std(ddof=1) / math.sqrt(len(x)))


def strength(
    network: Network | QuantizedNetwork | str | Path,
    *,
    games: int = 2000,
    seed: int = 0,
    opponent: str = "heuristic",
    rules: Rules | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> tuple[float, float]:
    """The greedy policy of ``network`` (a network, or its file; evaluated as
    the engine evaluates it)
    against ``opponent`` in the engine's vector environment: its mean final
    points minus the mean of the other seats', a game, and the 95%
    half-interval, over ``games`` games a seat (the network at every seat in
    turn).  Sharded over Dask like the training's measures."""
    games = as_int(games, "games", 1, 1 << 24)
    if isinstance(network, (str, Path)):
        network = load_network(network)
    if not isinstance(network, (Network, QuantizedNetwork)):
        raise TypeError(f"network must be a network or its file, got {type(network).__name__}")
    if opponent not in OPPONENTS:
        raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, got {opponent!r}")
    game = load_game(network.game, rules, network.num_players)
    count = max(1, math.ceil(games / 250))
    per = math.ceil(games / count)
    ones = np.ones(game.tensor_size, dtype=np.float32)
    specs = [
        Shard(game.NAME, game.num_players, game.rules, seed, -2, j, per, 0, 0.0, opponent, ones)
        for j in range(count)
    ]
    pool = _Pool(workers, scheduler)
    try:
        scores: list[Score] = pool.map(evaluate_shard, specs, network)
    finally:
        pool.close()
    return _mean_ci(np.concatenate([sc.margins for sc in scores]))


def train(
    game: str | Game[Rules, object],
    *,
    num_players: int | None = None,
    rules: Rules | str | None = None,
    frames: int | None = None,
    minutes: float | None = None,
    seed: int = 0,
    settings: Settings | None = None,
    out: str | Path | None = None,
    checkpoint: str | Path | None = None,
    checkpoint_every: int = 10,
    resume: str | Path | None = None,
    log: str | Path | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    threads: int = 1,
    command: str = "",
    on_line: Callable[[CurveLine], None] | None = None,
) -> TrainResult:
    """Train a network for ``game`` by deep Monte Carlo against the engine's
    policies (see the training page) and return it.

    :param game: a game's name (with ``num_players``, default 2, and
        ``rules``) or a :class:`~pycards.game.Game`.
    :param frames: stop after the iteration that reaches this many learner
        steps (frames); the run is then the same bits for the seed.
    :param minutes: stop after the iteration that passes this wall time
        (then the frames reached depend on the machine; at least one
        iteration).  At least one of
        ``frames`` and ``minutes``.
    :param seed: the run's seed (0 to 2**63 - 1).
    :param settings: the method's settings (:class:`Settings`).
    :param out: write the trained network here (:func:`pycards.nets.save_network`).
    :param checkpoint: write a checkpoint here every ``checkpoint_every``
        iterations and at the end.
    :param resume: go on from this checkpoint (its game, seed and settings;
        ``game``, ``seed`` and ``settings`` must agree or be left at their
        defaults).  A resumed run ends with the same network as one that never
        stopped.
    :param log: append the curve here, one JSON object a line (``iteration``,
        ``frames``, ``loss``, ``value_loss``, and at each measure
        ``strength`` and ``strength_ci``: the greedy policy's mean margin a
        game against the opponents, with its 95% half-interval).
    :param workers: play the shards on a Dask LocalCluster of this many
        processes; ``scheduler``: on a running cluster.  The result is the
        same for any number of workers.
    :param progress: a progress bar (default: when standard error is a terminal).
    :param threads: numpy's BLAS threads for the gradient steps (the shards
        always run on one): the same seed and thread count give the same bits.
    :param command: the command line recorded in the network's meta.
    :param on_line: called with each line of the curve.
    """
    if frames is None and minutes is None:
        raise ValueError("give frames or minutes (the training budget)")
    if frames is not None:
        frames = as_int(frames, "frames", 1, 1 << 62)
    if minutes is not None:
        if isinstance(minutes, bool) or not isinstance(minutes, (int, float)):
            raise TypeError(f"minutes must be a number, got {type(minutes).__name__}")
        if not math.isfinite(minutes) or minutes <= 0:
            raise ValueError(f"minutes must be > 0, got {minutes!r}")
    seed = as_int(seed, "seed", 0, (1 << 63) - 1)
    checkpoint_every = as_int(checkpoint_every, "checkpoint_every", 1, 1 << 30)
    threads = as_int(threads, "threads", 1, 256)
    if workers is not None:
        workers = as_int(workers, "workers", 1, 4096)
    if workers is not None and scheduler is not None:
        raise ValueError("give workers (a local cluster) or scheduler (a running one), not both")
    if settings is not None and not isinstance(settings, Settings):
        raise TypeError(f"settings must be a Settings, got {type(settings).__name__}")
    if resume is not None:
        trainer = Trainer.load(resume)
        if settings is not None and (
            replace(
                settings,
                envs=trainer.settings.envs if settings.envs is None else settings.envs,
                steps=trainer.settings.steps if settings.steps is None else settings.steps,
            )
            != trainer.settings
        ):
            raise ValueError("settings: the checkpoint was trained with other settings")
        if seed not in (0, trainer.seed):
            raise ValueError(f"seed: the checkpoint's run has seed {trainer.seed}, got {seed}")
        name = game if isinstance(game, str) else game.NAME
        if name != trainer.game.NAME:
            raise ValueError(f"game: the checkpoint is a run of {trainer.game.NAME}, got {name}")
    else:
        trainer = Trainer(
            _game(game, num_players, rules), settings or Settings(), seed, command=command
        )
    if command and not trainer.command:
        trainer.command = command
    t0 = time.perf_counter()
    total = frames if frames is not None else None
    bar = _Bar(total or int((minutes or 0) * 60), progress, f"training {trainer.game.NAME}")
    pool = _Pool(workers, scheduler)
    log_file = None
    if log is not None:
        log_file = open(log, "w", encoding="utf-8")  # noqa: SIM115
        for line in trainer.curve:
            log_file.write(json.dumps(line) + "\n")
        log_file.flush()
    finished = True

    def emit(line: CurveLine) -> None:
        trainer.curve.append(line)
        if log_file is not None:
            log_file.write(json.dumps(line) + "\n")
            log_file.flush()
        if on_line is not None:
            on_line(line)

    try:
        with blas_threads(threads):
            _loop(trainer, pool, frames, minutes, t0, checkpoint, checkpoint_every, bar, emit)
    except KeyboardInterrupt:
        finished = False
        if checkpoint is not None:
            trainer.save(checkpoint)
    finally:
        bar.close()
        pool.close()
        if log_file is not None:
            log_file.close()
    net = trainer.network()
    path = None
    if out is not None:
        path = Path(out)
        save_network(path, net)
    return TrainResult(net, path, trainer.curve, finished)


def _loop(
    trainer: Trainer,
    pool: _Pool,
    frames: int | None,
    minutes: float | None,
    t0: float,
    checkpoint: str | Path | None,
    checkpoint_every: int,
    bar: _Bar,
    emit: Callable[[CurveLine], None],
) -> None:
    s = trainer.settings
    played = False  # a time budget plays at least one iteration
    if trainer.iteration == 0:
        mean, ci = trainer.strength(pool)
        emit({"iteration": 0, "frames": 0, "strength": mean, "strength_ci": ci})
    while True:
        if frames is not None and trainer.frames >= frames:
            break
        if minutes is not None and played and time.perf_counter() - t0 >= minutes * 60:
            break
        line = trainer.step(pool)
        played = True
        last = (frames is not None and trainer.frames >= frames) or (
            minutes is not None and time.perf_counter() - t0 >= minutes * 60
        )
        if (s.eval_every and trainer.iteration % s.eval_every == 0) or last:
            mean, ci = trainer.strength(pool)
            line["strength"], line["strength_ci"] = mean, ci
        emit(line)
        if checkpoint is not None and (trainer.iteration % checkpoint_every == 0 or last):
            trainer.save(checkpoint)
        elapsed = time.perf_counter() - t0
        info = f"loss {line['loss']:.4f}"
        if "strength" in line:
            info += f"  vs {s.opponent} {line['strength']:+.2f}"
        if frames is not None:
            bar.update(trainer.frames, "frames", info)
        else:
            bar.update(elapsed, "s", info)
