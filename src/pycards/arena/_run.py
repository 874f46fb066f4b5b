"""Running a match: in this process, or in seeded chunks on a Dask cluster.

This module knows a match only by what it runs (:class:`Playable`: its
size, its chunks and a way to play one) and answers with plain values
(:class:`Outcome`); :meth:`pycards.arena.Match.run` makes the result.
"""

from __future__ import annotations

import importlib
import logging
import math
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

from pycards._args import as_int
from pycards.arena._records import GameRecord

__all__ = ["Outcome", "Playable", "run"]

_DASK_EXTRA = "running on Dask needs the dask extra: pip install 'pycards[dask]'"
_RICH_EXTRA = "a progress bar needs rich: pip install 'pycards[arena]'"


class Playable(Protocol):
    """What :func:`run` needs of a match (a :class:`~pycards.arena.Match` is one)."""

    @property
    def total_games(self) -> int:
        """How many games the match plays."""
        ...

    @property
    def group_size(self) -> int:
        """Games that belong together (a deal's seatings): a chunk holds whole groups."""
        ...

    def chunks(self, size: int) -> Sequence[range]:
        """The games in chunks of about ``size`` whole groups."""
        ...

    def play(
        self, indices: range, on_game: Callable[[GameRecord], None] | None = None
    ) -> list[GameRecord]:
        """Play the games ``indices``, calling ``on_game`` after each."""
        ...

    def use_native(self) -> bool:
        """True if the engine's C loop plays the match."""
        ...


class Outcome(NamedTuple):
    """What running a match gave: its records (by index), whether Ctrl-C
    stopped it, whether the engine's C loop played it, and its wall time."""

    records: list[GameRecord]
    interrupted: bool
    native: bool
    wall_seconds: float


class _Progress:
    """A rich progress bar on stderr, or nothing."""

    def __init__(self, total: int, enabled: bool | None, label: str) -> None:
        self._bar: Any = None
        if enabled is None:
            enabled = sys.stderr.isatty()
            try:
                import rich.progress  # noqa: F401
            except ImportError:
                enabled = False
        if not enabled:
            return
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
        except ImportError:
            raise ImportError(_RICH_EXTRA) from None
        self._bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self._bar.start()
        self._task = self._bar.add_task(label, total=total)

    def advance(self, n: int) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def run(
    match: Playable,
    *,
    label: str = "arena",
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    chunk_size: int | None = None,
) -> Outcome:
    """Play ``match`` (see :meth:`pycards.arena.Match.run`); ``label`` names
    the progress bar."""

    if workers is not None and scheduler is not None:
        raise ValueError("give workers (a local cluster) or scheduler (a running one), not both")
    if workers is not None:
        workers = as_int(workers, "workers", 1, 4096)
    if scheduler is not None and not isinstance(scheduler, str):
        raise TypeError(f"scheduler must be an address (str), got {type(scheduler).__name__}")
    if chunk_size is not None:
        chunk_size = as_int(chunk_size, "chunk_size", 1, 1 << 40)
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be a bool or None, got {type(progress).__name__}")
    distributed = workers is not None or scheduler is not None
    if distributed:
        require_dask()
    native = match.use_native()
    t0 = time.perf_counter()
    bar = _Progress(match.total_games, progress, label)
    try:
        if distributed:
            records, interrupted = _run_dask(match, workers, scheduler, chunk_size, bar)
        else:
            records, interrupted = _run_here(match, chunk_size, bar)
    finally:
        bar.close()
    return Outcome(records, interrupted, native, time.perf_counter() - t0)


def _run_here(
    match: Playable, chunk_size: int | None, bar: _Progress
) -> tuple[list[GameRecord], bool]:
    records: list[GameRecord] = []

    def done(r: GameRecord) -> None:
        records.append(r)
        bar.advance(1)

    size = chunk_size or max(match.group_size, 64)
    try:
        for chunk in match.chunks(size):
            match.play(chunk, on_game=done)
    except KeyboardInterrupt:
        return records, True
    return records, False


def require_dask() -> None:
    """Raise :class:`ImportError` saying how to install the ``dask`` extra if
    Dask's ``distributed`` is missing."""
    try:
        importlib.import_module("distributed")
    except ImportError:
        raise ImportError(_DASK_EXTRA) from None


def _play_chunk(match: Playable, start: int, stop: int) -> list[GameRecord]:
    """A Dask task: play games ``start..stop - 1`` of ``match``."""
    return match.play(range(start, stop))


def _run_dask(
    match: Playable,
    workers: int | None,
    scheduler: str | None,
    chunk_size: int | None,
    bar: _Progress,
) -> tuple[list[GameRecord], bool]:
    dist: Any = importlib.import_module("distributed")

    cluster = None
    if scheduler is not None:
        try:
            client = dist.Client(scheduler)
        except OSError as exc:
            msg = f"cannot reach the Dask scheduler at {scheduler!r}: {exc}"
            raise ConnectionError(msg) from exc
    else:
        cluster = dist.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
        client = dist.Client(cluster)
    records: list[GameRecord] = []
    interrupted = False
    try:
        if chunk_size is None:
            slots = max(1, sum(client.nthreads().values()))
            groups = match.total_games // match.group_size
            chunk_size = match.group_size * max(1, math.ceil(groups / (4 * slots)))
        futures = [
            client.submit(_play_chunk, match, c.start, c.stop, pure=False)
            for c in match.chunks(chunk_size)
        ]
        try:
            for future in dist.as_completed(futures):
                chunk: list[GameRecord] = future.result()
                records.extend(chunk)
                bar.advance(len(chunk))
        except KeyboardInterrupt:
            interrupted = True
            client.cancel(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    records.sort(key=lambda r: r.index)
    return records, interrupted
