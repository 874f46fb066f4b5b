"""What the pegging games' stories share: the narrator that keeps the count
and the hands, and the deal and game summaries.

A pegging game deals hands, turns up a card, scores each hand with it (the
show), and pegs during the play of a count up to 31; the first side to reach
the target wins at once.  Its facade subclasses :class:`PeggingNarrator`
(with its own scorers and event kinds) and :class:`PeggingSummarizer`; the
summaries are :class:`DealSummary` and :class:`GameSummary`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import ClassVar

from pycards.cards import Card
from pycards.game import Event, Game, Rules
from pycards.narrate import (
    Line,
    NarrationMemory,
    Narrator,
    ScoringItem,
    TemplateValue,
    describe_items,
    narrator,
)
from pycards.summary import EventSource, Summarizer, Summary
from pycards.view import PlayerView

__all__ = ["DealSummary", "GameSummary", "Peg", "PeggingNarrator", "PeggingSummarizer", "Show"]


def _pts(n: int) -> str:
    return f"{n} point" if abs(n) == 1 else f"{n} points"


class PeggingNarrator(Narrator):
    """The count, the hands, the turn-up and the crib as the viewer saw
    them, and the reasons of the play and the show from the game's scorers."""

    #: the show's event kinds: ``"hand"`` or ``"crib"``
    SHOWS: ClassVar[Mapping[str, str]] = {}
    #: the kinds whose value is points for their player (besides ``play``)
    SCORING: ClassVar[frozenset[str]] = frozenset()
    #: the kinds that turn up the card the hands score with
    TURNUPS: ClassVar[frozenset[str]] = frozenset({"turnup", "starter"})

    def score_count(self, cards: list[int]) -> tuple[ScoringItem, ...]:
        """The items the last card of ``cards`` (the play so far) makes."""
        raise NotImplementedError

    def score_show(self, cards: list[int], turnup: int, crib: bool) -> tuple[ScoringItem, ...]:
        """The items of a hand (or the crib) shown with the turn-up."""
        raise NotImplementedError

    def before(self, ev: Event, mem: NarrationMemory) -> dict[str, TemplateValue]:
        if ev.kind == "play" and ev.value is not None:
            if ev.target == Card(ev.value).pips or not mem.count:
                mem.count = []
            mem.count.append(ev.value)
            mem.played.setdefault(ev.player, []).append(ev.value)
        return {}

    def items(self, ev: Event, mem: NarrationMemory) -> tuple[ScoringItem, ...] | None:
        try:
            if ev.kind == "play":
                return self.score_count(mem.count) if mem.count and ev.extra else None
            if ev.kind in self.SHOWS:
                return self.show_items(ev.player, self.SHOWS[ev.kind] == "crib", mem)
        except (ValueError, TypeError):
            return None
        return None

    def show_items(
        self, seat: int, crib: bool, mem: NarrationMemory
    ) -> tuple[ScoringItem, ...] | None:
        """The items of ``seat``'s hand (or the crib) if the viewer saw it whole."""
        cards = mem.crib if crib else mem.dealt.get(seat, [])
        known = [c for c in cards if c is not None]
        if not crib and len(known) != len(cards):
            # a hand the viewer has not seen whole is known once it is played
            played = mem.played.get(seat, [])
            known = played if len(played) == len(cards) else []
        if mem.turnup is None or not known or (crib and len(known) != len(cards)):
            return None
        try:
            return self.score_show(known, mem.turnup, crib)
        except (ValueError, TypeError):
            return None

    def reason(self, ev: Event, mem: NarrationMemory, items: tuple[ScoringItem, ...] | None) -> str:
        del mem
        if ev.kind == "play":
            return (describe_items(items) if items else "") or "the play"
        if ev.kind in self.SHOWS and items is not None:
            return ": " + (describe_items(items) or "nineteen (nothing)")
        return ""

    def aside(self, ev: Event, mem: NarrationMemory, fields: Mapping[str, TemplateValue]) -> str:
        """A hand scored before the viewer saw it is told with its reason once
        its last card is played (a played card is public)."""
        if ev.kind in self.SHOWS and self.SHOWS[ev.kind] == "hand":
            if self.show_items(ev.player, False, mem) is None and ev.value:
                mem.notes[f"unexplained {ev.player}"] = ev.value
            return ""
        key = f"unexplained {ev.player}"
        if ev.kind != "play" or key not in mem.notes:
            return ""
        items = self.show_items(ev.player, False, mem)
        if items is None or mem.turnup is None:
            return ""
        points = mem.notes.pop(key)
        cards = " ".join(self.game._card_name(c) for c in mem.played.get(ev.player, []))
        turnup = self.game._card_name(mem.turnup)
        why = describe_items(items) or "nothing"
        return f"; {fields['player']}'s hand was {cards} + {turnup}: {points} for {why}"

    def prompt(self, view: PlayerView[object], names: Sequence[str] | None = None) -> str:
        """The card to play, with the count so far."""
        del names
        total = getattr(view.observation, "total", None)
        if not isinstance(total, int):  # pragma: no cover - the pegging games' views
            return super().prompt(view)
        if total == 0:
            return "Lead a card: the count starts at 0 and may not go past 31"
        return f"Play a card: the count is {total} and may not go past 31"

    def points(self, ev: Event) -> int:
        if ev.kind == "play":
            return ev.extra
        if ev.kind in self.SCORING:
            return ev.value or 0
        return 0

    def closes(self, ev: Event) -> bool:
        """A count ends with its last card, or at 31."""
        return ev.kind == "last_card" or (ev.kind == "play" and ev.target == 31)

    def after(self, ev: Event, mem: NarrationMemory) -> None:
        kind = ev.kind
        if kind == "new_deal":
            mem.new_deal()
            for key in [k for k in mem.notes if k.startswith("unexplained ")]:
                del mem.notes[key]
        elif kind == "deal_card":
            mem.dealt.setdefault(ev.player, []).append(ev.value)
        elif kind in self.TURNUPS:
            mem.turnup = ev.value
        elif kind == "discard":
            # the hand shown is the one kept: a laid-away card leaves it
            hand = mem.dealt.get(ev.player, [])
            if ev.value is not None and ev.value in hand:
                hand.remove(ev.value)
            elif None in hand:
                hand.remove(None)
        elif kind == "crib_card" and ev.value is not None:
            mem.crib.append(ev.value)


