"""The console examples of docs/cli.rst run as tests: each ``$ pycards ...`` is
run and its output compared (``...`` matches anything; text typed at ``your
move>`` is fed to standard input).  The ``>>>`` examples of every page run in
tests/project/test_doctests.py."""

from __future__ import annotations

import doctest
import io
import re
import shlex

import _paths
import pytest

from pycards.ui.cli import main

DOCS = _paths.DOCS


def console_examples(text: str) -> list[tuple[str, str]]:
    """(command, expected output) of each console block's ``$`` commands."""
    examples = []
    for block in re.findall(r"\.\. code-block:: console\n\n((?:    .*\n|\n)+)", text):
        lines = [line[4:] for line in block.rstrip("\n").split("\n")]
        command: str | None = None
        out: list[str] = []
        for line in [*lines, "$ "]:
            if line.startswith("$ "):
                if command is not None:
                    examples.append((command, "\n".join(out).rstrip("\n") + "\n"))
                command, out = line[2:], []
            else:
                out.append(line)
    return [(c, o) for c, o in examples if c]


def test_cli_page_console_examples(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rich")  # the page shows the table as drawn with the cli extra
    monkeypatch.setenv("COLUMNS", "80")
    examples = console_examples((DOCS / "cli.rst").read_text(encoding="utf-8"))
    assert len(examples) >= 6
    checker = doctest.OutputChecker()
    for command, expected in examples:
        argv = shlex.split(command)
        assert argv[0] == "pycards"
        typed = re.findall(r"^your move> (.*)$", expected, re.M)
        monkeypatch.setattr("sys.stdin", io.StringIO("".join(t + "\n" for t in typed)))
        expected = re.sub(r"^your move> .*\n", "your move> ", expected, flags=re.M)
        status = main(argv[1:])
        got = capsys.readouterr().out
        assert status == 0, command
        assert checker.check_output(expected, got, doctest.ELLIPSIS), (
            f"$ {command}\n--- expected\n{expected}--- got\n{got}"
        )
