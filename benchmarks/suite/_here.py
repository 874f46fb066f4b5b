"""Importing this puts ``benchmarks/`` (the shared timing and search-position
modules) and ``tests/`` (the reference oracle, the registry of games) on
``sys.path``, for the scripts of this folder."""

import pathlib
import sys

_ROOT = pathlib.Path(__file__).resolve().parents[2]
for _path in (_ROOT / "tests", _ROOT / "benchmarks"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
