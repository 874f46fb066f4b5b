"""The search's objective, horizon, Python hooks and threads, in every game."""

from __future__ import annotations

import copy
import importlib
import math
import pickle
import sys
import textwrap
from typing import Any, ClassVar

import numpy as np
import pytest

from cardcore import _core
from pycards.bots import make_bot
from pycards.bots.native import search_defaults
from pycards.bots.value import _dp, deal_score_sequences, race_games, win_probability_table
from pycards.game import game_names, load_game

GAMES = game_names()


def _state(name: str, seed: int = 3) -> tuple[Any, Any]:
    game = load_game(name, num_players=4 if name == "nancy" else 2)
    state = game.new_initial_state(seed=seed)
    # a position with a choice: play on until at least two legal actions
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return game, state


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
@pytest.mark.parametrize(
    "opts",
    [
        {"reward": "margin", "scale": 10.0},
        {"reward": "points"},
        {"reward": "margin", "horizon": "deal"},
        {"reward": "win", "horizon": "deal"},
        {"threads": 2},
    ],
)
def test_options_legal_and_repeatable(name: str, kind: str, opts: dict[str, Any]) -> None:
    game, state = _state(name)
    moves = []
    for _ in range(2):
        s = _core.Searcher(game._setup, kind, simulations=200, **opts)
        s.reset(5)
        moves.append(s.act(state.engine_state))
    assert moves[0] == moves[1]
    assert moves[0] in state.legal_actions()
    assert s.last_simulations == 200 * opts.get("threads", 1)


@pytest.mark.parametrize(
    ("arg", "value", "exc"),
    [
        ("reward", "score", ValueError),
        ("reward", 1, TypeError),
        ("horizon", "match", ValueError),
        ("threads", 0, ValueError),
        ("threads", True, TypeError),
        ("threads", 65, ValueError),
        ("scale", 0.0, ValueError),
        ("scale", float("nan"), ValueError),
        ("win_table", [[0.5]], TypeError),
        ("win_table", np.full((3, 3), 1.5), ValueError),
        ("win_table", np.zeros((2, 3)), ValueError),
        ("evaluate", 3, TypeError),
        ("batch", 0, ValueError),
    ],
)
def test_bad_options_named(arg: str, value: Any, exc: type[Exception]) -> None:
    with pytest.raises(exc, match=arg):
        _core.check_bot("ismcts", **{arg: value})


def test_hooks_only_for_search() -> None:
    with pytest.raises(ValueError, match="hooks"):
        _core.check_bot("heuristic", rollout=lambda o, m, p: 0)
    with pytest.raises(ValueError, match="pimc"):
        _core.check_bot("pimc", evaluate=lambda o, m, p: 0)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_game_defaults_reach_the_searcher(name: str, kind: str) -> None:
    """A bot without options searches with its game's defaults (the facade's
    ``SEARCH_DEFAULTS``), an option given wins over them, and a race game of
    two playing for the win at a deal horizon gets its win table."""
    game, _ = _state(name)
    opts = search_defaults(game, kind)
    assert "pimc" not in opts and "ismcts" not in opts
    _core.check_bot(kind, **opts)
    s = make_bot(kind).native_searcher(game)
    for key, value in opts.items():
        assert getattr(s, key) == value, key
    assert s.simulations == opts.get("simulations", 1000)
    race = type(game).RACE_TARGET is not None and game.num_players == 2
    wins = s.reward == "win" and s.horizon == "deal"
    assert (s.win_table is not None) == (race and wins)
    assert make_bot(f"{kind}:simulations=37").native_searcher(game).simulations == 37


def test_a_bot_that_searched_copies_and_pickles() -> None:
    """The arena copies a bot for its second seat; a copy makes its own
    searcher, seeded as the original was."""
    _, state = _state("nodde")
    view = state.view(state.current_player)
    bot = make_bot("ismcts:simulations=60", seed=2)
    first = bot.act(view)
    for twin in (copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):
        assert twin.options == bot.options
        assert twin.act(view) == first


def test_search_defaults_merge_kinds() -> None:
    class Probe(type(load_game("nodde"))):  # type: ignore[misc]
        SEARCH_DEFAULTS: ClassVar[dict[str, Any]] = {
            "reward": "margin",
            "simulations": 50,
            "pimc": {"simulations": 70},
        }

    game = Probe(num_players=2)
    assert search_defaults(game) == {"reward": "margin", "simulations": 50}
    assert search_defaults(game, "ismcts") == {"reward": "margin", "simulations": 50}
    assert search_defaults(game, "pimc") == {"reward": "margin", "simulations": 70}


