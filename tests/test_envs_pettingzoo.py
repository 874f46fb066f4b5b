"""The PettingZoo AEC environments: PettingZoo's own test kit on every game and
player count, and the reward, truncation, seeding and bad-input contracts."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from pycards.envs.pettingzoo import CardGameEnv, env, raw_env
from pycards.errors import IllegalActionError
from pycards.game import load_game

CONFIGS = [
    (name, n)
    for name, players in (("nancy", range(2, 7)), ("nodde", range(2, 5)), ("notakers", range(2, 9)))
    for n in players
]

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
    e = raw_env("notakers", 3)
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
    a, b = raw_env("nancy", 4), raw_env("nancy", 4)
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.state is not None and b.state is not None
    assert str(a.state) == str(b.state)
    a.reset()
    b.reset()  # the next games follow from the seed too
    assert str(a.state) == str(b.state)
    a.reset(seed=12)
    assert str(a.state) != str(b.state)


@pytest.mark.parametrize(("name", "n"), [("nodde", 2), ("notakers", 4), ("nancy", 3)])
def test_max_cycles(name: str, n: int) -> None:
    # The AEC half of pettingzoo.test.max_cycles_test (its parallel half needs a
    # parallel environment, which a turn-based game is not): after max_cycles
    # turns of the busiest agent, every agent is truncated and steps out once.
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


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env("nodde", 2)
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
    e = raw_env("nodde", 2, render_mode="ansi", render_seat=1)
    e.reset(seed=2)
    assert e.state is not None
    assert e.render() == e.state.table(1)
    e = raw_env("nodde", 2, render_mode="ansi")
    e.reset(seed=2)
    assert e.state is not None
    assert e.render() == str(e.state)
    h = raw_env("nodde", 2, render_mode="human")
    h.reset(seed=2)
    assert h.state is not None
    h.step(h.state.legal_actions()[0])
    assert capsys.readouterr().out.strip() == str(h.state).strip()
    assert raw_env("nodde", 2).render() is None


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("nodde", 2, render_mode="rgb_array")
    with pytest.raises(TypeError):
        raw_env("nodde", 2, max_cycles=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        raw_env("nodde", 2, max_cycles=0)
    with pytest.raises(ValueError, match="disagrees"):
        raw_env(load_game("nodde", None, 3), 2)
    with pytest.raises(RuntimeError, match="reset"):
        raw_env("nodde", 2).observe("player_0")
    e = raw_env(load_game("nodde", None, 3))
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
