"""Building the C test harnesses in ``tests/c`` against the engine's sources:
the compiler to use, the engine's C files and include path (read from
``src/cardcore/sources.py``, the one list every build uses), in one place for
every test that compiles one."""

from __future__ import annotations

import importlib.util
import pathlib
import shlex
import shutil
import sysconfig
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORE = ROOT / "src" / "cardcore"


def _load_sources() -> Any:
    spec = importlib.util.spec_from_file_location("_cardcore_sources", CORE / "sources.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOURCES = _load_sources()


def c_compiler() -> list[str] | None:
    """The C compiler command (Python's configured one, else ``cc`` or
    ``gcc``), or ``None`` when there is none."""
    configured = shlex.split(sysconfig.get_config_var("CC") or "")
    for cmd in (configured, ["cc"], ["gcc"]):
        if cmd and shutil.which(cmd[0]):
            return cmd
    return None


def engine_sources(exclude: tuple[str, ...] = ()) -> list[str]:
    """The engine's C files (absolute paths), less those whose file name is
    in ``exclude``."""
    return [p for p in SOURCES.c_sources() if pathlib.Path(p).name not in exclude]


def engine_source(name: str) -> str:
    """The path of the engine's C file called ``name`` (such as ``rng.c``)."""
    (path,) = (p for p in SOURCES.c_sources() if pathlib.Path(p).name == name)
    return str(path)


def include_flags() -> list[str]:
    """``-I`` flags for the engine's include path (public and core
    headers) and every game folder (their private headers)."""
    dirs = [*SOURCES.include_dirs(), *(p.as_posix() for p in sorted((CORE / "games").iterdir()))]
    return [f"-I{d}" for d in dirs]
