"""The network file format and the numpy reference evaluator (:mod:`pycards.nets`).

The reference evaluator is checked against a plain-Python loop over Python
ints written from the documented quantization, and against the float network
it stands for; the file format round-trips byte for byte and every bad file
gets a :class:`~pycards.errors.NetworkError` naming the field at fault.
"""

from __future__ import annotations

import io
import math
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _games import GAMES
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore import _core
from cardcore._core import net_paths
from pycards.bots import make_bot
from pycards.bots.native import ISMCTSBot, SearchOptions
from pycards.errors import NetworkError
from pycards.game import load_game
from pycards.nets import (
    FORMAT,
    Network,
    QuantizedLayer,
    QuantizedNetwork,
    check_network,
    dequantize,
    engine_net,
    evaluate,
    load_network,
    network_bytes,
    quantize,
    random_network,
    resolve_network,
    save_network,
)

#: Two registered games (the format tests do not depend on which).
FIRST, SECOND = list(GAMES)[:2]


def small(seed: int, hidden: tuple[int, ...] = (8, 5), scale: float = 1.0) -> Network:
    return random_network(
        FIRST,
        2,
        input_size=7,
        num_actions=4,
        hidden=hidden,
        rng=np.random.default_rng(seed),
        scale=scale,
    )


def python_eval(q: QuantizedNetwork, obs: list[float]) -> tuple[list[float], list[float]]:
    """The documented arithmetic, on Python ints, one observation."""
    h = []
    for x in obs:
        v = x * 16
        r = 0 if math.isnan(v) else round(v)  # round() is half to even, as rint
        h.append(max(-32767, min(32767, r)))
    e = 4
    for layer in q.trunk:
        out = []
        for j in range(layer.weight.shape[0]):
            acc = int(layer.bias[j]) + sum(
                int(w) * a for w, a in zip(layer.weight[j], h, strict=True)
            )
            assert abs(acc) < 2**31
            sh = e + layer.shift - 7
            out.append(0 if acc <= 0 else min(acc >> sh, 128))
        h, e = out, 7
    heads = []
    for layer in (q.policy, q.value):
        vals = []
        for j in range(layer.weight.shape[0]):
            acc = int(layer.bias[j]) + sum(
                int(w) * a for w, a in zip(layer.weight[j], h, strict=True)
            )
            vals.append(float(np.float32(acc) * np.float32(2.0 ** -(e + layer.shift))))
        heads.append(vals)
    return heads[0], heads[1]


def float_eval(net: Network, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = obs.astype(np.float64)
    for w, b in net.trunk:
        h = np.clip(h @ w.T.astype(np.float64) + b, 0.0, 1.0)
    return h @ net.policy[0].T + net.policy[1], h @ net.value[0].T + net.value[1]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    hidden=st.lists(st.integers(1, 9), min_size=0, max_size=3).map(tuple),
    scale=st.sampled_from([0.01, 0.3, 1.0, 4.0]),
    obs=st.lists(
        st.one_of(
            st.floats(-3000, 3000, width=32),
            st.sampled_from([0.0, 1.0, 0.03125, -1.0, 2.5, float("nan")]),
        ),
        min_size=7,
        max_size=7,
    ),
)
def test_reference_is_the_documented_integer_arithmetic(
    seed: int, hidden: tuple[int, ...], scale: float, obs: list[float]
) -> None:
    q = quantize(small(seed, hidden, scale))
    policy, value = evaluate(q, np.array([obs], np.float32))
    want_p, want_v = python_eval(q, [float(np.float32(x)) for x in obs])
    assert policy[0].tolist() == want_p
    assert value[0].tolist() == want_v


def test_quantized_network_stays_close_to_the_float_one() -> None:
    net = random_network(
        FIRST, 2, input_size=40, num_actions=6, hidden=(32, 16), rng=np.random.default_rng(5)
    )
    obs = np.random.default_rng(6).integers(0, 2, (50, 40)).astype(np.float32)
    p, v = evaluate(net, obs)
    fp, fv = float_eval(net, obs)
    # Activations step by 1/128 and weights by about 2**-14: the errors stay small.
    assert np.abs(p - fp).max() < 0.1
    assert np.abs(v - fv).max() < 0.1
    assert np.abs(p - fp).max() > 0  # it is quantized, not the float network


