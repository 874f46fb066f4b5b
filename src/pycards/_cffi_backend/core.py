"""Generic part of the cffi adapter: RNG, game registry and the generic game state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pycards._checks import deck_ids

from ._common import STATUS_TEXT, check, ffi, lib

__all__ = [
    "GameState",
    "game_info",
    "game_names",
    "new_state",
    "random_playouts",
    "rng_sequence",
    "shuffled_deck",
]


def rng_sequence(seed: int, n: int) -> list[int]:
    """The first ``n`` outputs of the engine's generator seeded with ``seed``."""
    if n < 0:
        raise ValueError("n must be >= 0")
    rng = ffi.new("cc_rng *")
    lib.cc_rng_seed(rng, seed)
    return [int(lib.cc_rng_next(rng)) for _ in range(n)]


def shuffled_deck(seed: int, n: int) -> list[int]:
    """A seeded permutation of ``range(n)`` (n <= 255)."""
    if not 0 <= n <= 255:
        raise ValueError(f"deck size must be 0..255, got {n}")
    buf = ffi.new("uint8_t[256]")
    check(lib.cc_shuffled_deck(seed, buf, n), "shuffled_deck")
    return list(buf[0:n])


def game_names() -> list[str]:
    """Names of the built-in games."""
    out: list[str] = []
    i = 0
    while True:
        g = lib.cc_game_by_index(i)
        if g == ffi.NULL:
            return out
        out.append(ffi.string(g.name).decode())
        i += 1


def _game(name: str) -> Any:
    # (a NUL would end the C string early and find the game named by the prefix)
    ok = isinstance(name, str) and "\x00" not in name
    g = lib.cc_game_by_name(name.encode()) if ok else ffi.NULL
    if g == ffi.NULL:
        raise ValueError(f"unknown game {name!r}; known: {sorted(game_names())}")
    return g


def game_info(name: str) -> dict[str, int]:
    """Player range and number of rules parameters of a game."""
    g = _game(name)
    return {"min_players": g.min_players, "max_players": g.max_players, "num_params": g.num_params}


class _Params:
    def __init__(self, name: str, params: Sequence[int], nplayers: int) -> None:
        g = _game(name)
        params = tuple(int(p) for p in params)
        if len(params) != g.num_params:
            raise ValueError(f"{name}: expected {g.num_params} rules parameters, got {len(params)}")
        if not g.min_players <= nplayers <= g.max_players:
            raise ValueError(
                f"{name}: {nplayers} players not supported ({g.min_players} to {g.max_players})"
            )
        self.game = g
        self.values = ffi.new("int32_t[]", max(1, len(params)))
        for i, v in enumerate(params):
            self.values[i] = v
        self.nplayers = nplayers
        if g.check_params(self.values, nplayers) != lib.CC_OK:
            raise ValueError(f"{name}: invalid rules parameters {params!r} for {nplayers} players")


