"""One version: the installed metadata, ``pycards.__version__`` and the C
engine's ``CC_VERSION_MAJOR``/``CC_VERSION_MINOR`` agree."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import cardcore
import pycards


def _public_header() -> Path:
    """``cardcore.h``: the one in ``include/`` if there is one (the public API's folder)."""
    found = sorted(Path(cardcore.__file__).parent.rglob("cardcore.h"))
    assert found, "cardcore.h not found next to the cardcore package"
    in_include = [p for p in found if p.parent.name == "include"]
    return in_include[0] if in_include else found[0]


def _engine_version(header: str) -> tuple[int, int]:
    def macro(name: str) -> int:
        m = re.search(rf"^\s*#\s*define\s+{name}\s+(\d+)\s*$", header, re.MULTILINE)
        assert m is not None, f"{name} is not defined in cardcore.h"
        return int(m.group(1))

    return macro("CC_VERSION_MAJOR"), macro("CC_VERSION_MINOR")


def _major_minor(version: str) -> tuple[int, int]:
    m = re.match(r"(\d+)\.(\d+)", version)
    assert m is not None, f"not a version: {version!r}"
    return int(m.group(1)), int(m.group(2))


def test_the_installed_metadata_is_the_package_version() -> None:
    assert importlib.metadata.version("pycards") == pycards.__version__


def test_the_engine_header_has_the_package_version() -> None:
    header = _public_header().read_text()
    assert _engine_version(header) == _major_minor(pycards.__version__)


def test_the_version_checks_can_fail() -> None:
    assert _engine_version("#define CC_VERSION_MAJOR 2\n#define CC_VERSION_MINOR 13\n") == (2, 13)
    assert _major_minor("0.1.0") != _major_minor("0.2.0")
    assert _major_minor("1.10.3.dev1") == (1, 10)
