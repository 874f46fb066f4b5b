"""The generic game and state API shared by every game.

The engine describes each game in tables (its rules parameters, event kinds,
action ranges and observation segments); this module reads them, so that
rules validation, action names, event names, observation decoding and
stacked-deck checks are written once here for every game.

A game is a :class:`Game` subclass (one per game module) bound to a rules
object and a player count; :meth:`Game.new_initial_state` deals a seeded
:class:`State`.  A state wraps the engine's state and adds the action verbs
in the can/verify/apply style, typed observations, readable event logs, a text
table (``str(state)``), JSON serialization, copying and pickling, and
information-set sampling.

Seats are numbered ``0..n-1`` in the direction of play.  :data:`TERMINAL` is
the "player" of a finished game; chance events (deals) are resolved inside the
state by its own seeded generator, so :data:`CHANCE` never comes up for the
built-in games.  See ``docs/internals.rst`` for the conventions every game
follows.

The player's view (:mod:`pycards.view`) sits below this module: it names
this module's types for type checking only, so a state makes views without
an import cycle.  The text records (:mod:`pycards.record`) sit above it and
use a state through its public API, as ``chess.pgn`` does a board.  The engine's tables and the
registry of games are :mod:`pycards.engine`.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeAlias, TypeVar, cast

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards._args import JSONObject, JSONValue
from pycards._args import as_int as _as_int
from pycards._args import echo as _echo
from pycards.cards import Card, CardSet, NancyCard, NancyCardSet
from pycards.engine import (
    CHANCE,
    SEEN_ALL,
    TERMINAL,
    ActionRange,
    GameInfo,
    ParamInfo,
    Segment,
    find_game,
    game_info,
    read_segments,
    register_game,
    registered_games,
)
from pycards.errors import (
    EventsDroppedError,
    EventsRewrittenError,
    IllegalActionError,
    InvalidCardError,
    PycardsError,
    RecordError,
    RulesError,
)
from pycards.view import PlayerView

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from pycards.narrate import Narrator, Template
    from pycards.summary import Summarizer

__all__ = [
    "CHANCE",
    "REFEREE",
    "SEEN_ALL",
    "TERMINAL",
    "Event",
    "EventCursor",
    "Game",
    "HandQuery",
    "Rules",
    "State",
    "game_names",
    "has_score_distribution",
    "load_game",
    "parse_rules",
]

#: The viewer who sees every value of every event (never a ``current_player``):
#: ``state.events(REFEREE)``; ``None`` is the spectator, who sees public values only.
REFEREE = -2
#: Undo keeps a snapshot of the engine state every this many actions.
_UNDO_STRIDE = 16

_M64 = (1 << 64) - 1
_RANKS = "A23456789TJQK"
_SUITS = "CDHS"
_RECORD_FORMAT = "pycards-state/1"
# what an action name may hold: printable ASCII, spaces and tabs
_ASCII_NAME = re.compile(r"[\x20-\x7e\t]*")

#: The observation type of a game, state or view: covariant, so that code taking
#: any game's state says ``State[object]`` (a state's observations are only read).
ObsT_co = TypeVar("ObsT_co", covariant=True)
#: The value of one rules field: a bool, an int, a choice's name, or None
#: (an optional int left unset).
RulesValue: TypeAlias = bool | int | str | None
#: The value of one search option in a game's defaults (a number or a name).
SearchValue: TypeAlias = int | float | str
#: A game's search defaults: options of both bots, and under ``"pimc"`` and
#: ``"ismcts"`` options of one (:attr:`Game.SEARCH_DEFAULTS`).
SearchDefaults: TypeAlias = Mapping[str, "SearchValue | Mapping[str, SearchValue]"]
#: The rules type of a game: covariant (a game's rules are only read), so
#: ``Game[Rules, object]`` is any game.
#: What :meth:`Game._observation_plan` gives the binding: the segment names,
#: and the card-set and card constructors.
_Plan: TypeAlias = tuple[tuple[str, ...], Callable[[int], object], Callable[[int], object]]
RulesT_co = TypeVar("RulesT_co", bound="Rules", covariant=True)

# ---------------------------------------------------------------------------
# rules


class Rules:
    """Base of the rules dataclasses: validation, the engine array and the repr
    come from the engine's table of parameters.

    A subclass is a frozen dataclass (``repr=False``) whose fields are the
    game's parameters, with the engine's names, order and defaults, and sets
    :attr:`GAME`.  Field types by parameter kind: ``bool``; ``int`` in a range;
    a choice, as one of its names (``str``); an optional ``int`` (``None`` or in
    a range).  Presets are classmethods named after their sources, listed in
    :attr:`PRESETS`.
    """

    #: The engine's name of the game.
    GAME: ClassVar[str]
    #: Names of the preset classmethods.
    PRESETS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def parameters(cls) -> tuple[ParamInfo, ...]:
        """The engine's description of each parameter (name, kind, range,
        choices, default, doc), in engine order."""
        return game_info(cls.GAME).params

    def __post_init__(self) -> None:
        for d in self.parameters():
            name = d.name
            value = getattr(self, name)
            fixed = self._checked(d, value)
            if fixed is not value:
                object.__setattr__(self, name, fixed)

    @staticmethod
    def _checked(d: ParamInfo, value: object) -> object:
        name, kind, lo, hi = d.name, d.kind, d.min, d.max
        if kind == "bool":
            if not isinstance(value, (bool, np.bool_)):
                raise RulesError(f"{name} must be a bool, got {value!r}")
            return bool(value)
        if kind == "choice":
            if not isinstance(value, str) or value not in d.choices:
                options = ", ".join(repr(c) for c in d.choices)
                raise RulesError(f"{name} must be one of {options}, got {value!r}")
            return value
        if kind == "optional" and value is None:
            return None
        prefix = "None or " if kind == "optional" else ""
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise RulesError(f"{name} must be {prefix}an int {lo}..{hi}, got {value!r}")
        if not lo <= int(value) <= hi:
            raise RulesError(f"{name} must be {prefix}an int {lo}..{hi}, got {value!r}")
        return int(value)

    def to_params(self) -> tuple[int, ...]:
        """The engine's rules array (see the game's page for the order)."""
        out = []
        for d in self.parameters():
            value = getattr(self, d.name)
            if d.kind == "choice":
                out.append(d.choices.index(value))
            elif value is None:
                out.append(d.none_value)
            else:
                out.append(int(value))
        return tuple(out)

    @classmethod
    def from_params(cls: type[_R], params: Sequence[int]) -> _R:
        """The rules of an engine array (the inverse of :meth:`to_params`)."""
        values: dict[str, RulesValue] = {}
        for d, v in zip(cls.parameters(), params, strict=True):
            if d.kind == "choice":
                values[d.name] = d.choices[v] if 0 <= v < len(d.choices) else v
            elif d.kind == "bool":
                values[d.name] = bool(v) if v in (0, 1) else v
            elif d.kind == "optional" and v == d.none_value:
                values[d.name] = None
            else:
                values[d.name] = v
        return cls(**values)

    def to_dict(self) -> dict[str, RulesValue]:
        """The rules as a JSON-friendly dict (every field)."""
        return {d.name: getattr(self, d.name) for d in self.parameters()}

    @classmethod
    def from_dict(cls: type[_R], data: object) -> _R:
        """Rules from :meth:`to_dict` (fields left out keep their defaults); an
        unknown field or a value of the wrong type raises :class:`RulesError`."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a dict, got {type(data).__name__}")
        names = {d.name for d in cls.parameters()}
        for key in data:
            if key not in names:
                raise RulesError(f"unknown rules field {key!r}; known: {sorted(names)}")
        for d in cls.parameters():
            if d.name in data and isinstance(data[d.name], float):
                raise RulesError(f"{d.name} must not be a float, got {data[d.name]!r}")
        return cls(**data)

    def differences(self) -> dict[str, RulesValue]:
        """The fields that differ from the defaults."""
        default = type(self)()
        return {
            d.name: getattr(self, d.name)
            for d in self.parameters()
            if getattr(self, d.name) != getattr(default, d.name)
        }

    @classmethod
    def presets(cls: type[_R]) -> dict[str, _R]:
        """The named presets of :attr:`PRESETS`, built."""
        return {name: getattr(cls, name)() for name in cls.PRESETS}

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self.differences().items())
        return f"{type(self).__name__}({fields})"


