"""The generic state protocol of the reference backend, and its game registry.

Each reference game subclasses :class:`RefState` and registers itself with
:func:`register`.  The methods mirror the C game table (``cc_game`` in
``cardcore.h``) one for one; the C backend's ``GameState`` has the same
interface.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ._checks import deck_ids
from .rng import Rng

__all__ = [
    "CHANCE",
    "ERR_GAME_OVER",
    "TERMINAL",
    "RefState",
    "game_info",
    "game_names",
    "new_state",
    "random_playouts",
    "register",
]

CHANCE = -1
TERMINAL = -4
ERR_GAME_OVER = -3
SEEN_ALL = 0xFFFFFFFF

_GAMES: dict[str, type[RefState]] = {}


def register(cls: type[RefState]) -> type[RefState]:
    """Class decorator: add a reference game to the registry under ``cls.NAME``."""
    _GAMES[cls.NAME] = cls
    return cls


def game_names() -> list[str]:
    """Names of the registered games."""
    return list(_GAMES)


def _game(name: str) -> type[RefState]:
    try:
        return _GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known: {sorted(_GAMES)}") from None


def game_info(name: str) -> dict[str, int]:
    """Player range and parameter count of a game."""
    cls = _game(name)
    return {
        "min_players": cls.MIN_PLAYERS,
        "max_players": cls.MAX_PLAYERS,
        "num_params": cls.NUM_PARAMS,
    }


def new_state(
    name: str, params: Sequence[int], nplayers: int, seed: int, deck: Sequence[int] | None = None
) -> RefState:
    """A new state of game ``name``: ``params`` are the rules as ints.

    With ``deck`` (card ids, top first; a permutation of the game's deck) the
    first deal is taken from it instead of a shuffle.
    """
    cls = _game(name)
    params = tuple(int(p) for p in params)
    if len(params) != cls.NUM_PARAMS:
        raise ValueError(f"{name}: expected {cls.NUM_PARAMS} rules parameters, got {len(params)}")
    if not cls.MIN_PLAYERS <= nplayers <= cls.MAX_PLAYERS:
        raise ValueError(
            f"{name}: {nplayers} players not supported ({cls.MIN_PLAYERS} to {cls.MAX_PLAYERS})"
        )
    problem = cls.check_params(params, nplayers)
    if problem:
        raise ValueError(f"{name}: invalid rules parameters: {problem}")
    seed &= (1 << 64) - 1
    if deck is None:
        return cls(params, nplayers, seed)
    if not cls.DECK_SIZE:
        raise ValueError(f"{name}: this game cannot be dealt from a given deck")
    cards = deck_ids(deck, name)
    if sorted(cards) != list(range(cls.DECK_SIZE)):
        raise ValueError(f"{name}: the deck must be a permutation of the game's cards")
    return cls(params, nplayers, seed, deck=cards)  # type: ignore[call-arg]


def random_playouts(
    name: str, params: Sequence[int], nplayers: int, seed: int, ngames: int
) -> tuple[int, list[int]]:
    """Play ``ngames`` games with uniformly random legal actions.

    Game ``i`` is seeded with ``seed + i``; the actions are chosen by one
    generator seeded with ``seed ^ 0xA5A5A5A5A5A5A5A5``, exactly as
    ``cc_random_playouts`` does.  Returns the number of actions applied and
    the sum of the returns per player.
    """
    rng = Rng(seed ^ 0xA5A5A5A5A5A5A5A5)
    steps = 0
    points = [0] * nplayers
    for i in range(ngames):
        state = new_state(name, params, nplayers, (seed + i) & ((1 << 64) - 1))
        while state.current_player() != TERMINAL:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            code = state.apply(action)
            if code:
                raise RuntimeError(f"{name}: legal action {action} rejected ({code})")
            steps += 1
        for p, r in enumerate(state.returns()):
            points[p] += r
    return steps, points


class RefState:
    """Base class of the reference game states (the interface of a backend state)."""

    NAME: ClassVar[str] = ""
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 2
    NUM_PARAMS: ClassVar[int] = 0
    REASONS: ClassVar[dict[int, str]] = {}
    #: Size of the deck a first deal can be stacked from (0: not supported);
    #: a game that supports it takes a ``deck`` keyword in its constructor.
    DECK_SIZE: ClassVar[int] = 0

    def __init__(self, params: tuple[int, ...], nplayers: int, seed: int) -> None:
        self.params = params
        self.nplayers = nplayers
        self.seed = seed

    # -- to be provided by each game ------------------------------------
    @classmethod
    def check_params(cls, params: tuple[int, ...], nplayers: int) -> str | None:
        """``None`` if the parameters are valid, else what is wrong."""
        return None

    def current_player(self) -> int:
        """The seat to act, or :data:`TERMINAL`."""
        raise NotImplementedError

    def num_actions(self) -> int:
        """Size of the action space."""
        raise NotImplementedError

    def tensor_size(self) -> int:
        """Length of the observation tensor."""
        raise NotImplementedError

    def legal_actions(self) -> list[int]:
        """Legal action ids, ascending."""
        raise NotImplementedError

    def verify(self, action: int) -> int:
        """0 if ``action`` is legal now, else a reason code."""
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        """Apply a verified legal action."""
        raise NotImplementedError

    def returns(self) -> list[int]:
        """Cumulative points per player."""
        raise NotImplementedError

    def observe_tensor(self, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """What ``player`` may know, as a float32 vector."""
        raise NotImplementedError

    def events(self) -> list[tuple[int, int, int, int, int, int]]:
        """The full event log: (kind, player, target, value, extra, seen_by)."""
        raise NotImplementedError

    def sample_infoset(self, player: int, seed: int) -> RefState:
        """A state drawn among those consistent with ``player``'s observations."""
        raise NotImplementedError

    # -- shared -----------------------------------------------------------
    def legal_mask(self) -> int:
        """Bit ``a`` set for each legal action ``a``."""
        mask = 0
        for a in self.legal_actions():
            mask |= 1 << a
        return mask

    def reason_text(self, code: int) -> str:
        """Human text of a reason code."""
        if code == ERR_GAME_OVER:
            return "game over"
        return self.REASONS.get(code, f"illegal (reason {code})")

    def apply(self, action: int) -> int:
        """Apply ``action``: 0, or a reason code with the state unchanged."""
        code = self.verify(action)
        if code == 0:
            self._apply(action)
        return code

    def clone(self) -> RefState:
        """An independent copy."""
        return copy.deepcopy(self)
