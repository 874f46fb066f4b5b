"""Narration: every event of a game told in plain language, for one viewer.

:func:`narrate` turns a state's events into :class:`Line` objects, each with
its text and the points it gives, and a score change always says why::

    >>> from pycards.games.nodde import NoddeGame, NoddeRules
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
    seat 0 pegs 8 for their hand: 3 fifteens 6, a pair 2
    seat 1 pegs 6 for their hand
    >>> state.apply("play 9C"); state.apply("play 5C"); state.apply("play 6H")
    >>> for line in narrate(state, 0, since=state.event_count - 3):
    ...     print(line, "|", line.points)
    seat 0 plays 9C (total 9) | 0
    seat 1 plays 5C (total 14) | 0
    seat 0 plays 6H (total 20) | 0

The templates are data, one table per game (its facade's ``NARRATION``, read
with :func:`templates`), keyed by the engine's event kinds
(``game_info(name).event_kinds``); a kind without a template is told from
the engine's own description of it, so a new game is narrated from its first
build and adds templates, not code.  A template is
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

A template may depend on one field's value: :class:`By` picks a case.  What
a game must compute besides (the reasons of the play and of the show, the
points an event gives) is its :class:`Narrator`, a subclass in the game's
facade (``Game.NARRATOR``), which keeps a :class:`NarrationMemory` of what the
viewer saw.  The reasons are computed from the public cards (the count since
it last started, a hand the viewer has seen whole) with the game's own
scorer, so a viewer's narration never names a card it may not see: two
worlds that differ only in cards seat ``p`` cannot see narrate the same for
``p``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, TypeAlias

from pycards.game import REFEREE, Event, Game, Rules, State
from pycards.view import PlayerView

__all__ = [
    "By",
    "Line",
    "NarrationMemory",
    "Narrator",
    "ScoringItem",
    "Template",
    "TemplateValue",
    "describe_items",
    "descriptor_words",
    "narrate",
    "narrate_event",
    "narrator",
    "second_person",
    "templates",
]


@dataclasses.dataclass(frozen=True)
class By:
    """A template that depends on one field of the event: ``cases`` maps the
    field's value to a template, ``default`` is for any other value.

    :ivar field: ``"extra"``, ``"target"``, ``"value"``, ``"player"`` or a
        field that the game's :meth:`Narrator.before` adds (the Game of Nancy's
        ``new_extra``: 1 when the deal was thrown in).
    """

    field: str
    cases: Mapping[int, str]
    default: str


Template = str | By

#: The value of a template field (what :meth:`Narrator.before` adds, and what a
#: narrator keeps in :attr:`NarrationMemory.notes`).
TemplateValue: TypeAlias = int | str | bool | None


class ScoringItem(Protocol):
    """What the narration reads of a scoring item (a game's ``ScoreItem``:
    :class:`pycards.games._facade.ScoreItem` and its subclasses)."""

    @property
    def kind(self) -> str:
        """The item's kind (a name of the game's ``ITEM_KINDS``)."""
        ...

    @property
    def points(self) -> int:
        """The points it makes."""
        ...


@dataclasses.dataclass(frozen=True)
class Line:
    """One told event.

    :ivar event: the event, as the viewer sees it.
    :ivar text: what happened, in words.
    :ivar points: the points the event gives its player (0 if none).
    :ivar items: the scoring items behind ``points`` (the game's
        ``ScoreItem`` objects) when the viewer can tell them, else ``None``.
    """

    event: Event
    text: str
    points: int = 0
    items: tuple[ScoringItem, ...] | None = None

    def __str__(self) -> str:
        return self.text


class NarrationMemory:
    """What the narrator remembers between events: only what the viewer saw."""

    def __init__(self) -> None:
        self.count: list[int] = []  # the cards of the current count (play)
        self.dealt: dict[int, list[int | None]] = {}  # each seat's cards this deal
        self.played: dict[int, list[int]] = {}  # each seat's cards played this deal
        self.turnup: int | None = None
        self.crib: list[int] = []
        self.trick: list[tuple[int, int | None]] = []  # (seat, card) of the trick
        self.thrown: int = 0  # thrown-in deals so far
        self.scores: dict[int, int] = {}  # the points each seat was told it made
        self.notes: dict[str, TemplateValue] = {}  # what a game's narrator keeps besides

    def new_deal(self) -> None:
        """Forget the cards of the deal that ended."""
        self.count, self.dealt, self.played = [], {}, {}
        self.turnup, self.crib, self.trick = None, [], []


class Narrator:
    """The game-specific part of the narration; a game's facade subclasses it
    and names the subclass in ``Game.NARRATOR``.  Every hook has a default
    that fits a game whose templates say everything."""

    def __init__(self, game: Game[Rules, object]) -> None:
        self.game = game

    def seat_name(self, seat: int) -> str:
        """The name of a seat number below 0 (``"nobody"``)."""
        del seat
        return "nobody"

    def before(self, ev: Event, mem: NarrationMemory) -> dict[str, TemplateValue]:
        """Remember what the event shows before it is told; return extra
        template fields."""
        del ev, mem
        return {}

    def items(self, ev: Event, mem: NarrationMemory) -> tuple[ScoringItem, ...] | None:
        """The scoring items of the event, when the viewer can tell them."""
        del ev, mem
        return None

    def reason(self, ev: Event, mem: NarrationMemory, items: tuple[ScoringItem, ...] | None) -> str:
        """Why the event scored (the template's ``{reason}``; ``""`` if unknown)."""
        del ev, mem, items
        return ""

    def points(self, ev: Event) -> int:
        """The points the event gives its player (0 for an event that scores none)."""
        del ev
        return 0

    def aside(self, ev: Event, mem: NarrationMemory, fields: Mapping[str, TemplateValue]) -> str:
        """What the event shows besides itself, added to its line (``""``:
        nothing): a score told earlier without its reason, once the cards
        behind it are seen (``fields``: the event's template fields).  Called
        after :meth:`reason` and before :meth:`after`."""
        del ev, mem, fields
        return ""

    def after(self, ev: Event, mem: NarrationMemory) -> None:
        """Remember what the event changed, after it is told."""
        del ev, mem

    #: The kinds of event that end a trick or a count (the cards played
    #: since it began then stay on the table, with the event's line, until
    #: the next card is played: :attr:`pycards.summary.Story.play_area`).
    CLOSING: frozenset[str] = frozenset({"trick", "last_card"})

    def closes(self, ev: Event) -> bool:
        """Whether ``ev`` ends the trick or the count in play (by default: its
        kind is one of :attr:`CLOSING`)."""
        return ev.kind in self.CLOSING

    def name(self, seat: int, names: Sequence[str] | None = None) -> str:
        """What the narration calls ``seat`` (its name in ``names``, else
        ``"seat k"``; a seat below 0 by :meth:`seat_name`)."""
        return _seat(seat, names, self)

    def words(self, move: str, view: PlayerView[object], names: Sequence[str] | None = None) -> str:
        """A move's name, or the first words of one (a step of a move chosen
        in steps), as a person reads it at ``view``'s seat (by default the
        name itself; a game whose names hold engine terms words them)."""
        del view, names
        return move

    def prompt(self, view: PlayerView[object], names: Sequence[str] | None = None) -> str:
        """What ``view``'s seat, to act, is asked to decide, in words a person
        reads (:func:`pycards.teach.prompt`).  By default the legal moves by
        their first word: ``"Play (one of 8), or pass"``; a game words each of
        its decisions (``names`` names the seats)."""
        del names
        return _choose(view.legal_action_names())


def _choose(legal: Sequence[str]) -> str:
    """``"Play (one of 8), or pass"``: the legal moves by their first word."""
    kinds: dict[str, int] = {}
    for name in legal:
        verb, _, rest = name.partition(" ")
        kinds[verb] = kinds.get(verb, 0) + (1 if rest else 0)
    parts = [f"{verb} (one of {n})" if n else verb for verb, n in kinds.items()]
    if not parts:
        return ""
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", or " + parts[-1]
    return text[0].upper() + text[1:]


def narrator(game: Game[Rules, object]) -> Narrator:
    """The game's :class:`Narrator` (its ``NARRATOR``, or the generic one)."""
    cls = type(game).NARRATOR or Narrator
    got: Narrator = cls(game)
    return got


def templates(game: Game[Rules, object]) -> Mapping[str, Template]:
    """The game's narration templates by event kind (its ``NARRATION``)."""
    table: Mapping[str, Template] = type(game).NARRATION
    return table


def describe_items(items: Sequence[ScoringItem]) -> str:
    """Scoring items by kind, in order: ``"3 fifteens 6, a pair 2"``."""
    totals: dict[str, list[int]] = {}
    for i in items:
        kind = str(i.kind).replace("_", "-" if i.kind == "thirty_one" else " ")
        totals.setdefault(kind, []).append(i.points)
    parts = []
    for kind, pts in totals.items():
        word = f"{len(pts)} {kind}s" if len(pts) > 1 else ("" if kind[0].isdigit() else "a ") + kind
        parts.append(f"{word} {sum(pts)}")
    return ", ".join(parts)


def _points(n: int | None) -> str:
    if n is None:
        return "? points"
    return f"{n} point" if abs(n) == 1 else f"{n} points"


def descriptor_words(value: int | None, card_name: Callable[[int], str]) -> str:
    """What a No Takers? ask names, in words: ``"sevens"``, ``"hearts"``,
    ``"the 7H"`` (the template field ``descriptor``; ``"?"`` when hidden)."""
    if value is None:
        return "?"
    if 0 <= value < 13:
        return _RANK_WORDS[value]
    if 13 <= value < 17:
        return _SUIT_WORDS[value - 13]
    if 17 <= value < 17 + 52:
        return f"the {card_name(value - 17)}"
    return str(value)


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


_SECOND = {"is": "are", "has": "have", "was": "were", "does": "do"}


def second_person(text: str, you: str = "you") -> str:
    """``text``, told of a seat named ``you`` (a person who is called "you"),
    in the second person: the verb after the name agrees, and the name's
    possessive is "your".  The templates speak of a seat in the third person.

    >>> second_person("you is dealt 7H")
    'you are dealt 7H'
    >>> second_person("You passes; You's bid stands", "You")
    'You pass; Your bid stands'
    >>> second_person("deal 2 (You deals)", "You")
    'deal 2 (You deal)'
    >>> second_person("you play TD and pegs 2; Bob and Cat pass")
    'you play TD and peg 2; Bob and Cat pass'
    >>> second_person("you pegs 4 for their hand")
    'you peg 4 for your hand'
    """
    words = text.split(" ")
    subject = False  # the sentence's subject is "you": so is an "and" verb's
    for i in range(len(words) - 1):
        word = words[i].lstrip("(\"'").lower()
        if word == you.lower():
            subject = True
        elif subject and words[i] == "their":
            words[i] = "your"
        elif not (subject and word == "and" and words[i + 1][:1].islower()):
            if word.endswith((".", ";", ":")):
                subject = False
            continue
        verb = words[i + 1].rstrip(",.;:)")
        tail = words[i + 1][len(verb) :]
        if verb in _SECOND:
            verb = _SECOND[verb]
        elif verb.endswith(("sses", "shes", "ches", "xes")):
            verb = verb[:-2]
        elif len(verb) > 2 and verb.endswith("s") and not verb.endswith("ss"):
            verb = verb[:-1]
        words[i + 1] = verb + tail
    out = " ".join(words)
    return out.replace(f"{you.lower()}'s", "your").replace(f"{you.capitalize()}'s", "Your")


def _seat(k: int, names: Sequence[str] | None, teller: Narrator) -> str:
    if k < 0:
        return teller.seat_name(k)
    if names is not None and 0 <= k < len(names) and names[k]:
        return names[k]
    return f"seat {k}"


def _template(game: Game[Rules, object], ev: Event) -> Template:
    table = templates(game)
    if ev.kind in table:
        return table[ev.kind]
    kinds = game.info.event_kinds
    doc = kinds[ev.kind_id].doc if 0 <= ev.kind_id < len(kinds) else ev.kind
    return f"{{player}}: {ev.kind} {{value}} ({doc})"


def narrate_event(
    game: Game[Rules, object],
    ev: Event,
    memory: NarrationMemory | None = None,
    names: Sequence[str] | None = None,
    teller: Narrator | None = None,
) -> Line:
    """One event told (see :func:`narrate`; ``memory`` carries what the
    narrator saw before it, for the reasons; ``teller`` is the game's
    :class:`Narrator`, made with :func:`narrator` when not given)."""
    mem = memory if memory is not None else NarrationMemory()
    told = teller if teller is not None else narrator(game)
    fields: dict[str, TemplateValue] = told.before(ev, mem)
    card = (
        ev.card
        if ev.card is not None
        else ("a card" if ev.value is None else game._card_name(ev.value))
        if game.info.event_kinds[ev.kind_id].value == "card"
        else ""
    )
    fields.update(
        player=_seat(ev.player, names, told),
        target=_seat(ev.target, names, told),
        target_seat=ev.target,
        card=card,
        value="?" if ev.value is None else ev.value,
        extra=ev.extra,
        points=_points(ev.value),
        descriptor=descriptor_words(ev.value, game._card_name),
    )
    items = told.items(ev, mem)
    fields["reason"] = told.reason(ev, mem, items)
    template = _template(game, ev)
    if isinstance(template, By):
        raw: TemplateValue
        if template.field in ("extra", "target", "value", "player"):
            raw = getattr(ev, template.field)
        else:
            raw = fields.get(template.field)
        template = template.cases.get(-99 if raw is None else int(raw), template.default)
    points = told.points(ev)
    if points and ev.player >= 0:
        mem.scores[ev.player] = mem.scores.get(ev.player, 0) + points
    text = template.format(**fields) + told.aside(ev, mem, fields)
    if str(fields["player"]).lower() == "you":
        text = second_person(text, str(fields["player"]))
    line = Line(ev, text, points, items)
    told.after(ev, mem)
    return line


def narrate(
    state: State[object],
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
    told = narrator(state.game)
    return [
        narrate_event(state.game, ev, mem, names, told) for ev in state.events(viewer, since=since)
    ]