def test_reward_changes_the_search() -> None:
    """The reward reaches the C search: win and margin disagree somewhere."""
    game = load_game("nodde", num_players=2)
    differ = 0
    for seed in range(30):
        state = game.new_initial_state(seed=seed)
        picks = []
        for reward in ("win", "margin"):
            s = _core.Searcher(game._setup, "ismcts", simulations=300, reward=reward, scale=10.0)
            s.reset(1)
            picks.append(s.act(state.engine_state))
        differ += picks[0] != picks[1]
    assert differ > 0


@pytest.mark.parametrize("name", GAMES)
def test_python_rollout_policy_inside_search(name: str) -> None:
    game, state = _state(name)
    calls: list[int] = []
    rng = np.random.default_rng(0)

    def policy(obs: Any, mask: Any, player: int) -> int:
        assert obs.dtype == np.float32 and obs.shape == (game.tensor_size,)
        assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
        calls.append(player)
        return int(rng.choice(np.flatnonzero(mask)))

    s = _core.Searcher(game._setup, "ismcts", simulations=20, rollout=policy, horizon="deal")
    assert s.act(state.engine_state) in state.legal_actions()
    assert calls and all(0 <= p < game.num_players for p in calls)


@pytest.mark.parametrize("name", GAMES)
def test_python_evaluator_and_priors_inside_search(name: str) -> None:
    game, state = _state(name)
    sizes: list[int] = []
    n = game.num_players
    root = state.current_player
    legal = state.legal_actions()
    favourite = legal[-1]

    def evaluate(obs: Any, masks: Any, players: Any) -> Any:
        assert obs.shape == (len(players), game.tensor_size)
        assert masks.shape == (len(players), game.num_actions)
        assert masks.any(axis=1).all()
        sizes.append(len(players))
        return np.zeros((len(players), n))

    def priors(obs: Any, mask: Any, player: int) -> Any:
        p = mask.astype(np.float64)
        if player == root:
            p[favourite] *= 100.0
        return p

    sims = 64 + 8 * len(legal)
    s = _core.Searcher(
        game._setup, "ismcts", simulations=sims, evaluate=evaluate, batch=8, priors=priors
    )
    s.reset(2)
    assert s.act(state.engine_state) in legal
    assert sum(sizes) <= sims and max(sizes) == 8 and len(sizes) >= 2
    # every value 0, one action favoured by the priors: PUCT visits it most
    assert s.act(state.engine_state) == favourite


@pytest.mark.parametrize("name", GAMES)
def test_hook_exceptions_propagate(name: str) -> None:
    game, state = _state(name)

    class BoomError(Exception):
        pass

    def bad(*args: Any) -> Any:
        raise BoomError("from the hook")

    for kw in ({"rollout": bad}, {"evaluate": bad}, {"priors": bad}):
        s = _core.Searcher(game._setup, "ismcts", simulations=10, **kw)
        with pytest.raises(BoomError):
            s.act(state.engine_state)
    s = _core.Searcher(game._setup, "ismcts", simulations=10, rollout=lambda o, m, p: -1)
    with pytest.raises(ValueError, match="not a legal action"):
        s.act(state.engine_state)
    s = _core.Searcher(
        game._setup, "ismcts", simulations=10, evaluate=lambda o, m, p: np.zeros((1, 1))
    )
    with pytest.raises(ValueError, match="shape"):
        s.act(state.engine_state)


def test_threads_merge_more_simulations() -> None:
    game, state = _state("nodde")
    s = _core.Searcher(game._setup, "ismcts", simulations=100, threads=3)
    s.reset(9)
    a = s.act(state.engine_state)
    assert s.last_simulations == 300
    s.reset(9)
    assert s.act(state.engine_state) == a


def test_deal_index() -> None:
    for name in GAMES:
        game, state = _state(name)
        info = _core.deal_index(state.engine_state)
        if name == "notakers":
            assert info is None
        else:
            assert info is not None and info[0] == 0 and 0 <= info[1] < game.num_players


# ---- bots by import path ---------------------------------------------------------


