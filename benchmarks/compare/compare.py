"""Run every ``compare_*.py`` script: the engine's throughput, with ratios against
the pure-Python reference (the test oracle in ``tests/reference``) and against
peers (OpenSpiel) measured in the same run.

Usage: ``python benchmarks/compare/compare.py [--quick]``.
"""

from __future__ import annotations

import pathlib
import runpy
import sys

HERE = pathlib.Path(__file__).resolve().parent


def main() -> int:
    for script in sorted(HERE.glob("compare_*.py")):
        print(f"\n===== {script.name} =====", flush=True)
        sys.argv = [str(script), *sys.argv[1:]]
        try:
            runpy.run_path(str(script), run_name="__main__")
        except SystemExit as exc:  # a script's own `raise SystemExit(main())`
            if exc.code not in (None, 0):
                raise
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
