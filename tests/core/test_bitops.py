"""The engine's bit helpers (cc_internal.h), checked in C (tests/c/bitops_check.c).

``cc_mod64`` (the generator's remainder, by a reciprocal and a multiplication
where the compiler has 128-bit integers) is compared with the ``%`` operator.

``cc_popcount64`` is a SWAR sum unless the compiler targets a population-count
instruction, and ``cc_select64`` (the k-th set bit, used by the search bots to
pick an action) works on the bytes' running counts: both are compared with
bit-by-bit loops, built with the default flags and, where the compiler takes
it, with ``-mpopcnt`` (the other branch of cc_popcount64).
"""

from __future__ import annotations

import pathlib
import platform
import subprocess

import pytest
from _cbuild import ROOT, c_compiler, engine_source, include_flags

HARNESS = ROOT / "tests" / "c" / "bitops_check.c"


FLAGS = [pytest.param([], id="default")]
if platform.machine().lower() in {"x86_64", "amd64"}:
    FLAGS.append(pytest.param(["-mpopcnt"], id="popcnt"))


@pytest.mark.parametrize("flags", FLAGS)
def test_popcount_and_select_match_bit_loops(tmp_path: pathlib.Path, flags: list[str]) -> None:
    cc = c_compiler()
    if cc is None:
        pytest.skip("no C compiler")
    exe = tmp_path / "bitops_check"
    build = [*cc, "-std=c11", "-O2", "-Wall", "-Wextra", *flags, *include_flags(), str(HARNESS)]
    build.append(engine_source("rng.c"))  # cc_recip64
    built = subprocess.run([*build, "-o", str(exe)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("checked ") and run.stdout.endswith(" bad 0\n"), run.stdout
    assert int(run.stdout.split()[1]) > 1_000_000
