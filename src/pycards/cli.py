"""The ``pycards`` command line: the main job on built-in defaults.

``pycards`` scores a batch of random five-card hands with the C batch API and
prints a breakdown (fifteens, pairs, runs, flushes: the cribbage-family counts)
and the throughput.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np

from cardcore import _core
from pycards import batch
from pycards.errors import RulesError
from pycards.game import game_names, load_game

__all__ = ["main"]


def _score_batch(args: argparse.Namespace) -> int:
    n, k = args.hands, args.cards
    hands = batch.random_hands(n, k, seed=args.seed)
    t0 = time.perf_counter()
    stats = batch.hand_stats(hands, target=args.target)
    elapsed = time.perf_counter() - t0
    fifteens, pairs, runs, suits = stats
    flush = suits.max(axis=1) >= min(4, k)
    points = 2 * fifteens + 2 * pairs + runs
    print(f"pycards: {n:,} random {k}-card hands (seed {args.seed})")
    print(f"  {'':22}{'mean':>10}{'max':>8}{'hands with any':>18}")
    for label, values in (
        (f"fifteens (to {args.target})", fifteens),
        ("pairs", pairs),
        ("run points", runs),
    ):
        print(
            f"  {label:22}{values.mean():10.4f}{int(values.max()):8d}"
            f"{np.count_nonzero(values) / n:17.2%}"
        )
    print(f"  {'flush (4+ one suit)':22}{flush.mean():10.4f}{'':8}{flush.mean():17.2%}")
    print(
        f"  {'points':22}{points.mean():10.4f}{int(points.max()):8d}"
        "   (2 per fifteen, 2 per pair, runs)"
    )
    hist = np.bincount(points)
    top = np.argsort(hist)[::-1][:5]
    print("  most common totals: " + ", ".join(f"{t} ({hist[t] / n:.1%})" for t in sorted(top)))
    rate = n / elapsed if elapsed > 0 else float("inf")
    print(
        f"throughput: {rate / 1e6:.1f} M hands/s (fifteens+pairs+runs+suit counts, "
        f"{elapsed * 1e3:.1f} ms)"
    )
    return 0


def _playouts(args: argparse.Namespace) -> int:
    game = load_game(args.game, num_players=args.players)
    t0 = time.perf_counter()
    steps, points = _core.random_playouts(
        args.game, game.params, args.players, args.seed, args.games
    )
    elapsed = time.perf_counter() - t0
    print(
        f"pycards: {args.games:,} random games of {args.game} for {args.players} players "
        f"(seed {args.seed}, native loop)"
    )
    print(f"  actions: {steps:,} ({steps / args.games:.1f} per game)")
    print("  mean points per seat: " + ", ".join(f"{p / args.games:.2f}" for p in points))
    rate = steps / elapsed if elapsed > 0 else float("inf")
    print(f"throughput: {rate / 1e6:.2f} M actions/s, {args.games / elapsed:,.0f} games/s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pycards`` command.

    ``pycards [--hands N ...]`` scores random hands (the default job);
    ``pycards playouts GAME [--players N --games N]`` plays random games natively.
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "playouts":
        parser = argparse.ArgumentParser(
            prog="pycards playouts", description="Play random games natively in C."
        )
        parser.add_argument("game", choices=game_names(), help="the game")
        parser.add_argument("--players", type=int, default=None, help="number of players")
        parser.add_argument("--games", type=int, default=10_000, help="games to play")
        parser.add_argument("--seed", type=int, default=2026, help="seed of the first game")
        args = parser.parse_args(args_list[1:])
        if args.players is None:
            args.players = _core.game_info(args.game)["min_players"]
        if args.games <= 0:
            parser.error("--games must be positive")
        try:
            return _playouts(args)
        except (ValueError, RulesError) as exc:
            parser.error(str(exc))
    parser = argparse.ArgumentParser(
        prog="pycards",
        description=__doc__.splitlines()[0],
        epilog="Also: pycards playouts GAME [--players N] [--games N] [--seed N]",
    )
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands to score")
    parser.add_argument("--cards", type=int, default=5, help="cards per hand (0..52)")
    parser.add_argument("--target", type=int, default=15, help="fifteens target (1..340)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random hands")
    args = parser.parse_args(args_list)
    if args.hands <= 0 or not 0 <= args.cards <= 52:
        parser.error("--hands must be positive and --cards 0..52")
    return _score_batch(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
