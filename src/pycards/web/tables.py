"""Tables of the web server, free of any web framework.

A :class:`Table` holds one game: the person's seat, the bots in the other
seats, and the real state, which never leaves the server.  Everything sent to
the browser is built by :func:`view_message` from the person's
:class:`~pycards.view.PlayerView` alone, so a message cannot carry a card the
seat may not see.
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from collections.abc import Mapping
from typing import Any

from ..bots import Bot, bot_names, make_bot
from ..cards import Card, CardSet, NancyCard, NancyCardSet
from ..errors import IllegalActionError
from ..game import Game, State, game_names, load_game
from ..record import write_record  # the record format (see docs/records)
from ..view import PlayerView

__all__ = ["Table", "TableError", "TableSpec", "Tables", "describe_games", "view_message"]

_M64 = 2**64 - 1


class TableError(ValueError):
    """A request the server refuses: says what was wrong, changes nothing."""


def _default_bot() -> str:
    return "heuristic" if "heuristic" in bot_names() else "random"


def describe_games() -> list[dict[str, Any]]:
    """What the new-game form offers: each game with its player counts,
    rules presets and the bots that can sit at its table."""
    out = []
    for name in game_names():
        game = load_game(name)
        info = game.info
        out.append(
            {
                "name": name,
                "title": type(game).__name__.removesuffix("Game"),
                "min_players": info["min_players"],
                "max_players": info["max_players"],
                "presets": sorted(game.RULES_TYPE.presets()),
                "bots": sorted(bot_names(), key=lambda b: (b != _default_bot(), b)),
            }
        )
    return out


@dataclasses.dataclass(frozen=True)
class TableSpec:
    """A new table: the game, its rules preset, players, the person's seat,
    the bots (one name for all other seats, or one per seat) and the seed."""

    game: str
    players: int
    seat: int = 0
    preset: str | None = None
    bots: tuple[str, ...] = ()
    seed: int | None = None

    @classmethod
    def from_json(cls, data: object) -> TableSpec:
        """Check a request body field by field (:class:`TableError` names the field)."""
        if not isinstance(data, Mapping):
            raise TableError("a new table is a JSON object")
        unknown = set(data) - {f.name for f in dataclasses.fields(cls)}
        if unknown:
            raise TableError(f"unknown field(s): {', '.join(sorted(map(str, unknown)))}")
        game = data.get("game")
        if not isinstance(game, str) or game not in game_names():
            raise TableError(f"game must be one of {', '.join(game_names())}, got {game!r}")
        info = load_game(game).info

        def _int(key: str, lo: int, hi: int, default: int | None) -> int | None:
            value = data.get(key, default)
            if value is None and default is None:
                return None
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise TableError(f"{key} must be an int {lo}..{hi}, got {value!r}")
            return value

        players = _int("players", info["min_players"], info["max_players"], info["min_players"])
        assert players is not None
        seat = _int("seat", 0, players - 1, 0)
        assert seat is not None
        preset = data.get("preset")
        presets = load_game(game).RULES_TYPE.presets()
        if preset is not None and preset not in presets:
            raise TableError(f"preset must be one of {', '.join(sorted(presets))}, got {preset!r}")
        bots = data.get("bots", [])
        if isinstance(bots, str):
            bots = [bots]
        if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
            raise TableError("bots must be a list of bot names")
        if len(bots) not in (0, 1, players - 1):
            raise TableError(f"bots: give one name, or one for each of the {players - 1} others")
        known = bot_names()
        for b in bots:
            if b.split(":")[0] not in known:
                raise TableError(f"unknown bot {b!r}; known: {', '.join(known)}")
        seed = _int("seed", 0, _M64, None)
        return cls(game, players, seat, preset, tuple(bots), seed)


def _value(v: object) -> object:
    """An observation value as JSON: card sets as lists of card names."""
    if isinstance(v, (CardSet, NancyCardSet)):
        return [str(c) for c in v]
    if isinstance(v, (Card, NancyCard)):
        return str(v)
    if isinstance(v, tuple):
        return [_value(x) for x in v]
    return v


def _card_of(name: str, cards: set[str]) -> str | None:
    hits = [w for w in name.split() if w in cards]
    return hits[0] if len(hits) == 1 else None


def view_message(view: PlayerView[Any], names: list[str], bots: list[str]) -> dict[str, Any]:
    """The message describing the table as ``view``'s seat sees it.

    Built from the view only: the typed observation, the legal actions with
    names (and the hand card each one plays, for clicking), the redacted
    events, the public scores and the table as text.
    """
    game = view.game
    obs = view.observation
    fields = {f.name: _value(getattr(obs, f.name)) for f in dataclasses.fields(obs)}
    hand = fields.get("hand")
    hand_names = set(hand) if isinstance(hand, list) else set()
    legal = [
        {"id": a, "name": n, "card": _card_of(n, hand_names)}
        for a, n in zip(view.legal_actions(), view.legal_action_names(), strict=True)
    ]
    return {
        "type": "view",
        "game": game.NAME,
        "title": type(game).__name__.removesuffix("Game"),
        "rules": game.rules.differences(),
        "players": view.num_players,
        "names": names,
        "bots": bots,
        "seat": view.seat,
        "deck": game.info["deck_size"],
        "current_player": view.current_player,
        "terminal": view.is_terminal,
        "observation": fields,
        "legal": legal,
        "events": [str(e) for e in view.events()[-40:]],
        "returns": view.returns(),
        "table": view.table(),
    }


class Table:
    """One game at the server: the real state, the person's seat and the bots."""

    def __init__(self, spec: TableSpec, seed: int) -> None:
        rules = None
        game_cls = load_game(spec.game)
        if spec.preset is not None:
            rules = game_cls.RULES_TYPE.presets()[spec.preset]
        self.game: Game[Any, Any] = load_game(spec.game, rules, spec.players)
        self.spec = spec
        self.seed = seed
        #: The secret that lets a browser act for the person's seat.
        self.token = secrets.token_urlsafe(16)
        self.id = secrets.token_urlsafe(8)
        self.state: State[Any] = self.game.new_initial_state(seed)
        self.seat = spec.seat
        others = [p for p in range(spec.players) if p != spec.seat]
        chosen = list(spec.bots) or [_default_bot()]
        if len(chosen) == 1:
            chosen = chosen * len(others)
        self.bots: dict[int, Bot] = {}
        self.bot_specs: list[str] = ["you"] * spec.players
        for i, (p, name) in enumerate(zip(others, chosen, strict=True)):
            self.bots[p] = make_bot(name, seed=(seed + 1 + i) & _M64)
            self.bots[p].reset((seed + 1 + i) & _M64)
            self.bot_specs[p] = name
        self.names = [
            "You" if p == spec.seat else f"{self.bot_specs[p]} bot" for p in range(spec.players)
        ]
        self.last_active = time.monotonic()

    @property
    def turn(self) -> int:
        """How many actions have been applied (a move names it to be current)."""
        return len(self.state.history)

    def message(self) -> dict[str, Any]:
        """The person's view of the table, with the turn number and table id."""
        msg = view_message(self.state.view(self.seat), self.names, self.bot_specs)
        msg["turn"] = self.turn
        msg["table_id"] = self.id
        return msg

    def person_move(self, action: object, turn: object) -> None:
        """Apply the person's move; :class:`TableError` (nothing changed) if it is
        forged, stale, out of turn or illegal."""
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise TableError(f"a move names the turn it answers (an int), got {turn!r}")
        if turn != self.turn:
            raise TableError(f"stale move: it answers turn {turn}, the table is at {self.turn}")
        if isinstance(action, bool) or not isinstance(action, int):
            raise TableError(f"an action is an int id, got {action!r}")
        if self.state.is_terminal:
            raise TableError("the game is over")
        try:
            self.state.apply(action, player=self.seat)
        except IllegalActionError as exc:
            raise TableError(str(exc)) from None
        self.last_active = time.monotonic()

    def bot_to_move(self) -> int | None:
        """The seat of the bot to act, or None (the person's turn or game over)."""
        p = self.state.current_player
        return p if p in self.bots else None

    def bot_move(self) -> int:
        """Let the bot to act choose and apply its action (run off the event loop)."""
        p = self.bot_to_move()
        if p is None:
            raise TableError("no bot is to act")
        action = self.bots[p].act(self.state.view(p))
        self.state.apply(action, player=p)
        return action

    def record(self) -> str:
        """The game's record as the person's seat may know it."""
        return write_record(self.state, viewer=self.seat, names=self.names)


