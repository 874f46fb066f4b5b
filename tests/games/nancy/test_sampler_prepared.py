"""Nancy's prepared sampler equals its one-shot sampler, byte for byte (C harness).

``sample_prepare`` once per position and seat, then ``sample_draw`` for each
sample, must write exactly what ``sample_infoset`` writes for the same seed
and return what it returns: the searchers use the first, and their searches
(and so whole games between bots) must not change.  The harness
(tests/c/nancy_sample_prepared.c) walks random games of 2 to 6 players under
every reveal_hound / self_call_allowed / face-up setting and compares the
whole output buffers.  It is built with AddressSanitizer and UBSan when the
compiler has them, once as the engine is built and once with the relaxed
stage forced on every position (as tests/games/test_sampler_exact.py does).
"""

from __future__ import annotations

import pathlib
import re
import subprocess

import pytest
from _cbuild import ROOT, c_compiler, engine_sources, include_flags

HARNESS = ROOT / "tests" / "c" / "nancy_sample_prepared.c"
SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-g"]


def _build(cc: list[str], exe: pathlib.Path, defines: list[str]) -> None:
    sources = engine_sources()
    base = [
        *cc, "-std=c11", "-O1", "-Wall", "-Wextra", "-Wno-unused-function", *include_flags(),
        *defines, str(HARNESS), *sources, "-o", str(exe), "-lm", "-pthread",
    ]  # fmt: skip
    built = subprocess.run([*base, *SANITIZE], capture_output=True, text=True)
    if built.returncode != 0:  # no sanitizer runtime: a plain build
        subprocess.run(base, check=True, capture_output=True, text=True)


@pytest.mark.parametrize(
    "defines",
    [
        [],
        ["-DNANCY_RELAX_ABOVE=0", "-DNANCY_RELAX_MERGES=1", "-DNANCY_RELAX_TRIES=20"],
    ],
    ids=["as-built", "relaxed-stage-forced"],
)
def test_prepared_draws_equal_sample_infoset(tmp_path: pathlib.Path, defines: list[str]) -> None:
    cc = c_compiler()
    if cc is None:
        pytest.skip("no C compiler")
    exe = tmp_path / "nancy_sample_prepared"
    _build(cc, exe, defines)
    run = subprocess.run([str(exe), "1", "3"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    m = re.fullmatch(r"states (\d+) draws (\d+) errors (\d+)\n", run.stdout)
    assert m is not None, run.stdout
    states, draws, errors = (int(x) for x in m.groups())
    assert states > 1000
    assert draws > 3 * states
    assert errors == 0
