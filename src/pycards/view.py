"""What one seat may know: the player's view that bots are given.

A :class:`PlayerView` is a window on a live game for one seat.  It shows the
seat's typed observation, the legal actions (on its turn), the event log with
every value hidden from the seat blanked, the public scores, and the table
drawn from the seat; and it draws full states consistent with what the seat
knows (:meth:`PlayerView.sample`) for search bots.  Nothing public on it —
attributes, repr, samples — reveals a card the seat may not see, and it
refuses to be pickled or serialized (that would carry the real game).

>>> from pycards.game import load_game
>>> state = load_game("nodde", num_players=2).new_initial_state(seed=7)
>>> view = state.view(0)
>>> view.seat, view.is_my_turn == (state.current_player == 0)
(0, True)
>>> view.observation == state.observation(0)
True
>>> world = view.sample(1)
>>> world.observation(0) == state.observation(0)
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Generic, NoReturn

import numpy as np
import numpy.typing as npt

from ._args import as_int
from .errors import PycardsError

if TYPE_CHECKING:
    from .game import Event, Game, ObsT_co, Rules, State
else:
    from typing import TypeVar

    ObsT_co = TypeVar("ObsT_co", covariant=True)

__all__ = ["PlayerView", "SampleRng"]

_M64 = 2**64 - 1

#: What :meth:`PlayerView.sample` accepts as its source of randomness.
SampleRng = int | random.Random | np.random.Generator


def _draw_seed(rng: object) -> int:
    """A 64-bit seed drawn from ``rng`` (an int is the seed itself)."""
    if isinstance(rng, random.Random):
        return rng.getrandbits(64)
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, _M64, dtype=np.uint64, endpoint=True))
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, (bool, np.bool_)):
        return as_int(rng, "rng", 0, _M64)
    raise TypeError(
        f"rng must be an int seed, a random.Random or a numpy Generator, got {type(rng).__name__}"
    )


class PlayerView(Generic[ObsT_co]):
    """The game as seat :attr:`seat` may know it (see the module docs).

    A view follows the live game: after an action is applied to the state it
    was made from, the view shows the new position.  Make one with
    :meth:`pycards.game.State.view`.
    """

    __slots__ = ("_seat", "_state")

    _state: State[ObsT_co]
    _seat: int

    def __init__(self, state: State[ObsT_co], seat: int) -> None:
        self._state = state
        self._seat = as_int(seat, "seat", 0, state.game.num_players - 1)

    # -- who and what ----------------------------------------------------------
    @property
    def seat(self) -> int:
        """The seat whose view this is."""
        return self._seat

    @property
    def game(self) -> Game[Rules, ObsT_co]:
        """The game (its rules and player count are public)."""
        return self._state.game

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self._state.game.rules

    @property
    def num_players(self) -> int:
        """Number of players."""
        return self._state.game.num_players

    @property
    def current_player(self) -> int:
        """The seat to act, or :data:`pycards.game.TERMINAL`."""
        return self._state.current_player

    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._state.is_terminal

    @property
    def is_my_turn(self) -> bool:
        """True when this seat is to act."""
        return self._state.current_player == self._seat

    # -- what the seat knows ---------------------------------------------------
    @property
    def observation(self) -> ObsT_co:
        """The seat's typed observation (the game's ``<X>Observation``)."""
        return self._state.observation(self._seat)

    def observation_tensor(self) -> npt.NDArray[np.float32]:
        """The seat's observation as a float32 vector of ``game.tensor_size``."""
        return self._state.observation_tensor(self._seat)

    def events(self) -> list[Event]:
        """The event log with every value this seat may not see set to ``None``."""
        return self._state.events(self._seat)

    def returns(self) -> list[int]:
        """Points per player so far (public in every game)."""
        return self._state.returns()

    def table(self) -> str:
        """The table as text, drawn from this seat."""
        return self._state.table(self._seat)

    # -- acting ------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """The seat's legal action ids, ascending (empty when it is not its turn)."""
        return self._state.legal_actions() if self.is_my_turn else []

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A boolean vector of ``game.num_actions`` (all False off turn)."""
        if self.is_my_turn:
            return self._state.legal_action_mask()
        return np.zeros(self._state.game.num_actions, dtype=np.bool_)

    def legal_action_names(self) -> list[str]:
        """Readable names of :meth:`legal_actions`."""
        name = self._state.game.action_name
        return [name(a) for a in self.legal_actions()]

    def action_name(self, action: int) -> str:
        """The readable name of an action id."""
        return self._state.game.action_name(action)

    def action_from_name(self, name: str) -> int:
        """The action id of a readable name."""
        return self._state.game.action_from_name(name)

    # -- search ------------------------------------------------------------------
    def sample(self, rng: SampleRng) -> State[ObsT_co]:
        """A full state drawn uniformly among those consistent with what this
        seat knows (its cards and every public fact).

        ``rng`` is an int seed (same seed, same sample), a :class:`random.Random`
        or a numpy :class:`~numpy.random.Generator` (a 64-bit seed is drawn
        from it).  The sample carries none of the truth: no seed, no history, no
        record, its future chance drawn afresh (see
        :meth:`pycards.game.State.sample_infoset`).
        """
        return self._state.sample_infoset(self._seat, _draw_seed(rng))

    # -- no way out for the real game -------------------------------------------
    def __repr__(self) -> str:
        s = self._state
        who = "game over" if s.is_terminal else f"seat {s.current_player} to act"
        return f"<PlayerView of seat {self._seat}: {type(s.game).__name__}, {who}>"

    def __reduce__(self) -> NoReturn:
        raise PycardsError(
            "a PlayerView cannot be pickled or copied out: it would carry the real game; "
            "pickle view.observation or view.sample(rng) instead"
        )

    def __copy__(self) -> PlayerView[ObsT_co]:
        return PlayerView(self._state, self._seat)

    def __deepcopy__(self, memo: dict[int, object]) -> NoReturn:
        raise PycardsError("a PlayerView cannot be deep-copied: it would carry the real game")
