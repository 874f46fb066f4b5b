"""The vector environment against a plain-Python twin built on the state API
(the same generator stream, drawn the documented way), and its input checks."""

from __future__ import annotations

import importlib
import re
import sys

import numpy as np
import pytest
from _games import GAMES, game_params

from cardcore import _core
from pycards.envs.vector import OPPONENTS, VectorEnv
from pycards.errors import IllegalActionError
from pycards.game import State, load_game

_M64 = (1 << 64) - 1
_STRIDE = 0x9E3779B97F4A7C15
#: the game of the tests that need one: any registered game that seats two to four
GAME = next(c for c in GAMES.values() if c.min_players <= 2 <= 4 <= c.max_players)
#: every registered game's twin checks (its profile's): players, learner, steps, must finish
TWIN_CASES = [
    pytest.param(name, *case, id=f"{name}-{case[0]}p")
    for name, game in GAMES.items()
    for case in game.vector_twin_cases
]


class Stream:
    """xoshiro256** outputs of one seed, read the way the engine reads them."""

    def __init__(self, seed: int) -> None:
        self.values = _core.rng_sequence(seed, 50_000)
        self.i = 0

    def next(self) -> int:
        self.i += 1
        return int(self.values[self.i - 1])

    def below(self, n: int) -> int:
        if n <= 1:
            return 0  # the engine draws nothing for a single choice (rng.c)
        t = ((1 << 64) - n) % n
        while True:
            x = self.next()
            if x >= t:
                return x % n


class TwinGame:
    """One game of the vector, written plainly over pycards.game.State."""

    def __init__(self, name: str, players: int, seed: int, index: int, learner: int) -> None:
        self.game = load_game(name, None, players)
        self.rng = Stream((seed + index * _STRIDE) & _M64)
        self.learner = learner
        self.final = [0] * players  # every seat's returns at its last game's end
        self.new_game()

    def advance(self) -> None:
        s = self.state
        while not s.is_terminal and s.current_player != self.learner:
            legal = s.legal_actions()
            s.apply(legal[self.rng.below(len(legal))])

    def new_game(self) -> None:
        while True:
            self.state: State[object] = self.game.new_initial_state(self.rng.next())
            self.advance()
            if self.state.current_player == self.learner:
                self.baseline = 0
                return

    def step(self, action: int) -> tuple[float, bool]:
        self.state.apply(action)
        self.advance()
        score = self.state.returns()[self.learner]
        reward = float(score - self.baseline)
        if self.state.is_terminal:
            self.final = list(self.state.returns())
            self.new_game()
            return reward, True
        self.baseline = score
        return reward, False

    def view(self) -> tuple[np.ndarray, np.ndarray]:
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        mask[self.state.legal_actions()] = 1
        return self.state.observation_tensor(self.learner), mask


@pytest.mark.parametrize(("name", "players", "learner", "steps", "finishes"), TWIN_CASES)
def test_vector_matches_the_twin(
    name: str, players: int, learner: int, steps: int, finishes: bool
) -> None:
    n, seed = 3, 2026
    venv = VectorEnv(name, n, players, seed=seed, learner=learner, events=True)
    # the default vector keeps no event log: the same games, step for step
    quiet = VectorEnv(name, n, players, seed=seed, learner=learner)
    twins = [TwinGame(name, players, seed, i, learner) for i in range(n)]
    rng = np.random.default_rng(5)
    obs, masks = venv.observations, venv.action_masks
    finished = 0
    for k in range(steps):
        for i, t in enumerate(twins):
            o, m = t.view()
            if k % 25 == 0:
                assert venv.state(i).table(None) == t.state.table(None)
            np.testing.assert_array_equal(obs[i], o)
            np.testing.assert_array_equal(masks[i], m)
        actions = venv.sample_actions(rng)
        expected = [t.step(int(a)) for t, a in zip(twins, actions, strict=True)]
        # the step writes every value of its outputs: none is left from before
        obs.fill(np.nan)
        masks.fill(-1)
        obs, masks, rewards, terms = venv.step(actions)
        q_obs, q_masks, q_rewards, q_terms = quiet.step(actions)
        np.testing.assert_array_equal(q_obs, obs)
        np.testing.assert_array_equal(q_masks, masks)
        np.testing.assert_array_equal(q_rewards, rewards)
        np.testing.assert_array_equal(q_terms, terms)
        assert rewards.tolist() == [r for r, _ in expected]
        assert terms.tolist() == [d for _, d in expected]
        # every seat's result of the games that ended (zeros before a first end)
        assert venv.final_returns().tolist() == [t.final for t in twins]
        assert quiet.final_returns().tolist() == [t.final for t in twins]
        finished += int(terms.sum())
    assert venv.episodes == finished
    if finishes:
        assert finished > 0  # the auto-reset was exercised
    venv.reset()
    for t in twins:
        t.new_game()
    for i, t in enumerate(twins):
        np.testing.assert_array_equal(venv.observations[i], t.view()[0])