def test_int32_bound_limits_the_shift_of_the_input_layer() -> None:
    net = small(1, hidden=(3,))
    w = np.zeros((3, 7), np.float32)
    w[0, 0] = 0.5
    b = np.zeros(3, np.float32)
    q = quantize(Network(net.game, 2, 7, 4, ((w, b),), net.policy, net.value))
    # 0.5 * 2**s <= 32767 needs s <= 15; |wq| * 32767 <= 2**31 - 1 needs |wq| <= 65538.
    assert q.trunk[0].shift == 15
    assert int(q.trunk[0].weight[0, 0]) == 16384
    w[1, :] = 1.0  # row sum 7: 7 * 2**s * 32767 <= 2**31 - 1 needs 2**s <= 9362
    q = quantize(Network(net.game, 2, 7, 4, ((w, b),), net.policy, net.value))
    assert q.trunk[0].shift == 13


def test_weights_too_large_are_refused() -> None:
    net = small(1, hidden=(3,))
    w = np.full((3, 7), 5000.0, np.float32)
    b = np.zeros(3, np.float32)
    with pytest.raises(NetworkError, match="too large") as info:
        quantize(Network(net.game, 2, 7, 4, ((w, b),), net.policy, net.value))
    assert info.value.field == "trunk0"


def test_round_trip_and_same_bytes(tmp_path: Path) -> None:
    net = small(3)
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    save_network(a, net)
    save_network(b, small(3))
    assert a.read_bytes() == b.read_bytes() == network_bytes(quantize(net))
    assert a.read_bytes() != network_bytes(small(4))
    q = load_network(a)
    obs = np.random.default_rng(1).normal(size=(9, 7)).astype(np.float32) * 5
    for x, y in zip(evaluate(q, obs), evaluate(net, obs), strict=True):
        assert x.tobytes() == y.tobytes()
    assert network_bytes(q) == a.read_bytes()
    with np.load(a, allow_pickle=False) as npz:
        assert str(npz["format"]) == FORMAT
        assert int(npz["version"]) == 1
        assert npz["trunk0.weight"].dtype == np.int16


def test_meta_is_kept(tmp_path: Path) -> None:
    net = small(3)
    net = Network(
        net.game,
        2,
        7,
        4,
        net.trunk,
        net.policy,
        net.value,
        {"seed": "7", "command": "pycards train"},
    )
    save_network(tmp_path / "n.npz", net)
    assert dict(load_network(tmp_path / "n.npz").meta) == {"seed": "7", "command": "pycards train"}


def test_dequantize_gives_back_the_same_integers() -> None:
    q = quantize(small(8))
    again = quantize(dequantize(q))
    obs = np.random.default_rng(2).normal(size=(5, 7)).astype(np.float32)
    p1, v1 = evaluate(q, obs)
    p2, v2 = evaluate(again, obs)
    assert np.abs(p1 - p2).max() < 0.05 and np.abs(v1 - v2).max() < 0.05


def _rewrite(src: Path, dst: Path, change: dict[str, np.ndarray | None]) -> None:
    with np.load(src, allow_pickle=False) as npz:
        arrays = {k: npz[k] for k in npz.files}
    for k, v in change.items():
        if v is None:
            del arrays[k]
        else:
            arrays[k] = v
    np.savez(dst, **arrays)


@pytest.mark.parametrize(
    ("change", "field", "match"),
    [
        ({"version": np.array(2, np.int32)}, "version", "version 2"),
        ({"format": np.array("other")}, "format", "pycards-net"),
        ({"version": np.array(1.0)}, "version", "int32"),
        ({"trunk0.weight": np.zeros((8, 6), np.int16)}, "trunk0.weight", "shape"),
        ({"trunk1.weight": np.zeros((5, 8), np.float32)}, "trunk1.weight", "int16"),
        ({"policy.bias": np.zeros(3, np.int32)}, "policy.bias", "shape"),
        ({"value.weight": np.zeros((3, 5), np.int16)}, "value.weight", "shape"),
        ({"value.shift": np.array(40, np.int32)}, "value.shift", "0..24"),
        ({"trunk0.shift": np.array(1, np.int32)}, "trunk0.shift", "3..24"),
        ({"num_hidden": np.array(1, np.int32)}, "trunk1.bias", "unexpected"),
        ({"num_hidden": np.array(9, np.int32)}, "num_hidden", "0..4"),
        ({"policy.shift": None}, "policy.shift", "missing"),
        ({"extra": np.zeros(2)}, "extra", "unexpected"),
        ({"game": np.array(3)}, "game", "string"),
        ({"meta": np.array("[1]")}, "meta", "JSON object"),
        ({"num_players": np.array(0, np.int32)}, "num_players", "outside"),
        ({"trunk0.weight": np.full((8, 7), -32768, np.int16)}, "trunk0.weight", "-32768"),
        ({"trunk0.weight": np.full((8, 7), 32767, np.int16)}, "trunk0", "overflow"),
    ],
)
def test_bad_files_name_the_field(
    tmp_path: Path, change: dict[str, np.ndarray | None], field: str, match: str
) -> None:
    good = tmp_path / "good.npz"
    save_network(good, small(1))
    bad = tmp_path / "bad.npz"
    _rewrite(good, bad, change)
    with pytest.raises(NetworkError, match=match) as info:
        load_network(bad)
    assert info.value.field == field


