"""Training (:mod:`pycards.learn`) on tiny budgets.

The gradients are checked against finite differences in float64, the
optimizer against a fixed batch, and the runs against themselves: the same
seed gives the same bits, a resumed run the bits of one that never stopped,
and Dask with one or two workers the bits of a run in this process.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from _games import GAMES

from pycards.envs.vector import VectorEnv
from pycards.errors import IllegalActionError
from pycards.game import load_game
from pycards.learn import Mlp, Settings, Trainer, masked_argmax, read_curve, strength, train
from pycards.learn.blas import blas_threads
from pycards.learn.mlp import Adam
from pycards.nets import load_network, quantize
from pycards.ui.cli import main

#: a run of seconds: two shards of 8 games a seat, 16 steps each
TINY = Settings(hidden=(8,), envs=8, steps=16, shards=2, batch_size=32, eval_every=1, eval_games=8)


def _shortest_game() -> str:
    """The registered two-seat game whose games are shortest (most games
    finished in 64 learner steps of random play): the tiny runs finish games."""

    def finished(name: str) -> int:
        venv = VectorEnv(name, 32, 2, seed=1)
        for _ in range(64):
            venv.step(venv.random_actions())
        return venv.episodes

    names = sorted(c.name for c in GAMES.values() if c.min_players <= 2 <= c.max_players)
    return max(names, key=finished)


GAME = _shortest_game()
OTHER = next(name for name in sorted(GAMES) if name != GAME)


def _frames(iterations: int) -> int:
    assert TINY.envs is not None and TINY.steps is not None
    return iterations * TINY.shards * TINY.envs * TINY.steps * 2  # two seats


def _strip(curve: list[dict[str, float]]) -> list[dict[str, float]]:
    """The curve without its wall times."""
    return [{k: v for k, v in c.items() if not k.startswith("seconds")} for c in curve]


def _same(a: Mlp, b: Mlp) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a.arrays(), b.arrays(), strict=True))


# -- the network ------------------------------------------------------------


def _loss64(net: Mlp, x: np.ndarray, a: np.ndarray, g: np.ndarray, v: np.ndarray) -> float:
    """The loss of :meth:`Mlp.loss_and_grads` in float64, written plainly."""
    h = x.astype(np.float64)
    for w, b in net.layers:
        h = np.clip(h @ w.astype(np.float64) + b, 0.0, 1.0)
    q = h @ net.policy[0].astype(np.float64) + net.policy[1]
    val = h @ net.value[0].astype(np.float64) + net.value[1]
    taken = q[np.arange(len(a)), a]
    return float(np.mean((taken - g) ** 2) + 0.5 * np.mean((val - v) ** 2))


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(3)
    net = Mlp.init(6, (5, 4), 3, 2, rng)
    x = rng.random((7, 6), dtype=np.float32)
    a = rng.integers(0, 3, 7).astype(np.int32)
    g = rng.standard_normal(7).astype(np.float32)
    v = rng.standard_normal((7, 2)).astype(np.float32)
    _, _, grads = net.loss_and_grads(x, a, g, v, 0.5)
    checked = 0
    for p, grad in zip(net.arrays(), grads.arrays, strict=True):
        for idx in list(np.ndindex(p.shape))[:6]:
            old = float(p[idx])
            eps = 1e-3
            p[idx] = old + eps
            up = _loss64(net, x, a, g, v)
            p[idx] = old - eps
            down = _loss64(net, x, a, g, v)
            p[idx] = old
            numeric = (up - down) / (2 * eps)
            assert abs(numeric - float(grad[idx])) < 2e-3 + 2e-2 * abs(numeric), (idx, numeric)
            checked += 1
    assert checked > 30


def test_the_loss_goes_down_on_a_fixed_batch() -> None:
    rng = np.random.default_rng(4)
    net = Mlp.init(20, (16, 16), 5, 2, rng)
    x = rng.random((64, 20), dtype=np.float32)
    a = rng.integers(0, 5, 64).astype(np.int32)
    g = (x[:, 0] - x[:, 1]).astype(np.float32)
    v = np.stack([g, -g], axis=1)
    adam = Adam.like(net, 1e-2)
    first = sum(net.loss_and_grads(x, a, g, v, 0.5)[:2])
    for _ in range(300):
        adam.step(net, net.loss_and_grads(x, a, g, v, 0.5)[2])
    last = sum(net.loss_and_grads(x, a, g, v, 0.5)[:2])
    assert last < 0.2 * first, (first, last)


def test_masked_argmax_never_picks_an_illegal_action() -> None:
    scores = np.array([[9.0, 1.0, 2.0], [-5.0, -7.0, 100.0], [0.0, 0.0, 0.0]], np.float32)
    masks = np.array([[0, 1, 1], [1, 1, 0], [0, 0, 1]], np.int8)
    assert masked_argmax(scores, masks).tolist() == [2, 0, 2]
    with pytest.raises(ValueError, match="no legal action"):
        masked_argmax(scores, np.zeros((3, 3), np.int8))


def test_blas_threads_sets_and_puts_back() -> None:
    with blas_threads(1) as done:
        assert done  # numpy's wheels ship OpenBLAS
        with blas_threads(2):
            pass


# -- runs -------------------------------------------------------------------


def test_a_run_is_the_same_bits_for_a_seed(tmp_path: Path) -> None:
    one = train(GAME, frames=_frames(2), seed=5, settings=TINY, progress=False)
    two = train(GAME, frames=_frames(2), seed=5, settings=TINY, progress=False)
    other = train(GAME, frames=_frames(2), seed=6, settings=TINY, progress=False)
    for (w1, b1), (w2, b2) in zip(one.network.trunk, two.network.trunk, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)
    assert np.array_equal(one.network.policy[0], two.network.policy[0])
    assert _strip(one.curve) == _strip(two.curve)
    assert not np.array_equal(one.network.policy[0], other.network.policy[0])
    assert [c["frames"] for c in one.curve] == [0, _frames(1), _frames(2)]
    assert all("strength" in c for c in one.curve)


def test_resume_gives_the_run_that_never_stopped(tmp_path: Path) -> None:
    whole = train(GAME, frames=_frames(4), seed=7, settings=TINY, progress=False)
    ckpt, log = tmp_path / "run.ckpt.npz", tmp_path / "log.jsonl"
    train(
        GAME,
        frames=_frames(2),
        seed=7,
        settings=TINY,
        checkpoint=ckpt,
        checkpoint_every=1,
        progress=False,
    )
    resumed = train(GAME, frames=_frames(4), resume=ckpt, checkpoint=ckpt, log=log, progress=False)
    for (w1, b1), (w2, b2) in zip(whole.network.trunk, resumed.network.trunk, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)
    assert np.array_equal(whole.network.value[0], resumed.network.value[0])
    assert _strip(whole.curve) == _strip(resumed.curve)
    assert _strip(read_curve(log)) == _strip(whole.curve)  # the log holds the whole curve
    assert Trainer.load(ckpt).iteration == 4


@pytest.mark.parametrize("workers", [1, 2])
def test_dask_workers_give_the_same_run(workers: int) -> None:
    pytest.importorskip("distributed")
    here = train(GAME, frames=_frames(2), seed=9, settings=TINY, progress=False)
    there = train(GAME, frames=_frames(2), seed=9, settings=TINY, progress=False, workers=workers)
    assert _strip(here.curve) == _strip(there.curve)
    assert np.array_equal(here.network.policy[0], there.network.policy[0])


def test_the_saved_network_records_its_command_and_seed(tmp_path: Path) -> None:
    out = tmp_path / "net.npz"
    result = train(
        GAME,
        frames=_frames(1),
        seed=2,
        settings=TINY,
        out=out,
        progress=False,
        command=f"pycards train {GAME}",
    )
    loaded = load_network(out)
    assert loaded.meta["command"] == f"pycards train {GAME}"
    assert loaded.meta["seed"] == "2"
    assert loaded.meta["frames"] == str(_frames(1))
    assert np.array_equal(quantize(result.network).policy.weight, loaded.policy.weight)


def test_export_folds_the_scales() -> None:
    trainer = Trainer(load_game(GAME), TINY, 11)
    x = np.random.default_rng(1).random((6, trainer.game.tensor_size), dtype=np.float32) * 3
    q_mlp, v_mlp = trainer.net.forward(x * trainer.in_scale)
    net = trainer.network()
    h = x
    for w, b in net.trunk:
        h = np.clip(h @ w.T + b, 0.0, 1.0)
    q = h @ net.policy[0].T + net.policy[1]
    v = h @ net.value[0].T + net.value[1]
    r = trainer.return_scale
    np.testing.assert_allclose(q, q_mlp * r, rtol=1e-4, atol=1e-4 * r)
    np.testing.assert_allclose(v, v_mlp * r, rtol=1e-4, atol=1e-4 * r)


def test_strength_of_a_saved_network_is_legal_and_seeded(tmp_path: Path) -> None:
    out = tmp_path / "n.npz"
    result = train(GAME, frames=_frames(1), seed=3, settings=TINY, out=out, progress=False)
    # every move of the greedy policy is legal (the vector raises otherwise)
    a = strength(result.network, games=20, seed=1)
    assert strength(result.network, games=20, seed=1) == a
    assert strength(out, games=20, seed=1) == a  # the file: the same quantized network
    assert strength(str(out), games=20, seed=1) == a
    assert np.isfinite(a[0])
    with pytest.raises(TypeError, match="network"):
        strength(result.network.policy, games=20)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="opponent"):
        strength(result.network, opponent="best")


# -- bad arguments ----------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({}, ValueError, "frames or minutes"),
        ({"frames": 0}, ValueError, "frames"),
        ({"frames": True}, TypeError, "frames"),
        ({"frames": 10.0}, TypeError, "frames"),
        ({"minutes": -1.0}, ValueError, "minutes"),
        ({"minutes": "5"}, TypeError, "minutes"),
        ({"frames": 10, "seed": -1}, ValueError, "seed"),
        ({"frames": 10, "seed": None}, TypeError, "seed"),
        ({"frames": 10, "workers": 0}, ValueError, "workers"),
        ({"frames": 10, "workers": 1, "scheduler": "tcp://x:1"}, ValueError, "not both"),
        ({"frames": 10, "settings": {"hidden": (8,)}}, TypeError, "settings"),
        ({"frames": 10, "threads": 0}, ValueError, "threads"),
    ],
)
def test_bad_arguments_raise_typed_errors(
    kwargs: dict[str, object], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        train(GAME, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"hidden": [8]}, TypeError, "hidden"),
        ({"hidden": (0,)}, ValueError, "hidden"),
        ({"hidden": (8, 8, 8, 8, 8)}, TypeError, "hidden"),
        ({"envs": 0}, ValueError, "envs"),
        ({"epsilon": 1.5}, ValueError, "epsilon"),
        ({"epsilon": True}, TypeError, "epsilon"),
        ({"lr": 0.0}, ValueError, "lr"),
        ({"opponent": "ismcts"}, ValueError, "opponent"),
    ],
)
def test_bad_settings_raise_typed_errors(
    kwargs: dict[str, object], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        Settings(**kwargs)  # type: ignore[arg-type]


def test_resume_refuses_what_is_not_a_checkpoint(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    np.savez(bad, x=np.zeros(3))
    with pytest.raises(ValueError, match="not a training checkpoint"):
        train(GAME, frames=10, resume=bad)
    ckpt = tmp_path / "c.npz"
    train(GAME, frames=_frames(1), seed=1, settings=TINY, checkpoint=ckpt, progress=False)
    with pytest.raises(ValueError, match="game"):
        train(OTHER, frames=10, resume=ckpt)
    with pytest.raises(ValueError, match="seed"):
        train(GAME, frames=10, resume=ckpt, seed=4)


def test_an_illegal_move_cannot_come_from_the_policy() -> None:
    # the vector refuses an illegal action: the trainer relies on the mask
    venv = VectorEnv(GAME, 4, seed=1)
    scores = np.zeros((4, venv.num_actions), np.float32)
    scores[:, :] = np.where(venv.action_masks == 0, 1e9, 0.0)
    with pytest.raises(IllegalActionError):
        venv.step(scores.argmax(axis=1).astype(np.int32))
    venv.step(masked_argmax(scores, venv.action_masks))


# -- the command ------------------------------------------------------------


def test_the_command_trains_and_records_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, log, plot = tmp_path / "m.npz", tmp_path / "l.jsonl", tmp_path / "c.png"
    argv = [
        "train",
        GAME,
        "--frames",
        str(_frames(1)),
        "--seed",
        "4",
        "--out",
        str(out),
        "--hidden",
        "8",
        "--envs",
        "8",
        "--steps",
        "16",
        "--shards",
        "2",
        "--batch-size",
        "32",
        "--eval-games",
        "8",
        "--log",
        str(log),
        "--plot",
        str(plot),
    ]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "points a game before" in text
    net = load_network(out)
    assert net.meta["command"] == "pycards " + " ".join(argv)
    assert net.meta["seed"] == "4"
    assert net.hidden_sizes == (8,)
    assert [json.loads(x)["frames"] for x in log.read_text().splitlines()] == [0, _frames(1)]
    assert plot.stat().st_size > 1000


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        ([], "--frames or --minutes"),
        (["--frames", "0"], "--frames"),
        (["--frames", "x"], "--frames"),
        (["--minutes", "-3"], "--minutes"),
        (["--frames", "9", "--epsilon", "2"], "--epsilon"),
        (["--frames", "9", "--opponent", "best"], "--opponent"),
    ],
)
def test_the_command_rejects_bad_options(
    extra: list[str], match: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["train", GAME, *extra])
    assert exc.value.code == 2
    assert match in capsys.readouterr().err


def test_a_minutes_budget_stops_after_the_iteration_that_passes_it() -> None:
    result = train(GAME, minutes=1e-6, seed=1, settings=TINY, progress=False)
    assert [c["frames"] for c in result.curve] == [0, _frames(1)]
    assert result.finished
