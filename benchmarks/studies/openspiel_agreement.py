"""The agreement run of a card game against OpenSpiel's C++ implementation:
``N`` seeded random deals, both sides walked by one seeded random policy,
the seat to move and the legal moves compared at every step and the returns
at the end (``tests/reference/openspiel_cards.py`` has the mapping, the
rules of OpenSpiel's games and the driver protocol).

The side under test is a driver named ``module:factory`` (``--driver``): the
factory is called with the game's name and its parameters and returns an
object with ``start``, ``to_move``, ``legal_moves``, ``apply`` and
``returns`` (:class:`reference.openspiel_cards.Driver`).  Without
``--driver`` the run checks OpenSpiel against itself (a smoke test of the
harness, and its speed).

Usage: ``python benchmarks/studies/openspiel_agreement.py --game hearts
[--deals 10000] [--seed 0] [--param name=value ...] [--driver module:factory]``.
It prints the deals agreed, the time, and the first disagreement if any
(exit status 1).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from typing import Any

import _here  # noqa: F401
from reference.openspiel_cards import GAMES, OpenSpielDriver, compare, random_deal


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def main(argv: list[str] | None = None) -> int:
    """Run the agreement loop; 0 when every deal agrees, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, required=True)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--driver", default="", metavar="MODULE:FACTORY")
    args = parser.parse_args(argv)
    params = {k: _value(v) for k, v in (p.split("=", 1) for p in args.param)}
    if args.driver:
        module, factory = args.driver.split(":")
        driver = getattr(importlib.import_module(module), factory)(args.game, params)
    else:
        driver = OpenSpielDriver(args.game, params)
    deals = (random_deal(args.game, params, args.seed * 1_000_003 + i) for i in range(args.deals))
    start = time.perf_counter()
    found = compare(driver, args.game, deals, params, seed=args.seed)
    seconds = time.perf_counter() - start
    agreed = args.deals if found is None else found.deal_index
    print(f"{args.game} {params}: {agreed}/{args.deals} deals agree ({seconds:.1f} s)")
    if found is not None:
        print(found)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