def test_truncated_pickled_and_foreign_files(tmp_path: Path) -> None:
    good = tmp_path / "good.npz"
    save_network(good, small(1))
    data = good.read_bytes()
    for cut in (0, 10, len(data) // 2, len(data) - 5):
        (tmp_path / "cut.npz").write_bytes(data[:cut])
        with pytest.raises(NetworkError):
            load_network(tmp_path / "cut.npz")
    np.savez(tmp_path / "pickled.npz", format=np.array([{"a": 1}], dtype=object))
    with pytest.raises(NetworkError, match="not a network file"):
        load_network(tmp_path / "pickled.npz")
    np.save(tmp_path / "one.npy", np.zeros(3))
    with pytest.raises(NetworkError, match="single array"):
        load_network(tmp_path / "one.npy")
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(NetworkError):
        load_network(tmp_path / "text.npz")
    with pytest.raises(NetworkError, match="cannot read"):
        load_network(tmp_path / "missing.npz")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("format.npy", b"\x93NUMPY garbage")
    (tmp_path / "garbage.npz").write_bytes(buf.getvalue())
    with pytest.raises(NetworkError):
        load_network(tmp_path / "garbage.npz")


def test_bad_networks_are_refused_on_construction() -> None:
    net = small(1)
    w, b = net.trunk[0]
    with pytest.raises(NetworkError, match="float32") as info:
        Network(FIRST, 2, 7, 4, ((w.astype(np.float64), b), net.trunk[1]), net.policy, net.value)
    assert info.value.field == "trunk0.weight"
    with pytest.raises(NetworkError, match="shape") as info:
        Network(FIRST, 2, 8, 4, net.trunk, net.policy, net.value)
    assert info.value.field == "trunk0.weight"
    with pytest.raises(NetworkError, match="int") as info:
        Network(FIRST, True, 7, 4, net.trunk, net.policy, net.value)
    assert info.value.field == "num_players"
    nan = w.copy()
    nan[0, 0] = np.nan
    with pytest.raises(NetworkError, match="NaN"):
        Network(FIRST, 2, 7, 4, ((nan, b), net.trunk[1]), net.policy, net.value)
    q = quantize(net)
    with pytest.raises(NetworkError, match="int16"):
        QuantizedNetwork(
            FIRST,
            2,
            7,
            4,
            q.trunk,
            QuantizedLayer(q.policy.weight.astype(np.int32), q.policy.bias, 3),
            q.value,
        )


def test_evaluate_checks_its_input() -> None:
    net = small(1)
    with pytest.raises(NetworkError, match="shape") as info:
        evaluate(net, np.zeros((2, 6), np.float32))
    assert info.value.field == "obs"
    with pytest.raises(NetworkError, match="floats"):
        evaluate(net, np.zeros((2, 7), np.int64))


def test_check_network_against_the_game() -> None:
    game = load_game(FIRST, num_players=2)
    net = random_network(
        FIRST,
        2,
        input_size=game.tensor_size,
        num_actions=game.num_actions,
        hidden=(4,),
        rng=np.random.default_rng(0),
    )
    check_network(net, game)
    with pytest.raises(NetworkError, match="players") as info:
        check_network(net, load_game(FIRST, num_players=3))
    assert info.value.field == "num_players"
    with pytest.raises(NetworkError) as info:
        check_network(net, load_game(SECOND, num_players=2))
    assert info.value.field == "game"


def test_resolve_network(tmp_path: Path) -> None:
    path = tmp_path / "mine.npz"
    save_network(path, small(1))
    assert resolve_network(str(path)) == path
    with pytest.raises(NetworkError, match="no network file"):
        resolve_network(str(tmp_path / "other.npz"))
    with pytest.raises(NetworkError, match="no shipped model named 'no-such-model'"):
        resolve_network("no-such-model")


# ---- the engine's evaluation ----------------------------------------------


def _engine_case(
    seed: int, input_size: int, hidden: tuple[int, ...], actions: int, players: int, scale: float
) -> tuple[QuantizedNetwork, np.ndarray]:
    rng = np.random.default_rng(seed)
    net = random_network(
        FIRST,
        players,
        input_size=input_size,
        num_actions=actions,
        hidden=hidden,
        rng=rng,
        scale=scale,
    )
    obs = rng.integers(-3, 30, (6, input_size)).astype(np.float32)
    obs[rng.random(obs.shape) < 0.8] = 0.0  # sparse, as the observation tensors are
    obs[0, : min(3, input_size)] = [np.nan, 1e9, -1e9][: min(3, input_size)]
    obs[1] = rng.normal(size=input_size).astype(np.float32) * 100
    return quantize(net), obs


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    input_size=st.integers(1, 70),
    hidden=st.lists(st.integers(1, 70), min_size=0, max_size=3).map(tuple),
    actions=st.integers(1, 90),
    players=st.integers(1, 5),
    scale=st.sampled_from([0.05, 1.0, 8.0]),
)
def test_engine_is_bit_identical_to_the_reference_on_every_path(
    seed: int, input_size: int, hidden: tuple[int, ...], actions: int, players: int, scale: float
) -> None:
    q, obs = _engine_case(seed, input_size, hidden, actions, players, scale)
    want_p, want_v = evaluate(q, obs)
    net = engine_net(q)
    for path in net_paths():
        p, v = net.evaluate(obs, path)
        assert p.tobytes() == want_p.tobytes(), path
        assert v.tobytes() == want_v.tobytes(), path


