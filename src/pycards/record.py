"""Game records: a readable, line-oriented text format, in the spirit of chess's PGN.

A record has header tags, one per line (``[Name "value"]``), a blank line,
then the game as it happened: one line per action, ``seat K: <action name>``,
and, between them, the deals that the record's owner may know, as lines
starting with ``=``::

    [Game "nodde"]
    [Players "2"]
    [Seat0 "Ann"]
    [Seat1 "heuristic"]
    [Rules "game_target=61"]
    [Seed "7"]
    [Date "2026.11.30"]
    [View "referee"]
    [Result "61 40"]

    = new_deal seat 1: 1
    = deal_card seat 0: 9H 8H KS
    = deal_card seat 1: 6C 2D QS
    = turnup seat 1: 5D
    seat 0: play 9H
    seat 1: play 6C
    ...

The tags:

``Event`` (optional)
    A free title.
``Game``, ``Players``
    The engine's name of the game and the number of seats (required).
``Seat0`` ... (optional)
    Each seat's player, e.g. a person's name or a bot's spec.
``Rules``
    The rules as their differences from the defaults, ``name=value`` separated
    by commas (``true``/``false``, ``none``, numbers, choice names), or
    ``default``.
``Preset`` (optional)
    The name of the preset the rules equal (checked when read).
``Seed``, ``Deck``
    The seed of the deal and, for a stacked first deal, every card of the deck
    top first.  Only a referee's record has them.
``Date`` (optional)
    ``YYYY.MM.DD``, as in PGN.
``View``
    ``referee`` (the record shows every card) or ``seat K`` (it shows only what
    seat K may know: the other seats' hidden cards are ``?``, and a hidden
    action is written with ``?`` for its card).
``Result``
    The points of each seat, separated by spaces, or ``*`` for a game in
    progress.

Only a referee's record can be replayed (:func:`read_record`,
:func:`replay`): a seat's record has no seed, since the seed would reveal the
cards the seat may not see.  :func:`parse_record` reads any record without
replaying it.  Reading checks everything: an unknown tag, a missing one, a
bad value, an illegal action, a deal that the seed or deck does not deal or a
result that the replay does not reach raises
:class:`~pycards.errors.RecordError` naming the line and what fails (quoting
at most 40 characters of it); nothing is half-loaded.  Lines starting with
``;`` are comments.  Deal lines are optional when reading (they are checked
when present) and always written.  JSON
(:meth:`~pycards.game.State.to_json`) stays the machine format.

The text is plain: lines end in ``\\n`` (or ``\\r\\n``), a line is at most
:data:`MAX_LINE` characters, and everything but the ``Event`` and ``SeatK``
values is ASCII (numbers in ASCII digits, spaces and tabs as the only blanks),
so a look-alike digit or space is refused rather than read.  A leading UTF-8
byte order mark (which some editors write) is skipped.  The writer refuses a
name or an event that could not be read back: a control character, a line or
paragraph separator, a blank other than the space, or more than
:data:`MAX_NAME` characters.

The functions that turn a state's event log into record lines
(``all_events``, ``new_events``, ``deal_lines``, ``shown_action``,
``deal_kinds``) are shared with :mod:`pycards.ui.terminal`, which shows a game as
it is played the way its record will read; they are not in ``__all__``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence

from pycards._args import as_int
from pycards._args import echo as _echo
from pycards.engine import SEEN_ALL, find_game, game_info, registered_games
from pycards.errors import IllegalActionError, InvalidCardError, RecordError, RulesError
from pycards.game import Game, Rules, RulesValue, State

__all__ = [
    "MAX_LINE",
    "MAX_NAME",
    "Record",
    "parse_record",
    "read_record",
    "replay",
    "write_record",
]

#: The longest line a record may have, in characters (a longer one is refused:
#: reading stays linear in the text whatever it holds).
MAX_LINE = 4096
#: The longest player name or event title the writer takes.
MAX_NAME = 256

_M64 = (1 << 64) - 1
# ASCII only: \d is 0-9 and \s a blank; every pattern is linear in its line
# (no two adjacent parts can match the same text)
_TAG = re.compile(
    r'\[(?P<name>[A-Za-z][A-Za-z0-9_]*)[ \t]+"(?P<value>(?:[^"\\]|\\.)*)"\]', re.ASCII
)
_ACTION = re.compile(r"seat[ \t]+(?P<seat>[0-9]+)[ \t]*:[ \t]*(?P<name>[^ \t].*)", re.ASCII)
_INT = re.compile(r"-?[0-9]+", re.ASCII)
_BLANKS = " \t"
_BASE_TAGS = ("Event", "Game", "Players", "Rules", "Preset", "Seed", "Deck", "Date", "View")
# the tags whose values are free text (any printable characters, not only ASCII)
_FREE_TAGS = ("Event",)
_DATE = re.compile(r"^([0-9]{4}|\?{4})\.([0-9]{2}|\?\?)\.([0-9]{2}|\?\?)$", re.ASCII)


@dataclasses.dataclass(frozen=True)
class Record:
    """A parsed game record (see the module docs for the format).

    :ivar game: the engine's name of the game.
    :ivar players: the number of seats.
    :ivar rules: the rules object.
    :ivar names: each seat's player name (``""`` when not given).
    :ivar seed: the seed of the deal (``None`` in a seat's record).
    :ivar deck: the stacked first deal as card ids, or ``None``.
    :ivar view: ``None`` for a referee's record, else the owner's seat.
    :ivar date: the ``Date`` tag, or ``None``.
    :ivar event: the ``Event`` tag, or ``None``.
    :ivar preset: the ``Preset`` tag, or ``None``.
    :ivar result: each seat's points, or ``None`` for a game in progress.
    :ivar lines: the game's lines in order: ``(seat, action name)`` for an
        action, ``(None, deal text)`` for a deal line (without its leading ``=``).
    """

    game: str
    players: int
    rules: Rules
    names: tuple[str, ...]
    seed: int | None
    deck: tuple[int, ...] | None
    view: int | None
    date: str | None = None
    event: str | None = None
    preset: str | None = None
    result: tuple[int, ...] | None = None
    lines: tuple[tuple[int | None, str], ...] = ()

    @property
    def actions(self) -> list[tuple[int, str]]:
        """The actions, as ``(seat, name)`` pairs."""
        return [(s, t) for s, t in self.lines if s is not None]

    @property
    def replayable(self) -> bool:
        """True for a referee's record (it has the seed)."""
        return self.view is None and self.seed is not None

    def text(self) -> str:
        """The record as text (what :func:`parse_record` reads back)."""
        out: list[str] = []

        def tag(name: str, value: object) -> None:
            v = str(value).replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'[{name} "{v}"]')

        for i, nm in enumerate(self.names):
            _check_free_text(nm, f"names[{i}]")
        if self.event is not None:
            _check_free_text(self.event, "event")
            tag("Event", self.event)
        tag("Game", self.game)
        tag("Players", self.players)
        for i, n in enumerate(self.names):
            if n:
                tag(f"Seat{i}", n)
        tag("Rules", _rules_text(self.rules))
        if self.preset is not None:
            tag("Preset", self.preset)
        if self.seed is not None:
            tag("Seed", self.seed)
        if self.deck is not None:
            card = find_game(self.game).CARD_TYPE
            tag("Deck", " ".join(str(card(c)) for c in self.deck))
        if self.date is not None:
            tag("Date", self.date)
        tag("View", "referee" if self.view is None else f"seat {self.view}")
        tag("Result", "*" if self.result is None else " ".join(str(r) for r in self.result))
        out.append("")
        for seat, text in self.lines:
            out.append(f"= {text}" if seat is None else f"seat {seat}: {text}")
        return "\n".join(out) + "\n"

    def to_state(self) -> State[object]:
        """Replay a referee's record into a state (see :func:`read_record`)."""
        return _replay_checked(self)


