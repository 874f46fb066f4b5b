"""The engine's thread start (core/threads.c, cc_thread_start), which the
batch kernels' threads and the vector environment's workers use: the thread
blocks every signal (they go to the process's own threads; Python's handlers
run on its main thread) and the caller keeps its own mask, checked by a C
harness (tests/c/thread_start_check.c) built against the engine's file."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest
from _cbuild import ROOT, c_compiler, engine_source, include_flags

HARNESS = ROOT / "tests" / "c" / "thread_start_check.c"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX threads and signals")
def test_thread_starts_with_signals_blocked_and_caller_keeps_its_mask(
    tmp_path: pathlib.Path,
) -> None:
    cc = c_compiler()
    if cc is None:
        pytest.skip("no C compiler")
    exe = tmp_path / "thread_start_check"
    cmd = [*cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-pthread", *include_flags()]
    cmd += [str(HARNESS), engine_source("threads.c"), "-o", str(exe)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
