"""Helpers shared by the environment adapters (numpy only)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pycards._args import as_int
from pycards.game import Game, Rules, load_game

__all__ = ["NUMBER_BOUND", "make_game", "missing_extra", "observation_bounds", "seed_from"]

#: The bound used for the number segments of an observation tensor: the
#: largest integer a float32 holds exactly (scores, counts and bids stay far
#: inside it).  Card, one-hot and seat segments are bounded by 0 and 1.
NUMBER_BOUND = float(1 << 24)

_BINARY_KINDS = frozenset({"cards", "card", "one_hot", "seat_cards", "seat"})


def make_game(
    game: str | Game[Rules, object],
    num_players: int | None = None,
    rules: Rules | str | None = None,
) -> Game[Rules, object]:
    """The :class:`~pycards.game.Game` an environment plays.

    ``game`` is a game's name (``"nodde"``, ``"notakers"``, ``"nancy"``), with
    ``num_players`` (default 2) and ``rules`` (default: the game's default
    rules), or a :class:`~pycards.game.Game` already bound to its rules and
    players (then ``num_players`` and ``rules`` must be left out or agree).
    """
    if isinstance(game, Game):
        if rules is not None and rules != game.rules:
            raise ValueError("rules given twice: pass them in the Game or here, not both")
        if num_players is not None and num_players != game.num_players:
            raise ValueError(
                f"num_players={num_players!r} disagrees with the game's {game.num_players}"
            )
        return game
    if not isinstance(game, str):
        raise TypeError(f"game must be a game's name or a Game, got {type(game).__name__}")
    n = 2 if num_players is None else as_int(num_players, "num_players", 1, 64)
    return load_game(game, rules, n)


def observation_bounds(
    game: Game[Rules, object],
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Lower and upper bounds of each value of ``game``'s observation tensor,
    read from its segments: 0 and 1 for card, one-hot and seat segments,
    ``-NUMBER_BOUND`` and ``NUMBER_BOUND`` for numbers."""
    low = np.full(game.tensor_size, -NUMBER_BOUND, dtype=np.float32)
    high = np.full(game.tensor_size, NUMBER_BOUND, dtype=np.float32)
    for s in game.segments:
        if s.kind in _BINARY_KINDS:
            low[s.offset : s.offset + s.length] = 0.0
            high[s.offset : s.offset + s.length] = 1.0
    return low, high


def seed_from(rng: np.random.Generator) -> int:
    """A game seed (0 .. 2**63 - 1) drawn from ``rng``."""
    return int(rng.integers(0, 1 << 63, dtype=np.int64))


def missing_extra(exc: ModuleNotFoundError, extra: str, module: str) -> ModuleNotFoundError:
    """The error of an environment module ``module`` whose ecosystem is not
    installed: it names the missing module and the extra of ``pycards`` that
    installs it (raise it ``from None`` in place of ``exc``)."""
    missing = exc.name or "a module"
    return ModuleNotFoundError(
        f"{module} needs {missing}, which the {extra!r} extra of pycards installs: "
        f"pip install 'pycards[{extra}]'",
        name=exc.name,
    )
