"""Warm and kept throughput of the batch scorer ``pycards.batch.hand_stats``
(random 5-card hands, 2**20 per call), and what the allocation of a kept
result's arrays costs.

"Warm": one set of output arrays reused (``out=``).  "Kept": every call's
results kept, so each call writes fresh memory, faulted in page by page at
first touch.  The kept figure is measured for several ways of allocating the
outputs, each in a fresh process (a process reuses the pages it freed, so a
second variant in one process would find warm pages):

- ``default``: ``out=None`` (the library's own allocation);
- ``numpy``: ``numpy.empty`` (numpy advises the kernel to back arrays of 4 MiB
  or more with huge pages);
- ``numpy-nohuge``: ``numpy.empty`` without that advice;
- ``mmap-populate``: an anonymous mapping pre-faulted by the kernel in one call
  (``MAP_POPULATE``);
- ``mmap-huge``: an anonymous mapping advised to use huge pages.

Each process prints the median of 7 calls of each figure; the variants take
turns over ``--rounds`` rounds, and the best and median rounds are printed.
The load average is printed: the machine is shared.

Usage: ``python benchmarks/studies/batch_kept_outputs.py [--threads T] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

VARIANTS = ["default", "numpy", "numpy-nohuge", "mmap-populate", "mmap-huge"]
N = 1 << 20
CALLS = 7


def child(variant: str, threads: int) -> None:
    """Measure one variant in this process; print ``warm kept`` in M hands/s."""
    import mmap

    import numpy as np

    from pycards import batch

    hands = batch.random_hands(N, 5, seed=1)
    shapes = [(np.int64, (N,)), (np.int32, (N,)), (np.int32, (N,)), (np.uint8, (N, 4))]

    def mapped(flags: int, advice: int | None) -> batch.HandStats:
        parts = []
        for dtype, shape in shapes:
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | flags)
            if advice is not None:
                m.madvise(advice)
            parts.append(np.frombuffer(m, dtype=dtype).reshape(shape))
        return batch.HandStats(*parts)

    def numpy_out() -> batch.HandStats:
        return batch.new_hand_stats(N)

    def call_with(make: object) -> object:
        if make is None:
            return batch.hand_stats(hands, threads=threads)
        return batch.hand_stats(hands, out=make(), threads=threads)  # type: ignore[operator]

    make: object
    if variant == "default":
        make = None
    elif variant == "numpy":
        make = numpy_out
    elif variant == "numpy-nohuge":
        try:
            from numpy._core.multiarray import _set_madvise_hugepage
        except ImportError:  # numpy 1
            from numpy.core.multiarray import _set_madvise_hugepage
        _set_madvise_hugepage(False)
        make = numpy_out
    elif variant == "mmap-populate":
        make = lambda: mapped(mmap.MAP_POPULATE, None)  # noqa: E731
    else:
        make = lambda: mapped(0, mmap.MADV_HUGEPAGE)  # noqa: E731

    buf = batch.new_hand_stats(N)
    batch.hand_stats(hands, out=buf, threads=threads)
    warm, kept, results = [], [], []
    for _ in range(CALLS):
        t0 = time.perf_counter()
        batch.hand_stats(hands, out=buf, threads=threads)
        t1 = time.perf_counter()
        results.append(call_with(make))
        t2 = time.perf_counter()
        warm.append(t1 - t0)
        kept.append(t2 - t1)
    print(f"{N / statistics.median(warm) / 1e6:.3f} {N / statistics.median(kept) / 1e6:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.threads)
        return 0
    load = os.getloadavg()
    print(
        f"hand_stats, {N:,} hands per call, {args.threads} thread(s), {args.rounds} rounds of "
        f"a fresh process per variant (median of {CALLS} calls each); "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    got: dict[str, list[tuple[float, float]]] = {v: [] for v in VARIANTS}
    for r in range(args.rounds):
        order = VARIANTS[r % len(VARIANTS) :] + VARIANTS[: r % len(VARIANTS)]
        for variant in order:
            cmd = [sys.executable, __file__, "--child", variant, "--threads", str(args.threads)]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()
            got[variant].append((float(out[0]), float(out[1])))
    print(f"M hands/s    {'':14} {'warm med':>9} {'kept best':>9} {'kept med':>9} {'kept/warm':>9}")
    for variant, rows in got.items():
        warm = statistics.median(w for w, _ in rows)
        best = max(k for _, k in rows)
        med = statistics.median(k for _, k in rows)
        ratio = statistics.median(k / w for w, k in rows)
        print(f"{'':12} {variant:14} {warm:9.1f} {best:9.1f} {med:9.1f} {ratio:9.2f}")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