def test_engine_paths_agree_at_the_shipped_sizes() -> None:
    game = load_game(FIRST, num_players=2)
    q, obs = _engine_case(11, game.tensor_size, (128, 64), game.num_actions, 2, 1.0)
    net = engine_net(q)
    want = evaluate(q, obs)
    assert "portable" in net_paths()
    for path in net_paths():
        got = net.evaluate(obs, path)
        assert all(a.tobytes() == b.tobytes() for a, b in zip(got, want, strict=True))


def test_engine_refuses_what_the_loader_refuses() -> None:
    q = quantize(small(1))
    layers = [(x.weight, x.bias, x.shift) for x in (*q.trunk, q.policy, q.value)]
    bad = list(layers)
    bad[0] = (np.full_like(q.trunk[0].weight, 32767), q.trunk[0].bias, q.trunk[0].shift)
    with pytest.raises(NetworkError, match="refused") as info:
        _core.Net(7, 4, 2, bad)
    assert info.value.field == "layers[0]"
    bad = list(layers)
    bad[1] = (q.trunk[1].weight, q.trunk[1].bias, 30)
    with pytest.raises(NetworkError) as info:
        _core.Net(7, 4, 2, bad)
    assert info.value.field == "layers[1]"
    with pytest.raises(NetworkError) as info:
        _core.Net(8, 4, 2, layers)
    assert info.value.field == "layers[0]"
    with pytest.raises(NetworkError, match="int16"):
        _core.Net(7, 4, 2, [(layers[0][0].astype(np.int32), *layers[0][1:]), *layers[1:]])
    net = _core.Net(7, 4, 2, layers)
    with pytest.raises(NetworkError, match="shape"):
        net.evaluate(np.zeros((1, 6), np.float32))
    with pytest.raises(ValueError, match="path"):
        net.evaluate(np.zeros((1, 7), np.float32), "sse9")


# ---- networks in the bots -------------------------------------------------


def _preferring(game_name: str, players: int, action: int, tmp_path: Path) -> Path:
    """A network whose policy is the constant +1 on ``action``, -1 elsewhere
    (no hidden layer: the policy's bias alone), and whose value is 0."""
    game = load_game(game_name, num_players=players)
    n_in, n_act = game.tensor_size, game.num_actions
    bias = np.full(n_act, -1.0, np.float32)
    bias[action] = 1.0
    net = Network(
        game_name,
        players,
        n_in,
        n_act,
        (),
        (np.zeros((n_act, n_in), np.float32), bias),
        (np.zeros((players, n_in), np.float32), np.zeros(players, np.float32)),
    )
    path = tmp_path / f"{game_name}-prefers-{action}.npz"
    save_network(path, net)
    return path