@dataclasses.dataclass(frozen=True)
class Show:
    """One hand (or the crib) shown.

    :ivar player: whose hand (the dealer's, for the crib).
    :ivar what: ``"hand"`` or ``"crib"``.
    :ivar cards: its cards, when the viewer saw them all, else ``None``.
    :ivar turnup: the card it scores with (``None`` if unseen).
    :ivar items: the scoring items (the game's ``ScoreItem``), when known.
    :ivar points: the points pegged for it.
    """

    player: int
    what: str
    cards: tuple[str, ...] | None
    turnup: str | None
    items: tuple[ScoringItem, ...] | None
    points: int

    def __str__(self) -> str:
        owner = f"seat {self.player}'s {self.what}"
        if self.cards is not None:
            owner += " " + " ".join(self.cards) + (f" + {self.turnup}" if self.turnup else "")
        if self.items is None:
            return f"{owner}: {self.points}"
        return f"{owner}: {self.points} ({describe_items(self.items) or 'nothing'})"


@dataclasses.dataclass(frozen=True)
class Peg:
    """Points pegged outside the show.

    :ivar player: who pegged them.
    :ivar points: how many.
    :ivar why: what for (``"a pair 2"``, ``"the last card"``...).
    """

    player: int
    points: int
    why: str

    def __str__(self) -> str:
        return f"seat {self.player} pegs {self.points} ({self.why})"


@dataclasses.dataclass(frozen=True)
class DealSummary(Summary):
    """One deal of a pegging game.

    :ivar dealer: the dealer's seat.
    :ivar turnup: the turned-up card (``None`` if the deal ended before it).
    :ivar shows: each hand and crib shown, in the order scored.
    :ivar pegging: the points pegged otherwise (play, go, last card, a Jack
        turned up), in order.
    :ivar points: each seat's points in this deal.
    :ivar totals: each seat's points in the game after this deal.
    """

    dealer: int
    turnup: str | None
    shows: tuple[Show, ...]
    pegging: tuple[Peg, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]

    def lines(self) -> list[str]:
        up = f", turn-up {self.turnup}" if self.turnup else ""
        out = [f"deal {self.round} (seat {self.dealer} deals{up})"]
        out += [f"  {s}" for s in self.shows]
        pegs = "; ".join(str(p) for p in self.pegging) or "nothing"
        out.append(f"  pegging: {pegs}")
        this = ", ".join(f"seat {k} {p}" for k, p in enumerate(self.points))
        out.append(f"  this deal: {this}")
        if self.totals != self.points:
            totals = ", ".join(f"seat {k} {p}" for k, p in enumerate(self.totals))
            out.append(f"  the game: {totals}")
        return out


