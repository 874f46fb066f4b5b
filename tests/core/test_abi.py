"""The game table carries its size and ABI version, and the binding checks them.

Every game's table (cardcore.h, ``cc_game``) starts with ``size`` (the
``sizeof(cc_game)`` of its build) and ``abi`` (``CC_ABI_VERSION``), so a
program reads them before anything else; ``cardcore._core`` refuses to load
over tables of another layout.  The action masks cover ``CC_MAX_ACTIONS``,
checked when the engine compiles.
"""

from __future__ import annotations

import pathlib
import re
import subprocess

import pytest
from _cbuild import CORE, c_compiler, include_flags

from cardcore import _core


@pytest.mark.parametrize("name", _core.game_names())
def test_game_info_gives_the_tables_abi(name: str) -> None:
    assert _core.game_info(name)["abi"] == _core.ABI_VERSION


def test_the_binding_refuses_another_layout() -> None:
    cffi = pytest.importorskip("cardcore._cffi")
    own = cffi.ffi.sizeof("cc_game")
    assert _core._abi_mismatch(0, own, _core.ABI_VERSION) is None
    for size, abi in [(own, _core.ABI_VERSION + 1), (own, 0), (own + 8, _core.ABI_VERSION)]:
        why = _core._abi_mismatch(3, size, abi)
        assert why is not None
        assert f"game table 3 was built for ABI {abi} ({size} bytes)" in why
        assert f"this binding for ABI {_core.ABI_VERSION} ({own} bytes)" in why


def test_the_cffi_view_of_every_table() -> None:
    cffi = pytest.importorskip("cardcore._cffi")
    ffi, lib = cffi.ffi, cffi.lib
    i = 0
    while (g := lib.cc_game_by_index(i)) != ffi.NULL:
        assert g.size == ffi.sizeof("cc_game")
        assert g.abi == lib.CC_ABI_VERSION == _core.ABI_VERSION
        # the first fields: a reader checks them before the rest
        assert ffi.offsetof("cc_game", "size") == 0
        assert ffi.offsetof("cc_game", "abi") < ffi.offsetof("cc_game", "name")
        assert _core._abi_mismatch(i, g.size, g.abi) is None
        i += 1
    assert i == len(_core.game_names())


def _compile(source: str, tmp_path: object) -> subprocess.CompletedProcess[str]:
    cc = c_compiler()
    if cc is None:
        pytest.skip("no C compiler")
    path = f"{tmp_path}/check.c"
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    cmd = [*cc, "-std=c11", "-fsyntax-only", *include_flags(), path]
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


def test_the_masks_must_cover_the_action_space(tmp_path: object) -> None:
    ok = _compile('#include "cc_internal.h"\nint main(void) { return 0; }\n', tmp_path)
    assert ok.returncode == 0, ok.stderr
    # one mask word fewer: the engine does not compile
    short = _compile(
        '#include "cardcore.h"\n#undef CC_MASK_WORDS\n#define CC_MASK_WORDS 15\n'
        '#include "cc_internal.h"\nint main(void) { return 0; }\n',
        tmp_path,
    )
    assert short.returncode != 0
    assert "CC_MAX_ACTIONS" in short.stderr


def _engine_headers() -> list[pathlib.Path]:
    return sorted(
        p for d in ("include", "core", "search", "vec", "games") for p in (CORE / d).rglob("*.h")
    )


def test_every_status_code_is_defined_in_cardcore_h_only() -> None:
    define = re.compile(r"^\s*#\s*define\s+(CC_E_\w+)\s+(-?\d+)", re.M)
    found = {h.name: define.findall(h.read_text(encoding="utf-8")) for h in _engine_headers()}
    codes = dict(found.pop("cardcore.h"))
    assert {name for name, _ in codes.items()} >= {"CC_E_ARG", "CC_E_HOOK", "CC_E_ROLLOUT_LIMIT"}
    assert not {h: names for h, names in found.items() if names}, "status codes outside cardcore.h"
    values = [int(v) for v in codes.values()]
    assert all(v < 0 for v in values) and len(set(values)) == len(values), codes