_R = TypeVar("_R", bound=Rules)


# ---------------------------------------------------------------------------
# events


@dataclasses.dataclass(frozen=True)
class EventCursor:
    """A place in a state's event log that remembers which log it was taken
    from (:attr:`State.cursor`): :meth:`State.events` refuses it with
    :class:`~pycards.errors.EventsRewrittenError` once an undo rewrote the
    log at or before its place, where a plain index would silently skip the
    new events.

    :ivar index: the index of the next event (the state's ``event_count`` then).
    :ivar generation: the state's :attr:`~State.log_generation` then.
    """

    index: int
    generation: int


@dataclasses.dataclass(frozen=True)
class Event:
    """One entry of a state's event log, as one viewer may see it.

    :ivar kind: the event kind's name (game-specific, e.g. ``"play"``).
    :ivar kind_id: the numeric kind (kinds are numbered from 0).
    :ivar player: the acting seat (or -1).
    :ivar target: another seat concerned (or -1).
    :ivar value: a card id, bid or points; ``None`` when hidden from the viewer.
    :ivar extra: a public detail (game-specific).
    :ivar card: the card's name when ``value`` is a card the viewer may see.
    :ivar index: the event's place in everything the state ever logged, from 0
        (the same for every viewer; ``-1`` when unknown): the cursor of
        :meth:`State.events`.  Two events compare by what they say, not by
        their index.
    :ivar has_value: whether the kind has a value at all (its ``value`` is
        ``"card"`` or ``"number"`` in ``game_info(name).event_kinds``); the
        value of a kind without one (``"none"``) is not printed.
    """

    kind: str
    kind_id: int
    player: int
    target: int
    value: int | None
    extra: int
    card: str | None = None
    index: int = dataclasses.field(default=-1, compare=False)
    has_value: bool = dataclasses.field(default=True, compare=False, repr=False)

    def __str__(self) -> str:
        who = f"seat {self.player} " if self.player >= 0 else ""
        if not self.has_value:
            return f"{who}{self.kind}"
        shown = self.card if self.card is not None else ("?" if self.value is None else self.value)
        return f"{who}{self.kind} {shown}".rstrip()


# ---------------------------------------------------------------------------
# games


@dataclasses.dataclass(frozen=True)
class HandQuery:
    """What :meth:`Game.score_distribution` is asked: the size and seed of a
    sample of random hands (where the game cannot count every hand), and
    whether a show is scored as a crib (in a game that has one)."""

    #: hands to sample
    hands: int = 200_000
    #: cards per sampled hand
    cards: int = 8
    #: the seed of the sample
    seed: int = 2026
    #: score the show as a crib
    crib: bool = False


