"""Backend selection: the C core (default), its cffi binding, or the pure-Python reference.

Set ``PYCARDS_BACKEND`` to ``c``, ``cffi`` or ``python`` before importing pycards.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

__all__ = ["BACKEND", "B"]


def _load() -> tuple[str, ModuleType]:
    name = os.environ.get("PYCARDS_BACKEND", "").strip().lower()
    if name in ("", "c"):
        try:
            from cardcore import _core
        except ImportError:
            if name == "c":
                raise
            from pycards import _reference

            return "python", _reference
        return "c", _core
    if name == "cffi":
        from pycards import _cffi_backend

        return "cffi", _cffi_backend
    if name in ("python", "reference", "py"):
        from pycards import _reference

        return "python", _reference
    raise ImportError(f"PYCARDS_BACKEND={name!r}: expected 'c', 'cffi' or 'python'")


BACKEND: str
_module: ModuleType
BACKEND, _module = _load()
B: Any = _module
