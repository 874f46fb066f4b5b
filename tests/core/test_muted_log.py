"""A muted event log (``cc_log_mute``, cardcore.h) changes nothing but the log.

The search bots search a copy of the state whose log is muted, and every
determinization they draw from it inherits the muted log: no event is pushed
in a simulation, and a sampler copies and redacts none.  That is only sound
if no rule, legal-action generator or sampler reads the log.  These tests
check it for every registered game through the C API (the cffi binding): a
state and its muted copy, played on with the same actions, offer the same
legal actions to the same player and end with the same returns; samples
drawn from either agree on everything before the log; a muted log keeps no
event and writes no entry.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

_cffi = pytest.importorskip("cardcore._cffi")
ffi = _cffi.ffi
lib = _cffi.lib


def _games() -> list[Any]:
    out = []
    i = 0
    while (g := lib.cc_game_by_index(i)) != ffi.NULL:
        out.append(g)
        i += 1
    return out


GAMES = {ffi.string(g.name).decode(): g for g in _games()}
CASES = [(name, n) for name, g in GAMES.items() for n in sorted({g.min_players, g.max_players})]


def _new(g: Any) -> tuple[Any, Any]:
    words = ffi.new("uint64_t[]", (g.state_size + 7) // 8)
    return words, ffi.cast("void *", words)


def _copy(g: Any, src: Any) -> tuple[Any, Any]:
    owner, dst = _new(g)
    ffi.memmove(dst, src, g.state_size)
    return owner, dst


def _log(g: Any, state: Any) -> Any:
    return ffi.cast("cc_log *", ffi.cast("char *", state) + g.log_offset)


def _entries(g: Any, state: Any) -> bytes:
    start = g.log_offset + ffi.sizeof("cc_log")
    return bytes(ffi.buffer(ffi.cast("char *", state) + start, g.state_size - start))


def _fixed(g: Any, state: Any) -> bytes:
    return bytes(ffi.buffer(ffi.cast("char *", state), g.log_offset))


def _legal(g: Any, state: Any) -> list[int]:
    mask = ffi.new("uint64_t[]", lib.CC_MASK_WORDS)
    n = g.legal_actions(state, mask)
    ids = [w * 64 + b for w in range(lib.CC_MASK_WORDS) for b in range(64) if mask[w] >> b & 1]
    assert n == len(ids)
    return ids


def _returns(g: Any, state: Any, n: int) -> list[int]:
    out = ffi.new("int32_t[]", n)
    g.returns(state, out)
    return list(out)


def _params(g: Any) -> Any:
    return ffi.new("int32_t[]", [g.params[i].default_value for i in range(g.num_params)])


def _position(name: str, n: int, seed: int) -> tuple[Any, Any, Any, random.Random]:
    """A state of a seeded deal after a seeded random number of random actions."""
    g = GAMES[name]
    owner, state = _new(g)
    assert g.init(state, _params(g), n, seed) == lib.CC_OK
    rng = random.Random(seed)
    for _ in range(rng.randrange(60)):
        if g.current_player(state) == lib.CC_PLAYER_TERMINAL:
            break
        assert g.apply(state, rng.choice(_legal(g, state))) == 0
    return g, owner, state, rng


@pytest.mark.parametrize(("name", "n"), CASES)
def test_a_muted_copy_plays_the_same_game(name: str, n: int) -> None:
    for seed in range(8):
        g, _keep, state, rng = _position(name, n, seed)
        num_actions = g.num_actions(_params(g), n)
        _keep2, muted = _copy(g, state)
        lib.cc_log_mute(_log(g, muted), lib.CC_LOG_MUTED | lib.CC_LOG_UNOBSERVED)
        entries = _entries(g, muted)
        assert lib.cc_game_used_size(g, muted) == g.log_offset + ffi.sizeof("cc_log")
        steps = 0
        while True:
            cp = g.current_player(state)
            assert g.current_player(muted) == cp
            legal = _legal(g, state)
            assert _legal(g, muted) == legal
            if cp == lib.CC_PLAYER_TERMINAL:
                break
            probe = rng.randrange(num_actions)
            assert g.verify(muted, probe) == g.verify(state, probe)
            a = rng.choice(legal)
            assert g.apply(muted, a) == g.apply(state, a) == 0
            steps += 1
            assert steps < 100_000
        assert _returns(g, muted, n) == _returns(g, state, n)
        # nothing was logged, and no entry was written
        assert _entries(g, muted) == entries
        events = ffi.new("cc_event[]", 1)
        dropped = ffi.new("int64_t *")
        assert lib.cc_game_events(g, muted, events, 1, dropped) == 0


@pytest.mark.parametrize(("name", "n"), CASES)
def test_samples_from_a_muted_copy_agree_before_the_log(name: str, n: int) -> None:
    g = GAMES[name]
    if g.sample_infoset == ffi.NULL:
        pytest.skip(f"{name} has no sampler")
    for seed in range(8):
        g, _keep, state, rng = _position(name, n, 100 + seed)
        if g.current_player(state) == lib.CC_PLAYER_TERMINAL:
            continue
        _keep2, muted = _copy(g, state)
        lib.cc_log_mute(_log(g, muted), lib.CC_LOG_MUTED | lib.CC_LOG_UNOBSERVED)
        for player in range(n):
            _o1, a = _new(g)
            _o2, b = _new(g)
            sample_seed = rng.getrandbits(64)
            assert g.sample_infoset(state, player, sample_seed, a) == lib.CC_OK
            assert g.sample_infoset(muted, player, sample_seed, b) == lib.CC_OK
            assert _fixed(g, b) == _fixed(g, a)
            assert lib.cc_log_kept(_log(g, b)) == 0  # the sample inherits the muted log


@pytest.mark.parametrize(("name", "n"), CASES)
def test_the_heuristic_plays_the_same_on_a_muted_copy(name: str, n: int) -> None:
    # heuristic rollouts mute the log only (not CC_LOG_UNOBSERVED): a policy
    # may read what its seat knows of the hidden cards, which must be kept
    g = GAMES[name]
    if g.heuristic == ffi.NULL:
        pytest.skip(f"{name} has no heuristic")
    for seed in range(4):
        g, _keep, state, _rng = _position(name, n, 200 + seed)
        _keep2, muted = _copy(g, state)
        lib.cc_log_mute(_log(g, muted), lib.CC_LOG_MUTED)
        rng_a, rng_b = ffi.new("cc_rng *"), ffi.new("cc_rng *")
        lib.cc_rng_seed(rng_a, seed)
        lib.cc_rng_seed(rng_b, seed)
        a, b = ffi.new("int32_t *"), ffi.new("int32_t *")
        steps = 0
        while g.current_player(state) != lib.CC_PLAYER_TERMINAL:
            assert g.heuristic(state, rng_a, a) == lib.CC_OK
            assert g.heuristic(muted, rng_b, b) == lib.CC_OK
            assert b[0] == a[0]
            assert g.apply(state, a[0]) == g.apply(muted, b[0]) == 0
            steps += 1
            assert steps < 100_000
        assert g.current_player(muted) == lib.CC_PLAYER_TERMINAL
        assert _returns(g, muted, n) == _returns(g, state, n)
