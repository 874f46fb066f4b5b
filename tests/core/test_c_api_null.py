"""The C API's NULL contract (cardcore.h, "NULL pointers"), through cffi.

Each public function's comment names the pointers that may be NULL; every
other pointer is required, and a NULL there is refused with a status code
(CC_E_ARG, CC_E_PARAMS for a scoring function's rules), 0, NULL, or nothing
for a void function: never a crash.  Each call that could crash runs in a
forked child, so a crash fails its test instead of the whole run.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from typing import Any

import pytest

_cffi = pytest.importorskip("cardcore._cffi")
ffi = _cffi.ffi
lib = _cffi.lib

if not hasattr(os, "fork"):  # pragma: no cover - POSIX only
    pytest.skip("the crash probes fork", allow_module_level=True)

NULL = ffi.NULL


def _child(call: Callable[[], Any]) -> Any:
    """``call()`` in a forked child: its result (picklable), or fail the
    test if the child died (a crash)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(r)
        try:
            data = pickle.dumps(("ok", call()))
        except BaseException as exc:  # reported to the parent
            data = pickle.dumps(("raised", repr(exc)))
        os.write(w, data)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, (
        f"the call crashed (wait status {status:#x})"
    )
    kind, value = pickle.loads(data)
    assert kind == "ok", value
    return value


def _value(x: Any) -> Any:
    """A cffi result as a plain value: a pointer becomes 'NULL' or 'pointer'."""
    if isinstance(x, ffi.CData):
        return "NULL" if x == NULL else "pointer"
    return x


def _functions() -> list[str]:
    out = []
    for name in sorted(n for n in dir(lib) if n.startswith("cc_")):
        try:
            t = ffi.typeof(getattr(lib, name))
        except TypeError:
            continue
        if t.kind == "function" and any(a.kind == "pointer" for a in t.args):
            out.append(name)
    return out


def _all_null(name: str, small: int) -> Any:
    t = ffi.typeof(getattr(lib, name))
    args = [
        NULL
        if a.kind in ("pointer", "function")
        else (0.0 if a.cname in ("float", "double") else small)
        for a in t.args
    ]
    return _value(getattr(lib, name)(*args))


@pytest.mark.parametrize("name", _functions())
@pytest.mark.parametrize("small", [0, 1])
def test_every_function_survives_null_pointers(name: str, small: int) -> None:
    # every pointer NULL, the ints 0 (empty arrays) or 1: an answer, never a crash
    _child(lambda: _all_null(name, small))


# ---------------------------------------------------------------------------
# the event log (log.c)


