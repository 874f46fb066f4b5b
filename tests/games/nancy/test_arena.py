"""The Game of Nancy in the arena and the environments: under the default
rules a deal where every seat passes is dealt again, so bots that never bid
never end a game; the action cap stops it and says why."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from pycards.arena import add_arguments, main, run_match
from pycards.bots import register_bot
from pycards.errors import StalledGameError
from pycards.game import load_game
from pycards.playouts import action_cap

WHY = "a deal where every seat passes is dealt again"


class NeverBids:
    """Passes whenever it may (so a deal is never bid); gives up, by raising,
    after ``limit`` moves, so that a match without a cap fails instead of
    running for ever."""

    name = "never-bids"

    def __init__(self, seed: int = 0, limit: int = 200_000) -> None:
        self.moves = 0
        self.limit = limit

    def reset(self, seed: int) -> None:
        pass

    def act(self, view: Any) -> int:
        self.moves += 1
        if self.moves > self.limit:
            raise RuntimeError("no cap stopped the game")
        legal = view.legal_actions()
        names = [view.action_name(a) for a in legal]
        return legal[names.index("pass")] if "pass" in names else legal[0]


register_bot("never_bids_test", NeverBids)


def test_bots_that_never_bid_stop_at_the_default_cap() -> None:
    cap = action_cap(load_game("nancy", None, 4))
    with pytest.raises(StalledGameError, match=WHY) as info:
        run_match("nancy", [NeverBids(), NeverBids()], 2, players=4, progress=False)
    assert f"after {cap:,} actions: no end in sight" in str(info.value)


def test_max_actions_sets_the_cap() -> None:
    with pytest.raises(StalledGameError, match=r"after 120 actions.*max_actions is 120"):
        run_match(
            "nancy", [NeverBids(), NeverBids()], 2, players=4, max_actions=120, progress=False
        )
    # a game that bids ends well inside the cap
    result = run_match("nancy", ["random", "random"], 2, players=4, max_actions=2000, seed=3)
    assert result.games_played == 2


def test_dealer_forced_ends_the_games_of_bots_that_never_bid() -> None:
    game = load_game("nancy", load_game("nancy").RULES_TYPE(all_pass="dealer_forced"), 4)
    result = run_match(game, [NeverBids(), NeverBids()], 2, progress=False)
    assert result.games_played == 2


def test_cli_says_why_and_exits_1(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    bots = "never_bids_test,never_bids_test"
    json_path = str(tmp_path / "x.json")
    args = parser.parse_args(
        ["nancy", "--bots", bots, "--players", "4", "--games", "2", "--max-actions", "300"]
    )
    args.json = json_path
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "game stopped after 300 actions" in err and WHY in err


def test_gymnasium_truncates() -> None:
    from pycards.envs.gymnasium import CardGameEnv

    env = CardGameEnv("nancy", 4, opponents="never_bids_test", max_actions=200)
    env.reset(seed=1)
    assert env.max_actions == 200
    truncated, steps = False, 0
    while not truncated:
        mask = env.action_masks()
        legal = [int(a) for a in mask.nonzero()[0]]
        names = [env.game.action_name(a) for a in legal]
        _, _, terminated, truncated, info = env.step(legal[names.index("pass")])
        assert not terminated
        steps += 1
        assert steps <= 200
    assert WHY in info["truncation"] and "200 actions" in info["truncation"]
    assert CardGameEnv("nancy", 4).max_actions == action_cap(load_game("nancy", None, 4))


def test_pettingzoo_truncates() -> None:
    from pycards.envs.pettingzoo import parallel_env, raw_env

    env = raw_env("nancy", 4, max_actions=100)
    env.reset(seed=2)
    for _ in range(100):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        legal = [int(a) for a in obs["action_mask"].nonzero()[0]]
        names = [env.game.action_name(a) for a in legal]
        env.step(legal[names.index("pass")])
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(WHY in env.infos[a]["truncation"] for a in env.agents)

    par = parallel_env("nancy", 4, max_actions=40)
    par.reset(seed=2)
    for _ in range(40):
        state = par.aec.state
        assert state is not None
        legal = state.legal_actions()
        names = [par.game.action_name(a) for a in legal]
        act = {par.aec.agent_selection: legal[names.index("pass")]}
        _, _, terms, truncs, infos = par.step(act)
        if not par.agents:
            break
    assert all(truncs.values()) and not any(terms.values())
    assert all(WHY in i["truncation"] for i in infos.values())


def test_openspiel_cuts_at_max_game_length() -> None:
    pytest.importorskip("pyspiel")
    import pyspiel

    import pycards.envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("pycards_nancy", {"players": 4, "max_game_length": 60})
    assert game.max_game_length() == 60
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        names = [state.action_to_string(state.current_player(), a) for a in legal]
        state.apply_action(legal[names.index("pass")])
    assert state.is_cut() and state.move_number() == 60
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
    default = pyspiel.load_game("pycards_nancy", {"players": 4})
    assert default.max_game_length() == action_cap(load_game("nancy", None, 4))
