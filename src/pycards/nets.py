"""Small networks for the bots: the file format, its quantization and the
reference evaluator.

A :class:`Network` is a multilayer perceptron over the observation tensor of
the player to move (:meth:`pycards.game.State.observation_tensor`, of
``game.tensor_size``): a trunk of hidden layers with the clipped ReLU
``clamp(x, 0, 1)``, then two heads read from the last hidden layer, a
*policy* head (one output per action id of the game) and a *value* head (one
output per seat: the expected final points of each seat, in seat order
relative to the player to move, ``0`` being the mover).

The engine evaluates networks in integers, as NNUE evaluators do, so every
machine and every code path (portable C, AVX2, this module's numpy
reference) gives the same bits.  :func:`quantize` turns the float weights
into the integers the engine uses, :func:`save_network` writes them to a
versioned ``.npz`` file (no pickle), :func:`load_network` reads and checks
one, and :func:`evaluate` computes exactly what the engine computes.

The quantization (see the networks page of the documentation):

* the input ``x`` becomes ``xq = clamp(rint(x * 16), -32767, 32767)``
  (scale exponent ``e = 4``); a hidden layer's output is an integer in
  ``0..128`` standing for ``0..1`` (``e = 7``);
* a layer's weights are ``rint(W * 2**s)`` as int16 and its biases
  ``rint(b * 2**(e + s))`` as int32, with the layer's shift ``s`` the largest
  in ``0..24`` (at least ``3`` for a layer reading the input) such that every
  weight fits int16 and no sum can leave int32 (``sum |Wq| * max|xq| + |bq|
  <= 2**31 - 1`` for every output);
* a layer sums ``acc = bq + Wq @ xq`` exactly in int32; a hidden layer
  outputs ``0`` if ``acc <= 0`` and else ``min(acc >> (e + s - 7), 128)``; a
  head outputs ``float32(acc) * 2**-(e + s)`` (both steps exact).

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> net = random_network("demo", 2, input_size=6, num_actions=3, hidden=(4,), rng=rng)
>>> q = quantize(net)
>>> [layer.shift for layer in q.trunk], q.policy.shift
([14], 14)
>>> policy, value = evaluate(q, np.zeros((1, 6), np.float32))
>>> policy.shape, value.shape
((1, 3), (1, 2))
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Final, Protocol

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards.errors import NetworkError

__all__ = [
    "FORMAT",
    "INPUT_SCALE_BITS",
    "MAX_FILE_BYTES",
    "VERSION",
    "GameShape",
    "Network",
    "QuantizedLayer",
    "QuantizedNetwork",
    "check_network",
    "default_model",
    "dequantize",
    "engine_net",
    "evaluate",
    "load_engine_net",
    "load_network",
    "model_path",
    "network_bytes",
    "quantize",
    "quantize_input",
    "random_network",
    "resolve_network",
    "save_network",
]

#: The ``format`` field of every network file.
FORMAT: Final = "pycards-net"
#: The version of the file layout this module writes and reads.
VERSION: Final = 1
#: The input is quantized to ``rint(x * 2**INPUT_SCALE_BITS)``.
INPUT_SCALE_BITS: Final = 4
#: A hidden activation of ``1.0`` is the integer ``2**ACT_BITS``.
ACT_BITS: Final = 7
#: The largest quantized input (in absolute value).
INPUT_MAX: Final = 32767
#: The largest quantized hidden activation.
ACT_MAX: Final = 1 << ACT_BITS
#: The largest shift a layer may have.
MAX_SHIFT: Final = 24
#: Limits on the sizes, checked by the loader and by the engine.
MAX_INPUT: Final = 4096
MAX_HIDDEN: Final = 1024
MAX_LAYERS: Final = 4
MAX_OUTPUTS: Final = 4096
#: The largest network file, in bytes.
MAX_FILE_BYTES: Final = 1 << 20
_INT32_MAX: Final = (1 << 31) - 1
_ZIP_DATE: Final = (1980, 1, 1, 0, 0, 0)

FloatArray = npt.NDArray[np.float32]


def _check_float(a: object, shape: tuple[int, ...], what: str) -> None:
    if not isinstance(a, np.ndarray):
        raise NetworkError(f"expected a numpy array, got {type(a).__name__}", what)
    if a.dtype != np.float32:
        raise NetworkError(f"expected float32, got {a.dtype}", what)
    if a.shape != shape:
        raise NetworkError(f"expected shape {shape}, got {a.shape}", what)
    if not np.isfinite(a).all():
        raise NetworkError("holds a NaN or an infinity", what)


def _check_header(
    game: object, num_players: object, input_size: object, num_actions: object
) -> None:
    if not isinstance(game, str) or not game:
        raise NetworkError(f"expected a game name, got {game!r}", "game")
    for name, value, hi in (
        ("num_players", num_players, 16),
        ("input_size", input_size, MAX_INPUT),
        ("num_actions", num_actions, MAX_OUTPUTS),
    ):
        if type(value) is not int:
            raise NetworkError(f"expected an int, got {type(value).__name__}", name)
        if not 1 <= value <= hi:
            raise NetworkError(f"{value} is outside 1..{hi}", name)


def _check_meta(meta: object) -> None:
    if not isinstance(meta, Mapping):
        raise NetworkError(f"expected a mapping of str to str, got {type(meta).__name__}", "meta")
    for k, v in meta.items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise NetworkError(f"expected str keys and values, got {k!r}: {v!r}", "meta")


def _layer_sizes(trunk_out: list[int], input_size: int) -> list[int]:
    if len(trunk_out) > MAX_LAYERS:
        raise NetworkError(f"{len(trunk_out)} hidden layers, at most {MAX_LAYERS}", "trunk")
    for i, n in enumerate(trunk_out):
        if not 1 <= n <= MAX_HIDDEN:
            raise NetworkError(f"{n} outputs, expected 1..{MAX_HIDDEN}", f"trunk{i}.weight")
    return [input_size, *trunk_out]


@dataclass(frozen=True, eq=False)
class Network:
    """A network with float32 weights (what a trainer holds).

    Each layer is ``(W, b)`` with ``W`` float32 of shape ``[out, in]`` and
    ``b`` float32 of shape ``[out]``.  The constructor checks every shape,
    dtype and value and raises :class:`~pycards.errors.NetworkError` naming
    the field at fault.

    :ivar game: the game's registered name (as :func:`pycards.game.game_names` lists it).
    :ivar num_players: the player count the network was made for.
    :ivar input_size: the length of the observation tensor it reads.
    :ivar num_actions: the game's number of action ids (the policy head's width).
    :ivar trunk: the hidden layers, first to last (may be empty).
    :ivar policy: the policy head (``num_actions`` outputs).
    :ivar value: the value head (``num_players`` outputs, the mover first).
    :ivar meta: free text about the network: the command, seed, date...
    """

    game: str
    num_players: int
    input_size: int
    num_actions: int
    trunk: tuple[tuple[FloatArray, FloatArray], ...]
    policy: tuple[FloatArray, FloatArray]
    value: tuple[FloatArray, FloatArray]
    meta: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_header(self.game, self.num_players, self.input_size, self.num_actions)
        _check_meta(self.meta)
        if not isinstance(self.trunk, tuple):
            raise NetworkError(f"expected a tuple, got {type(self.trunk).__name__}", "trunk")
        outs: list[int] = []
        for i, layer in enumerate(self.trunk):
            if not isinstance(layer, tuple) or len(layer) != 2:
                raise NetworkError("expected a (weight, bias) pair", f"trunk{i}")
            w = layer[0]
            if not isinstance(w, np.ndarray) or w.ndim != 2:
                raise NetworkError("expected a 2-d array", f"trunk{i}.weight")
            outs.append(int(w.shape[0]))
        sizes = _layer_sizes(outs, self.input_size)
        for i, (w, b) in enumerate(self.trunk):
            _check_float(w, (sizes[i + 1], sizes[i]), f"trunk{i}.weight")
            _check_float(b, (sizes[i + 1],), f"trunk{i}.bias")
        for name, pair, n in (
            ("policy", self.policy, self.num_actions),
            ("value", self.value, self.num_players),
        ):
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise NetworkError("expected a (weight, bias) pair", name)
            _check_float(pair[0], (n, sizes[-1]), f"{name}.weight")
            _check_float(pair[1], (n,), f"{name}.bias")

    @property
    def hidden_sizes(self) -> tuple[int, ...]:
        """The widths of the hidden layers."""
        return tuple(int(w.shape[0]) for w, _ in self.trunk)


@dataclass(frozen=True, eq=False)
class QuantizedLayer:
    """One layer as the engine holds it: int16 weights ``[out, in]``, int32
    biases ``[out]`` and the layer's shift (see the module's documentation)."""

    weight: npt.NDArray[np.int16]
    bias: npt.NDArray[np.int32]
    shift: int


@dataclass(frozen=True, eq=False)
class QuantizedNetwork:
    """A network in the engine's integers, as a file holds it (the fields
    are those of :class:`Network`, with :class:`QuantizedLayer` layers)."""

    game: str
    num_players: int
    input_size: int
    num_actions: int
    trunk: tuple[QuantizedLayer, ...]
    policy: QuantizedLayer
    value: QuantizedLayer
    meta: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_header(self.game, self.num_players, self.input_size, self.num_actions)
        _check_meta(self.meta)
        if not isinstance(self.trunk, tuple):
            raise NetworkError(f"expected a tuple, got {type(self.trunk).__name__}", "trunk")
        outs = []
        for i, layer in enumerate(self.trunk):
            w = layer.weight if isinstance(layer, QuantizedLayer) else None
            if not isinstance(w, np.ndarray) or w.ndim != 2:
                raise NetworkError("expected a QuantizedLayer with a 2-d weight", f"trunk{i}")
            outs.append(int(w.shape[0]))
        sizes = _layer_sizes(outs, self.input_size)
        named = [(f"trunk{i}", layer) for i, layer in enumerate(self.trunk)]
        named += [("policy", self.policy), ("value", self.value)]
        widths = [*outs, self.num_actions, self.num_players]
        for j, ((name, layer), n) in enumerate(zip(named, widths, strict=True)):
            k = min(j, len(self.trunk))
            _check_quantized(layer, (n, sizes[k]), k, name)

    @property
    def hidden_sizes(self) -> tuple[int, ...]:
        """The widths of the hidden layers."""
        return tuple(int(layer.weight.shape[0]) for layer in self.trunk)


def _in_bits(index: int) -> int:
    """The scale exponent of the input of the layer at depth ``index``."""
    return INPUT_SCALE_BITS if index == 0 else ACT_BITS


def _in_max(index: int) -> int:
    return INPUT_MAX if index == 0 else ACT_MAX


def _min_shift(index: int) -> int:
    # A hidden layer's output shift e + s - 7 must not be negative.
    return ACT_BITS - _in_bits(index) if _in_bits(index) < ACT_BITS else 0


def _fits(wq: npt.NDArray[np.int64], bq: npt.NDArray[np.int64], index: int) -> bool:
    if wq.size and int(np.abs(wq).max()) > 32767:
        return False
    bound = np.abs(wq).sum(axis=1) * _in_max(index) + np.abs(bq)
    return bool(bound.size == 0 or int(bound.max()) <= _INT32_MAX)


def _check_quantized(layer: object, shape: tuple[int, int], index: int, name: str) -> None:
    if not isinstance(layer, QuantizedLayer):
        raise NetworkError(f"expected a QuantizedLayer, got {type(layer).__name__}", name)
    w, b, s = layer.weight, layer.bias, layer.shift
    for arr, dtype, shp, what in ((w, np.int16, shape, "weight"), (b, np.int32, shape[:1], "bias")):
        if not isinstance(arr, np.ndarray):
            raise NetworkError(
                f"expected a numpy array, got {type(arr).__name__}", f"{name}.{what}"
            )
        if arr.dtype != dtype:
            raise NetworkError(f"expected {np.dtype(dtype)}, got {arr.dtype}", f"{name}.{what}")
        if arr.shape != shp:
            raise NetworkError(f"expected shape {shp}, got {arr.shape}", f"{name}.{what}")
    if type(s) is not int or not _min_shift(index) <= s <= MAX_SHIFT:
        raise NetworkError(
            f"expected an int in {_min_shift(index)}..{MAX_SHIFT}, got {s!r}", f"{name}.shift"
        )
    if (w == -32768).any():
        raise NetworkError("holds -32768 (weights are in -32767..32767)", f"{name}.weight")
    if not _fits(w.astype(np.int64), b.astype(np.int64), index):
        raise NetworkError(
            "a sum could overflow int32 (sum |weight| * max input + |bias| > 2**31 - 1)", name
        )


def _quantize_layer(w: FloatArray, b: FloatArray, index: int, name: str) -> QuantizedLayer:
    e = _in_bits(index)
    w64, b64 = w.astype(np.float64), b.astype(np.float64)
    for s in range(MAX_SHIFT, _min_shift(index) - 1, -1):
        wq = np.rint(w64 * 2.0**s)
        bq = np.rint(b64 * 2.0 ** (e + s))
        if np.abs(wq).max(initial=0) > 32767 or np.abs(bq).max(initial=0) > _INT32_MAX:
            continue
        wi, bi = wq.astype(np.int64), bq.astype(np.int64)
        if _fits(wi, bi, index):
            return QuantizedLayer(wi.astype(np.int16), bi.astype(np.int32), s)
    raise NetworkError(
        f"weights or biases too large to quantize (even with shift {_min_shift(index)})", name
    )


def quantize(net: Network | QuantizedNetwork) -> QuantizedNetwork:
    """The engine's integers for ``net`` (a :class:`QuantizedNetwork` is
    returned as it is); the same float weights always give the same integers.

    :raises NetworkError: a layer's weights are too large for int16 at the
        smallest shift, or could overflow int32."""
    if isinstance(net, QuantizedNetwork):
        return net
    if not isinstance(net, Network):
        raise NetworkError(f"expected a Network, got {type(net).__name__}")
    trunk = tuple(_quantize_layer(w, b, i, f"trunk{i}") for i, (w, b) in enumerate(net.trunk))
    depth = len(net.trunk)
    return QuantizedNetwork(
        game=net.game,
        num_players=net.num_players,
        input_size=net.input_size,
        num_actions=net.num_actions,
        trunk=trunk,
        policy=_quantize_layer(*net.policy, depth, "policy"),
        value=_quantize_layer(*net.value, depth, "value"),
        meta=dict(net.meta),
    )


def _dequantize_layer(layer: QuantizedLayer, index: int) -> tuple[FloatArray, FloatArray]:
    s, e = layer.shift, _in_bits(index)
    w = (layer.weight.astype(np.float64) * 2.0**-s).astype(np.float32)
    b = (layer.bias.astype(np.float64) * 2.0 ** -(e + s)).astype(np.float32)
    return w, b


def dequantize(net: QuantizedNetwork) -> Network:
    """The float network that ``net``'s integers stand for (to go on training
    from a file).  Quantizing it again may choose other shifts; its policy
    and value stay close to ``net``'s."""
    depth = len(net.trunk)
    return Network(
        game=net.game,
        num_players=net.num_players,
        input_size=net.input_size,
        num_actions=net.num_actions,
        trunk=tuple(_dequantize_layer(layer, i) for i, layer in enumerate(net.trunk)),
        policy=_dequantize_layer(net.policy, depth),
        value=_dequantize_layer(net.value, depth),
        meta=dict(net.meta),
    )


