"""A single-agent Gymnasium environment (extra ``gymnasium``): one seat is the
agent, the others are built-in bots chosen by name.

>>> from pycards.envs.gymnasium import CardGameEnv
>>> env = CardGameEnv("notakers", num_players=3, opponents="random")
>>> obs, info = env.reset(seed=0)
>>> obs.shape == env.observation_space.shape, env.action_masks().dtype
(True, dtype('bool'))
>>> action = int(env.action_masks().nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)

The observation is the agent's observation tensor (float32); the action is an
action id of the game (``Discrete(num_actions)``); :meth:`CardGameEnv.action_masks`
(the method masked algorithms such as sb3-contrib's ``MaskablePPO`` call) and
``info["action_mask"]`` say which are legal.  After the agent's action the bots
play until the agent is to act again or the game is over.  The reward is the
change of the agent's score since its previous step, from 0 at the deal, so a
game's rewards sum to the agent's final score.

An action outside the mask raises :class:`~pycards.errors.IllegalActionError`
and changes nothing.  With ``illegal_action="penalty"`` it is instead answered
with ``reward = illegal_penalty``, ``info["illegal_action"] = True`` and the same
observation: the game is unchanged and the agent acts again (``max_steps``
bounds an episode of such tries).  The action space is ``Discrete(num_actions)``
whose ``sample()`` draws a *legal* action (:class:`LegalActions`;
an explicit ``mask`` is honoured as by ``Discrete``).  Gymnasium's
``check_env`` passes with ``illegal_action="penalty"``; with the default
``"raise"`` it can raise :class:`~pycards.errors.IllegalActionError`, since its
step-determinism check draws an action in one game and steps it in the next
deal (seed 123), where it is legal only by chance.

A game with no end in sight (in the Game of Nancy a deal where every seat
passes is dealt again) is truncated after ``max_actions`` actions:
``truncated=True`` and ``info["truncation"]`` says why.

Importing this module registers ``"pycards/<game>-v0"`` with Gymnasium for
every game (:func:`env_ids`), so ``gymnasium.make("pycards/nodde-v0",
num_players=3, opponents="random")`` builds a :class:`CardGameEnv`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pycards._args import as_int
from pycards.bots import Bot, make_bot
from pycards.envs._common import make_game, missing_extra, observation_bounds, seed_from
from pycards.errors import IllegalActionError, StalledGameError
from pycards.game import Game, Rules, State, game_names
from pycards.playouts import action_cap, stalled_message

try:  # the ecosystem first: its absence is named for this module
    import gymnasium
    from gymnasium import spaces

    from pycards.envs._spaces import LegalActions
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "gymnasium", __name__) from None

__all__ = ["CardGameEnv", "LegalActions", "env_ids"]

_RENDER_MODES = ("ansi", "human")
_ILLEGAL = ("raise", "penalty")
# deals dealt again, at most, when a game ends before the agent's first turn
_DEAL_LIMIT = 1000


class CardGameEnv(gymnasium.Env):
    """A pycards game from one seat, the other seats played by bots.

    :param game: a game's name or a :class:`~pycards.game.Game` (see
        :func:`pycards.envs.make_game`).
    :param num_players: the number of seats (with a game's name; default 2).
    :param rules: the game's rules (with a game's name).
    :param seat: the agent's seat.
    :param opponents: a bot spec for every other seat (``"random"``,
        ``"heuristic"``, ``"ismcts:simulations=200"``: see
        :func:`pycards.bots.bot_names`), or one spec per other seat, in seat order.
    :param illegal_action: ``"raise"`` (the default) or ``"penalty"``.
    :param illegal_penalty: the reward of an illegal action under ``"penalty"``.
    :param max_steps: truncate an episode after this many agent steps (None:
        no limit).
    :param max_actions: truncate an episode once its game has taken this many
        actions, the bots' included, without ending (None, the default:
        :func:`pycards.playouts.action_cap` of the game, 20 times its longest
        random game and at least 10,000).  Such a game has no end in sight (in
        the Game of Nancy, a deal where every seat passes is dealt again, so
        seats that never bid never end it); the step returns
        ``truncated=True`` and ``info["truncation"]`` says why.
    :param render_mode: ``"ansi"`` (:meth:`render` returns the agent's view of
        the table as text) or ``"human"`` (prints it after each step), or None.
    """

    metadata: dict[str, Any] = {"render_modes": list(_RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game[Rules, object] = "nodde",
        num_players: int | None = None,
        rules: Any = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal_action: str = "raise",
        illegal_penalty: float = -1.0,
        max_steps: int | None = None,
        max_actions: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.game: Game[Rules, object] = make_game(game, num_players, rules)
        n = self.game.num_players
        self.seat = as_int(seat, "seat", 0, n - 1)
        others = [p for p in range(n) if p != self.seat]
        if isinstance(opponents, str):
            specs = [opponents] * len(others)
        elif isinstance(opponents, Sequence) and all(isinstance(s, str) for s in opponents):
            specs = list(opponents)
            if len(specs) != len(others):
                raise ValueError(f"opponents: {len(others)} specs needed, got {len(specs)}")
        else:
            raise TypeError("opponents must be a bot spec or a sequence of specs")
        #: The bots, by seat.
        self.bots: dict[int, Bot] = {p: make_bot(s) for p, s in zip(others, specs, strict=True)}
        if illegal_action not in _ILLEGAL:
            raise ValueError(f"illegal_action must be one of {_ILLEGAL}, got {illegal_action!r}")
        self.illegal_action = illegal_action
        if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)):
            raise TypeError(f"illegal_penalty must be a number, got {illegal_penalty!r}")
        self.illegal_penalty = float(illegal_penalty)
        self.max_steps = None if max_steps is None else as_int(max_steps, "max_steps", 1, 1 << 62)
        #: The most actions of one game (see ``max_actions``).
        self.max_actions: int = (
            action_cap(self.game)
            if max_actions is None
            else as_int(max_actions, "max_actions", 1, 1 << 62)
        )
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {_RENDER_MODES} or None, got {render_mode!r}"
            )
        self.render_mode = render_mode
        low, high = observation_bounds(self.game)
        self.observation_space = spaces.Box(low=low, high=high, dtype=np.float32)
        self.action_space = LegalActions(self.game.num_actions, self._legal_mask)
        self.state: State[object] | None = None
        self._baseline = 0
        self._steps = 0
        self._actions = 0  # actions of the game, the bots' too

    # -- the Gymnasium protocol ---------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new game and let the bots play up to the agent's first turn.
        ``seed`` makes this game and the ones after it reproducible (the bots
        are reseeded from it too).  If the bots reach ``max_actions`` before
        the agent's first turn, :class:`~pycards.errors.StalledGameError`."""
        super().reset(seed=seed)
        for _ in range(_DEAL_LIMIT):
            self.state = self.game.new_initial_state(seed_from(self.np_random))
            self._actions = 0
            for bot in self.bots.values():
                bot.reset(seed_from(self.np_random))
            if not self._play_bots():
                raise StalledGameError(
                    stalled_message(self.game, self._actions)
                    + f" before the agent's first turn (max_actions={self.max_actions:,})"
                )
            if not self.state.is_terminal:
                break
        else:
            raise RuntimeError(f"{_DEAL_LIMIT} deals ended before the agent's first turn")
        self._baseline = 0
        self._steps = 0
        return self._observation(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then the bots; see the module's text."""
        state = self._live_state()
        if state.is_terminal:
            raise IllegalActionError(None, "the game is over: call reset()")
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action[()]
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an int, got {type(action).__name__} ({action!r})")
        a = int(action)
        self._steps += 1
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        if not state.can_apply(a, self.seat):
            if self.illegal_action == "raise":
                self._steps -= 1
                state.verify(a, self.seat)  # raises, naming the reason
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_penalty, False, truncated, info
        state.apply(a, self.seat)
        self._actions += 1
        stalled = not self._play_bots() or (
            not state.is_terminal and self._actions >= self.max_actions
        )
        score = state.returns()[self.seat]
        reward = float(score - self._baseline)
        self._baseline = score
        terminated = state.is_terminal
        if self.render_mode == "human":
            self.render()
        info = self._info()
        if stalled:
            info["truncation"] = (
                f"{stalled_message(self.game, self._actions)} (max_actions={self.max_actions:,})"
            )
        truncated = (truncated or stalled) and not terminated
        return self._observation(), reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """True for each legal action of the agent (all False once the game is over)."""
        return self._live_state().legal_action_mask()

    def render(self) -> str | None:
        """The table as the agent sees it (``"ansi"``), or print it (``"human"``)."""
        if self.render_mode is None:
            return None
        text = self._live_state().table(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- internals ------------------------------------------------------------------
    def _play_bots(self) -> bool:
        """Let the bots play up to the agent's turn or the end; False if they
        stopped at ``max_actions`` instead."""
        state = self._live_state()
        while not state.is_terminal and state.current_player != self.seat:
            if self._actions >= self.max_actions:
                return False
            p = state.current_player
            state.apply(self.bots[p].act(state.view(p)), p)
            self._actions += 1
        return True

    def _legal_mask(self) -> npt.NDArray[np.int8]:
        if self.state is None:
            return np.zeros(self.game.num_actions, dtype=np.int8)
        return self.state.legal_action_mask().astype(np.int8)

    def _observation(self) -> npt.NDArray[np.float32]:
        return self._live_state().observation_tensor(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8)}

    def _live_state(self) -> State[object]:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state


def env_ids() -> list[str]:
    """The Gymnasium ids registered for the games, ``"pycards/<game>-v0"``."""
    return [f"pycards/{name}-v0" for name in game_names()]


def _register() -> None:
    for env_id in env_ids():
        if env_id not in gymnasium.registry:
            name = env_id.split("/")[1].split("-")[0]
            gymnasium.register(
                id=env_id,
                entry_point="pycards.envs.gymnasium:CardGameEnv",
                kwargs={"game": name},
            )


_register()
