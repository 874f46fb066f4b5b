"""The numpy batch API: combination primitives over many card sets at once.

Each function takes a 1-D C-contiguous ``numpy.uint64`` array of 52-card
bitsets (bit ``suit * 16 + rank``, see :mod:`pycards.cards`) and returns one
result per set, computed by a native loop that releases the GIL.  The
functions keep the names of their scalar twins in :mod:`pycards.combos`; a
game's scorer keeps its scalar name behind the game's prefix
(:func:`notakers_split_points` is :func:`pycards.games.notakers.split_points`).

Errors: an input that is not a ``numpy.ndarray`` of dtype ``uint64``, or a
target, ``n``, ``k`` or ``seed`` that is a bool, a float or ``None``, raises
``TypeError`` (numpy integers are welcome as ints); a multi-dimensional,
non-contiguous or misaligned array or a target outside 1..340 raises
``ValueError``; a set with bits outside the deck raises
:class:`~pycards.errors.InvalidCardError` naming the first bad index and the
value the kernel read there, as the scalar functions of
:mod:`pycards.combos` do for that set.  Each set is read once: its check and
its result come from that one value.

Output and threads: every function takes ``out=``, the array to write the
results to (``None``, the default, makes a new one).  It must be a
``numpy.ndarray`` of exactly the result's dtype and shape, C-contiguous,
aligned, writeable and sharing no memory with the input (else ``TypeError``
for the type or dtype and ``ValueError`` for the rest, naming ``out``); the
results are written there and it is returned.  Reusing one ``out`` across
calls is what makes a loop over batches fast: a new result array is fresh
memory, which the system hands out page by page at first touch.  And every
function takes ``threads=``: ``1`` (the default) computes on the calling
thread, ``n`` spreads the batch over up to ``n`` threads (contiguous chunks
of at least 32,768 sets each, so small batches stay on one), and ``0`` uses
every online core (:func:`default_threads`).  The results are the same
whatever the count, and so is an error: the first bad index of the whole
batch.  On an error the contents of ``out`` are unspecified.

>>> hands = random_hands(100_000, 5, seed=7)
>>> buf = np.empty(len(hands), dtype=np.int32)
>>> runs(hands, out=buf) is buf
True
>>> bool((runs(hands, threads=2) == buf).all())
True

>>> import numpy as np
>>> from pycards.cards import parse_cards
>>> hands = np.array([parse_cards("5H 5S 5C 5D JH").mask, parse_cards("4H 5H 6H 6C").mask],
...                  dtype=np.uint64)
>>> count_fifteens(hands).tolist(), count_pairs(hands).tolist(), runs(hands).tolist()
([8, 2], [6, 1], [0, 6])
>>> suit_counts(hands).tolist()
[[1, 1, 2, 1], [1, 0, 3, 0]]
>>> random_hands(3, 5, seed=1).dtype
dtype('uint64')
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards.games.notakers import NoTakersRules
from pycards.games.notakers import batch_split_points as _notakers_batch_split_points

__all__ = [
    "MAX_RANDOM_HANDS",
    "HandStats",
    "count_fifteens",
    "count_pairs",
    "default_threads",
    "hand_stats",
    "longest_suit_run",
    "new_hand_stats",
    "notakers_split_points",
    "random_hands",
    "runs",
    "suit_counts",
]

#: A 1-D array of 52-card bitsets.
Hands = npt.NDArray[np.uint64]


class HandStats(NamedTuple):
    """The results of :func:`hand_stats`, one entry per card set."""

    #: Subsets of 2+ cards totalling the target (int64).
    fifteens: npt.NDArray[np.int64]
    #: Same-rank pairs (int32).
    pairs: npt.NDArray[np.int32]
    #: Sum over maximal runs of length * multiplicity (int32).
    run_score: npt.NDArray[np.int32]
    #: Cards per suit, shape (n, 4) (uint8).
    suit_counts: npt.NDArray[np.uint8]

    def head(self, n: int) -> HandStats:
        """The first ``n`` sets of each array (views: an ``out=`` for a shorter batch)."""
        return HandStats(
            self.fifteens[:n], self.pairs[:n], self.run_score[:n], self.suit_counts[:n]
        )


def default_threads() -> int:
    """The thread count ``threads=0`` stands for: the number of online cores."""
    result: int = _core.batch_threads_default()
    return result


def count_fifteens(
    hands: Hands,
    target: int = 15,
    *,
    out: npt.NDArray[np.int64] | None = None,
    threads: int = 1,
) -> npt.NDArray[np.int64]:
    """Per set, the subsets of 2 or more cards whose pips total ``target`` (int64)."""
    result: npt.NDArray[np.int64] = _core.batch_count_fifteens(
        hands, target, out=out, threads=threads
    )
    return result


def count_pairs(
    hands: Hands, *, out: npt.NDArray[np.int32] | None = None, threads: int = 1
) -> npt.NDArray[np.int32]:
    """Per set, the number of same-rank pairs (int32)."""
    result: npt.NDArray[np.int32] = _core.batch_count_pairs(hands, out=out, threads=threads)
    return result


def runs(
    hands: Hands, *, out: npt.NDArray[np.int32] | None = None, threads: int = 1
) -> npt.NDArray[np.int32]:
    """Per set, the run score: the sum over maximal runs of length * multiplicity (int32).

    This is what cribbage pegs for runs (4-5-6-6 scores 6: two runs of 3).
    """
    result: npt.NDArray[np.int32] = _core.batch_run_score(hands, out=out, threads=threads)
    return result


def suit_counts(
    hands: Hands, *, out: npt.NDArray[np.uint8] | None = None, threads: int = 1
) -> npt.NDArray[np.uint8]:
    """Per set, the cards of each suit (clubs, diamonds, hearts, spades): shape (n, 4), uint8."""
    result: npt.NDArray[np.uint8] = _core.batch_suit_counts(hands, out=out, threads=threads)
    return result


def longest_suit_run(
    hands: Hands, *, out: npt.NDArray[np.int32] | None = None, threads: int = 1
) -> npt.NDArray[np.int32]:
    """Per set, the longest run of consecutive ranks within one suit (int32)."""
    result: npt.NDArray[np.int32] = _core.batch_longest_suit_run(hands, out=out, threads=threads)
    return result


def hand_stats(
    hands: Hands, target: int = 15, *, out: HandStats | None = None, threads: int = 1
) -> HandStats:
    """Fifteens, pairs, run score and suit counts of every set in one pass.

    ``out`` is a :class:`HandStats` (or any sequence) of the four arrays to
    write to, as :func:`new_hand_stats` makes; each part is checked as an
    ``out=`` of the module (the error names ``out[i]``).

    >>> import numpy as np
    >>> stats = hand_stats(np.array([0x1F], dtype=np.uint64))  # A-5 of clubs
    >>> stats.fifteens.tolist(), stats.run_score.tolist(), stats.suit_counts.tolist()
    ([1], [5], [[5, 0, 0, 0]])
    """
    fifteens, pairs, run_score, suits = _core.batch_hand_stats(
        hands, target, out=out, threads=threads
    )
    return HandStats(fifteens, pairs, run_score, suits)


def new_hand_stats(n: int) -> HandStats:
    """Output arrays for :func:`hand_stats` of ``n`` sets (uninitialised), to pass as
    ``out=`` and reuse across calls.

    >>> buf = new_hand_stats(2)
    >>> hand_stats(np.array([0x1F, 0x3], dtype=np.uint64), out=buf).pairs is buf.pairs
    True
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"new_hand_stats: n must be an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"new_hand_stats: n must be 0 or more, got {n}")
    return HandStats(
        np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.int32),
        np.empty(n, dtype=np.int32),
        np.empty((n, 4), dtype=np.uint8),
    )