@dataclasses.dataclass(frozen=True)
class GameSummary(Summary):
    """How a pegging game was won.

    :ivar winner: the seat that made the winning points.
    :ivar side: the winning side.
    :ivar points: the side's points.
    :ivar how: how the target was reached (``"during the play"``, ``"in the
        show"``, ``"for a Jack turned up"``...).
    :ivar skunks: ``(seat, 1 skunked or 2 double skunked)`` of the losers.
    :ivar totals: each seat's points pegged in the game.
    """

    winner: int
    side: int
    points: int
    how: str
    skunks: tuple[tuple[int, int], ...]
    totals: tuple[int, ...]

    def lines(self) -> list[str]:
        out = [f"the game: seat {self.winner} wins with {self.points}, {self.how}"]
        for seat, level in self.skunks:
            out.append(f"  seat {seat} is {'double ' if level == 2 else ''}skunked")
        totals = ", ".join(f"seat {k} {p}" for k, p in enumerate(self.totals))
        out.append(f"  points pegged: {totals}")
        return out


@dataclasses.dataclass
class _Deal:
    """What a summarizer gathers of the deal in progress."""

    number: int
    dealer: int
    points: list[int]
    turnup: str | None = None
    #: (seat, "hand" or "crib", points, items) of each show
    shows: list[tuple[int, str, int, tuple[ScoringItem, ...] | None]] = dataclasses.field(
        default_factory=list
    )
    pegs: list[Peg] = dataclasses.field(default_factory=list)


class PeggingSummarizer(Summarizer):
    """A pegging game's deal summaries (each made when the next deal starts or
    the game ends) and its game summary."""

    OPENING: frozenset[str] = frozenset({"new_deal"})

    #: how the game was won, by the kind of the winning score
    HOW: ClassVar[Mapping[str, str]] = {}
    #: what a score outside the show and the play is for, by kind
    LABELS: ClassVar[Mapping[str, str]] = {}

    def __init__(self, game: Game[Rules, object], viewer: int | None) -> None:
        super().__init__(game, viewer)
        teller = narrator(game)
        assert isinstance(teller, PeggingNarrator)
        self.teller = teller
        self.n = game.num_players
        self.totals = [0] * self.n
        self.deal: _Deal | None = None
        self.mem = NarrationMemory()
        self.last_kind = ""
        self.won: Event | None = None
        self.skunks: list[tuple[int, int]] = []

    def _close(self) -> list[Summary]:
        d = self.deal
        if d is None:
            return []
        self.deal = None
        shows = []
        for seat, what, pts, items in d.shows:
            crib = what == "crib"
            if items is None:
                items = self.teller.show_items(seat, crib, self.mem)
            cards: Sequence[int | None] = self.mem.crib if crib else self.mem.dealt.get(seat, [])
            if None in cards or not cards:
                played = self.mem.played.get(seat, [])
                cards = played if not crib and len(played) == len(cards) and cards else []
            names = tuple(self.game._card_name(c) for c in cards if c is not None)
            shows.append(Show(seat, what, names or None, d.turnup, items, pts))
        return [
            DealSummary(
                d.number,
                d.dealer,
                d.turnup,
                tuple(shows),
                tuple(d.pegs),
                tuple(d.points),
                tuple(self.totals),
            )
        ]

    def feed(self, line: Line) -> list[Summary]:
        ev = line.event
        made: list[Summary] = []
        if ev.kind == "new_deal":
            made = self._close()
            self.mem = NarrationMemory()
            self.deal = _Deal(number=ev.value or 0, dealer=ev.player, points=[0] * self.n)
        self.teller.before(ev, self.mem)
        d = self.deal
        if d is not None:
            if ev.kind in self.teller.TURNUPS:
                d.turnup = ev.card
            if ev.kind in self.teller.SHOWS:
                d.shows.append((ev.player, self.teller.SHOWS[ev.kind], line.points, line.items))
            if line.points and 0 <= ev.player < self.n:
                self.totals[ev.player] += line.points
                d.points[ev.player] += line.points
                self.last_kind = ev.kind
                if ev.kind not in self.teller.SHOWS:
                    why = describe_items(line.items) if line.items else ""
                    why = why or self.LABELS.get(ev.kind, ev.kind.replace("_", " "))
                    if ev.kind == "last_card" and ev.extra == 0 and "go" in self.LABELS:
                        why = self.LABELS["go"]
                    d.pegs.append(Peg(ev.player, line.points, why))
        if ev.kind != "new_deal":
            self.teller.after(ev, self.mem)
        if ev.kind == "skunk":
            self.skunks.append((ev.player, ev.value or 0))
        if ev.kind == "game_over":
            self.won = ev
            made.extend(self._close())
        return made

    def finish(self, state: EventSource) -> list[Summary]:
        del state
        made = self._close()
        ev = self.won
        if ev is None:
            return made
        how = "the target reached " + self.HOW.get(self.last_kind, "")
        points = ev.value or 0
        made.append(
            GameSummary(
                0,
                ev.player,
                ev.target,
                points,
                how,
                tuple(self.skunks),
                tuple(self.totals),
            )
        )
        return made
