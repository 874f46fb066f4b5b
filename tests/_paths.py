"""Where things are, for the tests in every folder under ``tests/``."""

from __future__ import annotations

from pathlib import Path

#: ``tests/``.
TESTS = Path(__file__).resolve().parent
#: The repository's root.
ROOT = TESTS.parent
#: ``docs/``.
DOCS = ROOT / "docs"
#: The golden records, ``tests/records/``.
RECORDS = TESTS / "records"