@pytest.fixture
def plugin(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "my_plugin_bots.py").write_text(
        textwrap.dedent(
            """
            class FirstBot:
                name = "first"
                def __init__(self, seed=0, last=0):
                    self.last = last
                def reset(self, seed):
                    pass
                def act(self, view):
                    acts = view.legal_actions()
                    return acts[-1] if self.last else acts[0]

            def factory(seed=0):
                return FirstBot(seed, last=1)

            NOT_A_BOT = 3
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "my_plugin_bots"
    sys.modules.pop("my_plugin_bots", None)


def test_bot_by_import_path(plugin: str) -> None:
    assert make_bot(f"{plugin}:FirstBot").last == 0
    assert make_bot(f"{plugin}:FirstBot:last=1").last == 1
    assert make_bot(f"{plugin}:factory").last == 1
    with pytest.raises(ValueError, match="no module named 'nope_mod'"):
        make_bot("nope_mod:Bot")
    with pytest.raises(ValueError, match="has no 'Missing'"):
        make_bot(f"{plugin}:Missing")
    with pytest.raises(ValueError, match="depth"):
        make_bot(f"{plugin}:FirstBot:depth=3")
    with pytest.raises(ValueError, match="not a class or factory"):
        make_bot(f"{plugin}:NOT_A_BOT")


def test_arena_cli_seats_bot_by_path(plugin: str, capsys: pytest.CaptureFixture[str]) -> None:
    from pycards.ui.cli import main

    assert main(["arena", "nodde", "--bots", f"{plugin}:FirstBot,random", "--games", "4"]) == 0
    assert f"{plugin}:FirstBot" in capsys.readouterr().out
    assert main(["arena", "nodde", "--bots", f"{plugin}:Gone,random", "--games", "4"]) == 2
    assert "has no 'Gone'" in capsys.readouterr().err


# ---- the win tables -----------------------------------------------------------------


def test_dp_exact_on_a_toy_race() -> None:
    """One deal kind: the dealer scores 1 then the other 1; target 2: from
    0-0 the dealer reaches 1, the other 1, then (roles swapped) the new
    dealer, who was the other, reaches 2 first."""
    seqs = [np.array([[1, 0], [0, 1]], dtype=np.int32)]
    v = _dp(seqs, 2)
    assert v[1, 1] == 1.0  # the dealer scores first
    assert v[0, 1] == 0.0  # the other needs 1: after the dealer's 1, his 1 wins
    assert v[0, 0] == 0.0  # 0-0 -> 1-1 with the other dealing: he wins
    assert v[1, 0] == 1.0


@pytest.mark.parametrize("name", race_games())
def test_win_table_shape_and_order(name: str) -> None:
    game = load_game(name, num_players=2)
    facade = importlib.import_module(type(game).__module__)
    assert facade.win_probability_table is win_probability_table  # re-exported
    t = win_probability_table(game, deals=300, seed=1)
    target = game.rules.game_target
    assert t.shape == (target, target)
    assert ((t >= 0) & (t <= 1)).all()
    # more points never hurt: monotone up to the sampling noise
    assert (np.diff(t, axis=0) >= -0.08).all() and (np.diff(t, axis=1) <= 0.08).all()
    assert t is win_probability_table(game, deals=300, seed=1)  # cached
    assert len(deal_score_sequences(game, deals=50)) == 50


def _simulate_agreement(name: str, games: int, min_visits: int, deals: int) -> tuple[int, int]:
    """Play whole games from the start with the heuristic; at each new deal
    record the scores (dealer, other) and whether that dealer won.  Returns
    (positions with >= min_visits visits, those whose frequency lies within
    the 99% interval of the table's probability)."""
    game = load_game(name, num_players=2)
    table = win_probability_table(game, deals=deals, seed=11)
    visits: dict[tuple[int, int], list[int]] = {}
    for g in range(games):
        state = game.new_initial_state(seed=10**6 + g).engine_state
        seen: list[tuple[int, int, int]] = []
        last = None
        step = 0
        while state.current_player() >= 0:
            info = _core.deal_index(state)
            assert info is not None
            if info[0] != last:
                last, dealer = info
                r = state.returns()
                seen.append((r[dealer], r[1 - dealer], dealer))
            state.apply(state.heuristic_action(g * 1000 + step))
            step += 1
        final = state.returns()
        winner = 0 if final[0] > final[1] else 1
        for x, y, d in seen:
            visits.setdefault((x, y), []).append(int(winner == d))
    tested = agree = 0
    for (x, y), wins in visits.items():
        n = len(wins)
        if n < min_visits:
            continue
        p = float(table[x, y])
        half = 2.576 * math.sqrt(max(p * (1 - p), 1e-4) / n) + 0.5 / math.sqrt(deals)
        tested += 1
        agree += abs(sum(wins) / n - p) <= half
    return tested, agree


def test_win_table_against_whole_games_quick() -> None:
    tested, agree = _simulate_agreement("nodde", games=1500, min_visits=15, deals=3000)
    assert tested >= 20
    assert agree >= 0.93 * tested


@pytest.mark.slow
@pytest.mark.parametrize("name", race_games())
def test_win_table_against_whole_games(name: str) -> None:
    games = 30000 if name == "nodde" else 20000
    tested, agree = _simulate_agreement(name, games=games, min_visits=20, deals=20000)
    assert tested >= 200
    assert agree >= 0.97 * tested
