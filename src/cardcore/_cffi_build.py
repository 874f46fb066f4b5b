"""Build ``cardcore._cffi``: an API-mode cffi binding of the cardcore headers.

Used by setup.py when ``PYCARDS_CFFI=1`` (``cffi_modules``; the module then
links the engine's static library, compiled once for both bindings), or
directly: ``python src/cardcore/_cffi_build.py`` builds the module in place
next to this file, compiling the engine's sources with the same flags.  The
cdef is read from the public headers themselves, so the
binding never drifts from the C API: preprocessor lines are dropped and
integer constants become ``#define NAME ...`` (their values come from the
compiler).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from typing import Any

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))


def _load_sources() -> Any:
    """``sources.py`` beside this file (loaded by path: the package is not built yet)."""
    spec = importlib.util.spec_from_file_location(
        "_cardcore_sources", os.path.join(HERE, "sources.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOURCES = _load_sources()
#: The public headers, the only ones cffi reads (``include/``).
HEADERS: list[str] = SOURCES.public_headers()
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_DEFINE = re.compile(r"^#define\s+(CC_\w+)\s+\S+.*$")


def cdef_text() -> str:
    """The declarations of every public header, as cffi's cdef() accepts them."""
    out = []
    for name in HEADERS:
        with open(os.path.join(HERE, SOURCES.PUBLIC_INCLUDE, name), encoding="utf-8") as f:
            # comments go first: a comment after a #define may span lines
            text = _COMMENT.sub(" ", f.read())
            for line in text.splitlines():
                stripped = line.strip()
                if stripped.startswith("#"):
                    m = _DEFINE.match(stripped)
                    if m and not m.group(1).endswith("_H"):
                        out.append(f"#define {m.group(1)} ...")
                    continue
                out.append(line.rstrip("\n"))
    return "\n".join(out)


def make_builder(standalone: bool = False) -> FFI:
    """The cffi builder of ``cardcore._cffi`` (paths relative to the working
    directory).

    Under setup.py the module links the engine's static library, built once
    for both bindings (``setup.py``'s ``build_clib``); ``standalone`` compiles
    the engine's sources into the module instead, with the same flags.
    """
    cflags, ldflags = SOURCES.compile_args()
    builder = FFI()
    builder.cdef(cdef_text())
    builder.set_source(
        "cardcore._cffi",
        "\n".join(f'#include "{h}"' for h in HEADERS),
        sources=SOURCES.c_sources(relative_to=os.getcwd()) if standalone else [],
        include_dirs=SOURCES.include_dirs(relative_to=os.getcwd()),
        extra_compile_args=cflags,
        extra_link_args=ldflags,
    )
    return builder


ffibuilder = make_builder()

if __name__ == "__main__":
    os.chdir(os.path.dirname(HERE))
    make_builder(standalone=True).compile(tmpdir=".", verbose="-v" in sys.argv)