def test_a_state_of_a_log_free_vector_plays_on_and_logs() -> None:
    venv = VectorEnv(GAME.name, 2, 2, seed=9)
    logged = VectorEnv(GAME.name, 2, 2, seed=9, events=True)
    for _ in range(5):
        actions = venv.random_actions()
        venv.step(actions)
        logged.step(actions)
    s, t = venv.state(1), logged.state(1)
    assert s.events() == [] and t.events() != []
    np.testing.assert_array_equal(s.observation_tensor(0), t.observation_tensor(0))
    a = s.legal_actions()[0]
    s.apply(a)
    t.apply(a)
    assert s.events() == t.events()[-len(s.events()) :] != []
    assert s.returns() == t.returns()
    with pytest.raises(TypeError, match="events"):
        VectorEnv(GAME.name, 2, 2, events=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_give_the_same_games(threads: int) -> None:
    # more sizes, thread counts and changes between calls: test_vecenv_pool.py
    a = VectorEnv(GAME.name, 5, 4, seed=3, threads=1)
    b = VectorEnv(GAME.name, 5, 4, seed=3, threads=threads)
    rng = np.random.default_rng(0)
    for _ in range(50):
        actions = a.sample_actions(rng)
        ra = [x.copy() for x in a.step(actions)]
        rb = b.step(actions)
        for x, y in zip(ra, rb, strict=True):
            assert x.tobytes() == y.tobytes()
    assert a.episodes == b.episodes


def test_bad_arrays_raise_before_anything_runs() -> None:
    venv = VectorEnv(GAME.name, 4, 2, seed=1)
    before = venv.observations.copy()
    good = venv.sample_actions(np.random.default_rng(0))
    with pytest.raises(TypeError, match="ndarray"):
        venv.step(list(good))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="dtype"):
        venv.step(good.astype(np.float32))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="dtype"):
        venv.step(good.astype(bool))
    with pytest.raises(ValueError, match="shape"):
        venv.step(good[:3])
    with pytest.raises(ValueError, match="not an action id"):
        venv.step(np.full(4, 999, dtype=np.int64))
    # an illegal action in one game: no game changes
    illegal = good.copy()
    illegal[2] = int(np.flatnonzero(venv.action_masks[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 2"):
        venv.step(illegal)
    np.testing.assert_array_equal(venv.observations, before)
    check = np.zeros_like(venv.observations)
    masks = np.zeros_like(venv.action_masks)
    venv._v.observe(check, masks)
    np.testing.assert_array_equal(check, before)
    # the raw binding: outputs of the wrong dtype, shape, layout or writability
    v = venv._v
    r, t = np.zeros(4, np.float32), np.zeros(4, bool)
    cases = [
        (good, before.astype(np.float64), masks, r, t, TypeError),
        (good, check, masks.astype(np.uint8), r, t, TypeError),
        (good, check, masks, r.astype(np.float64), t, TypeError),
        (good, check, masks, r, t.astype(np.int8), TypeError),
        (good.astype(np.int64), check, masks, r, t, TypeError),
        (good, check[:, ::2], masks, r, t, ValueError),
        (good, check.T.copy(), masks, r, t, ValueError),
        (good, check, masks, r, np.zeros(5, bool), ValueError),
    ]
    for args in cases:
        with pytest.raises(args[-1]):
            v.step(*args[:-1])
    ro = check.copy()
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        v.step(good, ro, masks, r, t)
    np.testing.assert_array_equal(check, before)  # nothing written by a refused call
    # final_returns' output: int32 of shape (games, players), writable
    with pytest.raises(TypeError):
        v.final_returns(np.zeros((4, 2), np.int64))
    with pytest.raises(ValueError):
        v.final_returns(np.zeros((4, 3), np.int32))
    frozen = np.zeros((4, 2), np.int32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        v.final_returns(frozen)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        VectorEnv(GAME.name, 0)
    with pytest.raises(TypeError):
        VectorEnv(GAME.name, 2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        VectorEnv(GAME.name, 2, 2, learner=2)
    with pytest.raises(ValueError, match="opponent"):
        VectorEnv(GAME.name, 2, opponent="genius")
    with pytest.raises(ValueError):
        VectorEnv(GAME.name, 2, threads=0)
    with pytest.raises(TypeError):
        VectorEnv(GAME.name, 2, seed=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "players"), game_params("ends"))
def test_heuristic_opponents_fall_back_to_random_without_a_heuristic(
    name: str, players: int
) -> None:
    # every game plays legally with the heuristic policy (random where a game has none)
    venv = VectorEnv(name, 3, players, seed=4, opponent="heuristic")
    rng = np.random.default_rng(0)
    for _ in range(30):
        venv.step(venv.sample_actions(rng))
    size = load_game(name, None, players).info.state_size
    logged = VectorEnv(name, 3, players, seed=4, events=True)
    assert logged.bytes_per_game >= size > venv.bytes_per_game  # no log entries kept
    # one whole state per thread that may run (here 3, one per game) to deal in
    assert venv.nbytes >= 3 * (venv.bytes_per_game + size)


def test_opponents_are_the_engines_two_policies() -> None:
    for spec in ("best", "ismcts", "pimc:simulations=10", "self"):
        with pytest.raises(
            ValueError, match=r"random, heuristic .*CardGameEnv\(opponents=\.\.\.\)"
        ):
            VectorEnv(GAME.name, 2, opponent=spec)
    for spec in OPPONENTS:
        assert VectorEnv(GAME.name, 2, opponent=spec).num_envs == 2


@pytest.mark.parametrize(
    ("module", "needs", "extra"),
    [
        ("pycards.envs.gymnasium", "gymnasium", "gymnasium"),
        ("pycards.envs.pettingzoo", "pettingzoo", "pettingzoo"),
        ("pycards.envs.openspiel", "pyspiel", "openspiel"),
    ],
)
def test_a_missing_ecosystem_names_its_extra(
    module: str, needs: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as with only "pip install pycards": the ecosystem's module is missing
    monkeypatch.setitem(sys.modules, needs, None)
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(
        ModuleNotFoundError, match=re.escape(f"pip install 'pycards[{extra}]'")
    ) as e:
        importlib.import_module(module)
    assert e.value.name == needs and module in str(e.value)