class Tables:
    """The server's tables, dropped after ``idle_seconds`` without activity."""

    def __init__(self, idle_seconds: float = 1800.0, max_tables: int = 200) -> None:
        self.idle_seconds = idle_seconds
        self.max_tables = max_tables
        self._tables: dict[str, Table] = {}

    def create(self, spec: TableSpec) -> Table:
        """A new table (its seed from the spec, or fresh)."""
        self.drop_idle()
        if len(self._tables) >= self.max_tables:
            raise TableError("too many tables are open; try again later")
        seed = spec.seed if spec.seed is not None else secrets.randbits(63)
        table = Table(spec, seed)
        self._tables[table.id] = table
        return table

    def get(self, table_id: str, token: str) -> Table:
        """The table, if ``token`` is its secret (else :class:`TableError`)."""
        table = self._tables.get(table_id)
        if table is None or not secrets.compare_digest(table.token, token):
            raise TableError("no such table (it may have been dropped when idle)")
        table.last_active = time.monotonic()
        return table

    def drop_idle(self) -> int:
        """Drop the tables idle for longer than ``idle_seconds``; how many."""
        now = time.monotonic()
        idle = [k for k, t in self._tables.items() if now - t.last_active > self.idle_seconds]
        for k in idle:
            del self._tables[k]
        return len(idle)

    def __len__(self) -> int:
        return len(self._tables)

    def __iter__(self) -> Any:
        return iter(list(self._tables.values()))
