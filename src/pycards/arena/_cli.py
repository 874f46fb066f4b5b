"""``pycards arena GAME --bots A,B,... --games N``: the arena's command line."""

from __future__ import annotations

import argparse
import os
import sys

from pycards.arena._match import Match
from pycards.arena._results import MatchResult
from pycards.arena._run import require_dask
from pycards.errors import PycardsError, StalledGameError
from pycards.game import parse_rules

__all__ = ["add_arguments", "main"]

_EPILOG = """\
examples:
  pycards arena nodde --bots heuristic,random --games 1000
  pycards arena nancy --bots ismcts,heuristic --players 4 --games 400 --workers 2
  pycards arena notakers --bots ismcts,heuristic,random --scheduler tcp://10.0.0.5:8786
  pycards arena nodde --bots mybots:MyBot,heuristic   (MyBot in ./mybots.py)

a bot is a built-in bot's spec (random, heuristic, ismcts:simulations=1000...)
or a class or factory by import path, module:attribute[:key=value...]: the
module is looked up on the Python path, then in the current directory, and
the class is called with seed= and the options as keywords.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arena's arguments to ``parser`` (the ``pycards arena`` subcommand)."""
    parser.description = (
        "Play a match between bots (duplicate deals, seats rotated) and print each bot's "
        "mean return, margin, win rate (95% confidence intervals), Bradley-Terry rating, "
        "failures and time per move."
    )
    parser.epilog = _EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("game", help="the game (pycards games lists them)")
    parser.add_argument(
        "--bots",
        required=True,
        help="comma-separated bot specs, e.g. ismcts,heuristic,random or "
        "'ismcts:simulations=1000,heuristic' (see pycards.bots.make_bot), or your own "
        "bot by import path, module:Class (looked up in the current directory too)",
    )
    parser.add_argument(
        "--games", type=int, default=100, help="games to play (rounded up to whole deal groups)"
    )
    parser.add_argument(
        "--players", type=int, default=None, help="players (default: the number of bots)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the match seed (default 0)")
    parser.add_argument(
        "--rules",
        default=None,
        metavar="PRESET|JSON",
        help="the rules: a preset of the game (e.g. capped) or a JSON object of rules "
        "fields, e.g. '{\"max_turns\": 400}' (default: the game's defaults)",
    )
    parser.add_argument(
        "--max-actions",
        type=int,
        default=None,
        metavar="N",
        help="stop with an error a game still going after N actions (default: 20 times "
        "the game's longest of 16 random games, at least 10,000)",
    )
    parser.add_argument(
        "--no-duplicate",
        dest="duplicate",
        action="store_false",
        help="a new deal for every game instead of replaying each deal in every seating",
    )
    parser.add_argument(
        "--move-time",
        type=float,
        default=None,
        metavar="SECONDS",
        help="time budget per move; a slower move loses the game",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=int,
        default=None,
        help="run on a Dask LocalCluster of N worker processes (extra: dask)",
    )
    where.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run on a running Dask cluster, e.g. tcp://10.0.0.5:8786 (extra: dask)",
    )
    parser.add_argument(
        "--chunk-size", type=int, default=None, help="games per Dask task (default: automatic)"
    )
    parser.add_argument("--csv", default=None, metavar="FILE", help="write the table as CSV")
    parser.add_argument(
        "--json", default=None, metavar="FILE", help="write the results and every game as JSON"
    )
    parser.add_argument(
        "--plot", default=None, metavar="FILE", help="plot rating and margins (extra: plot)"
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar (default: when stderr is a terminal; extra: arena)",
    )


def main(args: argparse.Namespace) -> int:
    """Run the match described by ``args`` (from :func:`add_arguments`).

    Returns 0; 2 for bad arguments (an unknown game, bot or player count, a
    missing extra, an output file that cannot be written: all checked before
    any game; an unreachable scheduler); 1 if a game had no end in sight
    (:class:`~pycards.errors.StalledGameError`, after ``--max-actions``) or an
    output could not be written after all (the others are still written); or
    130 if the match was interrupted (the finished games are still reported
    and written).
    """
    try:
        match = Match(
            args.game,
            args.bots,
            args.games,
            players=args.players,
            seed=args.seed,
            duplicate=args.duplicate,
            move_time=args.move_time,
            rules=None if args.rules is None else parse_rules(args.game, args.rules, "--rules"),
            max_actions=args.max_actions,
        )
        if args.workers is not None or args.scheduler is not None:
            require_dask()
        if args.plot is not None:
            _require_matplotlib()
        for flag in ("csv", "json", "plot"):
            _check_output(f"--{flag}", getattr(args, flag))
    except (ValueError, TypeError, ImportError, OSError, PycardsError) as exc:
        print(f"pycards arena: error: {exc}", file=sys.stderr)
        return 2
    try:
        result = match.run(
            workers=args.workers,
            scheduler=args.scheduler,
            progress=args.progress,
            chunk_size=args.chunk_size,
        )
    except StalledGameError as exc:
        print(f"pycards arena: error: {exc}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, ImportError, OSError, PycardsError) as exc:
        print(f"pycards arena: error: {exc}", file=sys.stderr)
        return 2
    _print_table(result)
    status = 0
    for flag, path, write in (
        ("--csv", args.csv, result.write_csv),
        ("--json", args.json, result.write_json),
        ("--plot", args.plot, result.plot),
    ):
        if not path:
            continue
        try:
            write(path)
        except OSError as exc:
            print(f"pycards arena: error: {flag}: cannot write {path!r}: {exc}", file=sys.stderr)
            status = 1
    if result.interrupted:
        print(
            f"interrupted: {result.games_played} of {match.total_games} games finished",
            file=sys.stderr,
        )
        return 130
    return status


def _check_output(flag: str, path: str | None) -> None:
    """Raise :class:`OSError` naming ``flag`` if ``path`` cannot be written
    (a missing or read-only folder, a folder in its place); create nothing."""
    if not path:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise OSError(f"{flag}: {path!r} is a folder")
    if not os.path.isdir(folder):
        raise OSError(f"{flag}: cannot write {path!r}: no folder {folder!r}")
    if os.path.exists(path):
        if not os.access(path, os.W_OK):
            raise OSError(f"{flag}: cannot write {path!r}: permission denied")
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise OSError(f"{flag}: cannot write {path!r}: folder {folder!r} is not writable")


def _require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ImportError("--plot needs matplotlib: pip install 'pycards[plot]'") from None


def _print_table(result: MatchResult) -> None:
    if sys.stdout.isatty():
        try:
            from rich.console import Console
            from rich.table import Table
        except ImportError:
            pass
        else:
            rows = result.rows()
            table = Table(title=result.header())
            for i, h in enumerate(rows[0]):
                table.add_column(h, justify="left" if i == 0 else "right")
            for r in rows[1:]:
                table.add_row(*r)
            table.caption = (
                "± is the 95% CI half-width; rating: Bradley-Terry, Elo scale; "
                f"{result.wall_seconds:.1f} s"
            )
            Console().print(table)
            return
    print(result.table())
