"""PettingZoo AEC environments for every pycards game and player count
(extra ``pettingzoo``).

>>> from pycards.envs.pettingzoo import env
>>> e = env("nodde", num_players=2)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["observation"].dtype, obs["action_mask"].dtype
(['action_mask', 'observation'], dtype('float32'), dtype('int8'))

Agents are ``"player_0" .. "player_<n-1>"`` (seat ``i`` is ``player_i``).
Each agent observes ``{"observation": the game's observation tensor for its
seat (float32), "action_mask": 1 for each legal action (int8, all 0 when it
is not that agent's turn)}``.  The reward of a step is each seat's change of
score (``state.returns()``); :meth:`~pettingzoo.AECEnv.last` gives an agent
the changes since its own last step, so an agent's rewards over a game sum to
its final score.  Terminations come with the end of the game; with
``max_cycles`` no agent acts more than ``max_cycles`` times: every agent is
truncated when the agent to act has already acted that often.  An action outside the mask raises
:class:`~pycards.errors.IllegalActionError` and changes nothing.  An agent's
action space is ``Discrete(num_actions)`` whose ``sample()`` draws one of that
agent's legal actions when it is to act
(:class:`~pycards.envs.gymnasium.LegalActions`).

:func:`parallel_env` is the same game under PettingZoo's parallel API
(:class:`CardGameParallelEnv`).  The games are turn-based: one parallel step
is one move, by the agent whose action mask is not all zero (its
``infos[agent]["to_act"]`` is True); the actions given for the other agents
are ignored.  PettingZoo's ``aec_to_parallel`` does not apply: it steps every
agent once per parallel step in a fixed cycle, and in a card game the turn
order follows the play (the winner of a trick leads, a player who cannot
play says "go" and the other plays on).
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from pycards._args import as_int
from pycards.envs._common import make_game, missing_extra, observation_bounds, seed_from
from pycards.game import Game, Rules, State
from pycards.playouts import action_cap, stalled_message

try:  # the ecosystem first: its absence is named for this module
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv

    from pycards.envs._spaces import LegalActions
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "pettingzoo", __name__) from None

__all__ = ["CardGameEnv", "CardGameParallelEnv", "env", "parallel_env", "raw_env"]

#: An observation's arrays: the tensor (float32) and the action mask (int8).
_Array: TypeAlias = npt.NDArray[np.float32] | npt.NDArray[np.int8]

_RENDER_MODES = ("ansi", "human")


class CardGameEnv(AECEnv):
    """A pycards game as a PettingZoo AEC environment.

    :param game: a game's name or a :class:`~pycards.game.Game` (see
        :func:`pycards.envs.make_game`).
    :param num_players: the number of seats (with a game's name; default 2).
    :param rules: the game's rules (with a game's name; default rules if None).
    :param max_cycles: truncate every agent when the agent to act has already
        acted this many times (None: play each game to its end).
    :param render_mode: ``"ansi"`` (:meth:`render` returns the table as text)
        or ``"human"`` (prints it after each step), or None.
    :param render_seat: whose view :meth:`render` draws: a seat (only what that
        seat may know) or None for the referee's view (every hand).
    :param max_actions: truncate every agent once the game has taken this
        many actions without ending (None, the default:
        :func:`pycards.playouts.action_cap` of the game, 20 times its longest
        random game and at least 10,000): such a game has no end in sight (in
        the Game of Nancy a deal where every seat passes is dealt again, so
        seats that never bid never end it); ``infos[agent]["truncation"]``
        says why.
    """

    metadata: dict[str, object] = {  # noqa: RUF012 (PettingZoo reads it on the class)
        "render_modes": list(_RENDER_MODES),
        "name": "pycards_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game[Rules, object] = "nodde",
        num_players: int | None = None,
        rules: Rules | str | None = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        render_seat: int | None = None,
        max_actions: int | None = None,
    ) -> None:
        super().__init__()
        self.game: Game[Rules, object] = make_game(game, num_players, rules)
        #: The most actions of one game (see ``max_actions``).
        self.max_actions: int = (
            action_cap(self.game)
            if max_actions is None
            else as_int(max_actions, "max_actions", 1, 1 << 62)
        )
        self._actions = 0
        n = self.game.num_players
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {_RENDER_MODES} or None, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.render_seat = (
            None if render_seat is None else as_int(render_seat, "render_seat", 0, n - 1)
        )
        self.max_cycles = (
            None if max_cycles is None else as_int(max_cycles, "max_cycles", 1, 1 << 62)
        )
        self.metadata = {**type(self).metadata, "name": f"pycards_{self.game.NAME}_{n}p_v0"}
        self.possible_agents: list[str] = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = observation_bounds(self.game)
        na = self.game.num_actions
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(na,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: LegalActions(na, _MaskOf(self, i)) for i, a in enumerate(self.possible_agents)
        }
        self._rng = np.random.default_rng()
        self.state: State[object] | None = None
        self._scores = [0] * n
        self._turns = [0] * n
        self.agents: list[str] = []

    def __str__(self) -> str:
        return f"pycards_{self.game.NAME}_{self.game.num_players}p"

    # -- spaces -------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: the game's action ids."""
        return self.action_spaces[agent]

    # -- the AEC protocol ---------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """Deal a new game.  ``seed`` (an int) makes the game and everything
        after it reproducible; without one, the next game is drawn from the
        environment's generator."""
        if seed is not None:
            self._rng = np.random.default_rng(as_int(seed, "seed", 0, (1 << 64) - 1))
        self.state = self.game.new_initial_state(seed_from(self._rng))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self._scores = [0] * self.game.num_players  # points of the deal come with the first step
        self._turns = [0] * self.game.num_players
        self._actions = 0
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, _Array]:
        """``agent``'s observation tensor and action mask."""
        state = self._live_state()
        seat = self._seat[agent]
        return {"observation": state.observation_tensor(seat), "action_mask": self._mask(seat)}

    def _mask(self, seat: int) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        state = self.state
        if state is not None and state.current_player == seat:
            mask[state.legal_actions()] = 1
        return mask

    def step(self, action: int | None) -> None:
        """Play ``action`` for :attr:`agent_selection` (None for an agent that
        is terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._live_state()
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a finished agent")
        seat = self._seat[agent]
        state.apply(action, seat)  # IllegalActionError, the state unchanged
        self._cumulative_rewards[agent] = 0.0
        self._turns[seat] += 1
        self._actions += 1
        scores = state.returns()
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = float(scores[i] - self._scores[i])
        self._scores = list(scores)
        if state.is_terminal:
            self.terminations = dict.fromkeys(self.agents, True)
            nxt = (seat + 1) % self.game.num_players
        else:
            nxt = state.current_player
            if self.max_cycles is not None and self._turns[nxt] >= self.max_cycles:
                # no agent acts more than max_cycles times
                self.truncations = dict.fromkeys(self.agents, True)
            if self._actions >= self.max_actions:
                # no end in sight: every agent is truncated, and told why
                self.truncations = dict.fromkeys(self.agents, True)
                why = (
                    f"{stalled_message(self.game, self._actions)} "
                    f"(max_actions={self.max_actions:,})"
                )
                for a in self.agents:
                    self.infos[a]["truncation"] = why
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[nxt]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``"ansi"``), or print it (``"human"``)."""
        if self.render_mode is None:
            return None
        text = self._live_state().table(self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def _live_state(self) -> State[object]:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state


class _MaskOf:
    """The action mask of one seat of an environment (a picklable callable)."""

    def __init__(self, env: CardGameEnv, seat: int) -> None:
        self.env, self.seat = env, seat

    def __call__(self) -> npt.NDArray[np.int8]:
        return self.env._mask(self.seat)


class CardGameParallelEnv(ParallelEnv[str, dict[str, _Array], int]):
    """A pycards game under PettingZoo's parallel API: one step is one move.

    The arguments are :class:`CardGameEnv`'s.  :meth:`step` takes a dict of
    actions: the agent to act (``infos[agent]["to_act"]``, the one agent whose
    action mask is not all zero) must be in it, and its action is played; the
    entries of the other agents are ignored (they have nothing to do).  Each
    step returns every live agent's observation, its change of score since the
    previous step (so an agent's rewards sum to its final score), terminations
    at the end of the game, and, with ``max_cycles``, truncations after
    ``max_cycles`` steps.  The agents leave :attr:`agents` when the game ends
    or is truncated.
    """

    metadata: dict[str, object] = {  # noqa: RUF012 (PettingZoo reads it on the class)
        "render_modes": list(_RENDER_MODES),
        "name": "pycards_parallel_v0",
    }

    def __init__(
        self,
        game: str | Game[Rules, object] = "nodde",
        num_players: int | None = None,
        rules: Rules | str | None = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        render_seat: int | None = None,
        max_actions: int | None = None,
    ) -> None:
        #: The turn-based environment this one steps.
        self.aec = CardGameEnv(
            game, num_players, rules, None, render_mode, render_seat, max_actions
        )
        self.game = self.aec.game
        self.max_cycles = (
            None if max_cycles is None else as_int(max_cycles, "max_cycles", 1, 1 << 62)
        )
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"pycards_{self.game.NAME}_parallel_v0"}
        self.possible_agents = list(self.aec.possible_agents)
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.agents: list[str] = []
        self._cycles = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: the game's action ids."""
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, object] | None = None
    ) -> tuple[dict[str, dict[str, _Array]], dict[str, dict[str, object]]]:
        """Deal a new game (``seed`` as in :meth:`CardGameEnv.reset`); the
        observations and infos."""
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        self._cycles = 0
        return self._observations(), self._infos()

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, dict[str, _Array]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, object]],
    ]:
        """Play the action of the agent to act (see the class's text)."""
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        if not isinstance(actions, dict):
            raise TypeError(f"actions must be a dict, got {type(actions).__name__}")
        agent = self.aec.agent_selection
        if agent not in actions or actions[agent] is None:
            raise ValueError(f"{agent} is to act: actions has no action for it")
        self.aec.step(actions[agent])  # IllegalActionError, nothing changed
        self._cycles += 1
        rewards = {a: self.aec.rewards[a] for a in self.agents}
        ended = bool(self.aec.terminations[agent])
        stalled = bool(self.aec.truncations[agent])  # max_actions
        cut = not ended and (
            stalled or (self.max_cycles is not None and self._cycles >= self.max_cycles)
        )
        terminations = dict.fromkeys(self.agents, ended)
        truncations = dict.fromkeys(self.agents, cut)
        observations, infos = self._observations(), self._infos()
        if stalled:
            for a in self.agents:
                infos[a]["truncation"] = self.aec.infos[a]["truncation"]
        if ended or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """As :meth:`CardGameEnv.render`."""
        return self.aec.render()

    def close(self) -> None:
        """Nothing to release."""

    def _observations(self) -> dict[str, dict[str, _Array]]:
        return {a: self.aec.observe(a) for a in self.agents}

    def _infos(self) -> dict[str, dict[str, object]]:
        state = self.aec.state
        to_act = -1 if state is None else state.current_player
        return {a: {"to_act": self.aec._seat[a] == to_act} for a in self.agents}


