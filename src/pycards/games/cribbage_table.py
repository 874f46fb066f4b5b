"""The whole cribbage discard table as a Dask job (docs/cribbage.rst,
"The discard table").

Every two-player six-card hand (20,358,520 of them) is analysed by
:func:`pycards.games.cribbage.batch_discards`, one representative per class under
permutation of the suits: the hand's four suit lanes (13-bit rank masks)
sorted in descending order.  Scores do not depend on which suit is which
(flushes ask for one suit, nobs for the starter's suit, the crib table only
for whether two discards share a suit), so one analysis serves the whole
class.  :func:`suit_classes` enumerates the 962,988 classes with their sizes
(the sizes add up to C(52, 6)); tests/games/cribbage/test_table.py proves the
reduction.

:func:`build_table` runs the analysis in chunks on a Dask cluster (a
``LocalCluster`` by default, ``scheduler=`` an address for a real one) with a
progress bar, writes each finished chunk to its own file and skips the
chunks already on disk (so a stopped run resumes), then writes one compact
``.npz``: the class keys (sorted), their sizes, the hand sums (``int16``,
15 per class: the sum over the 46 starters) and the 13 x 13 x 2 crib table.
:class:`DiscardTable` loads it and answers :meth:`DiscardTable.best_discard`
for any hand.  The command line (``add_arguments`` / ``main``) runs the job.

Requires the ``dask`` extra (``pip install 'pycards[dask]'``).
"""

from __future__ import annotations

import argparse
import itertools
import os
import pathlib
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pycards.cards import CardSet, CardsLike, to_mask52
from pycards.errors import InvalidCardError
from pycards.games.cribbage import DISCARD_PAIRS, CribbageRules, batch_discards

__all__ = [
    "NUM_CLASSES",
    "NUM_HANDS",
    "DiscardTable",
    "add_arguments",
    "build_table",
    "canonical",
    "crib_table",
    "main",
    "suit_classes",
]

#: Six-card hands: C(52, 6).
NUM_HANDS = 20_358_520
#: Their classes under permutation of the suits.
NUM_CLASSES = 962_988
_LANE = 0x1FFF
_PARTITIONS = ((6,), (5, 1), (4, 2), (4, 1, 1), (3, 3), (3, 2, 1), (3, 1, 1, 1), (2, 2, 2),
               (2, 2, 1, 1))  # fmt: skip