@pytest.mark.parametrize("name", list(GAMES))
def test_net_bot_plays_the_action_its_policy_prefers(name: str, tmp_path: Path) -> None:
    game = load_game(name, num_players=2)
    state = game.new_initial_state(seed=3)
    legal = state.legal_actions()
    for want in (legal[-1], legal[0]):
        bot = make_bot(f"net:model={_preferring(name, 2, want, tmp_path)}", seed=1)
        assert bot.act(state.view(state.current_player)) == want
    # with every policy output equal, the lowest legal id
    flat = tmp_path / "flat.npz"
    net = random_network(
        name,
        2,
        input_size=game.tensor_size,
        num_actions=game.num_actions,
        hidden=(8,),
        rng=np.random.default_rng(0),
        scale=0.0,
    )
    save_network(flat, net)
    assert make_bot(f"net:model={flat}").act(state.view(state.current_player)) == min(legal)


def test_net_bot_refuses_a_network_of_another_game(tmp_path: Path) -> None:
    path = _preferring(FIRST, 2, 0, tmp_path)
    state = load_game(SECOND, num_players=2).new_initial_state(seed=1)
    bot = make_bot(f"net:model={path}")
    with pytest.raises(NetworkError, match="not") as info:
        bot.act(state.view(state.current_player))
    assert info.value.field == "game"
    with pytest.raises(NetworkError, match="no shipped model"):
        make_bot("net:model=no-such-model")


def _play(game_name: str, specs: list[str], seed: int) -> list[int]:
    game = load_game(game_name, num_players=2)
    state = game.new_initial_state(seed=seed)
    bots = [make_bot(spec, seed=seed + i) for i, spec in enumerate(specs)]
    history: list[int] = []
    while not state.is_terminal and len(history) < 40:
        p = state.current_player
        a = bots[p].act(state.view(p))
        history.append(a)
        state.apply(a)
    return history


@pytest.mark.parametrize("name", list(GAMES))
def test_search_with_networks_runs_and_is_deterministic(name: str, tmp_path: Path) -> None:
    game = load_game(name, num_players=2)
    path = tmp_path / "n.npz"
    save_network(
        path,
        random_network(
            name,
            2,
            input_size=game.tensor_size,
            num_actions=game.num_actions,
            hidden=(16,),
            rng=np.random.default_rng(4),
        ),
    )
    specs = [
        f"ismcts:simulations=40:value={path}",
        f"ismcts:simulations=40:value={path}:value_weight=0.5:priors={path}",
        f"ismcts:simulations=30:rollout={path}",
        f"pimc:simulations=30:samples=3:rollout={path}",
    ]
    for spec in specs:
        first = _play(name, [spec, "heuristic"], seed=5)
        assert first == _play(name, [spec, "heuristic"], seed=5), spec
        assert len(first) > 0


def test_value_network_changes_the_search(tmp_path: Path) -> None:
    # a value net that says the mover wins by far, against one that says
    # the mover loses: the searches differ where they have a choice
    game = load_game(FIRST, num_players=2)
    n_in, n_act = game.tensor_size, game.num_actions
    zeros = (np.zeros((n_act, n_in), np.float32), np.zeros(n_act, np.float32))
    w = np.zeros((2, n_in), np.float32)
    rng = np.random.default_rng(2)
    w[0] = rng.normal(size=n_in).astype(np.float32)
    a = Network(FIRST, 2, n_in, n_act, (), zeros, (w, np.zeros(2, np.float32)))
    b = Network(FIRST, 2, n_in, n_act, (), zeros, (-w, np.zeros(2, np.float32)))
    save_network(tmp_path / "a.npz", a)
    save_network(tmp_path / "b.npz", b)
    runs = {
        key: [
            _play(FIRST, [f"ismcts:simulations=60:value={tmp_path / key}.npz", "heuristic"], s)
            for s in range(4)
        ]
        for key in ("a", "b")
    }
    assert runs["a"] != runs["b"]


def test_network_options_are_checked(tmp_path: Path) -> None:
    with pytest.raises(NetworkError, match="no shipped model"):
        make_bot("ismcts:value=no-such-model")
    path = _preferring(FIRST, 2, 0, tmp_path)
    with pytest.raises(ValueError, match="for the ismcts bot"):
        SearchOptions.parse(f"pimc:value={path}")
    with pytest.raises(ValueError, match="value_weight"):
        SearchOptions.parse(f"ismcts:value={path}:value_weight=2")
    with pytest.raises(ValueError, match="cannot be mixed"):
        ISMCTSBot(priors=str(path), evaluate=lambda obs, masks, players: np.zeros((1, 2)))
    other = tmp_path / "other.npz"
    save_network(other, small(1))  # 7 inputs: fits no game
    bot = make_bot(f"ismcts:simulations=10:value={other}")
    state = load_game(FIRST, num_players=2).new_initial_state(seed=1)
    with pytest.raises(NetworkError):
        bot.act(state.view(state.current_player))


