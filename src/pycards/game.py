"""The generic game and state API shared by every game.

A game is a :class:`Game` subclass (one per game module) bound to a rules
object and a player count; :meth:`Game.new_initial_state` deals a seeded
:class:`State`.  A state wraps a backend state (the C engine's generic
``GameState`` or the pure-Python reference) and adds what every game needs:
action verbs in the can/verify/apply style, typed observations, redacted event
logs, JSON serialization and information-set sampling.

Seats are numbered ``0..n-1`` in the direction of play.  :data:`TERMINAL` is the
"player" of a finished game; chance events (deals) are resolved inside the state
by its own seeded generator, so :data:`CHANCE` never comes up for the built-in
games.
"""

from __future__ import annotations

import dataclasses
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards.cards import Card, NancyCard
from pycards.errors import IllegalActionError, InvalidCardError, RulesError

__all__ = [
    "CHANCE",
    "SEEN_ALL",
    "TERMINAL",
    "Event",
    "Game",
    "State",
    "game_names",
    "load_game",
]

#: The "player" of a chance node (reserved; built-in games resolve chance internally).
CHANCE = -1
#: The "player" of a finished game.
TERMINAL = -4
#: ``seen_by`` value of a public event.
SEEN_ALL = 0xFFFFFFFF

_M64 = (1 << 64) - 1
ObsT = TypeVar("ObsT")
RulesT = TypeVar("RulesT")

_REGISTRY: dict[str, type[Game[Any, Any]]] = {}


@dataclasses.dataclass(frozen=True)
class Event:
    """One entry of a state's event log, as one viewer may see it.

    :ivar kind: the event kind's name (game-specific, e.g. ``"play"``).
    :ivar kind_id: the numeric kind.
    :ivar player: the acting seat (or -1).
    :ivar target: another seat concerned (or -1).
    :ivar value: a card id, bid or points; ``None`` when hidden from the viewer.
    :ivar extra: a public detail (game-specific).
    """

    kind: str
    kind_id: int
    player: int
    target: int
    value: int | None
    extra: int


