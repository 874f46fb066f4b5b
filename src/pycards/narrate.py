"""Narration: every event of a game told in plain language, for one viewer.

:func:`narrate` turns a state's events into :class:`Line` objects, each with
its text and the points it gives, and a score change always says why::

    >>> from pycards.nodde import NoddeGame, NoddeRules
    >>> from pycards.narrate import narrate
    >>> game = NoddeGame(NoddeRules(first_dealer=1), num_players=2)
    >>> deck = game.stacked_deck(["6H 6S 9C", "TH 5S 5C"], "3D")
    >>> state = game.new_initial_state(0, deck=deck)
    >>> for line in narrate(state, 0):
    ...     print(line)
    seat 1 deals (deal 1)
    seat 0 is dealt 6H
    seat 1 is dealt a card
    seat 0 is dealt 6S
    seat 1 is dealt a card
    seat 0 is dealt 9C
    seat 1 is dealt a card
    seat 1 turns up 3D
    seat 0 pegs 8 for his hand: 3 fifteens 6, a pair 2
    seat 1 pegs 6 for his hand
    >>> state.apply("play 9C"); state.apply("play 5C"); state.apply("play 6H")
    >>> for line in narrate(state, 0, since=state.event_count - 3):
    ...     print(line, "|", line.points)
    seat 0 plays 9C (total 9) | 0
    seat 1 plays 5C (total 14) | 0
    seat 0 plays 6H (total 20) | 0

The templates are data, one table per game (:data:`TEMPLATES`), keyed by the
engine's event kinds (``game_info(name)["event_kinds"]``); a kind without a
template is told from the engine's own description of it, so a new game
is narrated from its first build and adds templates, not code.  A template is
a :class:`str.format` string over these fields:

``player``, ``target``
    the seats (``"seat 2"``, or the names given); ``target_seat`` is the number.
``card``
    the card of a card event, or ``"a card"`` when the viewer may not see it.
``value``, ``extra``
    the numbers (``value`` is ``"?"`` when hidden).
``points``
    ``value`` with its unit (``"1 point"``, ``"4 points"``).
``reason``
    why a score changed, from the cards the viewer has seen (see below).
``descriptor``
    what a No Takers ask names (``"sevens"``, ``"hearts"``, ``"the 7H"``).

A template may depend on one field's value: :class:`By` picks a case.  The
reasons of the play and of the show are computed from the public cards (the
count since it last started, a hand the viewer has seen whole) with the
game's own scorer, so a viewer's narration never names a card it may not
see: two worlds that differ only in cards seat ``p`` cannot see narrate the
same for ``p``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pycards.cards import Card
from pycards.cribbage import score_play as crib_play
from pycards.cribbage import score_show
from pycards.game import REFEREE, Event, State
from pycards.nodde import score_hand, score_play

__all__ = ["TEMPLATES", "By", "Line", "NarrationMemory", "narrate", "narrate_event"]


@dataclasses.dataclass(frozen=True)
class By:
    """A template that depends on one field of the event: ``cases`` maps the
    field's value to a template, ``default`` is for any other value.

    :ivar field: ``"extra"``, ``"target"``, ``"value"``, ``"player"`` or
        ``"new_extra"`` (Nancy's ``dealer``: 1 when the deal was thrown in).
    """

    field: str
    cases: Mapping[int, str]
    default: str


Template = str | By


@dataclasses.dataclass(frozen=True)
class Line:
    """One told event.

    :ivar event: the event, as the viewer sees it.
    :ivar text: what happened, in words.
    :ivar points: the points the event gives its player (0 if none).
    """

    event: Event
    text: str
    points: int = 0

    def __str__(self) -> str:
        return self.text


_RANK_WORDS = (
    "aces",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "Jacks",
    "Queens",
    "Kings",
)
_SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")

#: The narration templates of each game, by event kind (see the module docs).
TEMPLATES: dict[str, dict[str, Template]] = {
    "nodde": {
        "new_deal": "{player} deals (deal {value})",
        "deal_card": "{player} is dealt {card}",
        "turnup": "{player} turns up {card}",
        "turned_knave": "{player} pegs {points} for a Jack turned up",
        "hand_score": "{player} pegs {value} for his hand{reason}",
        "play": By(
            "extra",
            {0: "{player} plays {card} (total {target_seat})"},
            "{player} plays {card} (total {target_seat}) and pegs {extra}: {reason}",
        ),
        "go": "{player} says go (total {target_seat})",
        "last_card": "{player} pegs {points} for the last card (total {target_seat})",
        "game_over": "{player} makes the winning points: side {target_seat} wins with {value}",
    },
    "cribbage": {
        "cut": "{player} cuts {card}",
        "new_deal": "{player} deals (deal {value})",
        "deal_card": "{player} is dealt {card}",
        "crib_dealt": "{player} deals {card} to the crib",
        "discard": "{player} lays {card} away to the crib",
        "starter": "{player} turns the starter {card}",
        "his_heels": "{player} pegs {points} for his heels (a Jack starter)",
        "play": By(
            "extra",
            {0: "{player} plays {card} (count {target_seat})"},
            "{player} plays {card} (count {target_seat}) and pegs {extra}: {reason}",
        ),
        "go": "{player} says go (count {target_seat})",
        "last_card": By(
            "extra",
            {1: "{player} pegs {points} for the last card (count {target_seat})"},
            "{player} pegs {points} for go (count {target_seat})",
        ),
        "show_hand": "{player} shows his hand and pegs {value}{reason}",
        "crib_card": "{player} shows {card} from the crib",
        "show_crib": "{player} pegs {value} for the crib{reason}",
        "skunk": By(
            "value", {2: "{player} is double skunked ({extra})"}, "{player} is skunked ({extra})"
        ),
        "game_over": "{player} wins for side {target_seat} with {value}",
        "partners": "{player} and {target} are partners (side {value})",
        "claim": By(
            "target",
            {
                0: "{player} claims {points} for his hand",
                1: "{player} claims {points} for the crib",
            },
            "{player} claims {points}",
        ),
        "muggins": "{player} calls muggins on {target} and pegs {value} overlooked",
        "no_muggins": "{player} lets {target}'s {value} overlooked points go",
        "overclaim": "{player} claimed {value} too many, corrected",
        "penalty": "{player}'s side pegs {value} for {target}'s overclaim",
    },
    "nancy": {
        "dealer": By(
            "new_extra",
            {1: "everyone passed: the deal is thrown in and {player} deals again"},
            "{player} deals (deal {value})",
        ),
        "deal": By(
            "target",
            {1: "{player} is dealt {card} face up", 2: "{player} is dealt {card} face down"},
            "{player} is dealt {card}",
        ),
        "bid": By("value", {0: "{player} passes"}, "{player} bids {value}"),
        "taker": "{player} takes with bid {value}",
        "call": "{player} calls {card}",
        "hound": "{player} takes {card} from the Hound",
        "discard": "{player} discards {card}",
        "play": "{player} plays {card}",
        "partner": By(
            "extra",
            {1: "{player} holds the called {card}: the Partner"},
            "{player} played his own called card {card}",
        ),
        "flip": "{card} is turned up on {player}'s pile",
        "trick": By(
            "extra",
            {0: "{player} wins trick {value}{reason} for Nancy's side"},
            "{player} wins trick {value}{reason} for the opponents",
        ),
        "debt": "{player}, who played the Outsider, owes {target} a card",
        "exchange": By(
            "extra",
            {1: "{player} pays {card} (a deferred payment)"},
            "{player} gives {card} for the Outsider",
        ),
        "result": "the Taker {player} completed {target_seat} objectives{reason}",
        "score": "{player} scores {value} (total {extra})",
        "game_over": "the match is over",
    },
    "notakers": {
        "deal": "{player} is dealt {card}",
        "draw": By("extra", {1: "{player} must draw: {card}"}, "{player} draws {card}"),
        "save": "{player} saves {card}",
        "ask": "{player} asks {target} for {descriptor}",
        "pass": "{player} has none: Pass",
        "give": By(
            "extra",
            {
                1: "{player} gives {target} {card} after the Pass",
                2: "No Takers: {player} gives {target} {card}",
            },
            "{player} gives {target} {card}",
        ),
        "no_takers": "{player} finds no takers",
        "score": By("extra", {1: "{player} scores {points} and wins"}, "{player} scores {points}"),
        "game_over": By(
            "value",
            {1: "the game is over: the turns ran out"},
            "the game is over: the draw pile ran out",
        ),
    },
}


def _points(n: int | None) -> str:
    if n is None:
        return "? points"
    return f"{n} point" if abs(n) == 1 else f"{n} points"


def _descriptor(value: int | None, card_name: Callable[[int], str]) -> str:
    if value is None:
        return "?"
    if 0 <= value < 13:
        return _RANK_WORDS[value]
    if 13 <= value < 17:
        return _SUIT_WORDS[value - 13]
    if 17 <= value < 17 + 52:
        return f"the {card_name(value - 17)}"
    return str(value)


class NarrationMemory:
    """What the narrator remembers between events: only what the viewer saw."""

    def __init__(self) -> None:
        self.count: list[int] = []  # the cards of the current count (play)
        self.dealt: dict[int, list[int | None]] = {}  # each seat's cards this deal
        self.played: dict[int, list[int]] = {}  # each seat's cards played this deal
        self.turnup: int | None = None
        self.crib: list[int] = []
        self.trick: list[tuple[int, int | None]] = []  # (seat, card) of the trick
        self.thrown: int = 0  # Nancy: thrown-in deals so far


def _item_text(items: Sequence[Any]) -> str:
    """Scoring items by kind, in order: ``"fifteens 6, a pair 2"``."""
    totals: dict[str, list[int]] = {}
    for i in items:
        kind = "31" if i.kind == "thirty_one" else str(i.kind).replace("_", " ")
        totals.setdefault(kind, []).append(i.points)
    parts = []
    for kind, pts in totals.items():
        word = f"{len(pts)} {kind}s" if len(pts) > 1 else ("" if kind[0].isdigit() else "a ") + kind
        parts.append(f"{word} {sum(pts)}")
    return ", ".join(parts)


def _reason(game: Any, ev: Event, mem: NarrationMemory) -> str:
    """Why the event scored, from what the viewer has seen ('' if unknown)."""
    name = game.NAME
    if ev.kind == "play" and name in ("nodde", "cribbage"):
        try:
            if name == "nodde":
                return _item_text(score_play(mem.count, game.rules).items) or "the play"
            return _item_text(crib_play(mem.count).items) or "the play"
        except (ValueError, TypeError):
            return "the play"
    if ev.kind in ("hand_score", "show_hand", "show_crib"):
        cards = mem.crib if ev.kind == "show_crib" else mem.dealt.get(ev.player, [])
        known = [c for c in cards if c is not None]
        if ev.kind == "show_hand" and len(known) != len(cards):
            # a cribbage hand shown is the four cards its owner played
            cards = known = mem.played.get(ev.player, [])
        if mem.turnup is None or len(known) != len(cards) or not known:
            return ""
        try:
            if name == "nodde":
                items: Sequence[Any] = score_hand(known, mem.turnup, game.rules).items
            else:
                items = score_show(
                    known, mem.turnup, crib=ev.kind == "show_crib", rules=game.rules
                ).items
        except (ValueError, TypeError):
            return ""
        return ": " + (_item_text(items) or "nineteen (nothing)")
    if ev.kind == "trick" and name == "nancy":
        for seat, card in mem.trick:
            if seat == ev.player and card is not None:
                return f" with {game._card_name(card)}"
        return ""
    if ev.kind == "result" and name == "nancy":
        won, outsider = ev.extra & 1, ev.extra >> 1 & 1
        text = ": the Taker wins" if won else ": the Taker loses"
        return text + (", decided by the Outsider" if outsider else "")
    return ""


def _remember(game: Any, ev: Event, mem: NarrationMemory, kept: Event) -> None:
    """Update the memory after telling ``ev`` (``kept`` is the same event)."""
    kind = ev.kind
    if kind in ("new_deal", "dealer"):
        mem.count, mem.dealt, mem.turnup, mem.crib, mem.trick = [], {}, None, [], []
        mem.played = {}
    elif kind == "deal_card" or (kind == "deal" and game.NAME == "nancy" and ev.target == 0):
        mem.dealt.setdefault(ev.player, []).append(ev.value)
    elif kind in ("turnup", "starter"):
        mem.turnup = ev.value
    elif kind == "discard" and game.NAME == "cribbage":
        # the hand shown is the one kept: a laid-away card leaves it
        hand = mem.dealt.get(ev.player, [])
        if ev.value is not None and ev.value in hand:
            hand.remove(ev.value)
        elif None in hand:
            hand.remove(None)
    elif kind == "crib_card" and ev.value is not None:
        mem.crib.append(ev.value)
    elif kind == "trick":
        mem.trick = []
    del kept


def _before(game: Any, ev: Event, mem: NarrationMemory) -> dict[str, Any]:
    """Fields that need the memory before the event is told."""
    extra: dict[str, Any] = {}
    if ev.kind == "play" and ev.value is not None:
        if game.NAME in ("nodde", "cribbage"):
            pips = Card(ev.value).pips
            if ev.target == pips or not mem.count:
                mem.count = []
            mem.count.append(ev.value)
            mem.played.setdefault(ev.player, []).append(ev.value)
        elif game.NAME == "nancy":
            mem.trick.append((ev.player, ev.value))
    if ev.kind == "dealer":
        extra["new_extra"] = 1 if ev.extra > mem.thrown else 0
        mem.thrown = ev.extra
    return extra


def _seat(k: int, names: Sequence[str] | None, game: Any) -> str:
    if k < 0:
        return "the Hound" if game.NAME == "nancy" else "nobody"
    if names is not None and 0 <= k < len(names) and names[k]:
        return names[k]
    return f"seat {k}"


def _template(game: Any, ev: Event) -> Template:
    table = TEMPLATES.get(game.NAME, {})
    if ev.kind in table:
        return table[ev.kind]
    kinds = game.info["event_kinds"]
    doc = kinds[ev.kind_id]["doc"] if 0 <= ev.kind_id < len(kinds) else ev.kind
    return f"{{player}}: {ev.kind} {{value}} ({doc})"


def _score_points(game: Any, ev: Event) -> int:
    """The points an event gives its player (0 for an event that scores none)."""
    kind, name = ev.kind, game.NAME
    if name in ("nodde", "cribbage"):
        if kind == "play":
            return ev.extra
        if kind in (
            "turned_knave",
            "hand_score",
            "last_card",
            "his_heels",
            "show_hand",
            "show_crib",
            "muggins",
            "penalty",
        ):
            return ev.value or 0
    return 0


def narrate_event(
    game: Any,
    ev: Event,
    memory: NarrationMemory | None = None,
    names: Sequence[str] | None = None,
) -> Line:
    """One event told (see :func:`narrate`; ``memory`` carries what the
    narrator saw before it, for the reasons)."""
    mem = memory if memory is not None else NarrationMemory()
    fields: dict[str, Any] = _before(game, ev, mem)
    card = (
        ev.card
        if ev.card is not None
        else ("a card" if ev.value is None else game._card_name(ev.value))
        if game.info["event_kinds"][ev.kind_id]["value"] == "card"
        else ""
    )
    fields.update(
        player=_seat(ev.player, names, game),
        target=_seat(ev.target, names, game),
        target_seat=ev.target,
        card=card,
        value="?" if ev.value is None else ev.value,
        extra=ev.extra,
        points=_points(ev.value),
        descriptor=_descriptor(ev.value, game._card_name),
    )
    fields["reason"] = _reason(game, ev, mem)
    template = _template(game, ev)
    if isinstance(template, By):
        if template.field in ("extra", "target", "value", "player"):
            raw = getattr(ev, template.field)
        else:
            raw = fields.get(template.field)
        template = template.cases.get(-99 if raw is None else int(raw), template.default)
    line = Line(ev, template.format(**fields), _score_points(game, ev))
    _remember(game, ev, mem, ev)
    return line


def narrate(
    state: State[Any],
    viewer: int | None = REFEREE,
    *,
    since: int | None = None,
    names: Sequence[str] | None = None,
) -> list[Line]:
    """The events of ``state`` told for ``viewer`` (a seat; ``None``, the
    spectator; :data:`~pycards.game.REFEREE`, every card), oldest first.

    ``since`` continues from a cursor (see :meth:`~pycards.game.State.events`);
    the reasons then know only the events from there on.  ``names`` names the
    seats."""
    mem = NarrationMemory()
    return [narrate_event(state.game, ev, mem, names) for ev in state.events(viewer, since=since)]
