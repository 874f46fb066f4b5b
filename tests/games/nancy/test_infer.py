"""Weighted worlds (pycards.bots.infer) checked by exact enumeration.

Late in a Nancy deal (3 and 4 players), every deal of the unknown cards into
the other hands is tried by replaying the game's actions on a deck that deals
it (tests/_brute.py's replayed_deals); each consistent deal's weight is computed
here by brute force (the softened heuristic's probability of every other
seat's action along the replay).  The C weights must equal them world by
world, and the importance-weighted frequencies of the sampled worlds must
match the normalized weights (a z-score per world from the delta-method
variance of the self-normalized estimate, Bonferroni at 1e-6).  Two real
states that differ only in cards hidden from the observer give the same
worlds and weights.

PIMC over the weighted worlds runs in C (``Searcher.act_worlds``, the bot
``pimc_infer``): its weighted means equal a Python computation over the same
worlds and weights (the exact solver's values, late in a deal), worlds of
weight 0 are left out, the weights' scale does not matter, the bot is
deterministic and moves alike from two states that differ only in hidden
cards, and bad options are refused.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from _brute import replayed_deals

from cardcore import _core
from games.test_sampler_exact import _late_nancy
from pycards.bots import make_bot
from pycards.bots.infer import InferBot, weighted_worlds
from pycards.game import State, load_game
from pycards.games.nancy import NancyRules

EPS = 0.25
TIES = 4


def _model_weight(state: Any, deck: list[int], history: list[int], p: int) -> float:
    """The softened heuristic's probability of the other seats' actions."""
    replay = state.game.new_initial_state(state.seed or 0, deck=deck)
    w = 1.0
    for a in history:
        q = replay.current_player
        if q != p:
            legal = replay.legal_actions()
            choices = {replay.engine_state.heuristic_action(k) for k in range(TIES)}
            m = len(choices)
            if m == len(legal):
                w *= 1.0 / m
            elif a in choices:
                w *= (1.0 - EPS) / m
            else:
                w *= EPS / (len(legal) - m)
        replay.apply(a)
    return w


def _deck_of(deck: list[int], state: Any, others: list[int], key: Any) -> list[int]:
    hands = [sorted(int(c) for c in state.observation(q).hand) for q in others]
    positions = [deck.index(c) for h in hands for c in h]
    trial = list(deck)
    for pos, c in zip(positions, [c for part in key for c in sorted(part)], strict=True):
        trial[pos] = c
    return trial


def _position(players: int, need: int) -> Any:
    for seed in range(400):
        late = _late_nancy(players, 0, 2, seed)
        if late is None:
            continue
        state, deck, history = late
        p = state.observation(0).taker
        if p is None:
            continue
        others, _real, consistent = replayed_deals(state, deck, history, p)
        if len(consistent) < need:
            continue
        weights = {
            key: _model_weight(state, _deck_of(deck, state, others, key), history, p)
            for key in consistent
        }
        if len(set(weights.values())) < 2:
            continue  # the model tells these deals apart: the test can fail
        return state, deck, history, p, others, weights
    raise AssertionError("no position")


def _key(world: State[Any], others: list[int]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(int(c) for c in world.observation(q).hand) for q in others)


@pytest.mark.parametrize("players", [3, 4])
def test_weighted_worlds_match_the_enumeration(players: int) -> None:
    state, _deck, _history, p, others, weights = _position(players, 4)
    total = sum(weights.values())
    exact = {k: w / total for k, w in weights.items()}
    draws = 200 * len(exact)
    pairs = weighted_worlds(state, p, draws, seed=7, eps=EPS, ties=TIES)
    keys = [_key(s, others) for s, _ in pairs]
    ws = [w for _, w in pairs]
    for k, w in zip(keys, ws, strict=True):
        assert k in weights, "an inconsistent world was drawn"
        assert math.isclose(w, weights[k], rel_tol=1e-9), (w, weights[k])
    mean = sum(ws) / draws
    z_crit = 4.9 + math.sqrt(2 * math.log(len(exact)))  # 1e-6 over all worlds, loosely
    for k, pi in exact.items():
        hit = [1.0 if kk == k else 0.0 for kk in keys]
        est = sum(w * h for w, h in zip(ws, hit, strict=True)) / sum(ws)
        var = sum((w / mean) ** 2 * (h - pi) ** 2 for w, h in zip(ws, hit, strict=True))
        var /= draws * draws
        assert abs(est - pi) < z_crit * math.sqrt(var) + 1e-12, (k, est, pi)


def test_weights_see_only_what_the_observer_knows() -> None:
    state, deck, history, p, others, weights = _position(3, 4)
    real = _key(state, others)
    other_key = next(k for k in weights if k != real)
    twin = state.game.new_initial_state(
        state.seed or 0, deck=_deck_of(deck, state, others, other_key)
    )
    for a in history:
        twin.apply(a)
    assert _key(twin, others) != real
    a = weighted_worlds(state, p, 40, seed=3, eps=EPS)
    b = weighted_worlds(twin, p, 40, seed=3, eps=EPS)
    assert [w for _, w in a] == [w for _, w in b]
    assert [s.engine_state.raw() for s, _ in a] == [s.engine_state.raw() for s, _ in b]


def test_bad_arguments_are_refused() -> None:
    state, *_rest = _position(3, 4)
    with pytest.raises(TypeError):
        weighted_worlds(state, 0, 2, eps="0.2")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        weighted_worlds(state, 0, 2, eps=1.5)
    with pytest.raises(TypeError):
        weighted_worlds(state, 0, 2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        weighted_worlds(state.sample_infoset(0, 1), 0, 2)


# ---- PIMC over the weighted worlds, in C (Searcher.act_worlds, pimc_infer) ----

SCALE = 50.0


def _turn_position(players: int) -> Any:
    """Late in a deal (2 tricks left, within the solver's reach), the Taker
    to act, his weighted worlds, where the weights change some action's mean
    (the other seats' replays branch on the Taker's hidden discard)."""
    for seed in range(400):
        late = _late_nancy(players, 0, 2, seed)
        if late is None:
            continue
        state, deck, history = late
        cp = state.current_player
        if cp != state.observation(0).taker or len(state.legal_actions()) < 2:
            continue
        pairs = weighted_worlds(state, cp, 16, seed=seed, eps=EPS, ties=TIES)
        ws = [w for _, w in pairs]
        if len(set(ws)) < 2:
            continue
        solves = [w.solve() for w, _ in pairs]
        plain = {a: sum(v[a] for v in solves) / len(solves) for a in state.legal_actions()}
        weighted = _python_means(pairs, solves, state.legal_actions())
        if all(math.isclose(plain[a], weighted[a] * SCALE) for a in plain):
            continue
        return state, deck, history, cp, pairs, solves
    raise AssertionError("no position")


def _python_means(pairs: Any, solves: Any, legal: list[int]) -> dict[int, float]:
    ws = [w for _, w in pairs]
    total = sum(ws)
    return {
        a: sum(w * v[a] / SCALE for w, v in zip(ws, solves, strict=True)) / total for a in legal
    }


def _searcher(state: State[Any], samples: int, **kw: Any) -> Any:
    opts: dict[str, Any] = {
        "samples": samples,
        "simulations": 400,
        "reward": "margin",
        "horizon": "deal",
        "scale": SCALE,
        "rollout": "heuristic",
    }
    opts.update(kw)
    s = _core.Searcher(state.game._setup, "pimc", **opts)
    s.reset(11)
    return s


@pytest.mark.parametrize("players", [3, 4])
def test_act_worlds_weighted_mean_equals_python(players: int) -> None:
    state, _deck, _history, cp, pairs, solves = _turn_position(players)
    legal = state.legal_actions()
    s = _searcher(state, len(pairs), solve=8)
    action, means = s.act_worlds(
        state.engine_state, [w.engine_state for w, _ in pairs], [w for _, w in pairs], cp
    )
    want = _python_means(pairs, solves, legal)
    for a in range(s.num_actions):
        if a in want:
            assert math.isclose(means[a], want[a], rel_tol=1e-9, abs_tol=1e-12), (a, means[a])
        else:
            assert math.isnan(means[a])
    assert action == max(legal, key=lambda a: (want[a], -a))


def test_act_worlds_zero_weights_left_out_and_scale_free() -> None:
    state, _deck, _history, cp, pairs, _solves = _turn_position(4)
    worlds = [w.engine_state for w, _ in pairs]
    ws = [w for _, w in pairs]
    ws[1] = ws[4] = 0.0
    kept = [i for i, w in enumerate(ws) if w > 0.0]

    def run(ww: list[Any], xs: list[float]) -> Any:
        return _searcher(state, len(pairs)).act_worlds(state.engine_state, ww, xs, cp)

    a, m = run(worlds, ws)
    b, n = run([worlds[i] for i in kept], [ws[i] for i in kept])
    c, o = run(worlds, [4.0 * w for w in ws])
    assert a == b == c
    assert np.array_equal(m, n, equal_nan=True)
    assert np.array_equal(m, o, equal_nan=True)
    # all weights 0: every world weighs 1
    d, p = run(worlds, [0.0] * len(ws))
    e, q = run(worlds, [1.0] * len(ws))
    assert d == e and np.array_equal(p, q, equal_nan=True)
    assert not np.array_equal(m, q, equal_nan=True)


def test_act_worlds_refuses_bad_arguments() -> None:
    state, _deck, _history, cp, pairs, _solves = _turn_position(4)
    worlds = [w.engine_state for w, _ in pairs]
    ws = [w for _, w in pairs]
    s = _searcher(state, len(pairs))
    with pytest.raises(ValueError, match="worlds"):
        _searcher(state, 2).act_worlds(state.engine_state, worlds, ws, cp)
    with pytest.raises(ValueError, match="weights"):
        s.act_worlds(state.engine_state, worlds, ws[:-1], cp)
    with pytest.raises(TypeError, match="weights"):
        s.act_worlds(state.engine_state, worlds, "1", cp)
    with pytest.raises(TypeError, match=r"weights\[0\]"):
        s.act_worlds(state.engine_state, worlds, [True, *ws[1:]], cp)
    for bad in (-1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match=r"weights\[1\]"):
            s.act_worlds(state.engine_state, worlds, [ws[0], bad, *ws[2:]], cp)
    with pytest.raises(TypeError, match=r"worlds\[0\]"):
        s.act_worlds(state.engine_state, [1, *worlds[1:]], ws, cp)
    with pytest.raises(ValueError, match="player"):
        s.act_worlds(state.engine_state, worlds, ws, (cp + 1) % 4)
    after = state.clone()
    after.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match=r"worlds\[0\]"):
        s.act_worlds(after.engine_state, worlds, ws)
    ismcts = _core.Searcher(state.game._setup, "ismcts", simulations=10)
    with pytest.raises(ValueError, match="pimc"):
        ismcts.act_worlds(state.engine_state, worlds, ws, cp)


def _bot(seed: int = 3, **kw: Any) -> InferBot:
    opts: dict[str, Any] = {
        "samples": 12,
        "simulations": 240,
        "eps": EPS,
        "ties": TIES,
        "max_nodes": 0,
    }
    opts.update(kw)
    return InferBot(seed=seed, **opts)


def test_bot_is_deterministic_and_sees_only_its_view() -> None:
    state, deck, history, cp, _pairs, _solves = _turn_position(4)
    others, real, consistent = replayed_deals(state, deck, history, cp)
    key = next(k for k in consistent if k != tuple(real))
    twin = state.game.new_initial_state(state.seed or 0, deck=_deck_of(deck, state, others, key))
    for a in history:
        twin.apply(a)
    assert _key(twin, others) != _key(state, others)
    moves = []
    for s in (state, state, twin):
        bot = _bot()
        moves.append(bot.act(s.view(cp)))
        assert bot.last_simulations > 0
    assert moves[0] == moves[1] == moves[2]
    assert moves[0] in state.legal_actions()
    # the C means behind the move: the same from the twin, world for world
    w1 = _bot().worlds(state.view(cp), 5)
    w2 = _bot().worlds(twin.view(cp), 5)
    assert [x for _, x in w1] == [x for _, x in w2]
    m1 = _searcher(state, 12).act_worlds(
        state.engine_state, [w.engine_state for w, _ in w1], [x for _, x in w1]
    )
    m2 = _searcher(state, 12).act_worlds(
        twin.engine_state, [w.engine_state for w, _ in w2], [x for _, x in w2]
    )
    assert m1[0] == m2[0] and np.array_equal(m1[1], m2[1], equal_nan=True)


def test_bot_infer_0_weighs_the_same_worlds_1() -> None:
    state, _deck, _history, cp, _pairs, _solves = _turn_position(4)
    a = _bot().worlds(state.view(cp), 8)
    b = _bot(infer=0).worlds(state.view(cp), 8)
    assert [w.engine_state.raw() for w, _ in a] == [w.engine_state.raw() for w, _ in b]
    assert all(x == 1.0 for _, x in b)
    assert len({x for _, x in a}) > 1


def test_bot_plays_a_one_deal_game() -> None:
    game = load_game("nancy", num_players=4, rules=NancyRules.wiki_one_deal())
    state = game.new_initial_state(seed=4)
    bots = [_bot(seed=k, samples=4, simulations=40, max_nodes=2000) for k in range(4)]
    while not state.is_terminal:
        cp = state.current_player
        state.apply(bots[cp].act(state.view(cp)))
    assert state.is_terminal


def test_bot_refuses_bad_options() -> None:
    with pytest.raises(ValueError, match="eps"):
        make_bot("pimc_infer:eps=2")
    with pytest.raises(ValueError, match="samples"):
        make_bot("pimc_infer:samples=0")
    with pytest.raises(ValueError, match="threads"):
        make_bot("pimc_infer:threads=2")
    with pytest.raises(ValueError, match="solve"):
        make_bot("pimc_infer:solve=-1")
    with pytest.raises(ValueError, match="infer"):
        make_bot("pimc_infer:infer=2")
    with pytest.raises(TypeError, match="eps"):
        InferBot(eps="0.2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="infer"):
        InferBot(infer=True)
    with pytest.raises(TypeError, match="ties"):
        InferBot(ties=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rollout"):
        InferBot(rollout="best")