class GameState:
    """A C game state behind the generic game table, through cffi."""

    def __init__(self, params: _Params) -> None:
        self._p = params
        self._g = params.game
        self.nplayers = params.nplayers
        self._buf = ffi.new("char[]", self._g.state_size)

    def current_player(self) -> int:
        """The seat to act, or -4 (terminal)."""
        return int(self._g.current_player(self._buf))

    def num_actions(self) -> int:
        """Size of the action space."""
        return int(self._g.num_actions(self._p.values, self.nplayers))

    def tensor_size(self) -> int:
        """Length of the observation tensor."""
        return int(self._g.tensor_size(self._p.values, self.nplayers))

    def _mask(self) -> int:
        mask = ffi.new("uint64_t[]", lib.CC_MASK_WORDS)
        self._g.legal_actions(self._buf, mask)
        out = 0
        for w in range(lib.CC_MASK_WORDS - 1, -1, -1):
            out = (out << 64) | int(mask[w])
        return out

    def legal_actions(self) -> list[int]:
        """Legal action ids, ascending."""
        m = self._mask()
        out = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def legal_mask(self) -> int:
        """Bit ``a`` set for each legal action ``a``."""
        return self._mask()

    def verify(self, action: int) -> int:
        """0 if ``action`` is legal now, else a reason code."""
        return int(self._g.verify(self._buf, action))

    def reason_text(self, code: int) -> str:
        """Human text of a reason code."""
        if code < 0:
            return STATUS_TEXT.get(code, f"error {code}")
        return str(ffi.string(self._g.reason_text(code)).decode())

    def apply(self, action: int) -> int:
        """Apply ``action``: 0, or a reason code with the state unchanged."""
        return int(self._g.apply(self._buf, action))

    def returns(self) -> list[int]:
        """Cumulative points per player."""
        out = ffi.new("int32_t[]", lib.CC_MAX_PLAYERS)
        self._g.returns(self._buf, out)
        return [int(out[i]) for i in range(self.nplayers)]

    def observe_tensor(self, player: int) -> Any:
        """The observation tensor of ``player`` (float32)."""
        if not 0 <= player < self.nplayers:
            raise ValueError(f"player {player} out of range 0..{self.nplayers - 1}")
        out = np.zeros(self.tensor_size(), dtype=np.float32)
        check(
            self._g.observe_tensor(self._buf, player, ffi.cast("float *", ffi.from_buffer(out))),
            "observe_tensor",
        )
        return out

    def events(self) -> list[tuple[int, int, int, int, int, int]]:
        """The full event log: (kind, player, target, value, extra, seen_by)."""
        n = self._g.events(self._buf, ffi.NULL, 0)
        if n <= 0:
            return []
        buf = ffi.new("cc_event[]", n)
        self._g.events(self._buf, buf, n)
        return [(e.kind, e.player, e.target, e.value, e.extra, e.seen_by) for e in buf]

    def clone(self) -> GameState:
        """An independent copy."""
        other = GameState(self._p)
        ffi.memmove(other._buf, self._buf, self._g.state_size)
        return other

    def sample_infoset(self, player: int, seed: int) -> GameState:
        """A state drawn among those consistent with ``player``'s observations."""
        if not 0 <= player < self.nplayers:
            raise ValueError(f"player {player} out of range 0..{self.nplayers - 1}")
        other = GameState(self._p)
        check(self._g.sample_infoset(self._buf, player, seed, other._buf), "sample_infoset")
        return other

    def raw(self) -> bytes:
        """The state's bytes (platform-specific)."""
        return bytes(ffi.buffer(self._buf, self._g.state_size))


def new_state(
    name: str, params: Sequence[int], nplayers: int, seed: int, deck: Sequence[int] | None = None
) -> GameState:
    """A new state of game ``name`` dealt from ``seed`` (or from ``deck``, top first)."""
    p = _Params(name, params, nplayers)
    s = GameState(p)
    if deck is None:
        check(p.game.init(s._buf, p.values, nplayers, seed), f"{name}: init")
        return s
    if p.game.init_deck == ffi.NULL:
        raise ValueError(f"{name}: this game cannot be dealt from a given deck")
    cards = deck_ids(deck, name)
    buf = ffi.new("uint8_t[]", cards or [0])
    if p.game.init_deck(s._buf, p.values, nplayers, seed, buf, len(cards)) != lib.CC_OK:
        raise ValueError(f"{name}: the deck must be a permutation of the game's cards")
    return s


def random_playouts(
    name: str, params: Sequence[int], nplayers: int, seed: int, ngames: int
) -> tuple[int, list[int]]:
    """Play ``ngames`` random games natively."""
    p = _Params(name, params, nplayers)
    if ngames < 0:
        raise ValueError("ngames must be >= 0")
    scratch = ffi.new("char[]", 2 * p.game.state_size)
    steps = ffi.new("int64_t *")
    points = ffi.new("int64_t[]", lib.CC_MAX_PLAYERS)
    check(
        lib.cc_random_playouts(p.game, p.values, nplayers, seed, ngames, scratch, steps, points),
        f"{name}: random_playouts",
    )
    return int(steps[0]), [int(points[i]) for i in range(nplayers)]
