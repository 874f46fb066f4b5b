"""Build the cardcore C engine and its Cython binding.

All metadata lives in pyproject.toml; this file only lists the extensions
(the C sources and flags come from ``src/cardcore/sources.py``: the engine is
compiled once, as a static library linked into both bindings) and reads
build switches from the environment:

* ``PYCARDS_CFFI=1``: also build the cffi API-mode binding ``cardcore._cffi``.
* ``PYCARDS_DEBUG=1``: -O0 -g, assertions on, and the benchmark guard's
  slow-path switch (``PYCARDS_SLOW_PATH``, docs/benchmarks.rst) honoured.
* ``PYCARDS_SANITIZE=address,undefined``: build with sanitizers (run with
  ``LD_PRELOAD=$(gcc -print-file-name=libasan.so)``).

A missing C compiler is an error: the build fails loudly.  Users without a
compiler install a wheel (``pip wheel . --no-deps -w DIR`` or
``python -m build`` makes one; tests/test_wheel.py installs and runs it).
"""

from __future__ import annotations

import glob
import importlib.util
import os
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
CORE = os.path.join("src", "cardcore")


def _load_sources() -> Any:
    """``src/cardcore/sources.py``, the one list of C sources and flags,
    loaded by path (nothing is built yet)."""
    spec = importlib.util.spec_from_file_location(
        "_cardcore_sources", os.path.join(HERE, CORE, "sources.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOURCES = _load_sources()


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def _compiler_accepts(flag: str) -> bool:
    """True when the C compiler setuptools uses compiles a file with ``flag``."""
    import tempfile
    from distutils.ccompiler import new_compiler  # setuptools' copy (imported above)
    from distutils.sysconfig import customize_compiler

    cc = new_compiler()
    customize_compiler(cc)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "flag.c")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        try:
            cc.compile([src], output_dir=tmp, extra_postargs=[flag, "-Werror"])
        except Exception:  # any failure: the flag is not used
            return False
    return True


def compile_args() -> tuple[list[str], list[str]]:
    """The engine's flags (``sources.compile_args``) for this build's switches."""
    flags: tuple[list[str], list[str]] = SOURCES.compile_args(
        debug=_flag("PYCARDS_DEBUG"),
        sanitize=os.environ.get("PYCARDS_SANITIZE", "").strip(),
        no_interposition=_compiler_accepts("-fno-semantic-interposition"),
    )
    return flags


CFLAGS, LDFLAGS = compile_args()
INCLUDE = SOURCES.include_dirs(relative_to=HERE)

#: The engine, compiled once into a static library that both bindings link.
LIBRARY = (
    "cardcore",
    {"sources": SOURCES.c_sources(relative_to=HERE), "include_dirs": INCLUDE, "cflags": CFLAGS},
)


class BuildExt(build_ext):
    """``build_ext`` that builds the engine's static library first (also for
    ``build_ext --inplace`` and editable installs, which skip ``build_clib``)."""

    def run(self) -> None:
        self.run_command("build_clib")
        super().run()


def extensions() -> list[Extension]:
    from Cython.Build import cythonize

    # every engine file: an in-place rebuild relinks _core when one changes
    # (the library is rebuilt by build_clib; build_ext compares only these)
    depends = [
        os.path.relpath(p, HERE).replace(os.sep, "/")
        for pattern in ("**/*.c", "**/*.h", "pxi/*.pxi")
        for p in glob.glob(os.path.join(HERE, CORE, pattern), recursive=True)
        if not os.path.basename(p).startswith("_")
    ]
    core = Extension(
        "cardcore._core",
        sources=[f"{CORE}/_core.pyx"],
        depends=sorted(depends),
        include_dirs=INCLUDE,
        extra_compile_args=CFLAGS,
        extra_link_args=LDFLAGS,
    )
    exts = cythonize(
        [core],
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "embedsignature": True,
        },
    )
    return list(exts)


def cffi_modules() -> list[str]:
    return [f"{CORE}/_cffi_build.py:ffibuilder"] if _flag("PYCARDS_CFFI") else []


setup(
    libraries=[LIBRARY],
    cmdclass={"build_ext": BuildExt},
    ext_modules=extensions(),
    cffi_modules=cffi_modules(),
)
