"""Build ``cardcore._cffi``: an API-mode cffi binding of the cardcore headers.

Used by setup.py when ``PYCARDS_CFFI=1`` (``cffi_modules``), or directly:
``python src/cardcore/_cffi_build.py`` builds the module in place next to
this file.  The cdef is read from the public headers themselves, so the
binding never drifts from the C API: preprocessor lines are dropped and
integer constants become ``#define NAME ...`` (their values come from the
compiler).
"""

from __future__ import annotations

import glob
import os
import re

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
HEADERS = ["cardcore.h", *sorted(
    os.path.basename(p) for p in glob.glob(os.path.join(HERE, "cc_*.h"))
    if os.path.basename(p) != "cc_internal.h"
)]
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_DEFINE = re.compile(r"^#define\s+(CC_\w+)\s+\S+.*$")


def cdef_text() -> str:
    """The declarations of every public header, as cffi's cdef() accepts them."""
    out = []
    for name in HEADERS:
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
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


def sources() -> list[str]:
    rel = os.path.relpath(HERE, os.getcwd())
    return sorted(
        os.path.join(rel, os.path.basename(p))
        for p in glob.glob(os.path.join(HERE, "*.c"))
        if not os.path.basename(p).startswith("_")
    )


def make_builder() -> FFI:
    """The cffi builder of ``cardcore._cffi`` (paths relative to the working directory)."""
    builder = FFI()
    builder.cdef(cdef_text())
    builder.set_source(
        "cardcore._cffi",
        "\n".join(f'#include "{h}"' for h in HEADERS),
        sources=sources(),
        include_dirs=[os.path.relpath(HERE, os.getcwd())],
        extra_compile_args=["-std=c11", "-O3"],
    )
    return builder


ffibuilder = make_builder()

if __name__ == "__main__":
    os.chdir(os.path.dirname(HERE))
    make_builder().compile(tmpdir=".", verbose=False)