def _lanes_of(hands: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    return np.stack([(hands >> np.uint64(16 * s)) & np.uint64(_LANE) for s in range(4)], axis=1)


def _key(lanes: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """Sorted-descending lanes (n, 4) -> the class key: lane i in suit i."""
    key = np.zeros(len(lanes), dtype=np.uint64)
    for s in range(4):
        key |= lanes[:, s] << np.uint64(16 * s)
    return key


def canonical(hands: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """The class key of each hand (uint64 bitsets): its suit lanes sorted in
    descending order, the largest in clubs.

    >>> h = np.array([int(CardSet("5H 5S JD JC 2C 9H"))], dtype=np.uint64)
    >>> str(CardSet(int(canonical(h)[0])))
    '2C JC JD 5H 9H 5S'
    """
    lanes = -np.sort(-_lanes_of(np.asarray(hands, dtype=np.uint64)).astype(np.int64), axis=1)
    return _key(lanes.astype(np.uint64))


def _masks(k: int) -> list[int]:
    return [m for m in range(1 << 13) if bin(m).count("1") == k]


def suit_classes() -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """Every class of six-card hands under permutation of the suits: its key
    (ascending) and its size (the number of hands in it, 24 / the ways the
    suits can be permuted without changing the hand).

    A class is a multiset of four lanes whose rank counts add up to 6; the
    lanes' sizes form one of the nine partitions of 6 into at most four
    parts, and for each part size the lanes of that size are a multiset of
    the 13-bit masks with that many bits.

    >>> keys, sizes = suit_classes()
    >>> len(keys), int(sizes.sum())
    (962988, 20358520)
    """
    rows: list[npt.NDArray[np.uint64]] = []
    for partition in _PARTITIONS:
        groups: list[npt.NDArray[np.uint64]] = []
        for size, mult in sorted(Counter(partition).items()):
            masks = _masks(size)
            combos = list(itertools.combinations_with_replacement(masks, mult))
            groups.append(np.array(combos, dtype=np.uint64).reshape(len(combos), mult))
        lanes = groups[0]
        for g in groups[1:]:
            lanes = np.concatenate(
                [np.repeat(lanes, len(g), axis=0), np.tile(g, (len(lanes), 1))], axis=1
            )
        pad = np.zeros((len(lanes), 4 - lanes.shape[1]), dtype=np.uint64)
        rows.append(np.concatenate([lanes, pad], axis=1))
    lanes = np.concatenate(rows)
    lanes = (-np.sort(-lanes.astype(np.int64), axis=1)).astype(np.uint64)
    # orbit size: 24 / the product of the factorials of the runs of equal lanes
    run = np.ones(len(lanes), dtype=np.int64)
    stab = np.ones(len(lanes), dtype=np.int64)
    for s in range(1, 4):
        run = np.where(lanes[:, s] == lanes[:, s - 1], run + 1, 1)
        stab *= run
    keys = _key(lanes)
    order = np.argsort(keys)
    return keys[order], (24 // stab)[order]


# ---------------------------------------------------------------------------
# the job


def _chunk_path(workdir: pathlib.Path, i: int) -> pathlib.Path:
    return workdir / f"chunk-{i:05d}.npz"


def _analyse_chunk(keys: npt.NDArray[np.uint64], path: str, params: Sequence[int]) -> str:
    """One task: analyse keys, write the chunk file atomically, return its path."""
    rules = CribbageRules.from_params(params)
    keys = np.array(keys, dtype=np.uint64, copy=True)  # a received buffer may be unaligned
    hand, _ = batch_discards(keys, with_crib=False, rules=rules)
    tmp = path + ".tmp.npz"
    np.savez(tmp, keys=keys, hand_sum=np.rint(hand * 46).astype(np.int16))
    os.replace(tmp, path)
    return path


def crib_table(*, rules: CribbageRules | None = None) -> npt.NDArray[np.float64]:
    """The table model's expected crib of two discards, ``[rank_a, rank_b,
    suited]`` (13 x 13 x 2; a pair is never suited: NaN there), read from
    :func:`~pycards.games.cribbage.batch_discards`.

    >>> round(float(crib_table()[4, 4, 0]), 3)
    8.993
    """
    hands, where = [], []
    for ra, rb in itertools.product(range(13), repeat=2):
        for suited in (0, 1):
            if suited and ra == rb:
                continue
            a, b = ra, (rb if suited else 13 + rb)
            cards = sorted([a, b, *[c for c in range(26, 52) if c % 13 not in (ra, rb)][:4]])
            hands.append(int(CardSet(cards)))
            where.append(
                (
                    (ra, rb, suited),
                    DISCARD_PAIRS.index((cards.index(min(a, b)), cards.index(max(a, b)))),
                )
            )
    _, crib = batch_discards(np.array(hands, dtype=np.uint64), with_crib=True, rules=rules)
    assert crib is not None
    table = np.full((13, 13, 2), np.nan)
    for row, (cell, k) in enumerate(where):
        table[cell] = crib[row, k]
    return table


def build_table(
    out: str | os.PathLike[str],
    *,
    workers: int = 2,
    scheduler: str | None = None,
    chunk_size: int = 50_000,
    workdir: str | os.PathLike[str] | None = None,
    progress: bool = True,
    rules: CribbageRules | None = None,
    limit: int | None = None,
) -> dict[str, float]:
    """Analyse every class of six-card hands on Dask and write ``out`` (.npz).

    ``scheduler`` is the address of a running Dask scheduler; without it a
    ``LocalCluster`` of ``workers`` single-threaded processes is started.
    Chunks of ``chunk_size`` classes are written to ``workdir`` (default:
    ``out`` with ``.chunks`` appended) as they finish; a chunk already there
    is not computed again.  ``limit`` stops after that many chunks (to time
    a part of the job).  Returns timings: ``seconds``, ``chunks``,
    ``computed`` (chunks computed in this run), ``classes``.
    """
    try:
        import importlib

        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError as exc:  # pragma: no cover - the extra is missing
        raise ImportError("build_table needs the dask extra: pip install 'pycards[dask]'") from exc
    rules = rules or CribbageRules()
    out_path = pathlib.Path(out)
    work = pathlib.Path(workdir) if workdir is not None else out_path.with_suffix(".chunks")
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    keys, sizes = suit_classes()
    starts = list(range(0, len(keys), chunk_size))
    if limit is not None:
        starts = starts[:limit]
    todo = [i for i in range(len(starts)) if not _chunk_path(work, i).exists()]
    cluster: Any = None
    client: Any
    if scheduler is not None:
        client = distributed.Client(scheduler)
    else:
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True)
        client = distributed.Client(cluster)
    try:
        params = rules.to_params()
        futures = [
            client.submit(
                _analyse_chunk,
                keys[starts[i] : starts[i] + chunk_size],
                str(_chunk_path(work, i)),
                params,
                pure=False,
            )
            for i in todo
        ]
        if progress and futures:
            distributed.progress(futures)
        client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    elapsed = time.perf_counter() - t0
    parts = [np.load(_chunk_path(work, i)) for i in range(len(starts))]
    got = np.concatenate([p["keys"] for p in parts])
    n = len(got)
    if not np.array_equal(got, keys[:n]):
        raise RuntimeError(f"{work}: the chunk files do not match this job (delete them)")
    np.savez_compressed(
        out_path,
        keys=got,
        sizes=sizes[:n],
        hand_sum=np.concatenate([p["hand_sum"] for p in parts]),
        crib_table=crib_table(rules=rules),
        params=np.array(rules.to_params(), dtype=np.int32),
    )
    return {
        "seconds": elapsed,
        "chunks": float(len(starts)),
        "computed": float(len(todo)),
        "classes": float(n),
    }


class DiscardTable:
    """The discard table written by :func:`build_table`, for queries.

    :meth:`best_discard` finds the hand's class by its key (a binary search)
    and maps the best discard back through the suit permutation.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        data = np.load(path)
        self.keys: npt.NDArray[np.uint64] = data["keys"]
        self.sizes: npt.NDArray[np.int64] = data["sizes"]
        self.hand_sum: npt.NDArray[np.int16] = data["hand_sum"]
        self.crib_table: npt.NDArray[np.float64] = data["crib_table"]

    def __len__(self) -> int:
        return len(self.keys)

    def options(self, hand: CardsLike, *, dealer: bool = True) -> list[tuple[CardSet, float]]:
        """The 15 discards of ``hand`` with their values (expected hand score
        plus, for the dealer, or minus the table-model crib), best first."""
        mask = to_mask52(hand)
        if bin(mask).count("1") != 6:
            raise InvalidCardError(f"a discard table hand has 6 cards, got {CardSet(mask)}")
        lanes = [(mask >> (16 * s)) & _LANE for s in range(4)]
        order = sorted(range(4), key=lambda s: -lanes[s])  # canonical suit i <- suit order[i]
        key = sum(lanes[order[i]] << (16 * i) for i in range(4))
        row = int(np.searchsorted(self.keys, np.uint64(key)))
        if row >= len(self.keys) or int(self.keys[row]) != key:
            raise KeyError(f"{CardSet(mask)}: its class is not in this table")
        canon = list(CardSet(key))
        sign = 1.0 if dealer else -1.0
        out = []
        for k, (i, j) in enumerate(DISCARD_PAIRS):
            a, b = canon[i], canon[j]
            crib = float(self.crib_table[a.rank, b.rank, int(a.suit == b.suit)])
            value = float(self.hand_sum[row, k]) / 46.0 + sign * crib
            # map back: canonical suit i is the hand's suit order[i]
            real = CardSet([order[c.suit] * 13 + c.rank for c in (a, b)])
            out.append((real, value))
        out.sort(key=lambda o: -o[1])
        return out

    def best_discard(self, hand: CardsLike, *, dealer: bool = True) -> CardSet:
        """The two cards to lay away from the six-card ``hand``."""
        return self.options(hand, dealer=dealer)[0][0]


# ---------------------------------------------------------------------------
# command line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the ``cribbage-table`` command."""
    parser.add_argument("out", help="the result file (.npz)")
    parser.add_argument("--workers", type=int, default=2, help="local Dask workers (default 2)")
    parser.add_argument("--scheduler", default=None, help="address of a Dask scheduler")
    parser.add_argument("--chunk-size", type=int, default=50_000, help="classes per task")
    parser.add_argument("--workdir", default=None, help="where finished chunks are kept")
    parser.add_argument("--limit", type=int, default=None, help="stop after this many chunks")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def main(args: argparse.Namespace) -> int:
    """Run the job from parsed arguments; prints the timing."""
    result = build_table(
        args.out,
        workers=args.workers,
        scheduler=args.scheduler,
        chunk_size=args.chunk_size,
        workdir=args.workdir,
        progress=not args.no_progress,
        limit=args.limit,
    )
    rate = result["classes"] / max(result["seconds"], 1e-9)
    print(
        f"{int(result['classes']):,} classes in {int(result['chunks'])} chunks "
        f"({int(result['computed'])} computed now) in {result['seconds']:.1f} s "
        f"({rate:,.0f} classes/s) -> {args.out}"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    _parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    add_arguments(_parser)
    raise SystemExit(main(_parser.parse_args()))