def parallel_env(
    game: str | Game[Rules, object] = "nodde",
    num_players: int | None = None,
    rules: Rules | str | None = None,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    render_seat: int | None = None,
    max_actions: int | None = None,
) -> CardGameParallelEnv:
    """A :class:`CardGameParallelEnv` (the arguments are :class:`CardGameEnv`'s)."""
    return CardGameParallelEnv(
        game, num_players, rules, max_cycles, render_mode, render_seat, max_actions
    )


def raw_env(
    game: str | Game[Rules, object] = "nodde",
    num_players: int | None = None,
    rules: Rules | str | None = None,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    render_seat: int | None = None,
    max_actions: int | None = None,
) -> CardGameEnv:
    """A :class:`CardGameEnv` (the arguments are its own)."""
    return CardGameEnv(game, num_players, rules, max_cycles, render_mode, render_seat, max_actions)


def env(
    game: str | Game[Rules, object] = "nodde",
    num_players: int | None = None,
    rules: Rules | str | None = None,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    render_seat: int | None = None,
    max_actions: int | None = None,
) -> AECEnv:
    """A :class:`CardGameEnv` in PettingZoo's order-enforcing wrapper (which
    refuses ``step`` before ``reset``); the environment checks the actions
    itself, so no other wrapper is needed."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(
        CardGameEnv(game, num_players, rules, max_cycles, render_mode, render_seat, max_actions)
    )