def quantize_input(obs: npt.NDArray[np.float32]) -> npt.NDArray[np.int64]:
    """The quantized input ``clamp(rint(x * 16), -32767, 32767)``; a NaN
    becomes ``0`` (as in the engine)."""
    x = np.asarray(obs, dtype=np.float32) * np.float32(1 << INPUT_SCALE_BITS)
    x = np.where(np.isnan(x), np.float32(0), x)
    q: npt.NDArray[np.int64] = np.clip(np.rint(x), -INPUT_MAX, INPUT_MAX).astype(np.int64)
    return q


def evaluate(net: Network | QuantizedNetwork, obs: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """The policy ``[n, num_actions]`` and value ``[n, num_players]`` of a
    batch of observations ``[n, input_size]``, computed exactly as the engine
    computes them (a float :class:`Network` is quantized first).

    :raises NetworkError: ``obs`` is not ``[n, input_size]`` of floats."""
    q = quantize(net)
    x = np.asarray(obs)
    if x.dtype.kind != "f":
        raise NetworkError(f"expected floats, got {x.dtype}", "obs")
    if x.ndim == 1:
        x = x[None, :]
    if x.ndim != 2 or x.shape[1] != q.input_size:
        raise NetworkError(f"expected shape [n, {q.input_size}], got {list(x.shape)}", "obs")
    h = quantize_input(x.astype(np.float32))
    for i, layer in enumerate(q.trunk):
        acc = h @ layer.weight.astype(np.int64).T + layer.bias.astype(np.int64)
        sh = _in_bits(i) + layer.shift - ACT_BITS
        h = np.where(acc <= 0, 0, np.minimum(acc >> sh, ACT_MAX))
    depth = len(q.trunk)
    out = []
    for layer in (q.policy, q.value):
        acc = h @ layer.weight.astype(np.int64).T + layer.bias.astype(np.int64)
        scale = np.float32(2.0 ** -(_in_bits(depth) + layer.shift))
        out.append(acc.astype(np.float32) * scale)
    return out[0], out[1]


class GameShape(Protocol):
    """What :func:`check_network` reads of a game (:class:`pycards.game.Game` has it)."""

    NAME: ClassVar[str]
    num_players: int
    tensor_size: int
    num_actions: int


def check_network(net: Network | QuantizedNetwork, game: GameShape) -> None:
    """Check that ``net`` was made for ``game`` (its name, player count,
    tensor size and action count).

    :raises NetworkError: naming the first field that differs."""
    for what, mine, theirs in (
        ("game", net.game, game.NAME),
        ("num_players", net.num_players, game.num_players),
        ("input_size", net.input_size, game.tensor_size),
        ("num_actions", net.num_actions, game.num_actions),
    ):
        if mine != theirs:
            raise NetworkError(
                f"the network has {mine!r}, the game {game.NAME} ({game.num_players} players) "
                f"has {theirs!r}",
                what,
            )


def _npy(arr: npt.NDArray[np.generic]) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(
        buf, arr if arr.flags.c_contiguous else arr.copy(), allow_pickle=False
    )
    return buf.getvalue()


def _arrays(q: QuantizedNetwork) -> dict[str, npt.NDArray[np.generic]]:
    fields: dict[str, npt.NDArray[np.generic]] = {
        "format": np.array(FORMAT),
        "version": np.array(VERSION, np.int32),
        "game": np.array(q.game),
        "num_players": np.array(q.num_players, np.int32),
        "input_size": np.array(q.input_size, np.int32),
        "num_actions": np.array(q.num_actions, np.int32),
        "num_hidden": np.array(len(q.trunk), np.int32),
        "meta": np.array(json.dumps(dict(q.meta), sort_keys=True, ensure_ascii=True)),
    }
    named = [(f"trunk{i}", layer) for i, layer in enumerate(q.trunk)]
    for name, layer in [*named, ("policy", q.policy), ("value", q.value)]:
        fields[f"{name}.weight"] = layer.weight
        fields[f"{name}.bias"] = layer.bias
        fields[f"{name}.shift"] = np.array(layer.shift, np.int32)
    return fields


def network_bytes(net: Network | QuantizedNetwork) -> bytes:
    """The bytes of ``net``'s file (what :func:`save_network` writes): a zip
    of ``.npy`` arrays, stored uncompressed with fixed dates, so the same
    weights always give the same bytes."""
    q = quantize(net)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for name, arr in _arrays(q).items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_DATE)
            info.external_attr = 0o644 << 16
            zf.writestr(info, _npy(arr))
    data = buf.getvalue()
    if len(data) > MAX_FILE_BYTES:
        raise NetworkError(f"the file would be {len(data)} bytes, more than {MAX_FILE_BYTES}")
    return data