#: The most hands :func:`random_hands` makes in one call (1 GiB of output).
MAX_RANDOM_HANDS = 134_217_728


def random_hands(n: int, k: int, seed: int) -> Hands:
    """``n`` uniformly random ``k``-card sets as a uint64 array.

    :param n: 0..:data:`MAX_RANDOM_HANDS`.
    :param k: 0..52.
    :param seed: 0..2**64-1.

    A value outside its range raises ``ValueError`` naming the argument.

    Reproducible on every backend and platform: the engine's generator seeded
    with ``seed`` drives a partial Fisher-Yates shuffle of one deck kept from
    hand to hand (see ``cc_random_hands`` in ``cc_combos.h``).
    """
    return _core.random_hands(n, k, seed)


def notakers_split_points(
    hands: Hands,
    rules: NoTakersRules | None = None,
    *,
    out: npt.NDArray[np.int32] | None = None,
    threads: int = 1,
) -> npt.NDArray[np.int32]:
    """Per set, the No Takers? best-split points (:doc:`/notakers`, The best split) under ``rules``
    (the default rules when ``None``; only ``ace_in_runs`` matters), int32.

    The batch twin of :func:`pycards.games.notakers.split_points` (the same function
    as :func:`pycards.games.notakers.batch_split_points`); any number of cards per set.

    >>> import numpy as np
    >>> from pycards.cards import parse_cards
    >>> hands = np.array([parse_cards(h).mask for h in ("5H 5S 5C", "AH 2H 3H", "QH KH AH")],
    ...                  dtype=np.uint64)
    >>> notakers_split_points(hands).tolist()
    [2, 3, 0]
    >>> notakers_split_points(hands, NoTakersRules(ace_in_runs="both")).tolist()
    [2, 3, 3]
    """
    return _notakers_batch_split_points(hands, rules, out=out, threads=threads)