# ---------------------------------------------------------------------------
# writing


def _check_free_text(value: object, what: str) -> None:
    """A name or an event title that reads back as written: a str of at most
    MAX_NAME printable characters (no control character, no line or paragraph
    separator, no blank but the space)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    if len(value) > MAX_NAME:
        raise ValueError(f"{what}: at most {MAX_NAME} characters, got {len(value)}")
    if not value.isprintable():
        bad = next(ch for ch in value if not ch.isprintable())
        raise ValueError(
            f"{what}: {bad!a} cannot be written in a record (printable characters only), "
            f"got {_echo(value)}"
        )


def _rules_text(rules: Rules) -> str:
    diffs = rules.differences()
    if not diffs:
        return "default"
    return ", ".join(f"{k}={_value_text(v)}" for k, v in diffs.items())


def _value_text(v: object) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def deal_kinds(game: Game[Rules, object]) -> frozenset[str]:
    """The event kinds of ``game`` that a record shows as deal lines (its
    class's :attr:`~pycards.game.Game.DEAL_KINDS`)."""
    return type(game).DEAL_KINDS


def _visible(seen_by: int, viewer: int | None) -> bool:
    return viewer is None or seen_by == SEEN_ALL or bool(seen_by & (1 << viewer))


def all_events(state: State[object]) -> tuple[int, list[tuple[int, int, int, int, int, int]]]:
    """(number of events ever logged, the events the log keeps)."""
    raw: list[tuple[int, int, int, int, int, int]] = state._s.events()
    return state.events_dropped() + len(raw), raw


def new_events(
    state: State[object], before: int
) -> tuple[int, list[tuple[int, int, int, int, int, int]]]:
    """(number of events ever logged, the events logged since ``before`` of
    them were): what :func:`all_events` gained since."""
    total, raw = all_events(state)
    fresh = total - before
    return total, (raw[len(raw) - fresh :] if fresh > 0 else [])


def deal_lines(
    game: Game[Rules, object],
    events: Sequence[tuple[int, int, int, int, int, int]],
    viewer: int | None,
) -> list[str]:
    """The deal lines of a batch of events: grouped by (kind, seat, place), in
    order of first appearance, cards the viewer may not see as ``?``."""
    kinds = game_info(game.NAME).event_kinds
    chance = deal_kinds(game)
    places_of = type(game).DEAL_PLACES
    groups: dict[tuple[int, int, int], list[str]] = {}
    for kind, who, target, value, _extra, seen_by in events:
        if not 0 <= kind < len(kinds) or kinds[kind].name not in chance:
            continue
        places = places_of.get(kinds[kind].name)
        place = target if places is not None and 0 <= target < len(places) else -1
        if not _visible(seen_by, viewer):
            shown = "?"
        elif kinds[kind].value == "card" and value >= 0:
            shown = game._card_name(value)
        else:
            shown = str(value) if kinds[kind].value == "number" else ""
        groups.setdefault((kind, who, place), []).append(shown)
    lines = []
    for (kind, who, place), cards in groups.items():
        where = f" seat {who}" if who >= 0 else ""
        if place >= 0:
            where += f" ({places_of[kinds[kind].name][place]})"
        body = " ".join(s for s in cards if s)
        lines.append(f"{kinds[kind].name}{where}: {body}".rstrip())
    return lines


def _action_card(game: Game[Rules, object], action: int) -> tuple[str, int] | None:
    """(the name template with its card as ``?``, the card id) of a card action."""
    for r in game_info(game.NAME).action_ranges:
        seats = range(1, game.num_players) if r.stride else [0]
        for k in seats:
            first = r.first + (k - 1) * r.stride if r.stride else r.first
            off = action - first
            if 0 <= off < r.count:
                if r.arg != "card":
                    return None
                template = r.name.replace("{seat}", str(k)).replace("{card}", "?")
                return template, off
    return None


def shown_action(
    game: Game[Rules, object],
    action: int,
    seat: int,
    events: Sequence[tuple[int, int, int, int, int, int]],
    viewer: int | None,
) -> str:
    """How a record shows ``seat``'s ``action`` to ``viewer`` (``None``: the
    referee): its name, or its template with ``?`` for a card the viewer did
    not see (``events`` are the events the action logged)."""
    name = game.action_name(action)
    if viewer is None or viewer == seat:
        return name
    hidden = _action_card(game, action)
    if hidden is None:
        return name
    template, _card = hidden
    # the action's own event (the first the actor logs) says who saw it; an
    # action that logs no event of its own (a No Takers save selection, told
    # only at ``end save``) shows its card to nobody
    for _kind, who, _t, _value, _x, seen_by in events:
        if who == seat:
            return name if _visible(seen_by, viewer) else template
    return template


def _matching_preset(rules: Rules) -> str | None:
    for name, preset in type(rules).presets().items():
        if preset == rules:
            return name
    return None


def record_of(
    state: State[object],
    *,
    viewer: int | None = None,
    names: Sequence[str] | None = None,
    date: str | None = None,
    event: str | None = None,
) -> Record:
    """The :class:`Record` of ``state``'s game so far, as ``viewer`` (a seat, or
    ``None``: the referee) may know it.  See :func:`write_record`."""
    if state.is_sample:
        raise RecordError("a sampled state has no record (it carries no seed or history)")
    game = state.game
    n = game.num_players
    if viewer is not None:
        viewer = as_int(viewer, "viewer", 0, n - 1)
    if names is None:
        names = [""] * n
    if isinstance(names, str) or len(names) != n:
        raise ValueError(f"names: one name per seat ({n}), got {_echo(names)}")
    for i, nm in enumerate(names):
        _check_free_text(nm, f"names[{i}]")
    if date is not None and (not isinstance(date, str) or not _DATE.match(date)):
        raise ValueError(f"date: YYYY.MM.DD, got {_echo(date)}")
    if event is not None:
        _check_free_text(event, "event")
    replay_state = game.new_initial_state(state.seed or 0, state.deck)
    seen, raw = all_events(replay_state)
    lines: list[tuple[int | None, str]] = [(None, t) for t in deal_lines(game, raw, viewer)]
    for a in state.history:
        seat = replay_state.current_player
        replay_state.apply(a)
        seen, fresh = new_events(replay_state, seen)
        lines.append((seat, shown_action(game, a, seat, fresh, viewer)))
        lines.extend((None, t) for t in deal_lines(game, fresh, viewer))
    referee = viewer is None
    return Record(
        game=game.NAME,
        players=n,
        rules=game.rules,
        names=tuple(names),
        seed=state.seed if referee else None,
        deck=tuple(state.deck) if referee and state.deck is not None else None,
        view=viewer,
        date=date,
        event=event,
        preset=_matching_preset(game.rules),
        result=tuple(state.returns()) if state.is_terminal else None,
        lines=tuple(lines),
    )


def write_record(
    state: State[object],
    *,
    viewer: int | None = None,
    names: Sequence[str] | None = None,
    date: str | None = None,
    event: str | None = None,
) -> str:
    """The text record of ``state``'s game so far.

    ``viewer=None`` writes the referee's record (every card, the seed and any
    stacked deck: it replays exactly); a seat writes that seat's record (only
    what it may know; no seed, so it does not replay).  ``names`` gives each
    seat's player, ``date`` is ``YYYY.MM.DD``, ``event`` a title.
    """
    return record_of(state, viewer=viewer, names=names, date=date, event=event).text()


# ---------------------------------------------------------------------------
# reading


def _err(line: int, message: str) -> RecordError:
    return RecordError(message, f"line {line}")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _cut(message: str, limit: int = 200) -> str:
    """A message quoted from elsewhere, cut after ``limit`` characters."""
    return message if len(message) <= limit else message[:limit] + "..."


def _text_lines(text: str) -> list[str]:
    """The lines of a record, blanks (spaces and tabs) stripped: split at
    ``\\n`` only (a ``\\r`` before it is dropped), a leading byte order mark
    skipped, each line at most MAX_LINE characters."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    for no, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise _err(no, f"{len(line)} characters, a record's line has at most {MAX_LINE}")
    return [line.strip(_BLANKS).removesuffix("\r").strip(_BLANKS) for line in lines]


def _check_ascii(line: str, no: int) -> None:
    if not (line.isascii() and line.isprintable()):
        bad = next(ch for ch in line if not (ch.isascii() and ch.isprintable()))
        raise _err(no, f"{bad!a} in {_echo(line)} (only ASCII letters, digits and spaces here)")


def _parse_rules(cls: type[Game[Rules, object]], text: str, line: int) -> Rules:
    rtype = cls.RULES_TYPE
    if text.strip() == "default":
        return rtype()
    params = {d.name: d for d in rtype.parameters()}
    values: dict[str, RulesValue] = {}
    for item in text.split(","):
        if "=" not in item:
            raise _err(line, f"Rules: expected name=value, got {_echo(item.strip())}")
        key, _, raw = (s.strip() for s in item.partition("="))
        if key not in params:
            raise _err(line, f"Rules: unknown rule {_echo(key)}; known: {', '.join(params)}")
        if key in values:
            raise _err(line, f"Rules: {key} is given twice")
        d = params[key]
        value: RulesValue
        if d.kind == "bool":
            if raw not in ("true", "false"):
                raise _err(line, f"Rules: {key} is true or false, got {_echo(raw)}")
            value = raw == "true"
        elif d.kind == "choice":
            value = raw
        elif d.kind == "optional" and raw == "none":
            value = None
        else:
            if not _INT.fullmatch(raw):
                raise _err(line, f"Rules: {key} is a number, got {_echo(raw)}")
            value = int(raw)
        values[key] = value
    try:
        return rtype(**values)
    except RulesError as exc:
        raise _err(line, f"Rules: {exc}") from None


def _parse_int(text: str, what: str, lo: int, hi: int, line: int) -> int:
    text = text.strip(_BLANKS)
    if not _INT.fullmatch(text):
        raise _err(line, f"{what}: expected a number, got {_echo(text)}")
    v = int(text)
    if not lo <= v <= hi:
        raise _err(line, f"{what}: must be {lo}..{hi}, got {v}")
    return v


def parse_record(text: str) -> Record:
    """Read a record's tags and lines, checking their form (not the play).

    Works for a seat's record too.  A malformed line, an unknown, repeated or
    missing tag, a bad value or an action name the game does not know raises
    :class:`~pycards.errors.RecordError` naming the line."""
    if not isinstance(text, str):
        raise TypeError(f"a record is a str, got {type(text).__name__}")
    tags: dict[str, tuple[str, int]] = {}
    body: list[tuple[int, str]] = []
    in_body = False
    for no, line in enumerate(_text_lines(text), start=1):
        if not line or line.startswith(";"):
            if not line and tags:
                in_body = True
            continue
        if line.startswith("["):
            if in_body:
                raise _err(no, "a tag after the game's lines")
            m = _TAG.fullmatch(line)
            if m is None:
                raise _err(no, f'a tag is [Name "value"], got {_echo(line)}')
            name = m["name"]
            if name in tags:
                raise _err(no, f"tag {name} is given twice")
            value = _unescape(m["value"])
            if name in _FREE_TAGS or name.startswith("Seat"):
                if not value.isprintable():
                    bad = next(ch for ch in value if not ch.isprintable())
                    raise _err(no, f"{name}: {bad!a} in {_echo(value)} (printable text only)")
            else:
                _check_ascii(line, no)
            tags[name] = (value, no)
            continue
        _check_ascii(line, no)
        in_body = True
        body.append((no, line))

    def need(name: str) -> tuple[str, int]:
        if name not in tags:
            raise RecordError(f"missing tag [{name}]")
        return tags[name]

    game_name, gline = need("Game")
    try:
        cls: type[Game[Rules, object]] = find_game(game_name)
    except ValueError:
        known = ", ".join(sorted(registered_games()))
        raise _err(gline, f"unknown game {_echo(game_name)}; known: {known}") from None
    info = game_info(game_name)
    ptext, pline = need("Players")
    players = _parse_int(ptext, "Players", info.min_players, info.max_players, pline)
    seat_tags = {f"Seat{i}" for i in range(players)}
    for name, (_v, no) in tags.items():
        if name not in _BASE_TAGS and name not in seat_tags and name != "Result":
            known = ", ".join([*_BASE_TAGS, "Seat0..", "Result"])
            raise _err(no, f"unknown tag {_echo(name)}; known: {known}")
    rtext, rline = need("Rules")
    rules = _parse_rules(cls, rtext, rline)
    try:
        game = cls(rules, players)
    except RulesError as exc:
        raise _err(rline, f"Rules: {exc}") from None
    preset = None
    if "Preset" in tags:
        preset, prline = tags["Preset"]
        presets = cls.RULES_TYPE.presets()
        if preset not in presets:
            raise _err(prline, f"unknown preset {_echo(preset)}; known: {', '.join(presets)}")
        if presets[preset] != rules:
            raise _err(prline, f"the Rules are not the preset {preset!r}")
    vtext, vline = need("View")
    view: int | None
    if vtext == "referee":
        view = None
    else:
        m = re.fullmatch(r"seat[ \t]+([0-9]+)", vtext, re.ASCII)
        if m is None:
            raise _err(vline, f"View is 'referee' or 'seat K', got {_echo(vtext)}")
        view = _parse_int(m[1], "View", 0, players - 1, vline)
    seed = None
    if "Seed" in tags:
        stext, sline = tags["Seed"]
        if view is not None:
            raise _err(sline, "a seat's record has no Seed (it would reveal hidden cards)")
        seed = _parse_int(stext, "Seed", 0, _M64, sline)
    elif view is None:
        raise RecordError("missing tag [Seed] (a referee's record has one)")
    deck = None
    if "Deck" in tags:
        dtext, dline = tags["Deck"]
        if view is not None:
            raise _err(dline, "a seat's record has no Deck (it would reveal hidden cards)")
        try:
            deck = tuple(game.deck_ids(dtext))
        except (InvalidCardError, TypeError) as exc:
            raise _err(dline, f"Deck: {_cut(str(exc))}") from None
        if not info.can_stack_deck:
            raise _err(dline, f"Deck: {game_name} cannot deal a stacked deck")
    date = None
    if "Date" in tags:
        date, dtline = tags["Date"]
        if not _DATE.match(date):
            raise _err(dtline, f"Date is YYYY.MM.DD, got {_echo(date)}")
    res_text, res_line = need("Result")
    result = None
    if res_text != "*":
        parts = res_text.strip(_BLANKS).split()
        if len(parts) != players:
            raise _err(
                res_line, f"Result: one number per seat ({players}) or *, got {_echo(res_text)}"
            )
        result = tuple(_parse_int(p, "Result", -(1 << 31), (1 << 31) - 1, res_line) for p in parts)
    lines: list[tuple[int | None, str]] = []
    for no, line in body:
        if line.startswith("="):
            lines.append((None, " ".join(line[1:].split())))
            continue
        m = _ACTION.fullmatch(line)
        if m is None:
            raise _err(no, f"expected 'seat K: action' or '= deal', got {_echo(line)}")
        seat = _parse_int(m["seat"], "seat", 0, players - 1, no)
        name = " ".join(m["name"].split())
        _check_action_name(game, name, view, seat, no)
        lines.append((seat, name))
    names = tuple(tags.get(f"Seat{i}", ("", 0))[0] for i in range(players))
    event = tags["Event"][0] if "Event" in tags else None
    return Record(
        game=game_name,
        players=players,
        rules=rules,
        names=names,
        seed=seed,
        deck=deck,
        view=view,
        date=date,
        event=event,
        preset=preset,
        result=result,
        lines=tuple(lines),
    )


def _check_action_name(
    game: Game[Rules, object], name: str, view: int | None, seat: int, line: int
) -> None:
    try:
        game.action_from_name(name)
        return
    except ValueError:
        pass
    if view is not None and view != seat and "?" in name:
        templates = {
            r.name.replace("{card}", "?").replace("{seat}", str(k))
            for r in game_info(game.NAME).action_ranges
            if r.arg == "card"
            for k in (range(1, game.num_players) if r.stride else [0])
        }
        if name in templates:
            return
    raise _err(line, f"seat {seat}: unknown action {_echo(name)} in {game.NAME}")


def _replay_lines(record: Record) -> Iterator[tuple[int, str | None, State[object]]]:
    """Replay a referee's record, checking every line; yields (line index,
    action name or None for the deal, the state after it)."""
    if record.view is not None or record.seed is None:
        raise RecordError(
            f"a seat's record (View seat {record.view}) cannot be replayed: it has no seed; "
            "read it with parse_record"
        )
    cls = find_game(record.game)
    game = cls(record.rules, record.players)
    try:
        state = game.new_initial_state(record.seed, record.deck)
    except (InvalidCardError, ValueError) as exc:
        raise RecordError(_cut(str(exc)), "Deck") from None
    seen, raw = all_events(state)
    expected = deal_lines(game, raw, None)
    yield -1, None, state
    for i, (seat, text) in enumerate(record.lines):
        where = f"game line {i + 1}"
        if seat is None:
            if text not in expected:
                want = "; ".join(expected) if expected else "no deal here"
                raise RecordError(
                    f"the deal {text!r} is not what the seed and deck deal ({want})", where
                )
            del expected[: expected.index(text) + 1]
            continue
        if state.is_terminal:
            raise RecordError(f"seat {seat}: {text!r} after the game is over", where)
        if seat != state.current_player:
            raise RecordError(
                f"seat {seat}: {text!r}, but seat {state.current_player} is to act", where
            )
        a = game.action_from_name(text)
        try:
            state.apply(a)
        except IllegalActionError as exc:
            raise RecordError(f"seat {seat}: {text!r} is illegal: {exc.reason}", where) from None
        seen, fresh = new_events(state, seen)
        expected = deal_lines(game, fresh, None)
        yield i, text, state
    if record.result is not None:
        if not state.is_terminal:
            raise RecordError("the game is not over after the last action", "Result")
        if tuple(state.returns()) != record.result:
            got = " ".join(str(r) for r in state.returns())
            said = " ".join(str(r) for r in record.result)
            raise RecordError(f"the replay ends {got}, the record says {said}", "Result")
    elif state.is_terminal:
        raise RecordError("the game is over; the record says * (in progress)", "Result")


def _tag_line_number(text: str, name: str) -> int | None:
    for no, line in enumerate(_text_lines(text), start=1):
        m = _TAG.fullmatch(line)
        if m is not None and m["name"] == name:
            return no
    return None


def _body_line_numbers(text: str) -> list[int]:
    numbers = []
    in_body = False
    seen_tag = False
    for no, line in enumerate(_text_lines(text), start=1):
        if not line or line.startswith(";"):
            in_body = in_body or (not line and seen_tag)
            continue
        if line.startswith("[") and not in_body:
            seen_tag = True
            continue
        in_body = True
        numbers.append(no)
    return numbers


def _replay_checked(record: Record, text: str | None = None) -> State[object]:
    state: State[object] | None = None
    try:
        for _i, _name, st in _replay_lines(record):
            state = st
    except RecordError as exc:
        raise _with_line(exc, text) from None
    assert state is not None
    return state


def _with_line(exc: RecordError, text: str | None) -> RecordError:
    """Turn "game line i" into the text's line number, and a tag's field
    ("Result", "Deck") into its line's number."""
    field = exc.field
    if text is None or field is None:
        return exc
    message = str(exc)[len(field) + 2 :]
    if field.startswith("game line "):
        i = int(field.split()[-1]) - 1
        numbers = _body_line_numbers(text)
        if 0 <= i < len(numbers):
            return RecordError(message, f"line {numbers[i]}")
    elif field in ("Result", "Deck"):
        no = _tag_line_number(text, field)
        if no is not None:
            return RecordError(f"{field}: {message}", f"line {no}")
    return exc


def read_record(text: str) -> State[object]:
    """Replay a referee's text record into a :class:`~pycards.game.State`.

    Everything is checked (tags, rules, deck, every action, every deal line
    against what the seed and deck deal, the result); a failure raises
    :class:`~pycards.errors.RecordError` naming the line and the action.  A
    seat's record cannot be replayed (it has no seed): use :func:`parse_record`.
    """
    record = parse_record(text)
    return _replay_checked(record, text)


def replay(text: str | Record) -> Iterator[tuple[tuple[int, str] | None, State[object]]]:
    """Step through a referee's record: yields ``(None, the dealt state)``, then
    ``((seat, action name), the state after it)`` for each action.

    The whole record is checked first (as by :func:`read_record`), so a bad
    record raises before the first step.  Each state yielded is a copy."""
    record = parse_record(text) if isinstance(text, str) else text
    _replay_checked(record, text if isinstance(text, str) else None)
    for i, name, state in _replay_lines(record):
        if name is None:
            yield None, state.clone()
        else:
            seat = record.lines[i][0]
            assert seat is not None
            yield (seat, name), state.clone()
