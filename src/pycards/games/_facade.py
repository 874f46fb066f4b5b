"""What the game facades share: the itemized scores of the scoring games and
the strict conversion of the arguments they take.

A facade (``pycards.games.<game>``) is thin: its rules dataclass, presets, names
and views, and its functions over the engine's scorers.  The shapes that more
than one facade needs are written here once:

* :class:`ScoreItem` and :class:`ItemizedScore`, the itemized results of
  Nodde Knave's and cribbage's scorers (each facade subclasses them, so that
  its ``ScoreItem``, ``PlayScore`` and hand score are its own types with its
  own docs and ``ITEM_KINDS``), and :func:`itemized`, which builds one from
  the engine's ``(kind, cards, points)`` triples;
* :func:`as_rules`, a facade function's ``rules=`` argument;
* :func:`stacked_hands` and :func:`complete_deck`, the checks and the end of
  a 52-card game's ``stacked_deck``: one hand per seat, no card twice, then
  every other card, ascending.

Errors are typed and say what was expected.  A card argument (of either
deck) is converted by the one family of :mod:`pycards.cards`
(:func:`~pycards.cards.card_arg`, :func:`~pycards.cards.card_list_arg`,
:func:`~pycards.cards.card_mask_arg`), whose errors name the argument.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TypeVar

from pycards.cards import Card, CardSet, card_list_arg
from pycards.errors import InvalidCardError

__all__ = [
    "ItemizedScore",
    "ScoreItem",
    "as_rules",
    "complete_deck",
    "itemized",
    "stacked_hands",
]

_S = TypeVar("_S", bound="ItemizedScore")
_I = TypeVar("_I", bound="ScoreItem")
_R = TypeVar("_R")


@dataclasses.dataclass(frozen=True)
class ScoreItem:
    """One scoring combination: its kind (a name of the game's ``ITEM_KINDS``),
    cards and points."""

    kind: str
    cards: CardSet
    points: int

    def __str__(self) -> str:
        return f"{self.kind} {self.cards}: {self.points}"


@dataclasses.dataclass(frozen=True)
class ItemizedScore:
    """A score as its items, in the scorer's order, and their total."""

    items: tuple[ScoreItem, ...]
    total: int


def itemized(
    cls: type[_S],
    item: type[_I],
    raw: Iterable[tuple[int, int, int]],
    kinds: Sequence[str],
) -> _S:
    """The ``cls`` of the engine's ``(kind id, card bitset, points)`` triples:
    one ``item`` each, its kind named from ``kinds``, and their total."""
    items = tuple(item(kinds[k], CardSet(cards), p) for k, cards, p in raw)
    return cls(items, sum(i.points for i in items))


def as_rules(rules: object, cls: type[_R], expected: str | None = None) -> _R:
    """``rules``, an instance of ``cls``, or ``cls()`` for ``None``; a
    :class:`TypeError` saying it must be ``expected`` (default: the class's
    name) otherwise."""
    if rules is None:
        return cls()
    if not isinstance(rules, cls):
        raise TypeError(f"rules must be {expected or cls.__name__}, got {type(rules).__name__}")
    return rules


def stacked_hands(
    hands: Sequence[str | Iterable[Card | int | str]], players: int, size: int
) -> list[list[Card]]:
    """``hands``, one per seat of ``players``, each of ``size`` cards, as card
    lists (``ValueError`` or :class:`InvalidCardError` naming ``stacked_deck``)."""
    if isinstance(hands, str) or len(hands) != players:
        raise ValueError(f"stacked_deck: give one hand per seat ({players} hands)")
    cards = [card_list_arg(h, f"stacked_deck[{seat}]", Card) for seat, h in enumerate(hands)]
    for seat, hand in enumerate(cards):
        if len(hand) != size:
            raise InvalidCardError(
                f"stacked_deck: seat {seat} must get {size} cards, got {len(hand)}"
            )
    return cards


def complete_deck(order: Sequence[Card]) -> list[Card]:
    """The whole deck, top first: ``order`` (no card twice), then every other
    card, ascending."""
    seen: set[Card] = set()
    for c in order:
        if c in seen:
            raise InvalidCardError(f"stacked_deck: {c} is placed twice", str(c))
        seen.add(c)
    return [*order, *(Card(i) for i in range(52) if i not in seen)]
