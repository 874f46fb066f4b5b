"""The arena's command line on No Takers?: ``--rules`` by preset and by JSON."""

from __future__ import annotations

import pytest
from arena.test_arena import cli

from pycards.arena import main


def test_cli_rules(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["notakers", "--bots", "random,random", "--games", "2"]
    assert main(cli(*args, "--rules", "capped")) == 0
    assert "rules {" in capsys.readouterr().out
    assert main(cli(*args, "--rules", '{"max_turns": 30}')) == 0
    assert "'max_turns': 30" in capsys.readouterr().out
    assert main(cli(*args, "--rules", "nope")) == 2
    assert "no preset 'nope'" in capsys.readouterr().err
    assert main(cli(*args, "--rules", '{"max_turns": "x"}')) == 2
    assert "max_turns" in capsys.readouterr().err
    assert main(cli(*args, "--rules", "{oops")) == 2
    assert "not a JSON object" in capsys.readouterr().err
