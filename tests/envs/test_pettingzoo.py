"""The PettingZoo AEC environments: PettingZoo's own test kit on every game and
player count, and the reward, truncation, seeding and bad-input contracts."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from _games import GAMES, game_params

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from pycards.envs.pettingzoo import CardGameEnv, env, parallel_env, raw_env
from pycards.errors import IllegalActionError
from pycards.game import game_names, load_game

# every game of the registry, at every player count it supports
CONFIGS = [
    (name, n)
    for name in game_names()
    for n in range(load_game(name).info.min_players, load_game(name).info.max_players + 1)
]
#: the game of the tests that need one: any registered game that seats two to four
GAME = next(c for c in GAMES.values() if c.min_players <= 2 <= 4 <= c.max_players)

# The kit warns about any observation that is not a bare array; PettingZoo's own
# card and board games (dict observations with an action mask) are on its list of
# exceptions by name.  Any other warning fails the test.
_EXPECTED = ("Observation is not a NumPy array", "Observation space for each agent probably")


@contextmanager
def only_expected_warnings() -> Iterator[None]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(_EXPECTED)]
    assert not unexpected, unexpected


@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_api_and_seed_kits(name: str, n: int) -> None:
    with only_expected_warnings():
        api_test(env(name, n), num_cycles=60)
        seed_test(lambda: env(name, n), num_cycles=60)


def play(e: CardGameEnv, seed: int, policy_seed: int = 0) -> dict[str, float]:
    """Play a whole game with random legal actions; the rewards each agent saw."""
    rng = np.random.default_rng(policy_seed)
    e.reset(seed=seed)
    seen = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        seen[agent] += reward
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_rewards_sum_to_the_returns(name: str, n: int) -> None:
    e = raw_env(name, n)
    seen = play(e, seed=7)
    assert e.state is not None and e.state.is_terminal
    assert [seen[a] for a in e.possible_agents] == [float(x) for x in e.state.returns()]


def test_observation_is_the_seat_tensor_and_mask_the_legal_actions() -> None:
    e = raw_env(GAME.name, 3)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    state = e.state
    assert state is not None
    while not state.is_terminal:
        for seat, agent in enumerate(e.possible_agents):
            obs = e.observe(agent)
            np.testing.assert_array_equal(obs["observation"], state.observation_tensor(seat))
            expected = np.zeros(e.game.num_actions, dtype=np.int8)
            if seat == state.current_player:
                expected[state.legal_actions()] = 1
            np.testing.assert_array_equal(obs["action_mask"], expected)
        assert e.agent_selection == f"player_{state.current_player}"
        e.step(int(rng.choice(state.legal_actions())))
    assert all(e.terminations.values())


def test_same_seed_same_game_and_the_game_is_the_seeded_state() -> None:
    a, b = raw_env(GAME.name, 4), raw_env(GAME.name, 4)
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.state is not None and b.state is not None
    assert str(a.state) == str(b.state)
    a.reset()
    b.reset()  # the next games follow from the seed too
    assert str(a.state) == str(b.state)
    a.reset(seed=12)
    assert str(a.state) != str(b.state)


def _aec_of_parallel(name: str, n: int, max_cycles: int) -> Any:
    return parallel_to_aec(parallel_env(name, n, max_cycles=max_cycles))


@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_max_cycles_and_parallel_kits(name: str, n: int) -> None:
    # The kit's max_cycles_test on the parallel environment and its AEC form by
    # PettingZoo's parallel_to_aec (every agent steps once per cycle, as the kit's
    # AEC half counts).  Both halves step action_space(agent).sample(): the spaces
    # sample legal actions for the agent to act.  The turn-based AEC env has its
    # own max_cycles test below: the kit's AEC half asks the median agent to act
    # as often as the busiest, which these games' turns do not allow (a player
    # discards or exchanges several cards in a row).
    mod = SimpleNamespace(
        env=partial(_aec_of_parallel, name, n), parallel_env=partial(parallel_env, name, n)
    )
    with only_expected_warnings():
        max_cycles_test(mod)
        parallel_api_test(parallel_env(name, n), num_cycles=60)


@pytest.mark.parametrize(("name", "n"), game_params())
def test_max_cycles(name: str, n: int) -> None:
    # no agent acts more than max_cycles times: then every agent is truncated
    # and steps out once
    max_cycles = 4
    e = env(name, n, max_cycles=max_cycles)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    counts = dict.fromkeys(e.possible_agents, 0)
    for agent in e.agent_iter():
        counts[agent] += 1
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated and not terminated
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert max(counts.values()) == max_cycles + 1
    assert not e.agents


@pytest.mark.parametrize(("name", "n"), game_params("ends"))
def test_parallel_env_plays_the_aec_game(name: str, n: int) -> None:
    # the same seed and moves: the same game, rewards summing to the returns
    p, a = parallel_env(name, n), raw_env(name, n)
    obs, infos = p.reset(seed=4)
    a.reset(seed=4)
    rng = np.random.default_rng(1)
    seen = dict.fromkeys(p.possible_agents, 0.0)
    while p.agents:
        (actor,) = [x for x in p.agents if infos[x]["to_act"]]
        assert actor == a.agent_selection
        for x in p.agents:
            assert obs[x]["action_mask"].any() == (x == actor)
            np.testing.assert_array_equal(obs[x]["observation"], a.observe(x)["observation"])
        move = int(rng.choice(np.flatnonzero(obs[actor]["action_mask"])))
        others = {x: 0 for x in p.agents if x != actor}  # ignored
        obs, rewards, terms, truncs, infos = p.step({actor: move, **others})
        a.step(move)
        for x, r in rewards.items():
            seen[x] += r
        assert not any(truncs.values())
    assert all(terms.values())
    assert a.state is not None and a.state.is_terminal
    assert [seen[x] for x in p.possible_agents] == [float(v) for v in a.state.returns()]


def test_parallel_env_bad_input_changes_nothing() -> None:
    p = parallel_env(GAME.name, 2)
    obs, infos = p.reset(seed=5)
    (actor,) = [x for x in p.agents if infos[x]["to_act"]]
    other = next(x for x in p.agents if x != actor)
    assert p.aec.state is not None
    before = p.aec.state.to_json()
    with pytest.raises(ValueError, match="to act"):
        p.step({other: 0})
    illegal = int(np.flatnonzero(obs[actor]["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        p.step({actor: illegal})
    with pytest.raises(TypeError):
        p.step([0])  # type: ignore[arg-type]
    assert p.aec.state.to_json() == before
    p.step({actor: int(np.flatnonzero(obs[actor]["action_mask"])[0])})  # still playable


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env(GAME.name, 2)
    e.reset(seed=5)
    state = e.state
    assert state is not None
    before, agent = state.to_json(), e.agent_selection
    illegal = next(a for a in range(e.game.num_actions) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    with pytest.raises(TypeError):
        e.step(1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="None"):
        e.step(None)
    assert state.to_json() == before and e.agent_selection == agent
    e.step(state.legal_actions()[0])  # still playable


def test_render_shows_the_text_table(capsys: pytest.CaptureFixture[str]) -> None:
    e = raw_env(GAME.name, 2, render_mode="ansi", render_seat=1)
    e.reset(seed=2)
    assert e.state is not None
    assert e.render() == e.state.table(1)
    e = raw_env(GAME.name, 2, render_mode="ansi")
    e.reset(seed=2)
    assert e.state is not None
    assert e.render() == str(e.state)
    h = raw_env(GAME.name, 2, render_mode="human")
    h.reset(seed=2)
    assert h.state is not None
    h.step(h.state.legal_actions()[0])
    assert capsys.readouterr().out.strip() == str(h.state).strip()
    assert raw_env(GAME.name, 2).render() is None


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(GAME.name, 2, render_mode="rgb_array")
    with pytest.raises(TypeError):
        raw_env(GAME.name, 2, max_cycles=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        raw_env(GAME.name, 2, max_cycles=0)
    with pytest.raises(ValueError, match="disagrees"):
        raw_env(load_game(GAME.name, None, 3), 2)
    with pytest.raises(RuntimeError, match="reset"):
        raw_env(GAME.name, 2).observe("player_0")
    e = raw_env(load_game(GAME.name, None, 3))
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
