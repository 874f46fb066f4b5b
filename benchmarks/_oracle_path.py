"""Importing this puts ``tests/`` on ``sys.path``, where the plain-Python reference
oracle (``reference``) lives: the compare scripts measure the engine against it."""

import pathlib
import sys

_TESTS = str(pathlib.Path(__file__).resolve().parent.parent / "tests")
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
