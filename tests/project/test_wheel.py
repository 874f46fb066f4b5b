"""A user without a C compiler installs a wheel: build one, install it, run the quickstart.

The wheel is built from a copy of the repository's files (tracked and new, no
build products) with ``pip wheel --no-deps``, in pip's isolated build
environment as a user's build would be, then installed into a fresh venv
(numpy comes from the package index).  The README and quickstart examples run
as doctests with the venv's interpreter from a directory outside the
repository, so nothing of the source tree can stand in for the installed
package.

Slow (a full build and a venv; it needs the package index): deselected by
default, run with ``python -m pytest -m wheel tests/project/test_wheel.py``.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import textwrap
import zipfile

import _paths
import pytest

pytestmark = pytest.mark.wheel

ROOT = _paths.ROOT
DOCS = [ROOT / "README.md", ROOT / "docs" / "quickstart.rst"]
IGNORED = shutil.ignore_patterns(
    ".git", "build", "dist", "*.egg-info", "__pycache__", "*.so", "*.pyd", "*.o",
    "_core.c", "_cffi*.c", ".hypothesis", ".benchmarks", ".*_cache", "_build", ".venv",
)  # fmt: skip

RUN_DOCTESTS = textwrap.dedent(
    """
    import doctest, pathlib, sys
    import cardcore._core, pycards
    for mod in (pycards, cardcore._core):
        where = pathlib.Path(mod.__file__).resolve()
        assert pathlib.Path(sys.prefix).resolve() in where.parents, f"{mod.__name__}: {where}"
    total = 0
    for path in sys.argv[1:]:
        text = pathlib.Path(path).read_text(encoding="utf-8")
        text = text.replace("```python\\n", "").replace("```", "")
        test = doctest.DocTestParser().get_doctest(text, {}, path, path, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert test.examples, f"{path} has no examples"
        assert runner.failures == 0, f"{path}: {runner.failures} failures"
        total += len(test.examples)
    print(f"doctests ok: {total} examples")
    """
)


def _clean_env() -> dict[str, str]:
    """The environment without what could point the child at the source tree."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"}
        and not k.startswith("PYCARDS_")
    }
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(args: list[str | pathlib.Path], cwd: pathlib.Path) -> str:
    proc = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=_clean_env(), capture_output=True, text=True
    )
    assert proc.returncode == 0, (
        f"{' '.join(map(str, args))} failed ({proc.returncode}):\n"
        f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    )
    return proc.stdout


def _copy_sources(dest: pathlib.Path) -> None:
    """The repository's files without build products (as a fresh checkout has them)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True,
        ).stdout.decode().split("\0")  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT, dest, ignore=IGNORED)
        return
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    _copy_sources(src)
    out = tmp / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, src], cwd=tmp)
    wheels = list(out.glob("pycards-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_contents(wheel: pathlib.Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    files = {n for n in names if not n.endswith("/")}
    for required in (
        "cardcore/include/cardcore.h",
        "cardcore/include/cc_combos.h",
        "cardcore/_cardcore.pxd",
        "cardcore/_core.pyi",
        "cardcore/py.typed",
        "pycards/py.typed",
        "pycards/__init__.py",
    ):
        assert required in files, f"the wheel lacks {required}"
    headers = {p.name for p in (ROOT / "src" / "cardcore" / "include").glob("*.h")}
    shipped = {n for n in files if n.endswith(".h")}
    # exactly the public headers ship: no private header (core/, games/)
    assert shipped == {f"cardcore/include/{h}" for h in headers}, shipped
    compiled = [n for n in files if n.startswith("cardcore/_core.") and n.endswith((".so", ".pyd"))]
    assert len(compiled) == 1, f"compiled engine: {compiled}"
    sources = sorted(n for n in files if n.endswith((".c", ".pyx", ".pxi", ".o")))
    assert not sources, f"the wheel ships sources or objects: {sources}"
    tops = {n.split("/")[0] for n in files}
    assert not {"tests", "reference", "benchmarks", "docs"} & tops, tops
    metadata = next(n for n in files if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "Requires-Dist: numpy" in text


def test_fresh_venv_runs_the_quickstart(
    wheel: pathlib.Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tmp = tmp_path_factory.mktemp("venv")
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", venv], cwd=tmp)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    _run([python, "-m", "pip", "install", "-q", wheel], cwd=tmp)
    work = tmp / "elsewhere"  # outside the repository: no source tree on sys.path
    work.mkdir()
    script = work / "run_doctests.py"
    script.write_text(RUN_DOCTESTS, encoding="utf-8")
    out = _run([python, script, *DOCS], cwd=work)
    assert "doctests ok" in out
    out = _run([bindir / "pycards", "--hands", "2000"], cwd=work)
    assert "2,000 random" in out