class Game(Generic[RulesT_co, ObsT_co]):
    """A game bound to its rules and number of players.

    Subclasses set :attr:`NAME` (the engine's name of the game),
    :attr:`RULES_TYPE`, :attr:`OBSERVATION_TYPE` and :attr:`CARD_TYPE`, and
    implement :meth:`render`.  Everything else is read from the engine's tables.
    """

    NAME: ClassVar[str]
    #: The game's title, as people write it (its docs page's title: "No
    #: Takers?"); the tables show it.
    TITLE: ClassVar[str] = ""
    RULES_TYPE: ClassVar[type[Rules]]
    #: The observation dataclass: ``player`` then one field per tensor segment.
    OBSERVATION_TYPE: ClassVar[type[DataclassInstance]]
    #: The card type of the game's deck (names in actions, events and stacked decks).
    CARD_TYPE: ClassVar[type[Card] | type[NancyCard]] = Card
    #: The event kinds that are chance (deals, draws, turn-ups): a record and
    #: the terminal show them as deal lines (:mod:`pycards.record`).
    DEAL_KINDS: ClassVar[frozenset[str]] = frozenset(
        {"deal", "deal_card", "draw", "turnup", "starter", "cut"}
    )
    #: Where a dealt card goes, for an event kind whose target names a place
    #: (shown in parentheses after the seat): the places by target, per kind.
    DEAL_PLACES: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: The options of the built-in PIMC and ISMCTS bots in this game unless
    #: told otherwise (docs/search.rst, "Defaults"): options of both, and
    #: under the keys ``"pimc"`` and ``"ismcts"`` options of one kind.
    SEARCH_DEFAULTS: ClassVar[SearchDefaults] = {}
    #: The spec of the game's strongest built-in bot at no more than 20 ms a
    #: move on one core, which the bot ``best`` plays (docs/bots.rst, "The
    #: best bot").
    BEST_BOT: ClassVar[str] = "heuristic"
    #: Why a game of this game may never end, said when the action cap of the
    #: arena or an environment stops one (:func:`pycards.playouts.action_cap`);
    #: empty if nothing is known.
    STALL_NOTE: ClassVar[str] = ""
    #: In a game that is a race to a target score, the rules field that holds
    #: the target (the win tables of :mod:`pycards.bots.value`); else None.
    RACE_TARGET: ClassVar[str | None] = None
    #: The rules in plain words (reST sections under ``.. rubric::`` titles,
    #: as ``pycards/games/rules/<name>.rst``) of a game that has no such file
    #: (a defined game writes them from its description); ``None``: the file.
    RULES_TEXT: ClassVar[str | None] = None
    #: The narration templates, by event kind (:mod:`pycards.narrate`); a kind
    #: without one is told from the engine's description of it.
    NARRATION: ClassVar[Mapping[str, Template]] = {}
    #: The game's :class:`pycards.narrate.Narrator` subclass (``None``: the
    #: generic one): what a score is for, and what the narrator remembers.
    NARRATOR: ClassVar[type[Narrator] | None] = None
    #: The game's :class:`pycards.summary.Summarizer` subclass (``None``: the
    #: game has no summaries): the round and game summaries.
    SUMMARIZER: ClassVar[type[Summarizer] | None] = None

    def table_notes(self, observation: object) -> JSONObject:
        """What a table shows of the deal beyond the observation's fields, as
        JSON-friendly values in words, computed from one seat's ``observation``
        alone (so it tells nothing that seat may not see); the browser table
        (:mod:`pycards.ui.web.tables`) shows it.  The default: nothing.

        ``observation`` is one of this game's observations (its
        :attr:`OBSERVATION_TYPE`; typed ``object`` because the game is covariant
        in its observation type); an override checks it with ``isinstance``."""
        del observation
        return {}

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "NAME" in cls.__dict__:
            register_game(cls)

    def __init__(self, rules: RulesT_co | str | None = None, num_players: int = 2) -> None:
        given: Rules | str | None = rules
        if given is None:
            given = self.RULES_TYPE()
        elif isinstance(given, str):
            presets = self.RULES_TYPE.PRESETS
            if given not in presets:
                known = ", ".join(presets) or "none"
                raise RulesError(f"{self.NAME}: no rules preset {given!r}; presets: {known}")
            given = getattr(self.RULES_TYPE, given)()
        if not isinstance(given, self.RULES_TYPE):
            raise TypeError(
                f"{self.NAME}: rules must be {self.RULES_TYPE.__name__}, got {type(given).__name__}"
            )
        info = game_info(self.NAME)
        lo, hi = info.min_players, info.max_players
        if isinstance(num_players, (bool, np.bool_)) or not isinstance(
            num_players, (int, np.integer)
        ):
            raise TypeError(f"num_players must be an int, got {type(num_players).__name__}")
        num_players = int(num_players)
        if not lo <= num_players <= hi:
            raise RulesError(f"{self.NAME}: {num_players} players not supported ({lo} to {hi})")
        # an instance of RULES_TYPE, checked above: the game's RulesT_co, which a
        # ClassVar cannot name
        self._rules = cast("RulesT_co", given)
        self.num_players: int = num_players
        self.params: tuple[int, ...] = tuple(given.to_params())
        self._setup = _core.GameSetup(self.NAME, self.params, num_players)
        #: Size of the action space (action ids are ``0..num_actions - 1``).
        self.num_actions: int = self._setup.num_actions
        #: Length of the observation tensor.
        self.tensor_size: int = self._setup.tensor_size
        #: The named segments of the observation tensor (offset, length, kind, doc).
        self.segments: tuple[Segment, ...] = read_segments(self._setup)
        self._names: list[str] | None = None
        self._ids: dict[str, int] | None = None
        self._plan: _Plan | None = None
        self._observation_defaults: dict[str, object] = {
            f.name: f.default
            for f in dataclasses.fields(self.OBSERVATION_TYPE)
            if f.default is not dataclasses.MISSING
        }

    @property
    def rules(self) -> RulesT_co:
        """The rules the game is bound to."""
        return self._rules

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules!r}, num_players={self.num_players})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and type(other) is type(self)
            and other.rules == self.rules
            and other.num_players == self.num_players
        )

    def __hash__(self) -> int:
        return hash((type(self), self.rules, self.num_players))

    def __reduce__(self) -> tuple[type[Game[RulesT_co, ObsT_co]], tuple[RulesT_co, int]]:
        return (type(self), (self.rules, self.num_players))

    @property
    def info(self) -> GameInfo:
        """The engine's description of the game (players, deck, tables)."""
        return game_info(self.NAME)

    # -- new states -----------------------------------------------------------
    def new_initial_state(
        self, seed: int = 0, deck: Sequence[int | str] | str | None = None
    ) -> State[ObsT_co]:
        """A new game dealt from ``seed`` (0 to 2**64 - 1).

        ``deck`` stacks the first deal: every card of the game's deck, top
        first, as cards, ids or names, or one string of names (for replaying a
        real table or setting up a position); later deals are shuffled from
        ``seed``.
        """
        seed = _as_int(seed, "seed", 0, _M64)
        ids = None if deck is None else self.deck_ids(deck)
        backend = self._setup.new_state(seed, ids)
        return State(self, backend, seed, ids)

    def deck_ids(self, deck: Sequence[int | str | Card | NancyCard] | str) -> list[int]:
        """A stacked deck as card ids: every card of the game's deck exactly once
        (cards, ids or names; or one string of names, separated by spaces, or by
        commas when the names have spaces).  :class:`InvalidCardError` names a
        card that is unknown, repeated or missing."""
        card_type = self.CARD_TYPE
        size = game_info(self.NAME).deck_size
        if isinstance(deck, str):
            sep = r"[,;]" if ("," in deck or ";" in deck) else r"\s+"
            deck = [t.strip() for t in re.split(sep, deck) if t.strip()]
        if isinstance(deck, (bytes, Mapping)) or not isinstance(deck, Sequence):
            raise TypeError(f"deck must be a sequence of cards, got {type(deck).__name__}")
        ids: list[int] = []
        seen: set[int] = set()
        for i, c in enumerate(deck):
            if isinstance(c, str):
                card = int(card_type.parse(c))
            elif isinstance(c, (Card, NancyCard)) and not isinstance(c, card_type):
                raise InvalidCardError(
                    f"deck[{i}]: {c!s} is a {type(c).__name__}, not a {card_type.__name__}"
                )
            else:
                card = _as_int(c, f"deck[{i}]", -(1 << 63), 1 << 63)
                if not 0 <= card < size:
                    raise InvalidCardError(f"deck[{i}]: no card has id {card} (0..{size - 1})")
            if card in seen:
                raise InvalidCardError(f"deck: {card_type(card)!s} is placed twice", str(c))
            seen.add(card)
            ids.append(card)
        if len(ids) != size:
            missing = [str(card_type(c)) for c in range(size) if c not in seen]
            raise InvalidCardError(
                f"deck: {len(ids)} cards, the game's deck has {size} (missing {' '.join(missing)})"
            )
        return ids

    def _stacking_dealer(self, dealer: int | None) -> int:
        """The dealer a stacked deck is built for: ``dealer``, else the rules'
        ``first_dealer``; ``ValueError`` if neither names a seat."""
        if dealer is None:
            dealer = getattr(self.rules, "first_dealer", None)
        if dealer is None:
            raise ValueError("stacked_deck: name the dealer (or fix first_dealer in the rules)")
        return _as_int(dealer, "dealer", 0, self.num_players - 1)

    # -- names ----------------------------------------------------------------
    def _card_name(self, card: int) -> str:
        return str(self.CARD_TYPE(card))

    def _build_names(self) -> list[str]:
        names = [""] * self.num_actions
        for r in game_info(self.NAME).action_ranges:
            seats = range(1, self.num_players) if r.stride else [0]
            for k in seats:
                first = r.first + (k - 1) * r.stride if r.stride else r.first
                for off in range(r.count):
                    a = first + off
                    if 0 <= a < self.num_actions:
                        names[a] = self._format(r, k, off)
        return names

    def _format(self, r: ActionRange, seat: int, off: int) -> str:
        arg = r.arg
        values = {"seat": str(seat)}
        if arg == "card":
            values["card"] = self._card_name(off)
        elif arg == "number":
            values["number"] = str(r.base + off)
        elif arg == "rank":
            values["rank"] = _RANKS[off]
        elif arg == "suit":
            values["suit"] = _SUITS[off]
        text = r.name
        for key, val in values.items():
            text = text.replace("{" + key + "}", val)
        return text

    def _action_names(self) -> list[str]:
        if self._names is None:
            self._names = self._build_names()
            self._ids = {" ".join(n.lower().split()): a for a, n in enumerate(self._names) if n}
        return self._names

    def action_name(self, action: int) -> str:
        """The readable name of an action id (e.g. ``"play 7H"``)."""
        a = _as_int(action, "action", 0, self.num_actions - 1)
        name = self._action_names()[a]
        return name or f"action {a}"

    def action_from_name(self, name: str) -> int:
        """The action id of a readable name (cards by any name the card type
        parses); ``ValueError`` naming the text if there is none.

        Names are ASCII and case-insensitive (``"Pass"`` is ``"pass"``, as
        ``"kh"`` is ``"KH"``); words are separated by spaces or tabs.  A
        look-alike (a Kelvin sign for ``K``, a full-width digit or space) is
        refused, not folded into its ASCII twin."""
        if not isinstance(name, str):
            raise TypeError(f"an action name is a str, got {type(name).__name__}")
        if not _ASCII_NAME.fullmatch(name):
            bad = next(ch for ch in name if not _ASCII_NAME.fullmatch(ch))
            raise ValueError(
                f"{self.NAME}: unknown action name {_echo(name)} ({bad!a} is not an ASCII "
                "letter, digit, sign or space)"
            )
        self._action_names()
        assert self._ids is not None
        key = " ".join(name.lower().split())
        if key in self._ids:
            return self._ids[key]
        for r in game_info(self.NAME).action_ranges:
            a = self._parse_in_range(r, key)
            if a is not None:
                return a
        raise ValueError(f"{self.NAME}: unknown action name {_echo(name)}")

    def _parse_in_range(self, r: ActionRange, key: str) -> int | None:
        pattern = re.escape(" ".join(r.name.lower().split()))
        for field, rx in (
            ("card", r"(?P<card>.+?)"),
            ("number", r"(?P<number>-?\d+)"),
            ("rank", r"(?P<rank>\w+)"),
            ("suit", r"(?P<suit>\w)"),
            ("seat", r"(?P<seat>\d+)"),
        ):
            pattern = pattern.replace(re.escape("{" + field + "}"), rx)
        m = re.fullmatch(pattern, key, re.ASCII)
        if m is None:
            return None
        groups = m.groupdict()
        try:
            if "card" in groups:
                off = int(self.CARD_TYPE.parse(groups["card"]))
            elif "number" in groups:
                off = int(groups["number"]) - r.base
            elif "rank" in groups:
                rank = groups["rank"].upper().replace("10", "T")
                off = _RANKS.index(rank) if len(rank) == 1 else -1
            elif "suit" in groups:
                off = _SUITS.index(groups["suit"].upper())
            else:
                off = 0
        except (InvalidCardError, ValueError):
            return None
        if not 0 <= off < r.count:
            return None
        first = r.first
        if r.stride:
            seat = int(groups.get("seat", "0"))
            if not 1 <= seat < self.num_players:
                return None
            first += (seat - 1) * r.stride
        return int(first + off)

    def event_kind_name(self, kind: int) -> str:
        """The name of an event kind id."""
        kinds = game_info(self.NAME).event_kinds
        return kinds[kind].name if 0 <= kind < len(kinds) else f"kind {kind}"

    def make_event(
        self, raw: tuple[int, int, int, int, int, int], viewer: int | None, index: int = -1
    ) -> Event:
        """An engine event tuple as ``viewer`` (a seat, ``None`` for a spectator or
        :data:`REFEREE`) may see it; ``index`` is its place in the whole log."""
        kind, who, target, value, extra, seen_by = raw
        bit = 0 if viewer is None or viewer < 0 else 1 << viewer
        visible = viewer == REFEREE or seen_by == SEEN_ALL or bool(seen_by & bit)
        kinds = game_info(self.NAME).event_kinds
        known = 0 <= kind < len(kinds)
        is_card = known and kinds[kind].value == "card"
        card = self._card_name(value) if visible and is_card and value >= 0 else None
        return Event(
            self.event_kind_name(kind),
            kind,
            who,
            target,
            value if visible else None,
            extra,
            card,
            index,
            not known or kinds[kind].value != "none",
        )

    # -- observations -----------------------------------------------------------
    def _observation_plan(
        self,
    ) -> _Plan:
        """The segment names, and the card-set and card constructors the binding
        applies to the bitsets and card ids it decodes."""
        if self._plan is None:
            names = tuple(s.name for s in self.segments)
            if self.CARD_TYPE is NancyCard:
                self._plan = (names, NancyCardSet, NancyCard)
            else:
                self._plan = (names, CardSet, Card)
        return self._plan

    def decode_observation(self, state: State[ObsT_co], player: int) -> ObsT_co:
        """The typed observation of ``player``, decoded from the tensor's segments."""
        names, cards, card = self._observation_plan()
        # the dataclass is frozen: its fields are filled without one __setattr__ each
        # (the game's OBSERVATION_TYPE is its ObsT_co, which a ClassVar cannot say)
        obs = cast("ObsT_co", object.__new__(self.OBSERVATION_TYPE))
        fields = obs.__dict__
        if self._observation_defaults:
            fields.update(self._observation_defaults)
        fields["player"] = player
        state._s.observation_into(player, obs, names, cards, card)
        return obs

    # -- the text table ---------------------------------------------------------
    def render(self, state: State[ObsT_co], viewer: int | None) -> str:
        """The table as text, as ``viewer`` sees it (``None``: the referee, who
        sees every seat's cards).  Games override this with their own layout;
        this default lists each seat's observation."""
        seats = range(self.num_players) if viewer is None else [viewer]
        lines = [f"{self.NAME}, {self.num_players} players, {_turn(state)}"]
        for p in seats:
            lines.append(f"seat {p}: {state.observation(p)}")
        lines.append("scores: " + " ".join(str(x) for x in state.returns()))
        return "\n".join(lines)

    # -- hand scores ------------------------------------------------------------
    def score_distribution(
        self, query: HandQuery | None = None, progress: Callable[[int], None] | None = None
    ) -> tuple[npt.NDArray[np.int64], str]:
        """The distribution of the game's hand scores under its rules (the
        ``pycards distribution`` command): the count of hands by points, and
        how they were counted (exact, or sampled and from what).

        A game whose hands have a score overrides this (see
        :func:`has_score_distribution`).  ``query`` (default: ``HandQuery()``)
        sizes and seeds a sample, which an exact count does without;
        ``progress`` is told the hands done so far
        in a long count.

        :raises NotImplementedError: the game's hands have no score.
        """
        raise NotImplementedError(f"{self.NAME} has no hand score to distribute")

    # -- serialization ----------------------------------------------------------
    def rules_to_dict(self) -> dict[str, RulesValue]:
        """The rules as a JSON-friendly dict."""
        return self.rules.to_dict()

    @classmethod
    def rules_from_dict(cls, data: object) -> Rules:
        """Rebuild a rules object from :meth:`rules_to_dict` (strict)."""
        return cls.RULES_TYPE.from_dict(data)


