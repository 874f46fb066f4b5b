"""``pycards play`` in a pseudo-terminal (pexpect), for the terminal tests."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import pycards

__all__ = ["ANSI", "PROMPT", "SRC", "spawn"]

#: where the pycards under test lives (the source tree with an in-place build,
#: or site-packages in CI): a child process must import the same one
SRC = str(Path(pycards.__file__).resolve().parents[1])
#: the terminal's escape sequences (colour, cursor), to strip from a screen
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: the table's prompt for a move
PROMPT = "your move> "


def spawn(args: list[str], width: int = 100) -> Any:
    """``python -m pycards play ARGS`` in a pseudo-terminal ``width`` columns
    wide, without colour (the caller has imported pexpect, or skipped)."""
    import pexpect

    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    env.update(NO_COLOR="1", TERM="dumb", COLUMNS=str(width))
    return pexpect.spawn(
        sys.executable,
        ["-m", "pycards", "play", *args],
        env=env,
        encoding="utf-8",
        timeout=120,
        dimensions=(40, width),
        # a person's terminal: Ctrl-C interrupts, even where this test run was
        # started with SIGINT ignored (a background job of a script)
        preexec_fn=_default_sigint,
    )


def _default_sigint() -> None:
    """In the child, before exec: SIGINT back to its default action."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
