"""What the engine says about its games, and the registry of their Python classes.

This module is the bottom of the game layer: it reads the engine's tables
(:func:`game_info`, a :class:`GameInfo`), names the constants of the game
protocol, and keeps the registry of the :class:`pycards.game.Game` subclasses
by their engine name.  A game's class registers itself when its facade module
is imported (see :meth:`pycards.game.Game.__init_subclass__`).  The first call
of :func:`registered_games` loads the facade of every game the engine names
(``pycards.games.<name>``, when there is one), once: this is the one place where the
facades are found, by name, so nothing lists the games by hand.  (The facades
are not imported when :mod:`pycards` is: a facade reads the engine's
tables when it is imported, and a program that only scores hands need not
pay for it.)

The modules above (:mod:`pycards.game`, :mod:`pycards.record`,
:mod:`pycards.view`, the facades, the bots, the arena, the CLI) read the
games from here; this module imports none of them.

>>> from pycards.engine import game_info, registered_games
>>> sorted(registered_games())
['cribbage', 'nancy', 'nodde', 'notakers']
>>> info = game_info("nodde")
>>> info.min_players, info.max_players
(2, 4)
>>> info.params[0].name, info.event_kinds[-1].name
('four_player_mode', 'game_over')
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import threading
import types
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar, Literal

from cardcore import _core

if TYPE_CHECKING:
    from typing import TypeAlias

    from pycards.game import Game, Rules

    #: A game class of the registry (any rules, any observation).
    GameClass: TypeAlias = type[Game[Rules, object]]

__all__ = [
    "CHANCE",
    "SEEN_ALL",
    "TERMINAL",
    "ActionRange",
    "ArgKind",
    "EventKind",
    "GameInfo",
    "ParamInfo",
    "ParamKind",
    "Segment",
    "SegmentKind",
    "ValueKind",
    "find_game",
    "game_info",
    "offer_game",
    "offered_games",
    "read_segments",
    "register_game",
    "registered_games",
]

#: The "player" of a chance node (reserved; built-in games resolve chance internally).
CHANCE = -1
#: The "player" of a finished game.
TERMINAL = -4
#: ``seen_by`` value of a public event.
SEEN_ALL = 0xFFFFFFFF

#: The kind of a rules parameter: a bool, an int in a range, one of named
#: choices (stored as its index), or an int in a range or None.
ParamKind = Literal["bool", "int", "choice", "optional"]
#: What an event kind's value is: a card id, a number, or nothing.
ValueKind = Literal["number", "card", "none"]
#: What an action range's offset stands for in its name's ``{...}`` field.
ArgKind = Literal["none", "card", "number", "rank", "suit"]
#: How an observation segment encodes what it holds.
SegmentKind = Literal[
    "cards", "card", "one_hot", "number", "numbers", "seat_numbers", "seat_cards", "seat"
]


class _Record:
    """``record["field"]``, the dict access of the engine's description before
    it was typed: deprecated (one release), read the attribute instead."""

    __slots__ = ()
    # the field names (set by the dataclass decorator)
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __getitem__(self, key: str) -> object:
        if key not in self.__match_args__:
            raise KeyError(key)
        warnings.warn(
            f"{type(self).__name__}[{key!r}] is deprecated; read the attribute "
            f"{type(self).__name__}.{key}",
            DeprecationWarning,
            stacklevel=2,
        )
        value: object = getattr(self, key)
        return value


@dataclasses.dataclass(frozen=True, slots=True)
class ParamInfo(_Record):
    """One rules parameter, as the engine's table describes it.

    :ivar name: the field name (also the rules dataclass field).
    :ivar kind: ``"bool"``, ``"int"``, ``"choice"`` or ``"optional"``.
    :ivar min: the least value (of an int or optional int; 0 for the others).
    :ivar max: the greatest value (the last choice's index for a choice).
    :ivar default: the default, as the engine stores it (a choice's index;
        ``none_value`` for an optional int that is None).
    :ivar none_value: what stands for None in the engine's array (optional ints).
    :ivar choices: the names of the choices, in index order (empty unless a choice).
    :ivar doc: one line saying what the parameter does.
    """

    name: str
    kind: ParamKind
    min: int
    max: int
    default: int
    none_value: int
    choices: tuple[str, ...]
    doc: str


@dataclasses.dataclass(frozen=True, slots=True)
class EventKind(_Record):
    """One kind of event of a game's log (kinds are numbered from 0).

    :ivar name: the kind's name (e.g. ``"play"``).
    :ivar value: what the event's value is: ``"card"``, ``"number"`` or ``"none"``.
    :ivar doc: one line saying what the event's fields mean.
    """

    name: str
    value: ValueKind
    doc: str


@dataclasses.dataclass(frozen=True, slots=True)
class ActionRange(_Record):
    """A run of action ids named by one template.

    Action ``first + off`` (``0 <= off < count``) is named ``name`` with its
    ``{card}``, ``{number}``, ``{rank}`` or ``{suit}`` field (``arg``) filled
    from ``off`` (a number is ``base + off``).  With a ``stride``, the range
    repeats for seats ``1..n-1`` (``{seat}``), ``stride`` ids apart.

    :ivar name: the name template (e.g. ``"play {card}"``).
    :ivar first: the first action id.
    :ivar count: how many actions (per seat, with a stride).
    :ivar arg: the kind of the field the offset fills.
    :ivar base: the number of offset 0 (``arg == "number"``).
    :ivar stride: the distance between the seats' runs (0: no seats).
    """

    name: str
    first: int
    count: int
    arg: ArgKind
    base: int
    stride: int


@dataclasses.dataclass(frozen=True, slots=True)
class Segment(_Record):
    """A named segment of the observation tensor (it depends on the rules and
    the player count: :attr:`pycards.game.Game.segments`).

    :ivar name: the segment's name (a field of the game's observation).
    :ivar offset: where it starts in the tensor.
    :ivar length: how many values it holds.
    :ivar kind: how it encodes them.
    :ivar scale: the divisor of a number segment's values (1: none).
    :ivar seat0: for a per-seat segment, whether it starts at seat 0 (else at
        the observer).
    :ivar doc: one line saying what it holds.
    """

    name: str
    offset: int
    length: int
    kind: SegmentKind
    scale: float
    seat0: int
    doc: str


@dataclasses.dataclass(frozen=True, slots=True)
class GameInfo(_Record):
    """Everything the engine's table says about a game, read once
    (:func:`game_info`).

    :ivar name: the engine's name of the game.
    :ivar abi: the table's layout version (the engine's ``CC_ABI_VERSION``).
    :ivar min_players: the fewest players.
    :ivar max_players: the most players.
    :ivar deck_size: the cards of the game's deck (ids ``0..deck_size - 1``).
    :ivar state_size: the bytes of one engine state.
    :ivar log_capacity: the events a state's log keeps.
    :ivar num_params: the length of the rules array.
    :ivar params: the rules parameters, in engine order.
    :ivar event_kinds: the event kinds, by kind id.
    :ivar action_ranges: the named runs of action ids.
    :ivar can_stack_deck: whether a deal may be stacked (``deck=``).
    """

    name: str
    abi: int
    min_players: int
    max_players: int
    deck_size: int
    state_size: int
    log_capacity: int
    num_params: int
    params: tuple[ParamInfo, ...]
    event_kinds: tuple[EventKind, ...]
    action_ranges: tuple[ActionRange, ...]
    can_stack_deck: bool

    def param(self, name: str) -> ParamInfo:
        """The parameter called ``name``; ``KeyError`` if there is none."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def event_names(self) -> tuple[str, ...]:
        """The names of the event kinds, by kind id."""
        return tuple(k.name for k in self.event_kinds)