def save_network(path: str | Path, net: Network | QuantizedNetwork) -> None:
    """Quantize ``net`` and write it to ``path`` (an ``.npz`` file that
    :func:`numpy.load` reads with ``allow_pickle=False``).

    :raises NetworkError: the weights cannot be quantized or the file would
        be over :data:`MAX_FILE_BYTES`."""
    Path(path).write_bytes(network_bytes(net))


def _scalar_int(data: Mapping[str, npt.NDArray[np.generic]], key: str) -> int:
    a = data[key]
    if a.shape != () or a.dtype != np.int32:
        raise NetworkError(f"expected an int32 scalar, got {a.dtype} of shape {a.shape}", key)
    return int(a)


def _scalar_str(data: Mapping[str, npt.NDArray[np.generic]], key: str) -> str:
    a = data[key]
    if a.shape != () or a.dtype.kind != "U":
        raise NetworkError(f"expected a string, got {a.dtype} of shape {a.shape}", key)
    return str(a)


def _read_arrays(path: Path) -> dict[str, npt.NDArray[np.generic]]:
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise NetworkError(f"cannot read {path}: {exc.strerror}") from exc
    if len(raw) > MAX_FILE_BYTES:
        raise NetworkError(f"{path} is more than {MAX_FILE_BYTES} bytes")
    data: dict[str, npt.NDArray[np.generic]] = {}
    try:
        loaded = np.load(io.BytesIO(raw), allow_pickle=False)
        if not isinstance(loaded, np.lib.npyio.NpzFile):
            raise NetworkError(f"{path} is a single array, not a network (.npz) file")
        with loaded as npz:
            for key in npz.files:
                data[key] = npz[key]
    except NetworkError:
        raise
    except ValueError as exc:
        # numpy refuses an object (pickled) array with allow_pickle=False.
        raise NetworkError(f"{path} is not a network file: {exc}") from exc
    except (OSError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise NetworkError(f"{path} is not a network file (truncated or not .npz): {exc}") from exc
    return data


def load_network(path: str | Path) -> QuantizedNetwork:
    """Read and check a network file written by :func:`save_network`.

    :raises NetworkError: the file is missing, truncated, not a network
        file, of another version, or a field is missing, of the wrong type
        or shape (the error's ``field`` names it)."""
    p = Path(path)
    data = _read_arrays(p)
    for key in ("format", "version"):
        if key not in data:
            raise NetworkError(f"missing (is {p} a network file?)", key)
    if _scalar_str(data, "format") != FORMAT:
        raise NetworkError(f"expected {FORMAT!r}, got {_scalar_str(data, 'format')!r}", "format")
    version = _scalar_int(data, "version")
    if version != VERSION:
        raise NetworkError(
            f"version {version} is not supported (this pycards reads {VERSION})", "version"
        )
    header = ("game", "num_players", "input_size", "num_actions", "num_hidden", "meta")
    for key in header:
        if key not in data:
            raise NetworkError("missing", key)
    depth = _scalar_int(data, "num_hidden")
    if not 0 <= depth <= MAX_LAYERS:
        raise NetworkError(f"{depth} is outside 0..{MAX_LAYERS}", "num_hidden")
    names = [*(f"trunk{i}" for i in range(depth)), "policy", "value"]
    expected = {"format", "version", *header}
    expected |= {f"{n}.{part}" for n in names for part in ("weight", "bias", "shift")}
    if missing := sorted(expected - data.keys()):
        raise NetworkError("missing", missing[0])
    if extra := sorted(data.keys() - expected):
        raise NetworkError("unexpected field", extra[0])
    try:
        meta = json.loads(_scalar_str(data, "meta"))
    except json.JSONDecodeError as exc:
        raise NetworkError(f"not JSON: {exc}", "meta") from exc
    if not isinstance(meta, dict):
        raise NetworkError(f"expected a JSON object, got {type(meta).__name__}", "meta")
    layers = []
    for name in names:
        w, b = data[f"{name}.weight"], data[f"{name}.bias"]
        if w.ndim != 2:
            raise NetworkError(f"expected a 2-d array, got shape {w.shape}", f"{name}.weight")
        layers.append(QuantizedLayer(w, b, _scalar_int(data, f"{name}.shift")))  # type: ignore[arg-type]
    return QuantizedNetwork(
        game=_scalar_str(data, "game"),
        num_players=_scalar_int(data, "num_players"),
        input_size=_scalar_int(data, "input_size"),
        num_actions=_scalar_int(data, "num_actions"),
        trunk=tuple(layers[:depth]),
        policy=layers[depth],
        value=layers[depth + 1],
        meta=meta,
    )


#: Where the shipped models live (package data of :mod:`pycards`).
MODELS_DIR: Final = Path(__file__).parent / "models"


def model_path(name: str) -> Path:
    """The file of the shipped model ``name`` (``models/<name>.npz`` in the
    package), whether or not it exists."""
    return MODELS_DIR / f"{name}.npz"


def resolve_network(name: str) -> Path:
    """The file a spec's network name stands for: a path to an existing file
    (anything with a ``/`` or ending in ``.npz`` is a path), else a shipped
    model's name.

    :raises NetworkError: no such file and no shipped model of that name."""
    if not isinstance(name, str) or not name:
        raise NetworkError(f"expected a file path or a model name, got {name!r}", "network")
    p = Path(name)
    if "/" in name or "\\" in name or name.endswith(".npz") or p.is_file():
        if not p.is_file():
            raise NetworkError(f"no network file {name}", "network")
        return p
    shipped = model_path(name)
    if shipped.is_file():
        return shipped
    known = sorted(f.stem for f in MODELS_DIR.glob("*.npz")) if MODELS_DIR.is_dir() else []
    shipped_names = ", ".join(known) or "none"
    raise NetworkError(
        f"no network file and no shipped model named {name!r} (shipped: {shipped_names})",
        "network",
    )


def engine_net(net: Network | QuantizedNetwork) -> _core.Net:
    """The engine's network for ``net`` (:class:`cardcore._core.Net`, what a
    searcher and the ``net`` bot evaluate); a float network is quantized."""
    q = quantize(net)
    layers = [(layer.weight, layer.bias, layer.shift) for layer in (*q.trunk, q.policy, q.value)]
    return _core.Net(q.input_size, q.num_actions, q.num_players, layers)


_ENGINE_NETS: dict[tuple[str, int, int], tuple[QuantizedNetwork, _core.Net]] = {}


def load_engine_net(name: str, game: str, num_players: int) -> _core.Net:
    """The engine's network of a spec's ``name`` (:func:`resolve_network`)
    for ``game`` with ``num_players``, read once per file (while it is
    unchanged) and shared by every searcher that names it.

    :raises NetworkError: no such file or model, a bad file, or a network
        made for another game or player count."""
    path = resolve_network(name)
    st = path.stat()
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    hit = _ENGINE_NETS.get(key)
    if hit is None:
        q = load_network(path)
        hit = (q, engine_net(q))
        _ENGINE_NETS[key] = hit
    q = hit[0]
    if q.game != game:
        raise NetworkError(f"{name} is a network for {q.game}, not {game}", "game")
    if q.num_players != num_players:
        raise NetworkError(
            f"{name} is a network for {q.num_players} players, not {num_players}", "num_players"
        )
    return hit[1]


def default_model(game: str, num_players: int) -> str:
    """The name of the shipped model the ``net`` bot plays by default:
    ``"<game>-<n>p"`` (``models/<game>-<n>p.npz`` in the package)."""
    return f"{game}-{num_players}p"


def random_network(
    game: str,
    num_players: int,
    *,
    input_size: int,
    num_actions: int,
    hidden: tuple[int, ...] = (128,),
    rng: np.random.Generator,
    scale: float = 1.0,
) -> Network:
    """A network with random weights (He-style, times ``scale``): the start
    of training, and the networks of the tests and benchmarks."""
    sizes = [input_size, *hidden]

    def layer(n_out: int, n_in: int) -> tuple[FloatArray, FloatArray]:
        std = scale * np.sqrt(2.0 / n_in)
        w = (rng.standard_normal((n_out, n_in)) * std).astype(np.float32)
        b = (rng.standard_normal(n_out) * 0.1 * scale).astype(np.float32)
        return w, b

    return Network(
        game=game,
        num_players=num_players,
        input_size=input_size,
        num_actions=num_actions,
        trunk=tuple(layer(sizes[i + 1], sizes[i]) for i in range(len(hidden))),
        policy=layer(num_actions, sizes[-1]),
        value=layer(num_players, sizes[-1]),
    )