def _turn(state: State[object]) -> str:
    return "game over" if state.is_terminal else f"seat {state.current_player} to act"


def has_score_distribution(cls: type[Game[Rules, object]]) -> bool:
    """Whether game class ``cls`` gives :meth:`Game.score_distribution`."""
    return cls.score_distribution is not Game.score_distribution


def game_names() -> list[str]:
    """Names of the engine's games that have a Python facade."""
    return sorted(registered_games())


def load_game(
    name: str, rules: Rules | str | None = None, num_players: int | None = None
) -> Game[Rules, object]:
    """The game called ``name`` (see :func:`game_names`), with ``rules``: its
    rules object, the name of one of its presets (exactly a name of its rules'
    ``PRESETS``; another name raises :class:`~pycards.errors.RulesError`
    listing them), or ``None`` for the defaults; ``num_players`` ``None``
    seats the fewest players the game allows.

    >>> load_game("notakers", "capped").rules.max_turns
    200
    """
    if not isinstance(name, str):
        raise TypeError(f"a game name is a str, got {type(name).__name__}")
    cls: type[Game[Rules, object]] = find_game(name)
    if num_players is None:
        num_players = game_info(name).min_players
    return cls(rules, num_players)


def parse_rules(name: str, text: str, what: str = "rules") -> Rules:
    """The rules of the game ``name`` from text, as the command line takes
    them: the name of one of its presets, or a JSON object of rules fields
    (fields left out keep their defaults).  A bad text raises
    :class:`~pycards.errors.RulesError` naming ``what`` (e.g. ``"--rules"``):
    an unknown preset (the presets are listed), JSON that is not an object, an
    unknown field or a wrong value.

    >>> parse_rules("notakers", "capped").max_turns
    200
    >>> parse_rules("notakers", '{"max_turns": 400}').max_turns
    400
    """
    if not isinstance(name, str):
        raise TypeError(f"a game name is a str, got {type(name).__name__}")
    if not isinstance(text, str):
        raise TypeError(
            f"{what}: a preset's name or a JSON object (str), got {type(text).__name__}"
        )
    cls = find_game(name).RULES_TYPE
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text, object_pairs_hook=unique_keys)
        except RecordError as exc:
            raise RulesError(f"{what}: {exc}") from None
        except (ValueError, RecursionError) as exc:
            raise RulesError(f"{what}: not a JSON object: {exc}") from None
        try:
            return cls.from_dict(data)
        except (RulesError, TypeError) as exc:
            raise RulesError(f"{what}: {exc}") from None
    if text not in cls.PRESETS:
        known = ", ".join(cls.PRESETS) or "none"
        raise RulesError(
            f"{what}: {name} has no preset {text!r} (presets: {known}; or a JSON object of "
            "rules fields)"
        )
    preset: Rules = getattr(cls, text)()
    return preset