# engine name -> the Game subclass of that name
_GAMES: dict[str, GameClass] = {}
_REGISTERED: Mapping[str, GameClass] = types.MappingProxyType(_GAMES)
_LOADED = threading.Event()
_LOADING = threading.RLock()
# defined games offered by name, registered on first use: name -> registrar
_OFFERED: dict[str, Callable[[], GameClass]] = {}


@functools.cache
def game_info(name: str) -> GameInfo:
    """The engine's description of the game ``name``: players, deck and the
    tables of parameters, event kinds and action ranges (read once: the same
    :class:`GameInfo` every call).  ``ValueError`` for an unknown game."""
    raw = _core.game_info(name)
    return GameInfo(
        name=raw["name"],
        abi=raw["abi"],
        min_players=raw["min_players"],
        max_players=raw["max_players"],
        deck_size=raw["deck_size"],
        state_size=raw["state_size"],
        log_capacity=raw["log_capacity"],
        num_params=raw["num_params"],
        params=tuple(ParamInfo(**d) for d in raw["params"]),
        event_kinds=tuple(EventKind(**d) for d in raw["event_kinds"]),
        action_ranges=tuple(ActionRange(**d) for d in raw["action_ranges"]),
        can_stack_deck=raw["can_stack_deck"],
    )


def read_segments(setup: _core.GameSetup) -> tuple[Segment, ...]:
    """The observation segments of a game setup (the binding's
    ``GameSetup.segments()``), as records."""
    return tuple(Segment(**d) for d in setup.segments())


def register_game(cls: GameClass) -> None:
    """Register ``cls`` (a :class:`pycards.game.Game` subclass) under its
    ``NAME``; a later class of the same name replaces it."""
    _GAMES[cls.NAME] = cls


def registered_games() -> Mapping[str, GameClass]:
    """The registered game classes by engine name (a live, read-only view);
    the first call loads the facade of every engine game."""
    if not _LOADED.is_set():
        _load_facades()
    return _REGISTERED


def offer_game(name: str, register: Callable[[], GameClass]) -> None:
    """Offer the game ``name``: :func:`find_game` calls ``register`` (which
    registers the game and returns its class) the first time the name is asked
    for.  :mod:`pycards.define` offers its ports so (a *defined* game: one
    described in Python, with no facade module of its own)."""
    _OFFERED[name] = register


def offered_games() -> frozenset[str]:
    """The names of the games offered by :func:`offer_game` and not registered
    yet (the first call loads the facades, as :func:`registered_games`)."""
    games = registered_games()
    return frozenset(name for name in _OFFERED if name not in games)


def find_game(name: str) -> GameClass:
    """The registered game class ``name``, registering an offered game
    (:func:`offer_game`) on first use; ``ValueError`` naming the known games
    if there is none."""
    games = registered_games()
    cls = games.get(name)
    if cls is not None:
        return cls
    with _LOADING:
        register = _OFFERED.get(name)
        if register is not None:
            return register()
    known = sorted({*games, *_OFFERED})
    raise ValueError(f"unknown game {name!r}; known: {known}")


def _load_facades() -> None:
    with _LOADING:
        if _LOADED.is_set():
            return
        for name in _core.game_names():
            try:
                importlib.import_module(f"pycards.games.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"pycards.games.{name}":
                    raise
        # the catalogue of defined games (pycards.define offers its ports)
        importlib.import_module("pycards.define")
        _LOADED.set()
