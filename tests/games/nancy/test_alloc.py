"""The Nancy engine's allocation contract, checked in C (tests/c/nancy_sampler_alloc.c).

The harness is linked with ``-Wl,--wrap=malloc,--wrap=free`` (GNU ld) so it can
count and fail every allocation of the engine: the playout path (init, legal
actions, verify, apply, observation, events, returns) must never allocate;
``sample_infoset`` may allocate only its count table, and when that fails it
must return an error code, leave the output untouched and free what it took.
Sampling in place (output = state) must give the same bytes as into a separate
buffer.
"""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import pytest
from _cbuild import ROOT, c_compiler, engine_sources, include_flags

HARNESS = ROOT / "tests" / "c" / "nancy_sampler_alloc.c"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs GNU ld's --wrap")
def test_sampler_allocation_failures_and_no_allocation_on_the_playout_path(
    tmp_path: pathlib.Path,
) -> None:
    cc = c_compiler()
    if cc is None:
        pytest.skip("no C compiler")
    sources = engine_sources()
    exe = tmp_path / "nancy_sampler_alloc"
    build = [
        *cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Wno-unused-function", *include_flags(),
        str(HARNESS), *sources, "-Wl,--wrap=malloc", "-Wl,--wrap=free", "-o", str(exe),
        "-lm", "-pthread",
    ]  # fmt: skip
    subprocess.run(build, check=True, capture_output=True, text=True)
    run = subprocess.run([str(exe), "4"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    m = re.fullmatch(r"samples (\d+) malloc_failed (\d+) outstanding (\d+)\n", run.stdout)
    assert m is not None, run.stdout
    samples, failed, outstanding = (int(x) for x in m.groups())
    assert samples > 1000
    assert failed > 0  # the allocation-failure path was exercised
    assert outstanding == 0
