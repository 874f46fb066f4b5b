"""Round and game summaries: what each round came to, and how the game was won.

A summary is a typed, frozen object with a text form (``str()``); each game's
summaries are its own types (a subclass of :class:`Summary` in the game's
facade), made by the game's :class:`Summarizer` (``Game.SUMMARIZER``), which
follows one viewer's narrated events (:mod:`pycards.narrate`) and so knows
only what that viewer may know.  :func:`summaries` gives the summaries of
the rounds played so far, and the game's own when the game is over::

    >>> from pycards.games.nodde import NoddeGame, NoddeRules
    >>> from pycards.summary import summaries
    >>> game = NoddeGame(NoddeRules(first_dealer=1), num_players=2)
    >>> deck = game.stacked_deck(["6H 6S 9C", "TH 5S 5C"], "3D")
    >>> state = game.new_initial_state(0, deck=deck)
    >>> for a in ["play 9C", "play 5C", "play 6H", "play 5S", "play 6S"]:
    ...     state.apply(a)
    >>> print(summaries(state, 0)[0])
    deal 1 (seat 1 deals, turn-up 3D)
      seat 0's hand 6H 6S 9C + 3D: 8 (3 fifteens 6, a pair 2)
      seat 1's hand: 6
      pegging: seat 0 pegs 2 (a thirty-one 2)
      this deal: seat 0 10, seat 1 6

Seat 0 never saw seat 1's last card (the count reached 31 before it), so
his summary gives that hand's points only; the referee's names the cards:

    >>> print(summaries(state)[0].shows[1])
    seat 1's hand TH 5S 5C + 3D: 6 (2 fifteens 4, a pair 2)

:class:`Story` tells a game as it goes (the terminal table uses it): feed it
the state after every action and it returns the new lines and summaries.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Protocol

from pycards._args import JSONObject
from pycards.errors import EventsRewrittenError
from pycards.game import REFEREE, Event, EventCursor, Game, Rules, State
from pycards.narrate import Line, NarrationMemory, narrate_event, narrator, second_person

__all__ = [
    "DEALT",
    "EventSource",
    "Story",
    "Summarizer",
    "Summary",
    "fold_deals",
    "named",
    "story",
    "summaries",
]


class EventSource(Protocol):
    """What a :class:`Story` (and a :class:`Summarizer`'s ``finish``) reads of
    a state: a :class:`~pycards.game.State`, or anything that answers the same
    way from less (the browser table tells a seat's story from its view)."""

    @property
    def cursor(self) -> int | EventCursor:
        """The place after the last event."""
        ...

    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
        ...

    def events(
        self, player: int | None = None, /, *, since: int | EventCursor | None = None
    ) -> list[Event]:
        """The events from ``since`` on, as ``player`` sees them."""
        ...

    def observation(self, player: int, /) -> object:
        """What seat ``player`` may know."""
        ...


@dataclasses.dataclass(frozen=True)
class Summary:
    """A round's summary, or the game's (a game's summaries subclass it).

    :ivar round: the round's number from 1, or 0 for the game's summary.
    """

    round: int

    @property
    def is_game(self) -> bool:
        """True for the summary of the whole game."""
        return self.round == 0

    def lines(self) -> list[str]:
        """The text form, line by line (the first line is the title)."""
        return [f"round {self.round}" if self.round else "the game"]

    def __str__(self) -> str:
        return "\n".join(self.lines())


class Summarizer:
    """Makes one game's summaries from one viewer's told events; a game's
    facade subclasses it and names the subclass in ``Game.SUMMARIZER``.

    :ivar game: the game.
    :ivar viewer: the seat, ``None`` (a spectator) or
        :data:`~pycards.game.REFEREE`.
    """

    #: The kinds of event that open a round: the summaries made when one is
    #: fed are of the rounds before it, and are told before its line
    #: (:attr:`Story.told`).
    OPENING: frozenset[str] = frozenset()
    #: Whether every seat lays its cards down when the game ends (the scoring
    #: is a show): then :meth:`finish` may tell every seat's cards, to every
    #: viewer, since the game is over and they are on the table.
    SHOWN_AT_END: bool = False

    def __init__(self, game: Game[Rules, object], viewer: int | None) -> None:
        self.game = game
        self.viewer = viewer

    def feed(self, line: Line) -> list[Summary]:
        """The summaries that the told event ``line`` completes (most often none)."""
        del line
        return []

    def finish(self, state: EventSource) -> list[Summary]:
        """The summaries left when the game is over (``state`` is terminal; read
        only what the viewer may see of it: ``state.observation(viewer)``)."""
        del state
        return []


class Story:
    """The story of one game for one viewer, told as it goes.

    :ivar lines: every line told so far.
    :ivar summaries: every summary made so far.
    """

    def __init__(
        self,
        game: Game[Rules, object],
        viewer: int | None = REFEREE,
        names: Sequence[str] | None = None,
    ) -> None:
        self.game = game
        self.viewer = viewer
        self.names = None if names is None else list(names)
        self.memory = NarrationMemory()
        self.teller = narrator(game)
        cls = type(game).SUMMARIZER
        self.summarizer: Summarizer | None = None if cls is None else cls(game, viewer)
        #: where the next update reads from (an index, or the state's cursor
        #: after the first update: it knows when an undo rewrote the log)
        self.cursor: int | EventCursor = 0
        self.finished = False
        self.lines: list[Line] = []
        self.summaries: list[Summary] = []
        #: What the last update told, lines and summaries in the order they
        #: happened (a deal's summary before the next deal's first line).
        self.told: list[Line | Summary] = []
        self._clear_play()

    def _clear_play(self) -> None:
        self._play: list[tuple[int, str]] = []
        self._closed: str | None = None
        self._last: tuple[list[tuple[int, str]], str] | None = None

    @property
    def play_area(self) -> JSONObject:
        """What lies in the middle of the table, in the order it was played:
        ``cards`` (``(seat, card)`` pairs) of the trick or count in play, or of
        the one that just ended, which stays until the next card is played;
        ``closed``: the line of the event that ended it (``None`` while it is
        in play); ``last``: the last finished trick or count, ``{"cards",
        "line"}`` (to look at again), or ``None``."""
        last: JSONObject | None = None
        if self._last is not None:
            last = {"cards": [list(c) for c in self._last[0]], "line": self._last[1]}
        return {"cards": [list(c) for c in self._play], "closed": self._closed, "last": last}

    def _follow_play(self, line: Line) -> None:
        ev = line.event
        if ev.kind == "play" and ev.card is not None:
            if self._closed is not None:
                self._play, self._closed = [], None
            self._play.append((ev.player, ev.card))
        if self._play and self._closed is None and self.teller.closes(ev):
            self._closed = line.text
            self._last = (list(self._play), line.text)

    def update(self, state: EventSource) -> tuple[list[Line], list[Summary]]:
        """The lines and summaries of the events ``state`` logged since the
        last update (the state must be this game's, one or more actions on;
        :class:`~pycards.errors.EventsDroppedError` if its log no longer keeps
        them).

        After an undo the story is told again from the start of the rewritten
        log: the lines and summaries of the events the undo took back leave
        :attr:`lines` and :attr:`summaries`, and those of the events that
        replaced them are returned.
        """
        try:
            events = state.events(self.viewer, since=self.cursor)
        except EventsRewrittenError as exc:
            return self._retell(state, exc.rewound_to)
        return self._tell(state, events)

    def _retell(self, state: EventSource, rewound_to: int) -> tuple[list[Line], list[Summary]]:
        """Tell ``state`` again from its first event, silently up to
        ``rewound_to``; keep the lines and summaries told before that
        (:class:`~pycards.errors.EventsDroppedError` if the log no longer
        keeps its first events)."""
        self.memory = NarrationMemory()
        cls = type(self.game).SUMMARIZER
        self.summarizer = None if cls is None else cls(self.game, self.viewer)
        self.finished = False
        self.lines, self.summaries = [], []
        self._clear_play()
        events = state.events(self.viewer, since=0)
        self._tell(state, [ev for ev in events if ev.index < rewound_to], finish=False)
        return self._tell(state, [ev for ev in events if ev.index >= rewound_to])

    def _tell(
        self, state: EventSource, events: list[Event], *, finish: bool = True
    ) -> tuple[list[Line], list[Summary]]:
        lines: list[Line] = []
        made: list[Summary] = []
        told: list[Line | Summary] = []
        for ev in events:
            line = narrate_event(self.game, ev, self.memory, self.names, self.teller)
            lines.append(line)
            self._follow_play(line)
            fed = [] if self.summarizer is None else self.summarizer.feed(line)
            made.extend(fed)
            if self.summarizer is not None and ev.kind in self.summarizer.OPENING:
                told.extend([*fed, line])
            else:
                told.extend([line, *fed])
        self.cursor = state.cursor
        if finish and state.is_terminal and not self.finished:
            self.finished = True
            if self.summarizer is not None:
                done = self.summarizer.finish(state)
                made.extend(done)
                told.extend(done)
        self.told = told
        self.lines.extend(lines)
        self.summaries.extend(made)
        return lines, made


_SEAT = re.compile(r"\bseat (\d+)\b")


def named(text: str, names: Sequence[str] | None) -> str:
    """``text`` (a summary's) with each ``seat k`` called by the seat's name.

    >>> named("seat 0's hand: 8; seat 1 pegs 2", ["Ann", "Bob"])
    "Ann's hand: 8; Bob pegs 2"
    >>> named("seat 1 wins with 31", ["Ann", "You"])
    'You win with 31'
    """
    if not names:
        return text

    def name(m: re.Match[str]) -> str:
        k = int(m.group(1))
        return names[k] if k < len(names) and names[k] else m.group(0)

    text = _SEAT.sub(name, text)
    for you in {n for n in names if n.lower() == "you"}:  # "You win", not "You wins"
        text = second_person(text, you)
    return text


#: The kinds of event that deal a card to a seat (folded by :func:`fold_deals`).
DEALT = frozenset({"deal", "deal_card"})


def fold_deals(
    lines: Sequence[Line],
    names: Sequence[str] | None = None,
    seat_name: Callable[[int], str] | None = None,
) -> list[tuple[Line, str]]:
    """``lines`` with each run of dealing lines (:data:`DEALT`) folded into
    one: ``(the run's last line, "dealt: Ann 4H 8D, Bea 2 cards")``; every
    other line is ``(line, line.text)``.  A deal of 80 cards is one line, so
    a log of the last lines keeps the scores of the deal before it.
    ``seat_name`` names a seat below 0 (the game's narrator's: the Hound)."""
    out: list[tuple[Line, str]] = []
    run: list[Line] = []

    def flush() -> None:
        if not run:
            return
        seats: dict[int, list[str | None]] = {}
        for line in run:
            seats.setdefault(line.event.player, []).append(line.event.card)
        parts = []
        for k, cards in seats.items():
            if k < 0:
                who = seat_name(k) if seat_name is not None else "nobody"
            else:
                who = names[k] if names is not None and k < len(names) else f"seat {k}"
            known = [c for c in cards if c is not None]
            hidden = len(cards) - len(known)
            what = " ".join(known)
            if hidden:
                what = f"{what} + {hidden} face down" if what else f"{hidden} cards"
            parts.append(f"{who} {what}")
        out.append((run[-1], "dealt: " + ", ".join(parts)))
        run.clear()

    for line in lines:
        if line.event.kind in DEALT:
            run.append(line)
            continue
        flush()
        out.append((line, line.text))
    flush()
    return out


def story(
    state: State[object], viewer: int | None = REFEREE, names: Sequence[str] | None = None
) -> Story:
    """The whole story of ``state`` for ``viewer``, from its first event (the
    history is replayed when the log has dropped old events)."""
    told = Story(state.game, viewer, names)
    if state.events_dropped() == 0:
        told.update(state)
        return told
    if state.is_sample:
        raise ValueError("story: a sampled state has no history to replay")
    replay = state.game.new_initial_state(state.seed or 0, state.deck)
    told.update(replay)
    for action in state.history:
        replay.apply(action)
        told.update(replay)
    return told


def summaries(state: State[object], viewer: int | None = REFEREE) -> list[Summary]:
    """The summaries of the rounds of ``state`` so far (the round in progress
    has none yet), then the game's when it is over, as ``viewer`` may know
    them (a seat, ``None`` for a spectator, :data:`~pycards.game.REFEREE`)."""
    return story(state, viewer).summaries