# ---- a network as the model of the other seats (pimc_infer) ----------------


def _uniform_model(name: str, players: int) -> Network:
    """A network whose policy is 0 everywhere: the softmax is uniform."""
    game = load_game(name, num_players=players)
    n_in, n_act = game.tensor_size, game.num_actions
    return Network(
        name,
        players,
        n_in,
        n_act,
        (),
        (np.zeros((n_act, n_in), np.float32), np.zeros(n_act, np.float32)),
        (np.zeros((players, n_in), np.float32), np.zeros(players, np.float32)),
    )


def _brute_weight(
    world: Any, world_start: Any, history: list[int], record: np.ndarray, observer: int
) -> float:
    """The weight of a world under a uniform model, by brute force: replay
    the history from the world's deal; at another seat's step, follow every
    legal action that shows the observer what it saw, each with 1 / L; a
    branch counts if every seat then sees what it sees in the world."""
    seats = range(world.game.num_players)

    def walk(state: Any, t: int) -> float:
        if t == len(history):
            same = all(
                np.array_equal(state.observation_tensor(q), world.observation_tensor(q))
                for q in seats
            )
            return 1.0 if same else 0.0
        if state.current_player == observer:
            nxt = state.clone()
            nxt.apply(history[t])
            same = np.array_equal(nxt.observation_tensor(observer), record[t + 1])
            return walk(nxt, t + 1) if same else 0.0
        legal = state.legal_actions()
        total = 0.0
        for a in legal:
            nxt = state.clone()
            nxt.apply(a)
            if np.array_equal(nxt.observation_tensor(observer), record[t + 1]):
                total += walk(nxt, t + 1) / len(legal)
        return total

    return walk(world_start, 0)


def test_uniform_network_model_weighs_worlds_by_brute_force() -> None:
    from pycards.bots.infer import infer_applies, observer_record, weighted_worlds

    name = next(n for n in GAMES if _applies(n))
    game = load_game(name, num_players=2)
    state = game.new_initial_state(seed=9)
    rng = np.random.default_rng(0)
    while True:  # a few actions in, the observer to act
        state.apply(int(rng.choice(state.legal_actions())))
        if len(state.history) >= 4 and not state.is_terminal:
            break
    assert infer_applies(state)
    observer = state.current_player
    model = engine_net(_uniform_model(name, 2))
    pairs = weighted_worlds(state, observer, 6, seed=3, eps=0.3, model=model)
    _actions, record = observer_record(state, observer)
    history = list(state.history)
    checked = 0
    for world, weight in pairs:
        deck = _core.infer_world_deck(world.engine_state, state.seed or 0)
        start = game.new_initial_state(state.seed or 0, deck=deck)
        want = _brute_weight(world, start, history, record, observer)
        assert weight == pytest.approx(want, rel=1e-9)
        checked += want > 0
    assert checked > 0
    # the heuristic model weighs the same worlds otherwise
    heuristic = weighted_worlds(state, observer, 6, seed=3, eps=0.3)
    assert [w for _, w in heuristic] != [w for _, w in pairs]


def _applies(name: str) -> bool:
    from pycards.bots.infer import infer_applies

    state = load_game(name, num_players=2).new_initial_state(seed=1)
    return infer_applies(state)


def test_pimc_infer_with_a_model_is_deterministic(tmp_path: Path) -> None:
    name = next(n for n in GAMES if _applies(n))
    path = tmp_path / "model.npz"
    save_network(path, _uniform_model(name, 2))
    spec = f"pimc_infer:model={path}:samples=4:simulations=40"
    first = _play(name, [spec, "heuristic"], seed=2)
    assert first == _play(name, [spec, "heuristic"], seed=2)
    other = tmp_path / "other.npz"
    save_network(other, _uniform_model(SECOND if name == FIRST else FIRST, 2))
    bot = make_bot(f"pimc_infer:model={other}")
    state = load_game(name, num_players=2).new_initial_state(seed=1)
    state.apply(state.legal_actions()[0])
    with pytest.raises(NetworkError):
        while not state.is_terminal:
            state.apply(bot.act(state.view(state.current_player)))
