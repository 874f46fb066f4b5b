"""Build the cardcore C engine and its Cython binding.

All metadata lives in pyproject.toml; this file only lists the extensions
and reads build switches from the environment:

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
import os
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
CORE = os.path.join("src", "cardcore")


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


def c_sources() -> list[str]:
    return sorted(
        os.path.relpath(p, HERE).replace(os.sep, "/")
        for p in glob.glob(os.path.join(HERE, CORE, "*.c"))
        if not os.path.basename(p).startswith("_")
    )


def compile_args() -> tuple[list[str], list[str]]:
    if sys.platform == "win32":
        return ["/O2"], []
    cflags = ["-std=c11", "-O3", "-Wall", "-Wextra", "-Wno-unused-function"]
    ldflags: list[str] = []
    # -fPIC alone lets another library interpose any global function, which
    # stops the compiler from inlining the engine's small global functions
    # (cc_rng_next into cc_rng_below, ...) within their file; nothing here is
    # meant to be interposed.
    if _compiler_accepts("-fno-semantic-interposition"):
        cflags.append("-fno-semantic-interposition")
    # the vector environment (vecenv.c) steps its games on POSIX threads
    cflags.append("-pthread")
    ldflags.append("-pthread")
    if _flag("PYCARDS_DEBUG"):
        cflags = [f for f in cflags if f != "-O3"] + ["-O0", "-g", "-UNDEBUG"]
        cflags.append("-DCC_SLOW_SWITCH")  # the guard's slow-path switch (debug only)
    sanitize = os.environ.get("PYCARDS_SANITIZE", "").strip()
    if sanitize:
        cflags += [f"-fsanitize={sanitize}", "-fno-omit-frame-pointer", "-g"]
        ldflags += [f"-fsanitize={sanitize}"]
    return cflags, ldflags


def extensions() -> list[Extension]:
    from Cython.Build import cythonize

    cflags, ldflags = compile_args()
    core = Extension(
        "cardcore._core",
        sources=[f"{CORE}/_core.pyx", *c_sources()],
        include_dirs=[CORE],
        extra_compile_args=cflags,
        extra_link_args=ldflags,
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


setup(ext_modules=extensions(), cffi_modules=cffi_modules())
