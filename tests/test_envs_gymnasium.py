"""The single-agent Gymnasium environment: Gymnasium's checker on every game,
the reward and bot contracts, and illegal actions (an error, or the opt-in
penalty)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from pycards.bots import make_bot  # noqa: E402
from pycards.envs.gymnasium import CardGameEnv, env_ids  # noqa: E402
from pycards.errors import IllegalActionError  # noqa: E402
from pycards.game import load_game  # noqa: E402


@pytest.mark.parametrize(
    ("name", "players"),
    [("nodde", 2), ("nodde", 4), ("notakers", 3), ("notakers", 8), ("nancy", 2), ("nancy", 5)],
)
def test_check_env(name: str, players: int) -> None:
    env = gymnasium.make(
        f"pycards/{name}-v0", num_players=players, illegal_action="penalty", render_mode="ansi"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_env_ids() -> None:
    assert env_ids() == ["pycards/nancy-v0", "pycards/nodde-v0", "pycards/notakers-v0"]


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


@pytest.mark.parametrize(
    ("name", "players", "seat"), [("nodde", 3, 1), ("notakers", 2, 0), ("nancy", 3, 2)]
)
def test_rewards_sum_to_the_final_score(name: str, players: int, seat: int) -> None:
    env = CardGameEnv(name, players, seat=seat)
    total, returns = play(env, 3)
    assert total == returns[seat]
    assert not env.action_masks().any()


def test_bots_play_the_other_seats_as_seeded() -> None:
    # the game equals one replayed by hand with bots seeded the way reset() seeds them
    env = CardGameEnv("notakers", 3, seat=1)
    env.reset(seed=8)
    assert env.state is not None
    rng = np.random.default_rng(8)
    game_seed = int(rng.integers(0, 1 << 63, dtype=np.int64))
    bots = {p: make_bot("random") for p in (0, 2)}
    for p in (0, 2):
        bots[p].reset(int(rng.integers(0, 1 << 63, dtype=np.int64)))
    state = load_game("notakers", None, 3).new_initial_state(game_seed)
    while state.current_player != 1:
        state.apply(bots[state.current_player].act(state.view(state.current_player)))
    assert state.history == env.state.history
    assert env.state.seed == game_seed


def test_illegal_action_raises_by_default_and_changes_nothing() -> None:
    env = CardGameEnv("nodde", 2)
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
    env = CardGameEnv("nodde", 2, illegal_action="penalty", illegal_penalty=-5, max_steps=3)
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
    env = CardGameEnv("nancy", 3, seat=2, render_mode="ansi")
    env.reset(seed=4)
    assert env.state is not None
    assert env.render() == env.state.table(2)
    human = CardGameEnv("nodde", 2, render_mode="human")
    human.reset(seed=4)
    human.step(int(np.flatnonzero(human.action_masks())[0]))
    assert human.state is not None
    assert capsys.readouterr().out.strip() == human.state.table(0).strip()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="illegal_action"):
        CardGameEnv("nodde", illegal_action="ignore")
    with pytest.raises(ValueError, match="specs"):
        CardGameEnv("nodde", 3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        CardGameEnv("nodde", 2, opponents="genius")
    with pytest.raises(ValueError):
        CardGameEnv("nodde", 2, seat=2)
    with pytest.raises(TypeError):
        CardGameEnv("nodde", 2, illegal_penalty="-1")  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="reset"):
        CardGameEnv("nodde", 2).action_masks()
