"""Building the C test harnesses in ``tests/c`` against the engine's sources:
the compiler to use and the engine's C files (one place for every test that
compiles one)."""

from __future__ import annotations

import pathlib
import shlex
import shutil
import sysconfig

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORE = ROOT / "src" / "cardcore"


def c_compiler() -> list[str] | None:
    """The C compiler command (Python's configured one, else ``cc`` or
    ``gcc``), or ``None`` when there is none."""
    configured = shlex.split(sysconfig.get_config_var("CC") or "")
    for cmd in (configured, ["cc"], ["gcc"]):
        if cmd and shutil.which(cmd[0]):
            return cmd
    return None


def engine_sources() -> list[str]:
    """The engine's C files (not the binding's generated ones), sorted."""
    return sorted(str(p) for p in CORE.glob("*.c") if not p.name.startswith("_"))