# ---------------------------------------------------------------------------
# states


class State(Generic[ObsT_co]):
    """A game state: whose turn, the legal actions, and the verbs to act.

    Actions are ints (see each game's page for the encoding) or their readable
    names.  ``apply`` either changes the state or raises
    :class:`~pycards.errors.IllegalActionError` and leaves it exactly as it was.
    A state may be shared by threads: each action and each undo is applied
    whole, one at a time (a lock orders them), so no accepted action is lost.

    A state drawn by :meth:`sample_infoset` carries none of the truth: its
    :attr:`seed` and :attr:`deck` are ``None``, its :attr:`history` is empty,
    and it has no record (:meth:`to_json` and pickling refuse it).
    """

    __slots__ = ("_game", "_generation", "_lock", "_rewinds", "_s", "_snapshots", "deck", "seed")

    def __init__(
        self,
        game: Game[Rules, ObsT_co],
        backend_state: _core.GameState,
        seed: int | None,
        deck: list[int] | None = None,
    ) -> None:
        self._game = game
        self._s = backend_state
        #: The seed of the deal (``None`` for a sampled state).
        self.seed = seed
        #: The stacked first deal (card ids, top first), or ``None`` if shuffled.
        self.deck = deck
        # undo's snapshots: history length -> (the history then, the engine state)
        self._snapshots: dict[int, tuple[tuple[int, ...], _core.GameState]] = {}
        # orders apply and undo between threads
        self._lock = threading.Lock()
        # how many undos rewrote the log, and after each, where it was cut
        # (the undo's generation, the first event index it rewrote)
        self._generation = 0
        self._rewinds: tuple[tuple[int, int], ...] = ()

    # -- inspection ---------------------------------------------------------
    @property
    def engine_state(self) -> _core.GameState:
        """The engine's state behind this one (:class:`cardcore._core.GameState`),
        for C-level tools and tests: the searchers, the batch and inference
        functions of ``cardcore._core`` take it.  Read it, don't keep it: an
        undo replaces it.  Mutating it (``apply`` on it) bypasses this facade,
        whose history and snapshots then no longer match the engine's state."""
        state: _core.GameState = self._s
        return state

    @property
    def game(self) -> Game[Rules, ObsT_co]:
        """The game (its rules and player count)."""
        return self._game

    @property
    def current_player(self) -> int:
        """The seat to act, or :data:`TERMINAL`."""
        result: int = self._s.current_player()
        return result

    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
        return bool(self._s.current_player() == TERMINAL)

    @property
    def is_sample(self) -> bool:
        """True for a state drawn by :meth:`sample_infoset` (it has no record)."""
        return not self._s.recorded

    @property
    def num_players(self) -> int:
        """Number of players."""
        return self.game.num_players

    @property
    def history(self) -> tuple[int, ...]:
        """The actions applied since the deal (empty for a sampled state)."""
        h = self._s.history
        return () if h is None else tuple(h)

    def legal_actions(self) -> list[int]:
        """Legal action ids, ascending (empty when terminal)."""
        result: list[int] = self._s.legal_actions()
        return result

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A boolean vector of length ``game.num_actions``."""
        mask: npt.NDArray[np.bool_] = self._s.legal_bools()
        return mask

    def legal_action_names(self) -> list[str]:
        """Readable names of the legal actions."""
        return [self.game.action_name(a) for a in self._s.legal_actions()]

    def returns(self) -> list[int]:
        """Points per player so far (the final result when terminal)."""
        result: list[int] = self._s.returns()
        return result

    # -- analysis: the exact solver ---------------------------------------
    @property
    def solve_depth(self) -> int:
        """Cards still to be played in this deal's play if the game's exact
        solver takes this state (see :meth:`solve`), else -1."""
        depth: int = self._s.solve_depth()
        return depth

    def solve(
        self, *, max_nodes: int = 0, win_table: npt.NDArray[np.floating[Any]] | None = None
    ) -> dict[int, float]:
        """The exact value of each legal action of the player to act, with
        every card known: what the action is worth to that player when every
        player then plays perfectly, valued where the deal is scored.

        This is analysis, not play: it reads every hand of this state (use it
        on a sample, :meth:`sample_infoset`, for a player's view).  The value
        is a points margin, or, with ``win_table`` (two players), the
        probability of winning the game read from the table at the scores the
        deal's play ends with (1 or 0 for a game won or lost in it).

        With three or more sides the search is *paranoid*: the mover's side
        maximizes its value and every other side minimizes that same value.
        In the play of Nodde Knave and cribbage every seat is its own side
        (partners are one), and the value is read from the whole game's
        scores where the deal's play ends (cribbage's show included) or the
        game does: the mover's side's points minus the mean of the other
        seats' (points scored before this position count, a peg past the
        target counts whole; with partners, whose partner counts among the
        others, that is two thirds of the side margin).  In the Game of
        Nancy the sides are the Taker's and the defenders' whoever moves,
        and the value is the mover's points of the deal alone times n / (n -
        1), his points minus the mean of the others' (the deal is zero-sum).
        :doc:`/search`, "The exact solver", says more.

        ``max_nodes`` (0: none) bounds the positions visited; past it
        ``RuntimeError``.  A deep solve can run for a very long time:
        Ctrl-C (or any exception from a signal handler) stops it and is
        raised, the state unchanged.  ``ValueError`` where the solver cannot
        take the state (:attr:`solve_depth` is -1, also on a finished game).

        Each game that has a solver describes it on its page (what it
        values, how it searches, how deep it reaches and how fast), with the
        command that measures its speed; a game without one raises
        ``ValueError``."""
        values, _nodes = self._s.solve(max_nodes, win_table)
        return {a: float(values[a]) for a in self._s.legal_actions()}

    # -- actions ------------------------------------------------------------
    def _action_id(self, action: int | str) -> int:
        if isinstance(action, str):
            return self.game.action_from_name(action)
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an int or a name, got {type(action).__name__}")
        return int(action)

    def _reason(self, action: int, player: int | None) -> str | None:
        current = self._s.current_player()
        if current == TERMINAL:
            return "game over"
        if player is not None and player != current:
            return f"not your turn (seat {current} is to act, not {player})"
        if not 0 <= action < self.game.num_actions:
            return f"unknown action id (0..{self.game.num_actions - 1})"
        code = self._s.verify(action)
        if code:
            return str(self._s.reason_text(code))
        return None

    def _name(self, action: int) -> str | None:
        if 0 <= action < self.game.num_actions:
            return self.game.action_name(action)
        return None

    def _check_seat(self, player: object, name: str = "player") -> int:
        return _as_int(player, name, 0, self.game.num_players - 1)

    def can_apply(self, action: int | str, player: int | None = None) -> bool:
        """True if ``action`` (by ``player``, if given) is legal now."""
        try:
            a = self._action_id(action)
            p = None if player is None else self._check_seat(player)
        except (TypeError, ValueError):
            return False
        return self._reason(a, p) is None

    def verify(self, action: int | str, player: int | None = None) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is illegal now."""
        a = self._action_id(action)
        p = None if player is None else self._check_seat(player)
        reason = self._reason(a, p)
        if reason is not None:
            raise IllegalActionError(a, reason, name=self._name(a))

    def apply(self, action: int | str, player: int | None = None) -> None:
        """Apply ``action`` for the player to act (checked against ``player`` if given)."""
        if type(action) is int and player is None and 0 <= action < self.game.num_actions:
            with self._lock:
                failed = self._s.apply(action)
            if failed:
                reason = self._reason(action, None) or "illegal"
                raise IllegalActionError(action, reason, name=self._name(action))
            return
        self.verify(action, player)
        a = self._action_id(action)
        with self._lock:
            failed = self._s.apply(a)
        if failed:
            reason = self._reason(a, player) or "illegal"
            raise IllegalActionError(a, reason, name=self._name(a))

    def clone(self) -> State[ObsT_co]:
        """An independent copy."""
        other = State.__new__(State)
        other._game = self._game
        other._s = self._s.clone()
        other.seed = self.seed
        other.deck = self.deck
        other._snapshots = dict(self._snapshots)
        other._lock = threading.Lock()
        other._generation = self._generation
        other._rewinds = self._rewinds
        return other

    def undo(self) -> int:
        """Take back the last action and everything the engine did after it
        (deals, scores, events), as python-chess's ``Board.pop()`` does; returns
        the action taken back.

        The state is rebuilt from its seed, deck and history, from the nearest
        snapshot of the current line of play (undo keeps one every 16 actions,
        and replaces one that an earlier line left), so undoing again costs at
        most 16 actions.  The event log is rewritten from the first event of
        the action taken back: a cursor taken before (:attr:`cursor`) is
        refused past that point with
        :class:`~pycards.errors.EventsRewrittenError`, and
        :attr:`log_generation` counts the undos.
        :class:`~pycards.errors.PycardsError` if there is no action to take
        back or the state is a sample (it has no history).
        """
        if self.is_sample:
            raise PycardsError("undo: a sampled state has no history to take back")
        with self._lock:
            history = self.history
            if not history:
                raise PycardsError("undo: no action to take back")
            want = len(history) - 1
            base = 0
            backend: _core.GameState | None = None
            for k in sorted(self._snapshots, reverse=True):
                prefix, snap = self._snapshots[k]
                if k <= want and prefix == history[:k]:
                    base, backend = k, snap.clone()
                    break
            if backend is None:
                backend = self.game._setup.new_state(self.seed or 0, self.deck)
            for i in range(base, want):
                if i % _UNDO_STRIDE == 0:
                    kept = self._snapshots.get(i)
                    if kept is None or kept[0] != history[:i]:  # none, or another line's
                        self._snapshots[i] = (history[:i], backend.clone())
                backend.apply(history[i])
            self._s = backend
            self._generation += 1
            cut = backend.events_dropped() + len(backend.events())
            self._rewinds = (*self._rewinds, (self._generation, cut))
        return history[-1]

    @property
    def log_generation(self) -> int:
        """How many undos have rewritten this state's event log."""
        return self._generation

    @property
    def cursor(self) -> EventCursor:
        """The place after the last event, as an :class:`EventCursor` that
        :meth:`events` ``(since=...)`` continues from and that knows whether an
        undo rewrote the log below it since."""
        with self._lock:
            return EventCursor(self.event_count, self._generation)

    def __copy__(self) -> State[ObsT_co]:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> State[ObsT_co]:
        return self.clone()

    def __reduce__(self) -> tuple[Callable[[str], State[object]], tuple[str]]:
        return (_state_from_json, (self.to_json(),))

    # -- what a player knows --------------------------------------------------
    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """What ``player`` may know, as a float32 vector of ``game.tensor_size``."""
        result: npt.NDArray[np.float32] = self._s.observe_tensor(self._check_seat(player))
        return result

    def observation(self, player: int) -> ObsT_co:
        """What ``player`` may know, as the game's typed observation."""
        return self.game.decode_observation(self, self._check_seat(player))

    def events(
        self, player: int | None = None, *, since: int | EventCursor | None = None
    ) -> list[Event]:
        """The event log as ``player`` sees it (``None``: as a spectator sees it;
        :data:`REFEREE`: every value).

        A value that the viewer may not see is ``None``.  Each event carries its
        :attr:`~Event.index` in everything the state ever logged.  The log keeps
        the most recent events of a long game (see :meth:`events_dropped`);
        ``since`` (a cursor: :attr:`cursor`, or a plain index such as the
        :attr:`event_count` of an earlier moment) returns exactly the events
        from that place on, or raises
        :class:`~pycards.errors.EventsDroppedError` saying how many of them the
        log no longer keeps.  An undo rewrites the log from the action it
        takes back: an :class:`EventCursor` taken before it, or an index past
        the end of the rewritten log, raises
        :class:`~pycards.errors.EventsRewrittenError`, which says where to read
        again from (a plain index below the end cannot tell, which is why
        :attr:`cursor` exists).
        """
        viewer = player
        if player is not None and player != REFEREE:
            viewer = self._check_seat(player)
        with self._lock:
            raw = self._s.events()
            first = self._s.events_dropped()
            rewinds = self._rewinds
        total = first + len(raw)
        start = 0
        if since is not None:
            if isinstance(since, EventCursor):
                index, generation = since.index, since.generation
                cut = min((c for g, c in rewinds if g > generation), default=None)
            else:
                index = _as_int(since, "since", 0, _M64)
                cut = min((c for _, c in rewinds), default=None) if index > total else None
            if cut is not None and cut < index:
                raise EventsRewrittenError(index, cut)
            cursor = _as_int(index, "since", 0, total)
            if cursor < first:
                raise EventsDroppedError(cursor, first)
            start = cursor - first
        make = self.game.make_event
        return [make(raw[i], viewer, first + i) for i in range(start, len(raw))]

    @property
    def event_count(self) -> int:
        """How many events the state has ever logged: the cursor that
        :meth:`events` ``(since=...)`` continues from."""
        dropped: int = self._s.events_dropped()
        return dropped + len(self._s.events())

    def events_dropped(self) -> int:
        """How many of the oldest events a long game's log no longer keeps."""
        result: int = self._s.events_dropped()
        return result

    def sample_infoset(self, player: int, seed: int) -> State[ObsT_co]:
        """A state drawn uniformly among those consistent with everything
        ``player`` has observed (for search bots); same seed, same sample.

        The sample carries none of the truth: no seed, no history, no record;
        its future chance is drawn afresh from ``seed``.  A finished game can
        be sampled too: the cards nobody was shown stay unknown, and the sample
        is a finished game with the same returns."""
        p = self._check_seat(player)
        sd = _as_int(seed, "seed", 0, _M64)
        return State(self.game, self._s.sample_infoset(p, sd), None, None)

    def view(self, player: int) -> PlayerView[ObsT_co]:
        """What seat ``player`` may know, as a :class:`~pycards.view.PlayerView`
        (what a bot is given).  The view follows this state as it changes."""
        return PlayerView(self, self._check_seat(player))

    # -- text ------------------------------------------------------------------
    def table(self, viewer: int | None = None) -> str:
        """The table as text, as seat ``viewer`` sees it (``None``: the referee)."""
        v = None if viewer is None else self._check_seat(viewer, "viewer")
        return self.game.render(self, v)

    def __str__(self) -> str:
        return self.table(None)

    def __repr__(self) -> str:
        who = "game over" if self.is_terminal else f"seat {self.current_player} to act"
        seed = "sampled" if self.is_sample else f"seed {self.seed}"
        return (
            f"<{type(self.game).__name__} state, {self.game.num_players} players, {seed}, "
            f"{self._s.history_length} actions, {who}>"
        )

    # -- serialization ---------------------------------------------------------
    def to_json(self) -> str:
        """JSON of the game, rules, players, seed, stacked deck and actions
        (replayed by :meth:`from_json`).  A sampled state has no record."""
        if self.is_sample:
            raise PycardsError("a sampled state has no record (it carries no seed or history)")
        return json.dumps(
            {
                "format": _RECORD_FORMAT,
                "game": self.game.NAME,
                "players": self.game.num_players,
                "rules": self.game.rules_to_dict(),
                "seed": self.seed,
                "deck": self.deck,
                "history": list(self.history),
            },
            sort_keys=True,
        )

    @staticmethod
    def from_json(text: str | bytes) -> State[object]:
        """Rebuild a state from :meth:`to_json` by replaying its history.

        The whole document is checked before anything is built; a bad field
        raises :class:`~pycards.errors.RecordError` naming it, and an action that
        fails on replay names its index."""
        if not isinstance(text, (str, bytes)):
            raise TypeError(f"from_json takes a str, got {type(text).__name__}")
        try:
            data = json.loads(text, object_pairs_hook=unique_keys)
        except RecordError:
            raise
        except (ValueError, RecursionError) as exc:
            raise RecordError(f"not JSON: {exc}") from None
        return _state_from_dict(data)

    # -- text records: deprecated, they live in pycards.record ------------------
    # (the record module sits above this one; these two reach it by name, at
    # the call, for one release, so that this module imports nothing above it)
    def to_record(
        self,
        viewer: int | None = None,
        *,
        names: Sequence[str] | None = None,
        date: str | None = None,
        event: str | None = None,
    ) -> str:
        """Deprecated (goes in the next release): use
        :func:`pycards.record.write_record` (``write_record(state, viewer=seat)``)."""
        warnings.warn(
            "State.to_record is deprecated; use pycards.record.write_record(state, ...)",
            DeprecationWarning,
            stacklevel=2,
        )
        text: str = importlib.import_module("pycards.record").write_record(
            self, viewer=viewer, names=names, date=date, event=event
        )
        return text

    @staticmethod
    def from_record(text: str) -> State[object]:
        """Deprecated (goes in the next release): use
        :func:`pycards.record.read_record`."""
        warnings.warn(
            "State.from_record is deprecated; use pycards.record.read_record(text)",
            DeprecationWarning,
            stacklevel=2,
        )
        state: State[object] = importlib.import_module("pycards.record").read_record(text)
        return state


