"""The old import paths of the modules that moved (``pycards._moved``) warn
and give the new module itself, for one release; so do the record methods
that moved to :mod:`pycards.record`."""

from __future__ import annotations

import importlib
import importlib.util
import json
import subprocess
import sys
import warnings

import pytest

from pycards._moved import MOVED
from pycards.game import State, game_names, load_game
from pycards.record import read_record, write_record

_PROBE = """
import importlib, json, sys, warnings
old, new = sys.argv[1], sys.argv[2]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    module = importlib.import_module(old)
target = importlib.import_module(new)
names = sorted(getattr(target, "__all__", []))
print(json.dumps({
    "warnings": [(w.category.__name__, str(w.message)) for w in caught],
    "same": module is target,
    "names": all(getattr(module, n) is getattr(target, n) for n in names),
    "count": len(names),
}))
"""


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_warns_and_is_the_new_module(old: str) -> None:
    new = MOVED[old]
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, old, new], capture_output=True, text=True, check=True
    )
    found = json.loads(out.stdout)
    ours = [m for kind, m in found["warnings"] if kind == "DeprecationWarning" and old in m]
    assert len(ours) == 1 and f"import {new} instead" in ours[0], found["warnings"]
    assert found["names"] and found["count"] > 0
    if old != "pycards.web":  # a package: its submodules are the new ones
        assert found["same"]


def test_every_moved_module_exists_at_its_new_path() -> None:
    for new in MOVED.values():
        assert importlib.util.find_spec(new) is not None, new


def test_the_record_methods_warn_and_still_work() -> None:
    state = load_game(game_names()[0]).new_initial_state(seed=3)
    state.apply(state.legal_actions()[0])
    with pytest.warns(DeprecationWarning, match="pycards.record.write_record"):
        text = state.to_record()
    assert text == write_record(state)
    with pytest.warns(DeprecationWarning, match="pycards.record.read_record"):
        again = State.from_record(text)
    assert again.history == read_record(text).history == state.history
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert json.loads(again.to_json()) == json.loads(state.to_json())
