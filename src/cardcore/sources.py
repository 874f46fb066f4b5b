"""The one list of the engine's C sources, include folders and compiler flags.

Every build reads this module: ``setup.py`` (the static library linked into
both bindings), ``_cffi_build.py``, the C test harnesses (``tests/_cbuild.py``)
and the benchmark drivers.  It imports nothing but the standard library, so
``setup.py`` can load it by path before anything is built.

The layout it describes (``docs/internals.rst``, "Layout"):

``include/``
    The public C API, and nothing else: the only headers a wheel ships and
    the only ones cffi reads.
``core/``
    Cards, the generator, the event log, the game table, the combination
    primitives, their CPU-specific kernels, the shared show scorer, the
    shared play (pegging) sequence with its exact solver, the engine's
    thread start, and the benchmark guard's slow-path switch (a debug build's
    only; the guard's calibration loop is ``benchmarks/c/calibrate.c``, not
    part of the engine).
``search/``
    The bots over the game table: ``bots.c`` (the spec, the searcher,
    root-parallel threads, act and the C match), ``rollout.c`` (rewards,
    horizons, rollouts), ``pimc.c`` and ``ismcts.c`` (the two searches), and
    their private header ``search_internal.h``.
``vec/``
    The vector environment.
``games/<name>/``
    One folder per game with the same file set: ``<name>_game.c`` (rules and
    state), ``<name>_bot.c`` (the heuristic), ``<name>_sample.c`` (the
    information-set sampler), ``<name>_internal.h`` (the private header), and
    more ``<name>_*.c`` files where one would pass about 800 lines.
"""

from __future__ import annotations

import os
import pathlib
import sys

#: The folder of this module (``src/cardcore``).
ROOT = pathlib.Path(__file__).resolve().parent

#: The folders whose ``*.c`` files make the engine, in build order.
SOURCE_DIRS = ("core", "search", "vec", "games/*")

#: The folders on the include path: the public API first, then the private
#: core headers (a game's private header sits beside its sources).
INCLUDE_DIRS = ("include", "core")

#: The public headers' folder.
PUBLIC_INCLUDE = "include"


def c_sources(relative_to: str | pathlib.Path | None = None) -> list[str]:
    """The engine's C files, sorted within each folder, as paths relative to
    ``relative_to`` (absolute when ``None``), with forward slashes."""
    out: list[str] = []
    for pattern in SOURCE_DIRS:
        for folder in sorted(ROOT.glob(pattern)):
            out.extend(_path(p, relative_to) for p in sorted(folder.glob("*.c")))
    return out


def include_dirs(relative_to: str | pathlib.Path | None = None) -> list[str]:
    """The include path of an engine build (see :data:`INCLUDE_DIRS`)."""
    return [_path(ROOT / d, relative_to) for d in INCLUDE_DIRS]


def public_headers() -> list[str]:
    """The public headers' file names: ``cardcore.h`` first, then the rest
    sorted (the order cffi declares them in)."""
    names = sorted(p.name for p in (ROOT / PUBLIC_INCLUDE).glob("*.h"))
    names.remove("cardcore.h")
    return ["cardcore.h", *names]


def compile_args(
    *,
    debug: bool = False,
    sanitize: str = "",
    optimize: str = "-O3",
    no_interposition: bool = True,
) -> tuple[list[str], list[str]]:
    """The compiler and linker flags of every engine build, for both
    bindings: ``(cflags, ldflags)``.

    ``debug`` gives ``-O0 -g``, assertions, and the guard's slow-path switch
    (``-DCC_SLOW_SWITCH``); ``sanitize`` is a ``-fsanitize=`` list such as
    ``"address,undefined"``; ``optimize`` is the optimization flag of a
    normal build; ``no_interposition`` adds ``-fno-semantic-interposition``
    (``setup.py`` asks the compiler whether it takes it).
    """
    if sys.platform == "win32":
        return ["/O2"], []
    cflags = ["-std=c11", optimize, "-Wall", "-Wextra", "-Wno-unused-function"]
    # -fPIC alone lets another library interpose any global function, which
    # stops the compiler from inlining the engine's small global functions
    # within their file; nothing here is meant to be interposed.
    if no_interposition:
        cflags.append("-fno-semantic-interposition")
    # the vector environment (vec/vecenv.c) steps its games on POSIX threads
    cflags.append("-pthread")
    ldflags = ["-pthread"]
    if debug:
        cflags = [f for f in cflags if f != optimize] + ["-O0", "-g", "-UNDEBUG"]
        cflags.append("-DCC_SLOW_SWITCH")  # the guard's slow-path switch (debug only)
    if sanitize:
        cflags += [f"-fsanitize={sanitize}", "-fno-omit-frame-pointer", "-g"]
        ldflags += [f"-fsanitize={sanitize}"]
    return cflags, ldflags


def _path(p: pathlib.Path, relative_to: str | pathlib.Path | None) -> str:
    if relative_to is None:
        return p.as_posix()
    return pathlib.Path(os.path.relpath(p, pathlib.Path(relative_to).resolve())).as_posix()


if __name__ == "__main__":
    # for shell builds of the C drivers: `cc $(python src/cardcore/sources.py --include)
    # driver.c $(python src/cardcore/sources.py) -lm -pthread`
    if sys.argv[1:] == ["--include"]:
        print(" ".join(f"-I{d}" for d in include_dirs()))
    else:
        print(" ".join(c_sources()))
