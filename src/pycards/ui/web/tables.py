"""Tables of the web server, free of any web framework.

A :class:`Table` holds one game: its seats (each a person, who acts with the
secret token of that seat, or a bot), and the real state, which never leaves
the server.  Everything sent to a seat is built by :func:`view_message` from
that seat's :class:`~pycards.view.PlayerView` alone, and everything sent to a
spectator by :func:`spectator_message` from what every seat's view agrees on
(the public part), so a message cannot carry a card its reader may not see.

Bots are bounded: a searching bot thinks at most :data:`MAX_MOVE_SECONDS` per
move (its spec is given ``seconds=`` if it has none), and a table's bots think
at most :data:`TABLE_BOT_SECONDS` in all, after which they play at random.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import json
import re
import secrets
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from ...bots import Bot, bot_names, make_bot, parse_bot_spec
from ...cards import Card, CardSet, NancyCard, NancyCardSet
from ...define import DefinedGame
from ...engine import offered_games
from ...errors import EventsDroppedError, IllegalActionError, PycardsError
from ...game import EventCursor, Game, Rules, State, game_names, load_game
from ...record import write_record  # the record format (see docs/records)
from ...summary import Story, Summary, fold_deals, named, story
from ...teach import prompt, rules_book
from ...view import PlayerView
from ..table import HINT_BOT, MAX_NAME, RefusedError, TableCore, hint_action, seat_names

if TYPE_CHECKING:
    from ...game import Event

__all__ = [
    "CHAT_LINES",
    "CHAT_RATE",
    "CHAT_WINDOW",
    "CLIENT_RATE",
    "CLIENT_TABLES",
    "CLIENT_WINDOW",
    "MAX_CHAT",
    "MAX_MOVE_SECONDS",
    "MAX_SAMPLES",
    "MAX_SIMULATIONS",
    "TABLE_BOT_SECONDS",
    "TIMED_BOTS",
    "WEB_BOTS",
    "ChatLine",
    "LateError",
    "LimitError",
    "SeatSpec",
    "Table",
    "TableError",
    "TableSpec",
    "Tables",
    "chat_text",
    "client_key",
    "describe_games",
    "describe_rules",
    "event_line",
    "spectator_message",
    "suggest",
    "token_seat",
    "view_message",
    "web_bots",
]

_M64 = 2**64 - 1

#: The longest a bot may think for one move, in seconds.
MAX_MOVE_SECONDS = 2.0
#: The most simulations a searching bot may run for one move.
MAX_SIMULATIONS = 20_000
#: The most a table's bots may think in all, in seconds; then they play at random.
TABLE_BOT_SECONDS = 900.0
#: Bots that answer at once (they run in their own pool, never behind a search).
LIGHT_BOTS = frozenset({"random", "heuristic"})
#: The most worlds a ``pimc_infer`` bot may weigh and search for one move.
MAX_SAMPLES = 100
#: The bots a table seats (the form offers these, and only these), each with
#: the bounds of the options the server checks: an int or float option is
#: ``(low, high)``.  ``pimc`` and ``ismcts`` think for ``seconds`` (added when
#: the spec has none); ``best`` takes no option (it thinks about 20 ms a
#: move); ``pimc_infer`` takes no ``seconds`` and is bounded by its
#: ``simulations``, ``samples`` and ``max_nodes``.  Any other option is
#: checked by the bot itself.
WEB_BOTS: dict[str, dict[str, tuple[float, float]]] = {
    "heuristic": {},
    "random": {},
    "best": {},
    "ismcts": {"seconds": (0.0, MAX_MOVE_SECONDS), "simulations": (1, MAX_SIMULATIONS)},
    "pimc": {"seconds": (0.0, MAX_MOVE_SECONDS), "simulations": (1, MAX_SIMULATIONS)},
    "pimc_infer": {
        "simulations": (1, MAX_SIMULATIONS),
        "samples": (1, MAX_SAMPLES),
        "max_nodes": (1, 5000),
    },
}
#: The bots that think for ``seconds`` (given :data:`MAX_MOVE_SECONDS` by default).
TIMED_BOTS = frozenset({"ismcts", "pimc"})


class TableError(ValueError):
    """A request the server refuses: says what was wrong, changes nothing."""


class LateError(TableError):
    """A move or undo refused because it does not answer the table as it is
    now (a second tab, a late click): its text is for people ("That move
    came too late: the table has moved on, so it was not played."); what a
    client needs is in :meth:`fields`.

    :ivar reason: ``"late"`` (the table moved on since), ``"undone"`` (a
        move was undone since) or ``"ahead"`` (it names a version the table
        has not reached).
    :ivar version: the table's :attr:`Table.version` now (the one to answer).
    :ivar turn: the table's :attr:`Table.turn` now.
    """

    def __init__(self, message: str, reason: str, version: int, turn: int) -> None:
        super().__init__(message)
        self.reason = reason
        self.version = version
        self.turn = turn

    def fields(self) -> dict[str, str | int]:
        """The refusal's machine-readable part: ``{"reason", "version", "turn"}``."""
        return {"reason": self.reason, "version": self.version, "turn": self.turn}


class LimitError(TableError):
    """A new table refused by a limit (the server's, or one client's): says
    which, and when to try again."""


#: The most unfinished tables one client (an address) may have open at once.
CLIENT_TABLES = 20
#: The most tables one client may open in :data:`CLIENT_WINDOW` seconds.
CLIENT_RATE = 30
#: The window of :data:`CLIENT_RATE`, in seconds.
CLIENT_WINDOW = 600.0


#: The longest chat line, in characters.
MAX_CHAT = 200
#: The chat lines a table keeps (the oldest leave first).
CHAT_LINES = 50
#: The most chat lines one seat may say in :data:`CHAT_WINDOW` seconds.
CHAT_RATE = 5
#: The window of :data:`CHAT_RATE`, in seconds.
CHAT_WINDOW = 10.0


class ChatLine(TypedDict):
    """One line of a table's chat: the person's seat and what they said."""

    seat: int
    text: str


def chat_text(text: object) -> str:
    """A chat line as the table keeps it: plain text, its runs of white space
    (line breaks included) one space, 1..:data:`MAX_CHAT` printable
    characters; else :class:`TableError` saying what was wrong.  It is never
    markup: the page shows it as text."""
    if not isinstance(text, str):
        raise TableError(f"a chat line is a string, got {type(text).__name__}")
    line = " ".join(text.split())
    if not line:
        raise TableError("a chat line says something: it was empty")
    if len(line) > MAX_CHAT:
        raise TableError(f"a chat line has at most {MAX_CHAT} characters, got {len(line)}")
    if not line.isprintable():
        raise TableError("a chat line is printable text (no control characters)")
    return line


def client_key(address: str) -> str:
    """What the store keeps of a client's address (a digest, never the
    address), to count its tables across restarts."""
    return hashlib.sha256(address.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _default_bot() -> str:
    return "heuristic" if "heuristic" in bot_names() else "random"


def web_bots() -> list[str]:
    """The bots a table seats and the form offers: those of :data:`WEB_BOTS`
    that are registered, the default bot first."""
    known = set(bot_names())
    return sorted((b for b in WEB_BOTS if b in known), key=lambda b: (b != _default_bot(), b))


def _table_games() -> list[str]:
    """The games a table may play: the registered ones and the defined games
    offered by name (:func:`pycards.engine.offered_games`, registered when a
    table first asks for one)."""
    return sorted({*game_names(), *offered_games()})


def describe_games() -> list[dict[str, Any]]:
    """What the new-game form offers: each game with its player counts,
    rules presets and the bots that can sit at its table (:func:`web_bots`,
    each accepted by :func:`check_bot_spec` as it is named, and the bounds
    of their options, ``bot_options``)."""
    out = []
    bots = web_bots()
    options = {b: {k: list(v) for k, v in WEB_BOTS[b].items()} for b in bots}
    for name in _table_games():
        game = load_game(name)
        info = game.info
        out.append(
            {
                "name": name,
                "title": game.TITLE or type(game).__name__.removesuffix("Game"),
                "min_players": info.min_players,
                "max_players": info.max_players,
                "presets": sorted(game.RULES_TYPE.presets()),
                "bots": bots,
                "bot_options": options,
                "max_move_seconds": MAX_MOVE_SECONDS,
            }
        )
    return out


def check_bot_spec(spec: object, field: str) -> str:
    """The bot spec as the server runs it, bounded (``seconds=`` added to a
    bot that thinks for a time, :data:`TIMED_BOTS`), or :class:`TableError`
    naming ``field``.  Only the bots of :func:`web_bots` are seated, with
    their options within :data:`WEB_BOTS`' bounds."""
    if not isinstance(spec, str) or not spec or len(spec) > 100:
        raise TableError(f"{field} must be a bot spec string, got {spec!r}")
    known = web_bots()  # these names only: a table never imports a class by path
    head = spec.partition(":")[0].strip()
    if head not in known:
        raise TableError(f"{field}: unknown bot {head!r:.40}; known: {', '.join(known)}")
    try:
        name, options = parse_bot_spec(spec)
    except (TypeError, ValueError) as exc:
        raise TableError(f"{field}: {exc}") from None
    bounds = WEB_BOTS[name]
    if name in TIMED_BOTS:
        options.setdefault("seconds", MAX_MOVE_SECONDS)
    for key, value in options.items():
        if key not in bounds:
            continue  # the bot checks it (make_bot below)
        lo, hi = bounds[key]
        if isinstance(lo, int) and isinstance(hi, int):
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise TableError(f"{field}: {key} must be an int {lo}..{hi}, got {value!r:.40}")
        elif isinstance(value, str) or not lo < value <= hi:
            raise TableError(f"{field}: {key} must be a number in ({lo:g}, {hi:g}], got {value!r}")
    if name == "best" and options:
        raise TableError(f"{field}: the best bot takes no option, got {', '.join(options)}")
    canonical = ":".join([name, *(f"{k}={v}" for k, v in options.items())])
    try:
        make_bot(canonical, seed=0)
    except (TypeError, ValueError, PycardsError) as exc:
        raise TableError(f"{field}: {exc}") from None
    return canonical


def _check_name(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise TableError(f"{field} must be a string, got {value!r}")
    name = " ".join(value.split())
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise TableError(f"{field} must be 1..{MAX_NAME} printable characters, got {value!r}")
    return name


@dataclasses.dataclass(frozen=True)
class SeatSpec:
    """One seat: its name, the bot that plays it (``None``: a person), and
    whether it is open to anyone (``open``: a person's seat the lobby offers,
    taken by whoever sits first; else it is taken only with its invite
    link)."""

    name: str
    bot: str | None = None
    open: bool = False

    def to_json(self) -> dict[str, Any]:
        """The seat as JSON."""
        out: dict[str, Any] = {"name": self.name, "bot": self.bot}
        if self.open:
            out["open"] = True
        return out


@dataclasses.dataclass(frozen=True)
class TableSpec:
    """A new table: the game, its rules preset, the seats, whether the lobby
    lists it, and (only for practice) the seed."""

    game: str
    players: int
    seats: tuple[SeatSpec, ...]
    preset: str | None = None
    listed: bool = True
    practice: bool = False
    seed: int | None = None

    @property
    def humans(self) -> list[int]:
        """The seats played by people."""
        return [p for p, s in enumerate(self.seats) if s.bot is None]

    def to_json(self) -> dict[str, Any]:
        """The spec as JSON (read back by :meth:`from_json`)."""
        out: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "seats": [s.to_json() for s in self.seats],
            "preset": self.preset,
            "listed": self.listed,
            "practice": self.practice,
        }
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_json(cls, data: object) -> TableSpec:
        """Check a request body field by field (:class:`TableError` names the field).

        ``seats`` is a list of ``{"name": ..., "bot": spec or null, "open":
        bool}``, one per player (default: a person in seat 0, the default bot
        elsewhere); a person's seat is taken with its invite link only, unless
        it is ``"open": true`` (the lobby offers it to anyone; not the first
        person's seat, the creator's).  A
        ``seed`` is accepted only with ``"practice": true`` and one person,
        since anyone who knows it knows every hidden card.
        """
        if not isinstance(data, Mapping):
            raise TableError("a new table is a JSON object")
        allowed = {"game", "players", "seats", "preset", "listed", "practice", "seed"}
        unknown = set(data) - allowed
        if unknown:
            raise TableError(f"unknown field(s): {', '.join(sorted(map(str, unknown)))[:200]}")
        game = data.get("game")
        if not isinstance(game, str) or game not in _table_games():
            known = ", ".join(_table_games())
            raise TableError(f"game must be one of {known}, got {game!r:.40}")
        info = load_game(game).info

        def _int(key: str, lo: int, hi: int, default: int | None) -> int | None:
            value = data.get(key, default)
            if value is None and default is None:
                return None
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise TableError(f"{key} must be an int {lo}..{hi}, got {value!r:.40}")
            return value

        def _bool(key: str, default: bool) -> bool:
            value = data.get(key, default)
            if not isinstance(value, bool):
                raise TableError(f"{key} must be true or false, got {value!r:.40}")
            return value

        players = _int("players", info.min_players, info.max_players, info.min_players)
        assert players is not None
        preset = data.get("preset")
        presets = load_game(game).RULES_TYPE.presets()
        if preset is not None and preset not in presets:
            raise TableError(
                f"preset must be one of {', '.join(sorted(presets))}, got {preset!r:.40}"
            )
        raw = data.get("seats")
        if raw is None:
            raw = [{"bot": None}] + [{"bot": _default_bot()}] * (players - 1)
        if not isinstance(raw, list) or len(raw) != players:
            raise TableError(f"seats must be a list of {players} seats")
        specs: list[str | None] = []
        given: list[str | None] = []
        opened: list[bool] = []
        for p, seat in enumerate(raw):
            if not isinstance(seat, Mapping) or set(seat) - {"name", "bot", "open"}:
                raise TableError(
                    f'seats[{p}] must be {{"name": ..., "bot": spec or null, "open": bool}}'
                )
            bot = seat.get("bot")
            specs.append(None if bot is None else check_bot_spec(bot, f"seats[{p}].bot"))
            given.append(_check_name(seat["name"], f"seats[{p}].name") if "name" in seat else None)
            is_open = seat.get("open", False)
            first = bot is None and None not in specs[:-1]  # the creator's seat
            if not isinstance(is_open, bool) or (is_open and (bot is not None or first)):
                raise TableError(
                    f"seats[{p}].open: true for a person's seat other than the first, got"
                    f" {is_open!r:.40}"
                )
            opened.append(is_open)
        names = seat_names(specs, given)
        seats = [
            SeatSpec(name, spec, o) for name, spec, o in zip(names, specs, opened, strict=True)
        ]
        listed = _bool("listed", True)
        practice = _bool("practice", False)
        seed = _int("seed", 0, _M64, None)
        if seed is not None and not practice:
            raise TableError('seed: the server chooses the seed unless "practice" is true')
        humans = sum(s.bot is None for s in seats)
        if practice and humans != 1:
            raise TableError("practice: a practice table has exactly one person")
        return cls(game, players, tuple(seats), preset, listed, practice, seed)


_PLAIN = frozenset({int, bool, str, float, type(None)})


def _value(v: object) -> object:
    """An observation value as JSON: card sets as lists of card names."""
    if type(v) in _PLAIN:
        return v
    if isinstance(v, (CardSet, NancyCardSet)):
        return str(v).split()  # the card names in the set's order, at C speed
    if isinstance(v, (Card, NancyCard)):
        return str(v)
    if isinstance(v, tuple):
        return [_value(x) for x in v]
    return v


def _card_of(name: str, cards: set[str]) -> str | None:
    hits = [w for w in name.split() if w in cards]
    return hits[0] if len(hits) == 1 else None


def _seat_cards(fields: Mapping[str, object], seat: int) -> set[str]:
    """The cards the seat may click where they lie: its hand and its own
    face-up cards."""
    out: set[str] = set()
    hand = fields.get("hand")
    if isinstance(hand, list):
        out.update(c for c in hand if isinstance(c, str))
    face_up = fields.get("face_up")
    if isinstance(face_up, list) and seat < len(face_up) and isinstance(face_up[seat], list):
        out.update(c for c in face_up[seat] if isinstance(c, str))
    return out


def _action(a: int, name: str, cards: set[str], seat: int, players: int) -> dict[str, Any]:
    """A legal action for the page: its id and name, the card it plays (if
    any), and an ask taken apart (the seat asked, by absolute number).

    An ask names a card it asks for, not one it plays: it is never a card's
    action, so a card held is clicked for the one move that plays (or saves)
    it."""
    words = name.split()
    if len(words) == 4 and words[0] == "ask" and words[1].startswith("+"):
        offset = words[1][1:]
        if offset.isdigit():
            return {
                "id": a,
                "name": name,
                "card": None,
                "ask": {"seat": (seat + int(offset)) % players, "by": words[2], "what": words[3]},
            }
    return {"id": a, "name": name, "card": _card_of(name, cards)}


def event_line(event: Event, names: list[str]) -> str:
    """One event in the engine's terms (kind, card or value): a fallback for
    a line the narration cannot tell."""
    who = names[event.player] if 0 <= event.player < len(names) else ""
    what = event.kind.replace("_", " ")
    shown: object = event.card if event.card is not None else event.value
    if shown is None:
        shown = "?"
    if 0 <= event.target < len(names) and event.target != event.player:
        what += f" ({names[event.target]})"
    return " ".join(str(x) for x in (who, what, shown) if x != "").strip()


class _SeenLog:
    """What a :class:`~pycards.summary.Story` reads of a state, from one
    seat's view alone (its events and its observation)."""

    def __init__(self, view: PlayerView[object], dropped: int) -> None:
        self._view = view
        self._events = view.events()
        self.event_count = self._events[-1].index + 1 if self._events else dropped
        self.is_terminal = view.is_terminal

    @property
    def cursor(self) -> int:
        """The place after the last event (a plain index: the log is read whole
        from one view, which no undo rewrites under it)."""
        return self.event_count

    def events(
        self, viewer: int | None = None, /, *, since: int | EventCursor | None = None
    ) -> list[Event]:
        del viewer
        if isinstance(since, EventCursor):  # a story keeps this log's plain index
            since = since.index
        if since is not None and self._events and self._events[0].index > since:
            raise EventsDroppedError(since, self._events[0].index)
        return [e for e in self._events if since is None or e.index >= since]

    def observation(self, seat: int, /) -> object:
        if seat != self._view.seat:
            raise PycardsError("a seat's story reads its own observation only")
        return self._view.observation


def _summary_json(summary: Summary, names: Sequence[str]) -> dict[str, Any]:
    lines = [named(line, names) for line in summary.lines()]
    winners = getattr(summary, "winners", None)
    out: dict[str, Any] = {
        "round": summary.round,
        "title": lines[0],
        "lines": [line.strip() for line in lines[1:]],
    }
    if isinstance(winners, tuple) and all(isinstance(w, int) for w in winners):
        out["winners"] = list(winners)
    return out


LOG_LINES = 60


def _told(told: Story, names: Sequence[str]) -> dict[str, Any]:
    """The log (the last :data:`LOG_LINES` narrated lines, a deal's dealing
    lines folded into one, and every score line before them, each numbered
    by its event), the summaries of a story and its play area (the trick or
    count in play, or the one just ended, in the order played:
    :attr:`pycards.summary.Story.play_area`)."""
    folded = fold_deals(told.lines, names, told.teller.seat_name if told.lines else None)
    # the last lines, and every score line before them: no score leaves the log
    keep = folded[-LOG_LINES:]
    earlier = [item for item in folded[: max(0, len(folded) - LOG_LINES)] if item[0].points]
    return {
        "log": [{"n": line.event.index + 1, "text": text} for line, text in earlier + keep],
        "summaries": [_summary_json(s, names) for s in told.summaries],
        "play_area": told.play_area,
    }


def _view_story(view: PlayerView[object], names: list[str], dropped: int) -> Story:
    """The story of the events the view's log keeps, told afresh."""
    told = Story(view.game, view.seat, names)
    told.cursor = dropped
    told.update(_SeenLog(view, dropped))
    return told


def _readable(game: Game[Rules, object], obs: object) -> dict[str, Any]:
    """Fields in words that the page shows instead of raw numbers (the
    observation's own, then the game's :meth:`~pycards.game.Game.table_notes`)."""
    out: dict[str, Any] = {}
    for name in ("phase_name", "play", "trick_cards"):
        if isinstance(getattr(type(obs), name, None), property):
            out[name] = _value(getattr(obs, name))
    out.update(game.table_notes(obs))
    return out


_DOC_IVAR = re.compile(r":ivar (\w+):\s*(.*?)(?=\n\s*:ivar |\n\s*\n|\Z)", re.S)


def _words(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value) or "none"
    return str(value).replace("_", " ")


def _plain(text: str) -> str:
    """Docstring text as plain words: no markup, no pointer into the docs."""
    text = re.sub(r"\s*\(docs/[^)]*\)", "", text).replace("``", "")
    text = re.sub(r":\w+:`~?([^`]*)`", r"\1", text)
    return " ".join(text.split())


def describe_rules(game: Game[Rules, object], preset: str | None = None) -> dict[str, Any]:
    """The table's rules in words, for the rules panel: the preset, the
    game's rules summary (the first paragraph of its rules class), and each
    rule with a readable label, its value and what it means (from the rules
    class's ``:ivar`` docs), the rules that differ from the defaults first, and
    ``plain``: the game's rules in plain words (:func:`pycards.teach.rules_book`)."""
    rules_type = type(game.rules)
    doc = rules_type.__doc__ or ""
    notes = {m.group(1): _plain(m.group(2)) for m in _DOC_IVAR.finditer(doc)}
    summary = _plain(doc.strip().split("\n\n")[0])
    changed = game.rules.differences()
    items = [
        {
            "label": name.replace("_", " ").capitalize(),
            "value": _words(value),
            "note": notes.get(name, ""),
            "changed": name in changed,
        }
        for name, value in game.rules_to_dict().items()
    ]
    items.sort(key=lambda item: not item["changed"])
    plain = [dataclasses.asdict(section) for section in rules_book(game)]
    return {"preset": preset or "the defaults", "summary": summary, "items": items, "plain": plain}


def view_message(
    view: PlayerView[object],
    names: list[str],
    bots: list[str],
    dropped: int = 0,
    told: Story | None = None,
) -> dict[str, Any]:
    """The message describing the table as ``view``'s seat sees it
    (``dropped``: how many of the oldest events the log no longer keeps).

    Built from the view only: the typed observation, the legal actions with
    names (and the hand card each one plays, for clicking), the events told
    in sentences (:mod:`pycards.narrate`) from the seat, the round and game
    summaries (:mod:`pycards.summary`) and the public scores.  ``told`` is
    the seat's story kept up to date by the caller (a table keeps one per
    seat, from the first event); without it, the events the view's log keeps
    are told afresh.
    """
    game = view.game
    obs = view.observation
    assert dataclasses.is_dataclass(obs)  # every game's observation is a dataclass
    fields = {f.name: _value(getattr(obs, f.name)) for f in dataclasses.fields(obs)}
    cards = _seat_cards(fields, view.seat)
    players = view.num_players
    legal = [
        _action(a, n, cards, view.seat, players)
        for a, n in zip(view.legal_actions(), view.legal_action_names(), strict=True)
    ]
    if told is None:
        told = _view_story(view, names, dropped)
    return {
        "type": "view",
        "game": game.NAME,
        "title": game.TITLE or type(game).__name__.removesuffix("Game"),
        # a defined game: the page draws it as a trick game (its bids, tricks, trumps)
        "defined": isinstance(game, DefinedGame),
        "rules": game.rules.differences(),
        "target": game.rules.to_dict().get("game_target"),
        "players": view.num_players,
        "names": names,
        "bots": bots,
        "seat": view.seat,
        "deck": game.info.deck_size,
        "current_player": view.current_player,
        "terminal": view.is_terminal,
        "observation": fields,
        "readable": _readable(game, obs),
        "legal": legal,
        "prompt": prompt(view, names),
        **_told(told, names),
        "returns": view.returns(),
    }


_SHARED = ("type", "game", "title", "defined", "rules", "target", "players", "names", "bots")


def spectator_message(
    state: State[object], names: list[str], bots: list[str], told: Story | None = None
) -> dict[str, Any]:
    """The table as a spectator sees it: only what every seat's view agrees
    on (no hand, no card any seat may not see), the spectator's story
    (``told``, else told afresh from the events the log keeps), no moves."""
    dropped = state.events_dropped()
    seats = [
        view_message(state.view(p), names, bots, dropped, told=_EMPTY)
        for p in range(state.num_players)
    ]
    first = seats[0]
    obs = {
        k: v
        for k, v in first["observation"].items()
        if k not in ("hand", "player") and all(m["observation"][k] == v for m in seats)
    }
    readable = {
        k: v for k, v in first["readable"].items() if all(m["readable"].get(k) == v for m in seats)
    }
    same = all(m["returns"] == first["returns"] for m in seats)
    if told is None:
        told = Story(state.game, None, names)
        told.cursor = dropped
        told.update(state)
    return {
        **{k: first[k] for k in _SHARED},
        "seat": None,
        "deck": first["deck"],
        "current_player": state.current_player,
        "terminal": state.is_terminal,
        "observation": obs,
        "readable": readable,
        "legal": [],
        **_told(told, names),
        "returns": first["returns"] if same else [0] * state.num_players,
    }


class _Untold(Story):
    """A story with no line (for the seats' messages a spectator's is made of)."""

    def __init__(self) -> None:
        self.lines = []
        self.summaries = []
        self._clear_play()


_EMPTY = _Untold()


def suggest(view: PlayerView[object], seed: int) -> dict[str, Any]:
    """The hint for ``view``'s seat (:func:`pycards.ui.table.hint_action`, the
    table core's hint bot reseeded with ``seed``), from the view alone:
    ``{"type": "hint", "action", "name", "card"}`` (``card``: the card it
    plays where it lies, if any)."""
    return _hint_message(view, hint_action(view, seed, HINT_BOT))


def _hint_message(view: PlayerView[object], action: int) -> dict[str, Any]:
    name = view.action_name(action)
    obs = view.observation
    assert dataclasses.is_dataclass(obs)  # every game's observation is a dataclass
    fields = {f.name: _value(getattr(obs, f.name)) for f in dataclasses.fields(obs)}
    card = _card_of(name, _seat_cards(fields, view.seat))
    return {"type": "hint", "action": action, "name": name, "card": card}


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_seat(token: str, digests: Mapping[int, str]) -> int | None:
    """The seat whose token digest (:attr:`Table.digests`) is ``token``'s, or None."""
    d = _digest(token)
    for p, digest in digests.items():
        if secrets.compare_digest(d, digest):
            return p
    return None


@dataclasses.dataclass(frozen=True)
class TableSnapshot:
    """A table as it was (:meth:`Table.snapshot`), for :meth:`Table.rollback`."""

    state: State[object]
    version: int
    undone_at: int
    bot_seconds: float
    digests: dict[int, str]


class Table:
    """One game at the server: the real state, the seats and their bots.

    Make one with :meth:`new` (which also returns the seats' tokens) or
    :meth:`restore` (from the store).

    The table's :attr:`version` counts its changes (every move, a bot's too,
    and every undo) and never goes down, even when an undo takes the turn
    back; a move names the version it answers, so a move made for a table
    that has changed since (by a late message, another tab, or a move since
    taken back) is refused.
    """

    def __init__(
        self,
        table_id: str,
        spec: TableSpec,
        seed: int,
        token_digests: dict[int, str],
        state: State[object],
        bot_seconds: float = 0.0,
        version: int | None = None,
        chat: object = (),
    ) -> None:
        self.id = table_id
        self.spec = spec
        self.seed = seed
        self.game: Game[Rules, object] = state.game
        #: The table core: the state, the bots, the names, the hint and undo.
        #: Its bots are reseeded at every move, so a restarted server plays on
        #: as it would have.
        self.core = TableCore(
            state,
            {p: s.bot for p, s in enumerate(spec.seats) if s.bot},
            seed,
            [s.name for s in spec.seats],
            reseed=True,
        )
        self._digests = dict(token_digests)
        self.names = self.core.names
        self.bot_specs = ["person" if s.bot is None else s.bot for s in spec.seats]
        #: Seconds the bots of this table have thought so far.
        self.bot_seconds = bot_seconds
        #: Who opened the table (:func:`client_key`; None: unknown), for the per-client cap.
        self.client: str | None = None
        self.last_active = time.monotonic()
        turn = len(state.history)
        if version is None:  # a table saved before versions: none was sent above its turn
            version = turn
        if isinstance(version, bool) or not isinstance(version, int) or version < turn:
            raise TableError(f"version must be an int >= the turn {turn}, got {version!r:.40}")
        #: Bumped at every change of the state, never lowered: the token a
        #: move names (and a message cache's key).  Never below :attr:`turn`.
        self.version = version
        #: The version an undo left (0: no undo since the table was loaded).
        self._undone_at = 0
        self._stories: dict[int | None, Story] = {}
        self._messages: dict[int | None, tuple[int, dict[str, Any]]] = {}
        self._rules_book = describe_rules(self.game, spec.preset)
        #: The chat, oldest first: ``{"seat": p, "text": line}`` (at most
        #: :data:`CHAT_LINES`; see :meth:`say`).
        self.chat: list[ChatLine] = self._read_chat(chat)
        self._said: dict[int, collections.deque[float]] = {}

    def _read_chat(self, chat: object) -> list[ChatLine]:
        """The chat as the store gave it, checked (:class:`TableError`)."""
        if not isinstance(chat, (list, tuple)):
            raise TableError(f"the chat is a list of lines, got {type(chat).__name__}")
        out: list[ChatLine] = []
        for line in chat[-CHAT_LINES:]:
            seat = line.get("seat") if isinstance(line, dict) else None
            if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.spec.humans:
                raise TableError(f"a chat line is said by a person's seat, got {line!r:.60}")
            out.append({"seat": seat, "text": chat_text(line.get("text"))})
        return out

    def say(self, seat: int, text: object, now: float | None = None) -> ChatLine:
        """The person of ``seat`` says ``text`` to the table (checked by
        :func:`chat_text`); the line kept.  A seat says at most
        :data:`CHAT_RATE` lines in :data:`CHAT_WINDOW` seconds (``now``:
        :func:`time.monotonic` unless given); :class:`TableError` (nothing
        kept) for a line refused.  The chat is not the game: the
        :attr:`version` stays, so no move waiting is refused for it."""
        if seat not in self.spec.humans:
            raise TableError(f"seat {seat} is not a person's: only the people at a table chat")
        line = chat_text(text)
        now = time.monotonic() if now is None else now
        said = self._said.setdefault(seat, collections.deque())
        while said and said[0] <= now - CHAT_WINDOW:
            said.popleft()
        if len(said) >= CHAT_RATE:
            raise TableError(
                f"at most {CHAT_RATE} chat lines in {CHAT_WINDOW:g} seconds: wait a moment"
            )
        said.append(now)
        kept: ChatLine = {"seat": seat, "text": line}
        self.chat = [*self.chat, kept][-CHAT_LINES:]
        self.last_active = time.monotonic()
        return kept

    def chat_json(self) -> str:
        """The chat as JSON, for the store."""
        return json.dumps(self.chat)

    @classmethod
    def new(cls, spec: TableSpec) -> tuple[Table, dict[int, str]]:
        """A new table and the secret token of each person's seat."""
        seed = spec.seed if spec.seed is not None else secrets.randbits(63)
        rules = None
        if spec.preset is not None:
            rules = load_game(spec.game).RULES_TYPE.presets()[spec.preset]
        game = load_game(spec.game, rules, spec.players)
        # an open seat has no token until someone sits in it (:meth:`Table.sit`)
        tokens = {p: secrets.token_urlsafe(16) for p in spec.humans if not spec.seats[p].open}
        digests = {p: _digest(t) for p, t in tokens.items()}
        table = cls(secrets.token_urlsafe(8), spec, seed, digests, game.new_initial_state(seed))
        return table, tokens

    @classmethod
    def restore(
        cls,
        table_id: str,
        spec: dict[str, Any],
        seed: int,
        digests: dict[int, str],
        state_json: str,
        bot_seconds: float,
        version: int | None = None,
        chat: object = (),
    ) -> Table:
        """A table read back from the store (``version=None``: one saved
        before the store kept versions, which resumes at its turn; ``chat``:
        its chat lines, see :attr:`chat`)."""
        table_spec = TableSpec.from_json(spec)
        state = State.from_json(state_json)
        game = load_game(table_spec.game, None, table_spec.players)
        if table_spec.preset is not None:
            rules = game.RULES_TYPE.presets()[table_spec.preset]
            game = load_game(table_spec.game, rules, table_spec.players)
        if table_spec.game != state.game.NAME or state.num_players != table_spec.players:
            raise TableError(
                f"the game is {state.game.NAME} for {state.num_players}, the table's"
                f" {table_spec.game} for {table_spec.players}"
            )
        if state.game.rules != game.rules:
            raise TableError("the game's rules are not the table's preset")
        if set(digests) != set(table_spec.humans):
            raise TableError(f"the tokens are for seats {sorted(digests)}, not the people's")
        return cls(table_id, table_spec, seed, digests, state, bot_seconds, version, chat)

    @property
    def state(self) -> State[object]:
        """The game's real state (it never leaves the server)."""
        return self.core.state

    @state.setter
    def state(self, state: State[object]) -> None:
        self.core.state = state

    @property
    def bots(self) -> dict[int, Bot]:
        """The bot of each bot's seat."""
        return self.core.bots

    @property
    def turn(self) -> int:
        """How many actions have been applied (an undo lowers it; see :attr:`version`)."""
        return len(self.state.history)

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal

    @property
    def digests(self) -> dict[int, str]:
        """The SHA-256 of each person's seat token (what the store keeps)."""
        return dict(self._digests)

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is, or None."""
        return token_seat(token, self._digests)

    def is_open(self, seat: int) -> bool:
        """Whether the lobby offers ``seat``: a person's seat opened to anyone
        that nobody has taken yet.  A seat with an invite link never is, and a
        taken seat stays its owner's (the store keeps its token's digest),
        away or not, across restarts."""
        spec = self.spec.seats[seat] if 0 <= seat < len(self.spec.seats) else None
        return spec is not None and spec.bot is None and spec.open and seat not in self._digests

    def sit(self, seat: int) -> str:
        """Take an open seat (:meth:`is_open`): its token, from now on the only
        one (:class:`TableError` if the seat is not open)."""
        if not self.is_open(seat):
            raise TableError(f"seat {seat} is not open")
        token = secrets.token_urlsafe(16)
        self._digests[seat] = _digest(token)
        return token

    def story(self, viewer: int | None) -> Story:
        """The story of the game for ``viewer`` (a seat, ``None``: a
        spectator), told from its first event and kept up to date."""
        told = self._stories.get(viewer)
        if told is not None:
            try:
                told.update(self.state)
            except EventsDroppedError:
                told = None
        if told is None:
            told = story(self.state, viewer, self.names)
            self._stories[viewer] = told
        return told

    def snapshot(self) -> TableSnapshot:
        """What :meth:`rollback` puts back: the game, the version, the bots'
        time and the seats' tokens, as they are now."""
        return TableSnapshot(
            self.state.clone(),
            self.version,
            self._undone_at,
            self.bot_seconds,
            dict(self._digests),
        )

    def rollback(self, snapshot: TableSnapshot) -> None:
        """Put the table back as it was at ``snapshot`` (:meth:`snapshot`),
        e.g. when a move could not be stored: as if it had never been made."""
        self.state = snapshot.state
        self.version = snapshot.version
        self._undone_at = snapshot.undone_at
        self.bot_seconds = snapshot.bot_seconds
        self._digests = dict(snapshot.digests)
        self._stories.clear()
        self._messages.clear()

    def _changed(self) -> None:
        self.version += 1
        self.last_active = time.monotonic()

    def message(
        self,
        seat: int | None,
        away: set[int] | None = None,
        clocks: Mapping[int, float] | None = None,
    ) -> dict[str, Any]:
        """The table as ``seat`` sees it (``None``: a spectator), with the
        turn, the version (which a move names), the table id, who of the
        people is away (``away_clock``: the seconds ``clocks`` gives each
        away seat before a bot plays for it; ``stand_ins``: the away seats a
        bot plays now), the rules panel and the chat (:attr:`chat`).
        Built once per change of the state and seat (then copied)."""
        cached = self._messages.get(seat)
        if cached is not None and cached[0] == self.version:
            msg = dict(cached[1])
        else:
            if seat is None:
                msg = spectator_message(self.state, self.names, self.bot_specs, self.story(None))
            else:
                msg = view_message(
                    self.state.view(seat),
                    self.names,
                    self.bot_specs,
                    self.state.events_dropped(),
                    self.story(seat),
                )
            self._messages[seat] = (self.version, dict(msg))
        msg["rules_book"] = self._rules_book
        msg["solo"] = len(self.spec.humans) == 1
        msg["turn"] = self.turn
        msg["version"] = self.version
        msg["table_id"] = self.id
        msg["away"] = sorted(away or ())
        msg["away_clock"] = [
            {"seat": p, "seconds": round(max(0.0, left), 1)}
            for p, left in sorted((clocks or {}).items())
            if p in (away or ()) and p not in self.core.stand_ins
        ]
        msg["stand_ins"] = sorted(self.core.stand_ins)
        msg["humans"] = self.spec.humans
        msg["chat"] = list(self.chat)
        if self.spec.practice:
            msg["warning"] = "practice table: its seed was chosen, so the bots' cards are known"
        return msg

    def person_move(
        self, seat: int, action: object, version: object, *, as_turn: bool = False
    ) -> None:
        """Apply the move of the person in ``seat``, made for the table at
        ``version`` (the :attr:`version` of the message it answers);
        :class:`TableError` (nothing changed) if it is forged, late, made
        for another version, out of turn or illegal.

        ``as_turn``: the token came as a message's ``turn``, what moves named
        before versions.  It is checked against the version all the same,
        which it equals until the table's first undo (a turn sent is never
        above the version of its message), so such a move is refused once a
        move has been undone, never taken for the wrong one."""
        self._answering(version, "a move", as_turn)
        if isinstance(action, bool) or not isinstance(action, int):
            raise TableError(f"an action is an int id, got {action!r:.40}")
        try:
            self.core.person_move(seat, action)
        except (RefusedError, IllegalActionError) as exc:
            raise TableError(str(exc)) from None
        self._changed()

    def _answering(self, version: object, what: str, as_turn: bool = False) -> None:
        """Refuse (:class:`TableError`) ``what`` ("a move", "an undo") if it
        does not answer the table's current :attr:`version`."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise TableError(
                f'{what} names the turn it answers ("version": the int of the'
                f" table's last message), got {version!r:.40}"
            )
        if version != self.version:
            raise self._refusal(version, as_turn, what.split()[-1])

    def _refusal(self, token: int, as_turn: bool, what: str = "move") -> LateError:
        """Why a ``what`` (move, undo) made for ``token`` (not the version) is
        refused, in words for people (the numbers go in its fields)."""
        if as_turn:  # a turn sent is never above the version of its message
            if token < self.turn:
                reason = "late"
            else:
                reason = "ahead" if self.version == self.turn else "undone"
        elif token > self.version:
            reason = "ahead"
        else:
            reason = "undone" if token < self._undone_at else "late"
        lost = "so it was not played" if what == "move" else "so nothing was taken back"
        text = {
            "late": f"That {what} came too late: the table has moved on, {lost}.",
            "undone": f"That {what} came too late: a move was undone since, {lost}.",
            "ahead": f"That {what} was not made for the table as it is now, {lost}.",
        }[reason]
        return LateError(text, reason, self.version, self.turn)

    def hint(self, seat: int) -> dict[str, Any]:
        """The table core's hint for the person in ``seat``
        (:meth:`pycards.ui.table.TableCore.hint`), computed from that seat's
        view alone (at a table where every other seat is a bot; else
        :class:`TableError`): ``{"type": "hint", "action", "name", "card",
        "turn", "version"}``."""
        try:
            chosen = self.core.hint(seat)
        except RefusedError as exc:
            raise TableError(str(exc)) from None
        hint = _hint_message(self.state.view(seat), chosen.action)
        hint["turn"] = self.turn
        hint["version"] = self.version
        return hint

    def can_undo(self, seat: int) -> bool:
        """Whether :meth:`undo` by ``seat`` is allowed now (the version aside)."""
        return self.core.can_undo(seat)

    def undo(self, seat: int, version: object = None) -> int:
        """Take back the last move of the person in ``seat`` and every bot's
        move after it, by the table core's one rule
        (:meth:`pycards.ui.table.TableCore.undo`: at a table where every other
        seat is a bot, while the game is not over, and not once a deal or a
        draw has shown that person a card since that move; else
        :class:`TableError`).  Returns the turn the table is back at; the
        :attr:`version` goes up, so no move made before the undo can be
        played after it.

        ``version`` (optional): the :attr:`version` of the message the undo
        answers; for any other version the undo is refused
        (:class:`TableError`) and nothing changes, so an undo sent from a
        view the table has moved past (a second tab, a late click) does not
        take back a move its sender never saw."""
        if version is not None:
            self._answering(version, "an undo")
        try:
            back = self.core.undo(seat)
        except RefusedError as exc:
            raise TableError(str(exc)) from None
        self._stories.clear()
        self._changed()
        self._undone_at = self.version
        return back

    def bot_to_move(self) -> int | None:
        """The seat of the bot to act, or None (a person's turn or game over)."""
        return self.core.bot_to_move()

    def bot_is_light(self) -> bool:
        """Whether the bot to act answers at once (or searches)."""
        p = self.bot_to_move()
        if p is None or p in self.core.stand_ins:  # a stand-in is the default bot
            return True
        return self.bot_specs[p].split(":")[0] in LIGHT_BOTS

    def stand_in(self, seat: int) -> None:
        """Let the default bot play the away person's ``seat`` until they come
        back (:meth:`pycards.ui.table.TableCore.stand_in`)."""
        if seat not in self.spec.humans or self.finished:
            raise TableError(f"seat {seat} is not a person's seat at a game in play")
        self.core.stand_in(seat, _default_bot())
        self._changed()

    def come_back(self, seat: int) -> bool:
        """The person of ``seat`` is back; whether a bot had played for them."""
        back = self.core.come_back(seat)
        if back:
            self._changed()
        return back

    def bot_choose(self) -> int:
        """The action of the bot to act, without applying it (safe to run in a
        worker thread while nothing changes the state).  A bot is reseeded from
        the table's seed, its seat and the turn, so a restarted server plays on
        as it would have; once the table's budget is spent, it plays at random."""
        p = self.bot_to_move()
        if p is None:
            raise TableError("no bot is to act")
        spent = self.bot_seconds >= TABLE_BOT_SECONDS
        start = time.monotonic()
        action = self.core.bot_choose(make_bot("random") if spent else None)
        self.bot_seconds += time.monotonic() - start
        return action

    def bot_apply(self, action: int) -> None:
        """Apply the action :meth:`bot_choose` chose."""
        p = self.bot_to_move()
        if p is None:
            raise TableError("no bot is to act")
        self.core.bot_apply(action)
        self._changed()

    def bot_move(self) -> int:
        """Choose and apply the bot's action (both steps at once)."""
        action = self.bot_choose()
        self.bot_apply(action)
        return action

    def summary(self) -> dict[str, Any]:
        """What the lobby shows: no token, no card."""
        return {
            "table_id": self.id,
            "game": self.game.NAME,
            "title": self.game.TITLE or type(self.game).__name__.removesuffix("Game"),
            "players": self.spec.players,
            "preset": self.spec.preset,
            "seats": [
                {
                    "name": s.name,
                    "bot": s.bot,
                    "open": self.is_open(p),
                }
                for p, s in enumerate(self.spec.seats)
            ],
            "turn": self.turn,
            "terminal": self.finished,
        }

    def record(self, seat: int) -> str:
        """The game's record as ``seat`` may know it."""
        return write_record(self.state, viewer=seat, names=self.names)

    def state_json(self) -> str:
        """The game as JSON, for the store."""
        return self.state.to_json()


def replay_message(state_json: str, spec: dict[str, Any], step: int) -> tuple[dict[str, Any], int]:
    """The spectator's message of a stored game after ``step`` actions, and
    the number of actions in all (:class:`TableError` for a bad step)."""
    data = json.loads(state_json)
    history = data["history"]
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(history):
        raise TableError(f"step must be an int 0..{len(history)}, got {step!r:.40}")
    data["history"] = history[:step]
    state = State.from_json(json.dumps(data))
    seats = spec["seats"]
    names = [s["name"] for s in seats]
    bots = ["person" if s["bot"] is None else s["bot"] for s in seats]
    msg = spectator_message(state, names, bots)
    msg["turn"] = step
    return msg, len(history)


class Tables:
    """The server's live tables.  Unfinished tables count against
    ``max_tables``, and those of one client against ``client_tables``;
    finished ones leave the caps at once and are dropped from memory after
    ``idle_seconds`` (the store keeps them)."""

    def __init__(
        self,
        idle_seconds: float = 1800.0,
        max_tables: int = 200,
        client_tables: int = CLIENT_TABLES,
    ) -> None:
        self.idle_seconds = idle_seconds
        self.max_tables = max_tables
        #: The most unfinished tables one client may have open at once.
        self.client_tables = client_tables
        self._tables: dict[str, Table] = {}

    def open_count(self, client: str | None = None) -> int:
        """How many unfinished tables there are (of ``client`` alone, if given)."""
        return sum(
            not t.finished and (client is None or t.client == client) for t in self._tables.values()
        )

    def create(self, spec: TableSpec, client: str | None = None) -> tuple[Table, dict[int, str]]:
        """A new table of ``client`` (:func:`client_key`) and its seats'
        tokens; :class:`LimitError` when the server has ``max_tables``
        unfinished tables open, or ``client`` has ``client_tables``."""
        self.drop_idle()
        if self.open_count() >= self.max_tables:
            raise LimitError(
                f"the server has {self.max_tables} unfinished tables open, its most;"
                " try again later"
            )
        if client is not None and self.open_count(client) >= self.client_tables:
            raise LimitError(
                f"you have {self.client_tables} unfinished tables open, the most one"
                " address may have: finish or leave one (an idle table closes after"
                f" {self.idle_seconds / 60:g} minutes), then try again"
            )
        table, tokens = Table.new(spec)
        table.client = client
        self._tables[table.id] = table
        return table, tokens

    def remove(self, table_id: str) -> None:
        """Forget a table (one whose creation could not be stored)."""
        self._tables.pop(table_id, None)

    def add(self, table: Table) -> None:
        """Take a table back (when the server restarts)."""
        self._tables[table.id] = table

    def find(self, table_id: str) -> Table | None:
        """The table by id, or None."""
        return self._tables.get(table_id)

    def get(self, table_id: str, token: str) -> tuple[Table, int]:
        """The table and the seat whose token this is (else :class:`TableError`)."""
        table = self._tables.get(table_id)
        seat = None if table is None else table.seat_of(token)
        if table is None or seat is None:
            raise TableError("no such table (it may have been dropped when idle)")
        table.last_active = time.monotonic()
        return table, seat

    def drop_idle(self) -> list[str]:
        """Drop the tables idle for longer than ``idle_seconds``; their ids."""
        now = time.monotonic()
        idle = [k for k, t in self._tables.items() if now - t.last_active > self.idle_seconds]
        for k in idle:
            del self._tables[k]
        return idle

    def __len__(self) -> int:
        return len(self._tables)

    def __iter__(self) -> Iterator[Table]:
        return iter(list(self._tables.values()))
