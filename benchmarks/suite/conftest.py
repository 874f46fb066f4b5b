"""The benchmarks compare against the plain-Python reference oracle in
``tests/reference`` and share modules of ``benchmarks/``: both go on
``sys.path`` (``_here``)."""

import _here  # noqa: F401