def _log(capacity: int) -> tuple[Any, Any]:
    size = ffi.sizeof("cc_log") + max(capacity, 0) * ffi.sizeof("cc_log_entry")
    owner = ffi.new("uint64_t[]", (size + 7) // 8)
    log = ffi.cast("cc_log *", owner)
    lib.cc_log_init(log, capacity)
    return owner, log


def test_the_log_functions_take_a_null_log() -> None:
    def calls() -> list[Any]:
        lib.cc_log_init(NULL, 8)
        lib.cc_log_push(NULL, 1, 0, 0, 5, 0, 0xFFFFFFFF)
        lib.cc_log_mute(NULL, lib.CC_LOG_MUTED)
        return [
            lib.cc_log_kept(NULL),
            _value(lib.cc_log_at(NULL, 0)),
            _value(lib.cc_log_at_const(NULL, 0)),
        ]

    assert _child(calls) == [0, "NULL", "NULL"]


def test_log_at_outside_the_kept_events_is_null() -> None:
    def calls() -> list[Any]:
        owner, log = _log(3)
        empty_owner, empty = _log(0)  # capacity 0: before, a division by zero
        for v in range(5):
            lib.cc_log_push(log, 1, 0, 0, v, 0, 0xFFFFFFFF)
        kept = lib.cc_log_kept(log)
        values = [lib.cc_log_at(log, i).value for i in range(kept)]
        outside = [
            _value(f(lg, i))
            for f in (lib.cc_log_at, lib.cc_log_at_const)
            for lg, i in ((log, -1), (log, kept), (log, 1 << 30), (empty, 0))
        ]
        del owner, empty_owner
        return [kept, values, outside]

    kept, values, outside = _child(calls)
    assert kept == 3 and values == [2, 3, 4]
    assert outside == ["NULL"] * 8


# ---------------------------------------------------------------------------
# the other functions a NULL crashed, and what the headers promise


def test_notakers_compare_ranks_null_below_every_split() -> None:
    def calls() -> list[int]:
        a = ffi.new("cc_notakers_split *")
        assert lib.cc_notakers_best_split(0x7, 0, 0, a) == lib.CC_OK
        junk = ffi.new("cc_notakers_split *", {"points": a.points, "nsets": 10**6})
        return [
            lib.cc_notakers_compare(NULL, a),
            lib.cc_notakers_compare(a, NULL),
            lib.cc_notakers_compare(NULL, NULL),
            lib.cc_notakers_compare(a, a),
            lib.cc_notakers_compare(junk, junk),  # nsets past the sets: not read
        ]

    lt, gt, eq, same, junk = _child(calls)
    assert lt < 0 < gt and eq == 0 and same == 0 and junk == 0


def _game(name: str) -> Any:
    g = lib.cc_game_by_name(name.encode())
    assert g != NULL
    return g


def _defaults(g: Any) -> Any:
    return ffi.new("int32_t[]", [g.params[i].default_value for i in range(g.num_params)])


def test_random_playouts_refuses_a_null_steps_out() -> None:
    def call() -> int:
        g = _game("nodde")
        scratch = ffi.new("uint64_t[]", (2 * g.state_size + 7) // 8)
        points = ffi.new("int64_t[]", 8)
        return int(lib.cc_random_playouts(g, _defaults(g), 2, 1, 1, scratch, NULL, points, NULL))

    assert _child(call) == lib.CC_E_ARG


def test_scoring_functions_refuse_null_outputs() -> None:
    def calls() -> list[int]:
        nodde, crib = _defaults(_game("nodde")), _defaults(_game("cribbage"))
        return [
            lib.cc_nodde_hand_distribution(nodde, NULL),
            lib.cc_nodde_hand_distribution(NULL, ffi.new("int64_t[]", 64)),
            lib.cc_nodde_play_items(NULL, 1, nodde, NULL, 0),
            lib.cc_cribbage_show_distribution(0, crib, NULL),
            lib.cc_cribbage_crib_exact(0x3F, crib, NULL),
            lib.cc_cribbage_play_items(NULL, 1, NULL, 0),
            lib.cc_nancy_trick_winner(NULL, 1),
            lib.cc_nancy_settlement(4, 0, -1, 1, 1, 1, NULL),
            lib.cc_nancy_legal_cards(1, 0, NULL, 0, 0, NULL, ffi.new("uint64_t *")),
            lib.cc_nancy_legal_cards(1, 0, NULL, 0, 0, ffi.new("uint64_t *"), NULL),
            lib.cc_nancy_legal_cards(
                1, 0, NULL, 1, 0, ffi.new("uint64_t *"), ffi.new("uint64_t *")
            ),
            lib.cc_notakers_best_split(0x7, 0, 0, NULL),
            lib.cc_shuffled_deck(1, NULL, 5),
            lib.cc_rng_sequence(1, 5, NULL),
            lib.cc_game_check_params(_game("nodde"), NULL, 2, NULL),
        ]

    got = _child(calls)
    assert got[0] == lib.CC_E_ARG and got[1] == lib.CC_E_PARAMS
    assert all(x == lib.CC_E_ARG for x in got[2:]), got


def test_optional_pointers_may_be_null() -> None:
    def calls() -> list[int]:
        nodde = _defaults(_game("nodde"))
        hands = ffi.new("uint64_t[]", [0xFFFF])  # bits outside the deck
        turnups = ffi.new("uint8_t[]", [5])
        out = ffi.new("int32_t[]", 1)
        return [
            lib.cc_shuffled_deck(1, NULL, 0),
            lib.cc_rng_sequence(1, 0, NULL),
            lib.cc_card52_ids(0x7, NULL),
            lib.cc_nodde_batch_score_hand(hands, turnups, 1, nodde, out, NULL),
            lib.cc_batch_count_pairs(hands, 1, out, NULL, NULL),
            lib.cc_game_check_params(_game("nodde"), nodde, 2, NULL),
        ]

    assert _child(calls) == [lib.CC_OK, lib.CC_OK, 3, lib.CC_E_CARDS, lib.CC_E_CARDS, lib.CC_OK]


def test_the_heuristics_and_knowledge_refuse_null() -> None:
    def calls() -> list[int]:
        g = _game("notakers")
        words = ffi.new("uint64_t[]", (g.state_size + 7) // 8)
        state = ffi.cast("void *", words)
        assert g.init(state, _defaults(g), 3, 1) == lib.CC_OK
        rng, action = ffi.new("cc_rng *"), ffi.new("int32_t *")
        return [
            lib.cc_notakers_knowledge(state, 0, NULL),
            lib.cc_notakers_knowledge(NULL, 0, ffi.new("uint64_t[]", 24)),
            lib.cc_notakers_heuristic(state, NULL, action),
            lib.cc_notakers_heuristic(state, rng, NULL),
            lib.cc_nodde_heuristic(NULL, rng, action),
            lib.cc_nancy_heuristic(NULL, rng, action),
        ]

    assert _child(calls) == [lib.CC_E_ARG] * 6
