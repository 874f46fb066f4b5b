"""The benchmarks compare against the plain-Python reference oracle in ``tests/reference``."""

import _oracle_path  # noqa: F401
