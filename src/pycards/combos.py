"""Combination primitives over any set of French cards (0 to 52 cards).

The counting rules of the cribbage family (Nodde Knave, :doc:`/nodde`), exact
for every subset of the deck.  Pip values: Ace 1, 2..10 face value, J Q K 10;
ranks are 0..12 for A 2..10 J Q K (Ace low, no wrap); suits 0..3 are clubs,
diamonds, hearts, spades.  ``cards`` may be a :class:`~pycards.cards.CardSet`,
an ``int`` bitset, a string such as ``"AS TD 10h 2c"`` or an iterable of cards.

Input is strict: a bool, a float (Python or numpy) or ``None`` is neither a
card set nor a target (``TypeError`` naming the argument); numpy integers are
welcome as ints; bits outside the deck raise
:class:`~pycards.errors.InvalidCardError` and a target outside 1..340
``ValueError`` naming ``target`` (whatever its size: never ``OverflowError``).

>>> hand = "5H 5S 5C 5D JH"
>>> count_fifteens(hand), count_pairs(hand)
(8, 6)
>>> runs("4H 5H 6H 6C")
[(3, 2)]
>>> n_of_a_kind("5H 5S 5C JD JH")
[(4, 3), (10, 2)]

Every function calls the C engine, which validates what it is handed; the
numpy versions for many hands at once are in :mod:`pycards.batch`.
"""

from __future__ import annotations

from cardcore import _core
from pycards.cards import CardsLike, to_mask52

__all__ = [
    "MAX_TARGET",
    "count_fifteens",
    "count_pairs",
    "longest_suit_run",
    "n_of_a_kind",
    "rank_counts",
    "runs",
    "suit_counts",
]

#: The largest valid target of :func:`count_fifteens` (the pips of the whole deck).
MAX_TARGET = 340


def count_fifteens(cards: CardsLike, target: int = 15) -> int:
    """The number of distinct subsets of 2 or more cards whose pips total ``target``.

    :param target: 1..340 (:data:`MAX_TARGET`); anything else raises ``ValueError``.

    >>> count_fifteens("6H 6S 9C 3D")  # 6+9, 6+9, 3+6+6 (see docs/nodde.rst)
    3
    >>> count_fifteens("5H 5S 5C 5D JH", target=20)  # 5+5+J x 6, 5+5+5+5
    7
    """
    return int(_core.count_fifteens(to_mask52(cards), target))


def count_pairs(cards: CardsLike) -> int:
    """The number of pairs of same-rank cards: the sum over ranks of C(count, 2).

    >>> count_pairs("5H 5S 5C"), count_pairs("5H 5S 5C 5D")  # pair royal, double pair royal
    (3, 6)
    """
    return int(_core.count_pairs(to_mask52(cards)))


def rank_counts(cards: CardsLike) -> tuple[int, ...]:
    """The number of cards of each rank, Ace first (13 counts).

    >>> rank_counts("AS AH KD")
    (2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    """
    return tuple(int(c) for c in _core.rank_counts(to_mask52(cards)))


def suit_counts(cards: CardsLike) -> tuple[int, int, int, int]:
    """The number of cards of each suit: clubs, diamonds, hearts, spades.

    >>> suit_counts("AS TD 10h 2c")
    (1, 1, 1, 1)
    """
    c, d, h, s = (int(x) for x in _core.suit_counts(to_mask52(cards)))
    return c, d, h, s


def runs(cards: CardsLike) -> list[tuple[int, int]]:
    """Each maximal run of 3 or more consecutive ranks as (length, multiplicity).

    Runs take any suits; Ace is low and there is no wrap (Q-K-A is no run).
    The multiplicity is the product of the number of cards of each rank of the
    run, so 4-5-6-6 is one run of length 3 with multiplicity 2 (two runs of 3
    as cribbage counts them).  Runs are listed from the lowest.

    >>> runs("3C 4D 5H 5S 5C 9D TD JD QD")
    [(3, 3), (4, 1)]
    >>> runs("QH KS AC 2D")
    []
    """
    return [(int(length), int(mult)) for length, mult, _low in _core.runs(to_mask52(cards))]


def n_of_a_kind(cards: CardsLike) -> list[tuple[int, int]]:
    """The ranks held 2 or more times, as (rank, count), lowest rank first.

    >>> n_of_a_kind("7C 7D 7H 2S 2D KC")
    [(1, 2), (6, 3)]
    """
    return [(rank, count) for rank, count in enumerate(rank_counts(cards)) if count >= 2]


def longest_suit_run(cards: CardsLike) -> int:
    """The longest run of consecutive ranks within one suit (0 for no cards).

    >>> longest_suit_run("3C 4C 5C 6C 7C 7S")
    5
    >>> longest_suit_run("QH KH AH")
    2
    """
    return int(_core.longest_suit_run(to_mask52(cards)))