class Game(ABC, Generic[RulesT, ObsT]):
    """A game bound to its rules and number of players.

    Subclasses set :attr:`NAME` (the engine's name of the game) and
    :attr:`RULES_TYPE` (a frozen dataclass with ``to_params()``), and implement
    the naming and observation hooks.
    """

    NAME: ClassVar[str]
    RULES_TYPE: ClassVar[type[Any]]
    #: The card type of the game's deck (parses the names in a stacked deck).
    CARD_TYPE: ClassVar[type[Card] | type[NancyCard]] = Card

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "NAME" in cls.__dict__:
            _REGISTRY[cls.NAME] = cls

    def __init__(self, rules: RulesT | None = None, num_players: int = 2) -> None:
        if rules is None:
            rules = self.RULES_TYPE()
        if not isinstance(rules, self.RULES_TYPE):
            raise TypeError(
                f"{self.NAME}: rules must be {self.RULES_TYPE.__name__}, got {type(rules).__name__}"
            )
        info = _core.game_info(self.NAME)
        if not info["min_players"] <= num_players <= info["max_players"]:
            raise RulesError(
                f"{self.NAME}: {num_players} players not supported "
                f"({info['min_players']} to {info['max_players']})"
            )
        self.rules: RulesT = rules
        self.num_players = num_players
        self.params: tuple[int, ...] = tuple(rules.to_params())
        self._check_players()
        try:
            probe = _core.new_state(self.NAME, self.params, num_players, 0)
        except ValueError as exc:
            raise RulesError(str(exc)) from exc
        self.num_actions: int = probe.num_actions()
        self.tensor_size: int = probe.tensor_size()

    def _check_players(self) -> None:
        """Hook: raise :class:`RulesError` if the rules do not fit the player count."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules!r}, num_players={self.num_players})"

    def new_initial_state(
        self, seed: int = 0, deck: Sequence[int | str] | str | None = None
    ) -> State[ObsT]:
        """A new game dealt from ``seed`` (0 to 2**64 - 1).

        ``deck`` stacks the first deal: every card of the game's deck, top
        first, as cards, ids or names, or one string of names (for replaying a
        real table or setting up a position); later deals are shuffled from
        ``seed``.
        """
        if not isinstance(seed, int) or not 0 <= seed <= _M64:
            raise ValueError(f"seed must be an integer 0..2**64-1, got {seed!r}")
        ids = None if deck is None else self._deck_ids(deck)
        try:
            backend = _core.new_state(self.NAME, self.params, self.num_players, seed, ids)
        except ValueError as exc:
            if ids is not None and "permutation" in str(exc):
                raise InvalidCardError(str(exc)) from None
            raise
        return State(self, backend, seed, [], ids)

    def _stacking_dealer(self, dealer: int | None) -> int:
        """The dealer a stacked deck is built for: ``dealer``, else the rules'
        ``first_dealer``; ``ValueError`` if neither names a seat."""
        if dealer is None:
            dealer = getattr(self.rules, "first_dealer", None)
        if dealer is None:
            raise ValueError("stacked_deck: name the dealer (or fix first_dealer in the rules)")
        n = self.num_players
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"stacked_deck: dealer must be a seat 0..{n - 1}, got {dealer!r}")
        return dealer

    def _deck_ids(self, deck: Sequence[int | str] | str) -> list[int]:
        card_type = self.CARD_TYPE
        if isinstance(deck, str):
            # whitespace-separated codes; commas separate full names (which have spaces)
            sep = r"[,;]" if ("," in deck or ";" in deck) else r"\s+"
            deck = [t.strip() for t in re.split(sep, deck) if t.strip()]
        ids = []
        for c in deck:
            if isinstance(c, str):
                ids.append(int(card_type.parse(c)))
            else:
                ids.append(int(card_type(c)))
        return ids

    # -- hooks --------------------------------------------------------------
    @abstractmethod
    def action_name(self, action: int) -> str:
        """A readable name of an action id (e.g. ``"play 7H"``)."""

    @abstractmethod
    def action_from_name(self, name: str) -> int:
        """The action id of a readable name; ``ValueError`` if there is none."""

    @abstractmethod
    def event_kind_name(self, kind: int) -> str:
        """The name of an event kind."""

    @abstractmethod
    def decode_observation(self, state: State[ObsT], player: int) -> ObsT:
        """The typed observation of ``player``, built only from
        ``state.observation_tensor(player)`` and ``state.events(player)``."""

    # -- serialization ------------------------------------------------------
    def rules_to_dict(self) -> dict[str, Any]:
        """The rules as a JSON-friendly dict."""
        return dataclasses.asdict(self.rules)  # type: ignore[call-overload, no-any-return]

    @classmethod
    def rules_from_dict(cls, data: dict[str, Any]) -> RulesT:
        """Rebuild a rules object from :meth:`rules_to_dict`."""
        rules: RulesT = cls.RULES_TYPE(**data)
        return rules


def game_names() -> list[str]:
    """Names of the games with a Python facade."""
    _import_games()
    return sorted(_REGISTRY)


def _import_games() -> None:
    import importlib

    for module in ("nodde", "notakers", "nancy"):
        try:
            importlib.import_module(f"pycards.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"pycards.{module}":
                raise


def load_game(name: str, rules: Any = None, num_players: int = 2) -> Game[Any, Any]:
    """The game called ``name`` (``"nodde"``, ``"notakers"``, ``"nancy"``)."""
    _import_games()
    try:
        cls = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known: {sorted(_REGISTRY)}") from None
    return cls(rules, num_players)


class State(Generic[ObsT]):
    """A game state: whose turn, the legal actions, and the verbs to act.

    Actions are ints (see each game's page for the encoding) or their readable
    names.  ``apply`` either changes the state or raises
    :class:`~pycards.errors.IllegalActionError` and leaves it exactly as it was.
    """

    __slots__ = ("_history", "_s", "deck", "game", "seed")

    def __init__(
        self,
        game: Game[Any, ObsT],
        backend_state: Any,
        seed: int,
        history: list[Any],
        deck: list[int] | None = None,
    ) -> None:
        self.game = game
        self._s = backend_state
        self.seed = seed
        self._history = history
        #: The stacked first deal (card ids, top first), or ``None`` if shuffled.
        self.deck = deck

    # -- inspection ---------------------------------------------------------
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
    def num_players(self) -> int:
        """Number of players."""
        return self.game.num_players

    @property
    def history(self) -> tuple[Any, ...]:
        """The actions applied since the deal (and information-set samples taken)."""
        return tuple(self._history)

    def legal_actions(self) -> list[int]:
        """Legal action ids, ascending (empty when terminal)."""
        result: list[int] = self._s.legal_actions()
        return result

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A boolean vector of length ``game.num_actions``."""
        mask: int = self._s.legal_mask()
        n = self.game.num_actions
        raw = np.frombuffer(mask.to_bytes((n + 7) // 8, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")[:n].astype(bool)

    def legal_action_names(self) -> list[str]:
        """Readable names of the legal actions."""
        return [self.game.action_name(a) for a in self._s.legal_actions()]

    def returns(self) -> list[int]:
        """Points per player so far (the final result when terminal)."""
        result: list[int] = self._s.returns()
        return result

    # -- actions ------------------------------------------------------------
    def _action_id(self, action: int | str) -> int:
        if isinstance(action, str):
            return self.game.action_from_name(action)
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            return int(action)
        raise TypeError(f"an action is an int or a name, got {type(action).__name__}")

    def _reason(self, action: int, player: int | None) -> str | None:
        current = self._s.current_player()
        if current == TERMINAL:
            return "game over"
        if player is not None and player != current:
            return f"not your turn (player {current} is to act, not {player})"
        if not 0 <= action < self.game.num_actions:
            return f"unknown action id (0..{self.game.num_actions - 1})"
        code = self._s.verify(action)
        if code:
            return str(self._s.reason_text(code))
        return None

    def can_apply(self, action: int | str, player: int | None = None) -> bool:
        """True if ``action`` (by ``player``, if given) is legal now."""
        try:
            a = self._action_id(action)
        except ValueError:
            return False
        return self._reason(a, player) is None

    def verify(self, action: int | str, player: int | None = None) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is illegal now."""
        a = self._action_id(action)
        reason = self._reason(a, player)
        if reason is not None:
            raise IllegalActionError(a, reason)

    def apply(self, action: int | str, player: int | None = None) -> None:
        """Apply ``action`` for the player to act (checked against ``player`` if given)."""
        if player is not None or type(action) is not int:
            self.verify(action, player)
            action = self._action_id(action)
        try:
            code = self._s.apply(action)
        except OverflowError:
            code = -1
        if code:
            raise IllegalActionError(action, self._reason(action, player) or "illegal")
        self._history.append(action)

    def clone(self) -> State[ObsT]:
        """An independent copy."""
        return State(self.game, self._s.clone(), self.seed, list(self._history), self.deck)

    # -- what a player knows --------------------------------------------------
    def _check_player(self, player: int) -> None:
        if not isinstance(player, (int, np.integer)) or not 0 <= player < self.game.num_players:
            raise ValueError(f"player must be 0..{self.game.num_players - 1}, got {player!r}")

    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """What ``player`` may know, as a float32 vector of ``game.tensor_size``."""
        self._check_player(player)
        result: npt.NDArray[np.float32] = self._s.observe_tensor(int(player))
        return result

    def observation(self, player: int) -> ObsT:
        """What ``player`` may know, as the game's typed observation."""
        self._check_player(player)
        return self.game.decode_observation(self, int(player))

    def events(self, player: int | None = None) -> list[Event]:
        """The event log as ``player`` sees it (``None``: as a spectator sees it).

        A value that the viewer may not see is ``None``.
        """
        if player is not None:
            self._check_player(player)
            bit = 1 << int(player)
        else:
            bit = 0
        name = self.game.event_kind_name
        out = []
        for kind, who, target, value, extra, seen_by in self._s.events():
            visible = seen_by == SEEN_ALL or bool(seen_by & bit)
            out.append(Event(name(kind), kind, who, target, value if visible else None, extra))
        return out

    def sample_infoset(self, player: int, seed: int) -> State[ObsT]:
        """A state drawn at random among those consistent with ``player``'s
        observations (for search bots); same seed, same sample."""
        self._check_player(player)
        if (
            isinstance(seed, bool)
            or not isinstance(seed, (int, np.integer))
            or not 0 <= seed <= _M64
        ):
            raise ValueError(f"seed must be 0..2**64-1, got {seed}")
        sampled = self._s.sample_infoset(int(player), seed)
        history = [*self._history, ["sample", player, seed]]
        return State(self.game, sampled, self.seed, history, self.deck)

    # -- serialization ---------------------------------------------------------
    def to_json(self) -> str:
        """JSON of the game, rules, players, seed and actions (replayed by :meth:`from_json`)."""
        return json.dumps(
            {
                "format": "pycards-state/1",
                "game": self.game.NAME,
                "players": self.game.num_players,
                "rules": self.game.rules_to_dict(),
                "seed": self.seed,
                "deck": self.deck,
                "history": self._history,
            },
            sort_keys=True,
        )

    @staticmethod
    def from_json(text: str) -> State[Any]:
        """Rebuild a state from :meth:`to_json` by replaying its history."""
        data = json.loads(text)
        if data.get("format") != "pycards-state/1":
            raise ValueError("not a pycards state (format pycards-state/1 expected)")
        _import_games()
        cls = _REGISTRY.get(data["game"])
        if cls is None:
            raise ValueError(f"unknown game {data['game']!r}")
        game = cls(cls.rules_from_dict(data["rules"]), int(data["players"]))
        state = game.new_initial_state(int(data["seed"]), data.get("deck"))
        for step in data["history"]:
            if isinstance(step, list):
                if len(step) != 3 or step[0] != "sample":
                    raise ValueError(f"bad history entry {step!r}")
                state = state.sample_infoset(int(step[1]), int(step[2]))
            else:
                state.apply(int(step))
        return state

    # -- dunder ---------------------------------------------------------------
    def __repr__(self) -> str:
        who = "terminal" if self.is_terminal else f"player {self.current_player} to act"
        return (
            f"<{self.game.NAME} state, {self.game.num_players} players, seed {self.seed}, "
            f"{len(self._history)} actions, {who}>"
        )