def _state_from_json(text: str) -> State[object]:
    return State.from_json(text)


def unique_keys(pairs: list[tuple[str, JSONValue]]) -> JSONObject:
    """A JSON object's dict, for ``json.loads(..., object_pairs_hook=unique_keys)``:
    a key given twice raises :class:`~pycards.errors.RecordError` (``json``
    would keep the last one silently).  Shared with the OpenSpiel adapter; not
    in ``__all__``."""
    out: JSONObject = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(f"the key {_echo(key)} is given twice in one object")
        out[key] = value
    return out


def _field(data: Mapping[str, object], key: str) -> object:
    if key not in data:
        raise RecordError("missing", key)
    return data[key]


def _record_int(value: object, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"must be an int, got {value!r}", field)
    if not lo <= value <= hi:
        raise RecordError(f"must be {lo}..{hi}, got {value}", field)
    return value


def _state_from_dict(data: object) -> State[object]:
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, got {type(data).__name__}")
    if _field(data, "format") != _RECORD_FORMAT:
        raise RecordError(f"must be {_RECORD_FORMAT!r}, got {data['format']!r}", "format")
    known = {"format", "game", "players", "rules", "seed", "deck", "history"}
    for key in data:
        if key not in known:
            raise RecordError("unknown field", str(key))
    name = _field(data, "game")
    if not isinstance(name, str):
        raise RecordError(f"unknown game {name!r}; known: {game_names()}", "game")
    try:
        cls: type[Game[Rules, object]] = find_game(name)
    except ValueError:
        raise RecordError(f"unknown game {name!r}; known: {game_names()}", "game") from None
    info = game_info(name)
    players = _record_int(_field(data, "players"), "players", info.min_players, info.max_players)
    try:
        rules = cls.rules_from_dict(_field(data, "rules"))
    except (RulesError, TypeError) as exc:
        raise RecordError(str(exc), "rules") from None
    seed = _record_int(_field(data, "seed"), "seed", 0, _M64)
    deck = data.get("deck")
    if deck is not None:
        if not isinstance(deck, list):
            raise RecordError(f"must be null or a list of card ids, got {deck!r}", "deck")
        for i, c in enumerate(deck):
            _record_int(c, f"deck[{i}]", 0, info.deck_size - 1)
    history = _field(data, "history")
    if not isinstance(history, list):
        raise RecordError(f"must be a list of action ids, got {history!r}", "history")
    try:
        game = cls(rules, players)
    except RulesError as exc:
        raise RecordError(str(exc), "rules") from None
    for i, a in enumerate(history):
        _record_int(a, f"history[{i}]", 0, game.num_actions - 1)
    try:
        state = game.new_initial_state(seed, deck)
    except InvalidCardError as exc:
        raise RecordError(str(exc), "deck") from None
    for i, a in enumerate(history):
        try:
            state.apply(a)
        except IllegalActionError as exc:
            raise IllegalActionError(a, exc.reason, name=exc.name, index=i) from None
    return state
