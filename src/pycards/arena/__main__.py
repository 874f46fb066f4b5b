"""``python -m pycards.arena GAME --bots A,B``: the arena without the ``pycards`` command."""

from __future__ import annotations

import argparse

from pycards.arena._cli import add_arguments, main

if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m pycards.arena")
    add_arguments(parser)
    raise SystemExit(main(parser.parse_args()))
