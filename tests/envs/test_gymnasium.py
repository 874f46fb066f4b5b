"""The single-agent Gymnasium environment: Gymnasium's checker on every game,
the reward and bot contracts, and illegal actions (an error, or the opt-in
penalty)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from _games import GAMES, ROOT, game_params

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils import env_checker as ec  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import pycards.envs.gymnasium as gymnasium_module  # noqa: E402
from pycards.bots import make_bot  # noqa: E402
from pycards.envs.gymnasium import CardGameEnv, env_ids  # noqa: E402
from pycards.errors import IllegalActionError  # noqa: E402
from pycards.game import game_names, load_game  # noqa: E402

# every game of the registry, at its smallest and largest player count
CONFIGS = sorted(
    {
        (name, n)
        for name in game_names()
        for n in (load_game(name).info.min_players, load_game(name).info.max_players)
    }
)
#: the game of the tests that need one: any registered game that seats two to four
GAME = next(c for c in GAMES.values() if c.min_players <= 2 <= 4 <= c.max_players)


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_check_env_with_the_penalty(name: str, players: int) -> None:
    env = gymnasium.make(
        f"pycards/{name}-v0", num_players=players, illegal_action="penalty", render_mode="ansi"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_check_env_checks_with_the_default(name: str, players: int) -> None:
    # check_env's checks, in its order, on the default environment (an illegal
    # action raises).  Every action they step is action_space.sample(), a legal
    # action of the game at hand, except one: check_step_determinism samples its
    # action in the game left by the previous check, then resets with seed 123
    # and steps it there, where it is legal only by chance; so here it samples
    # in the seed-123 game (the whole check_env is run below to show that).
    env = gymnasium.make(f"pycards/{name}-v0", num_players=players, render_mode="ansi").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ec.check_action_space(env.action_space)
        ec.check_space_limit(env.action_space, "action")
        ec.check_observation_space(env.observation_space)
        ec.check_space_limit(env.observation_space, "observation")
        ec.check_seed_deprecation(env)
        ec.check_reset_return_info_deprecation(env)
        ec.check_reset_return_type(env)
        ec.check_reset_seed_determinism(env)
        ec.check_reset_options(env)
        ec.env_reset_passive_checker(env)
        ec.env_step_passive_checker(env, env.action_space.sample())
        env.reset(seed=123)
        ec.check_step_determinism(env)
        ec.check_returned_data_not_reused(env)
        ec.env_render_passive_checker(env)


def test_action_space_samples_legal_actions() -> None:
    env = CardGameEnv(GAME.name, 4)
    assert env.action_space == gymnasium.spaces.Discrete(env.game.num_actions)
    env.reset(seed=3)
    env.action_space.seed(0)
    for _ in range(200):
        a = env.action_space.sample()
        assert env.action_masks()[a]  # legal, so the default "raise" never fires
        assert env.action_space.contains(a)
        _, _, terminated, _, _ = env.step(a)
        if terminated:
            env.reset()
    # an explicit mask is Discrete's: here only action 0
    mask = np.zeros(env.game.num_actions, np.int8)
    mask[0] = 1
    assert env.action_space.sample(mask=mask) == 0
    # an illegal id is still in the space, and still an error by default
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    assert env.action_space.contains(illegal)
    with pytest.raises(IllegalActionError):
        env.step(illegal)


def test_env_ids() -> None:
    assert env_ids() == [f"pycards/{name}-v0" for name in game_names()]
    assert f"pycards/{GAME.name}-v0" in env_ids()


def play(env: CardGameEnv, seed: int) -> tuple[float, list[int]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        assert env.state is not None and env.state.current_player == env.seat
        np.testing.assert_array_equal(obs, env.state.observation_tensor(env.seat))
        np.testing.assert_array_equal(info["action_mask"], env.action_masks())
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
    assert env.state is not None
    return total, env.state.returns()


@pytest.mark.parametrize(("name", "players"), game_params("ends"))
def test_rewards_sum_to_the_final_score(name: str, players: int) -> None:
    seat = players - 1
    env = CardGameEnv(name, players, seat=seat)
    total, returns = play(env, 3)
    assert total == returns[seat]
    assert not env.action_masks().any()


def test_bots_play_the_other_seats_as_seeded() -> None:
    # the game equals one replayed by hand with bots seeded the way reset() seeds them
    env = CardGameEnv(GAME.name, 3, seat=1)
    env.reset(seed=8)
    assert env.state is not None
    rng = np.random.default_rng(8)
    game_seed = int(rng.integers(0, 1 << 63, dtype=np.int64))
    bots = {p: make_bot("random") for p in (0, 2)}
    for p in (0, 2):
        bots[p].reset(int(rng.integers(0, 1 << 63, dtype=np.int64)))
    state = load_game(GAME.name, None, 3).new_initial_state(game_seed)
    while state.current_player != 1:
        state.apply(bots[state.current_player].act(state.view(state.current_player)))
    assert state.history == env.state.history
    assert env.state.seed == game_seed


def test_illegal_action_raises_by_default_and_changes_nothing() -> None:
    env = CardGameEnv(GAME.name, 2)
    env.reset(seed=1)
    assert env.state is not None
    before = env.state.to_json()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    with pytest.raises(IllegalActionError):
        env.step(10_000)
    with pytest.raises(TypeError):
        env.step(1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        env.step(True)
    assert env.state.to_json() == before


def test_illegal_action_penalty_when_asked() -> None:
    env = CardGameEnv(GAME.name, 2, illegal_action="penalty", illegal_penalty=-5, max_steps=3)
    obs, _ = env.reset(seed=1)
    assert env.state is not None
    before = env.state.to_json()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs2, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, False, False, True)
    assert env.state.to_json() == before
    np.testing.assert_array_equal(obs, obs2)
    env.step(illegal)
    *_, truncated, _ = env.step(illegal)
    assert truncated  # max_steps bounds the tries


def test_render_is_the_agent_view(capsys: pytest.CaptureFixture[str]) -> None:
    env = CardGameEnv(GAME.name, 3, seat=2, render_mode="ansi")
    env.reset(seed=4)
    assert env.state is not None
    assert env.render() == env.state.table(2)
    human = CardGameEnv(GAME.name, 2, render_mode="human")
    human.reset(seed=4)
    human.step(int(np.flatnonzero(human.action_masks())[0]))
    assert human.state is not None
    assert capsys.readouterr().out.strip() == human.state.table(0).strip()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="illegal_action"):
        CardGameEnv(GAME.name, illegal_action="ignore")
    with pytest.raises(ValueError, match="specs"):
        CardGameEnv(GAME.name, 3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        CardGameEnv(GAME.name, 2, opponents="genius")
    with pytest.raises(ValueError):
        CardGameEnv(GAME.name, 2, seat=2)
    with pytest.raises(TypeError):
        CardGameEnv(GAME.name, 2, illegal_penalty="-1")  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="reset"):
        CardGameEnv(GAME.name, 2).action_masks()


def test_check_env_with_the_default_is_documented_as_it_is() -> None:
    # check_env with the default "raise" stops where its step-determinism check
    # steps an action drawn in the previous game: the docs say so, and say
    # check_env passes with "penalty" (test_check_env_with_the_penalty)
    failed = []
    for name, players in CONFIGS:
        env = CardGameEnv(name, players)
        try:
            check_env(env, skip_render_check=True)
        except IllegalActionError:
            failed.append(name)
    assert failed  # in some game the drawn action is illegal in the new deal
    page = (ROOT / "docs" / "envs_gymnasium.rst").read_text()
    assert "either setting" not in page
    assert 'passes with ``illegal_action="penalty"``' in page
    assert "check_step_determinism" in page
    assert "either setting" not in (gymnasium_module.__doc__ or "")
