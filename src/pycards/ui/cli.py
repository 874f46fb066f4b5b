"""The ``pycards`` command: score hands, play games, read records.

See the command line page of the docs; :func:`main` is the entry point and
:func:`build_parser` the argument parser.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import numpy.typing as npt

from pycards import batch
from pycards._version import __version__
from pycards.bots import bot_names, make_bot
from pycards.define import load_description
from pycards.engine import find_game, game_info, offered_games, registered_games
from pycards.errors import IllegalActionError, PycardsError, RecordError, RulesError
from pycards.game import (
    Game,
    HandQuery,
    Rules,
    State,
    game_names,
    has_score_distribution,
    load_game,
    parse_rules,
)
from pycards.learn import Settings, plot_curve, train
from pycards.playouts import random_playouts
from pycards.record import parse_record, replay, write_record
from pycards.ui.terminal import play

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

__all__ = ["main"]

#: The subcommands' parsers (``add_subparsers()``'s action).
_Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

_M64 = (1 << 64) - 1
_SUBPARSERS: dict[str, argparse.ArgumentParser] = {}

# The help is plain text (no reST): what "pycards --help" prints after the usage.
_DESCRIPTION = "The pycards command: score hands, play games, read records."
# The subcommands are listed once, by argparse, from their help.
_EPILOG = """'pycards SUBCOMMAND --help' explains each subcommand.  With none, pycards
scores hands: 'pycards --hands N' is 'pycards score --hands N'.
"""


# ---------------------------------------------------------------------------
# helpers


def _int_in(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: an int in lo..hi (hi None: no upper bound)."""

    def parse(text: str) -> int:
        try:
            value = int(text.replace("_", ""), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < lo or (hi is not None and value > hi):
            span = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
            raise argparse.ArgumentTypeError(f"must be {span}, got {value}")
        return value

    parse.__name__ = "int"
    return parse


class _Progress:
    """A rich progress bar on standard error for runs longer than about a
    second; nothing when standard error is not a terminal or rich is missing."""

    def __init__(self, total: int, label: str) -> None:
        self.total = total
        self.label = label
        self.t0 = time.perf_counter()
        self.bar: Progress | None = None
        self.task: TaskID | None = None
        self.enabled = (
            total > 0 and sys.stderr.isatty() and not os.environ.get("PYCARDS_NO_PROGRESS")
        )
        if self.enabled:
            try:
                import rich.progress  # noqa: F401
            except ImportError:  # pragma: no cover - the cli extra is not installed
                self.enabled = False

    def __call__(self, done: int) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            elapsed = time.perf_counter() - self.t0
            if done <= 0 or done >= self.total or elapsed < 0.25:
                return
            if elapsed / done * self.total < 1.0:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn(self.label),
                BarColumn(),
                TextColumn("{task.percentage:>3.0f}%"),
                TimeRemainingColumn(),
                console=Console(file=sys.stderr),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=self.total)
        if self.task is not None:  # set with the bar
            self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _game_from_args(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> Game[Rules, object]:
    find_game(args.game)  # a defined game offered by name registers here
    info = game_info(args.game)
    players = args.players if args.players is not None else info.min_players
    if not info.min_players <= players <= info.max_players:
        parser.error(
            f"--players: {args.game} is for {info.min_players} to {info.max_players} "
            f"players, got {players}"
        )
    try:
        rules = None if args.rules is None else parse_rules(args.game, args.rules, "--rules")
        return load_game(args.game, rules, players)
    except RulesError as exc:
        parser.error(str(exc))


def _add_game_args(
    p: argparse.ArgumentParser, players: bool = True, games: Sequence[str] | None = None
) -> None:
    known = sorted({*game_names(), *offered_games()}) if games is None else games
    p.add_argument("game", choices=known, help="the game")
    if players:
        # any count here: the game's own range is checked once the game is known
        _add_int(p, "--players", 1, None, None, "number of players (default: the game's fewest)")
    p.add_argument(
        "--rules",
        metavar="PRESET|JSON",
        default=None,
        help="a rules preset (see pycards games) or a JSON object of rules fields, e.g. "
        "'{\"max_turns\": 400}'; default: the default rules",
    )


def _subcommand(
    sub: _Subparsers,
    name: str,
    run: Callable[[argparse.Namespace], int],
    help: str,
    description: str,
    *,
    game: bool = False,
    players: bool = True,
    games: Sequence[str] | None = None,
    formatter_class: type[argparse.HelpFormatter] = argparse.HelpFormatter,
) -> argparse.ArgumentParser:
    """Add subcommand ``name`` running ``run``; with ``game``, its game
    arguments (one of ``games``, default every game; with ``--players`` unless
    ``players`` is false), and the game is made from them before ``run``.
    ``formatter_class`` goes to ``add_parser``."""
    p: argparse.ArgumentParser = sub.add_parser(
        name, help=help, description=description, formatter_class=formatter_class
    )
    p.set_defaults(run=run)
    if game:
        _add_game_args(p, players, games)
        p.set_defaults(needs_game=True, **({} if players else {"players": None}))
    return p


def _add_int(
    p: argparse.ArgumentParser, flag: str, lo: int, hi: int | None, default: int | None, help: str
) -> None:
    """Add option ``flag``: an int in ``lo..hi`` (see :func:`_int_in`)."""
    p.add_argument(flag, type=_int_in(lo, hi), default=default, help=help)


# ---------------------------------------------------------------------------
# score


def _score(args: argparse.Namespace) -> int:
    n, k, threads = args.hands, args.cards, args.threads
    hands = batch.random_hands(n, k, seed=args.seed)
    chunk = 1 << 20
    # one set of output arrays for every batch (fresh arrays would be fresh
    # pages, faulted in at first touch: several times the kernel's own time)
    buf = batch.new_hand_stats(min(n, chunk))
    progress = _Progress(n, "scoring hands")
    sums = np.zeros(3, dtype=np.float64)
    maxes = np.zeros(3, dtype=np.int64)
    nonzero = np.zeros(3, dtype=np.int64)
    flushes = 0
    hist = np.zeros(1, dtype=np.int64)
    try:
        for start in range(0, n, chunk):
            part = hands[start : start + chunk]
            out = buf.head(len(part))
            fifteens, pairs, runs, suits = batch.hand_stats(
                part, target=args.target, out=out, threads=threads
            )
            columns: tuple[npt.NDArray[np.int64] | npt.NDArray[np.int32], ...] = (
                fifteens,
                pairs,
                runs,
            )
            for i, values in enumerate(columns):
                sums[i] += float(values.sum())
                maxes[i] = max(int(maxes[i]), int(values.max()))
                nonzero[i] += int(np.count_nonzero(values))
            flushes += int(np.count_nonzero(suits.max(axis=1) >= 4))
            points = 2 * fifteens.astype(np.int64) + 2 * pairs + runs
            h = np.bincount(points)
            if len(h) > len(hist):
                hist = np.pad(hist, (0, len(h) - len(hist)))
            hist[: len(h)] += h
            progress(start + len(part))
    finally:
        progress.close()
    print(f"pycards: {n:,} random {k}-card hands (seed {args.seed})")
    print(f"  {'':22}{'mean':>10}{'max':>8}{'hands with any':>18}")
    for i, label in enumerate((f"fifteens (to {args.target})", "pairs", "run points")):
        print(f"  {label:22}{sums[i] / n:10.4f}{int(maxes[i]):8d}{nonzero[i] / n:17.2%}")
    share = flushes / n
    print(f"  {'flush (4+ one suit)':22}{share:10.4f}{'':8}{share:17.2%}")
    totals = np.arange(len(hist))
    print(
        f"  {'points':22}{float((hist * totals).sum()) / n:10.4f}"
        f"{int(np.flatnonzero(hist)[-1]):8d}   (2 per fifteen, 2 per pair, runs)"
    )
    order = np.argsort(hist, kind="stable")[::-1][:5]
    top = [int(t) for t in order if hist[t] > 0]
    print("  most common totals: " + ", ".join(f"{t} ({hist[t] / n:.1%})" for t in sorted(top)))
    # throughput, two figures on up to 1M hands, each the median of 5 calls:
    # warm (one set of output arrays reused, as the loop above does) and kept
    # (a fresh output per call, every result kept: fresh pages each time)
    sample = hands[: min(n, 1 << 20)]
    out = buf.head(len(sample))
    batch.hand_stats(sample, target=args.target, out=out, threads=threads)
    warm, kept = [], []
    results = []
    for _ in range(5):
        t0 = time.perf_counter()
        batch.hand_stats(sample, target=args.target, out=out, threads=threads)
        t1 = time.perf_counter()
        results.append(batch.hand_stats(sample, target=args.target, threads=threads))
        t2 = time.perf_counter()
        warm.append(t1 - t0)
        kept.append(t2 - t1)
    del results
    used = threads or batch.default_threads()
    on = f"{used} thread{'s' if used != 1 else ''}"

    def rate(times: list[float]) -> float:
        median = statistics.median(times)
        return len(sample) / median / 1e6 if median > 0 else float("inf")

    print(
        f"throughput (warm, buffers reused): {rate(warm):.1f} M hands/s on {on} "
        f"(fifteens+pairs+runs+suit counts; median of 5 calls on {len(sample):,} hands, "
        f"{statistics.median(warm) * 1e3:.2f} ms each)"
    )
    print(
        f"throughput (kept, a fresh output per call): {rate(kept):.1f} M hands/s "
        f"(median of 5 calls, every result kept)"
    )
    return 0


def _add_score(sub: _Subparsers) -> None:
    p = _subcommand(
        sub,
        "score",
        _score,
        "score random hands with the batch API (the default)",
        "Score random hands with the C batch API: fifteens, pairs, runs and "
        "flushes (the cribbage-family counts), and the throughput.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_int(
        p, "--hands", 1, batch.MAX_RANDOM_HANDS, 1_000_000, "hands to score (default 1,000,000)"
    )
    _add_int(p, "--cards", 0, 52, 5, "cards per hand, 0..52 (default 5)")
    _add_int(p, "--target", 1, 340, 15, "the fifteens target, 1..340 (default 15)")
    _add_int(p, "--seed", 0, _M64, 2026, "seed of the random hands")
    _add_int(
        p,
        "--threads",
        0,
        256,
        1,
        "threads to score on, 0 for every core (default 1; the results are the same)",
    )


# ---------------------------------------------------------------------------
# games


def _games(args: argparse.Namespace) -> int:
    for name in game_names():
        info = game_info(name)
        game = load_game(name, num_players=info.min_players)
        presets = ", ".join(game.RULES_TYPE.PRESETS) or "-"
        print(f"{name:10} {info.min_players}-{info.max_players} players   presets: {presets}")
        if args.rules:
            for d in game.RULES_TYPE.parameters():
                default = getattr(game.RULES_TYPE(), d.name)
                print(f"    {d.name} = {default!r}: {d.doc}")
    return 0


def _add_games(sub: _Subparsers) -> None:
    p = _subcommand(
        sub,
        "games",
        _games,
        "list the games, their players and rules presets",
        "List the games, their player counts and rules presets.",
    )
    p.add_argument("--rules", action="store_true", help="also list every rule and its default")


# ---------------------------------------------------------------------------
# playouts


def _playouts(args: argparse.Namespace) -> int:
    game = args.game_obj
    progress = _Progress(args.games, "playing")
    t0 = time.perf_counter()
    try:
        result = random_playouts(game, args.games, args.seed, per_game=True, progress=progress)
    finally:
        progress.close()
    elapsed = time.perf_counter() - t0
    n = game.num_players
    print(
        f"pycards: {args.games:,} random games of {game.NAME} for {n} players "
        f"(seed {args.seed}, native loop)"
    )
    print(f"  actions: {result.actions:,} ({result.actions / args.games:.1f} per game)")
    print(f"  {'seat':6}{'win rate':>10}{'mean points':>14}")
    for k, (w, m) in enumerate(zip(result.win_rates(), result.mean_points(), strict=True)):
        print(f"  {k:<6}{w:10.2%}{m:14.2f}")
    print("  (a game won by k seats together counts 1/k for each)")
    rate = result.actions / elapsed if elapsed > 0 else float("inf")
    print(f"throughput: {rate / 1e6:.2f} M actions/s, {args.games / elapsed:,.0f} games/s")
    return 0


def _add_playouts(sub: _Subparsers) -> None:
    p = _subcommand(
        sub,
        "playouts",
        _playouts,
        "play random games in the engine",
        "Play random games in the engine (one native call per game) "
        "and report each seat's win rate, ties split, and mean points.",
        game=True,
    )
    _add_int(p, "--games", 1, 1 << 40, 10_000, "games to play (default 10,000)")
    _add_int(p, "--seed", 0, _M64, 2026, "game g is dealt from seed + g")


# ---------------------------------------------------------------------------
# distribution


def _distribution_games() -> list[str]:
    """The games with a hand score to distribute (the only ones offered)."""
    return [name for name, cls in sorted(registered_games().items()) if has_score_distribution(cls)]


def _distribution_counts(
    args: argparse.Namespace, game: Game[Rules, object]
) -> tuple[npt.NDArray[np.int64], str]:
    if not has_score_distribution(type(game)):
        known = ", ".join(_distribution_games())
        raise PycardsError(f"{game.NAME} has no hand score to distribute (try {known})")
    progress = _Progress(args.hands, "scoring hands")
    try:
        query = HandQuery(hands=args.hands, cards=args.cards, seed=args.seed, crib=args.crib)
        return game.score_distribution(query, progress)
    finally:
        progress.close()


def _distribution(args: argparse.Namespace) -> int:
    game = args.game_obj
    counts, how = _distribution_counts(args, game)
    total = int(counts.sum())
    points = np.arange(len(counts))
    mean = float((counts * points).sum()) / total
    print(f"pycards: {game.NAME} hand scores ({how})")
    print(f"  {'points':>6}{'count':>14}{'share':>9}")
    peak = int(counts.max())
    for p, c in enumerate(counts):
        if c:
            bar = "#" * max(1, round(40 * int(c) / peak))
            print(f"  {p:6d}{int(c):14,d}{int(c) / total:9.3%}  {bar}")
    print(f"  mean {mean:.4f}, max {int(np.flatnonzero(counts)[-1])}, {total:,} hands")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(8, 4))
        ax.bar(points, counts / total)
        ax.set_xlabel("points")
        ax.set_ylabel("share of hands")
        ax.set_title(f"{game.NAME} hand scores ({how.split(',')[0]})")
        fig.tight_layout()
        fig.savefig(args.plot)
        plt.close(fig)
        print(f"plot saved to {args.plot}")
    return 0


def _add_distribution(sub: _Subparsers) -> None:
    p = _subcommand(
        sub,
        "distribution",
        _distribution,
        "the exact or sampled score distribution of a game's hands",
        "The score distribution of a game's hands, for each game whose hands "
        "have a score: exact where the game counts every hand (with every "
        "turn-up or starter), else sampled from random hands.",
        game=True,
        players=False,
        games=_distribution_games(),
    )
    _add_int(
        p,
        "--hands",
        1,
        batch.MAX_RANDOM_HANDS,
        200_000,
        "hands to sample when not exact (default 200,000)",
    )
    _add_int(p, "--cards", 0, 52, 8, "cards per sampled hand (default 8)")
    _add_int(p, "--seed", 0, _M64, 2026, "seed of the sample")
    p.add_argument(
        "--crib",
        action="store_true",
        help="score the show as a crib, in a game that has one (a flush needs the "
        "starter's suit too)",
    )
    p.add_argument(
        "--plot",
        metavar="FILE",
        default=None,
        help="also draw it to FILE (png, svg, pdf; needs matplotlib, the plot extra)",
    )


# ---------------------------------------------------------------------------
# play


def _play(args: argparse.Namespace) -> int:
    record = args.record
    if record is None and not args.no_record:
        record = f"pycards-{args.game}-{args.seed}.txt"
    return play(
        args.game_obj,
        seat=args.seat,
        bots=args.bot_specs,
        seed=args.seed,
        name=args.name,
        record_path=None if args.no_record else record,
        seat_record=args.seat_record,
        hint_bot=args.hint,
    )


def _add_play(sub: _Subparsers) -> None:
    p = _subcommand(
        sub,
        "play",
        _play,
        "play a game against the built-in bots in the terminal",
        "Play a game against the built-in bots in the terminal. At the prompt "
        "type a move's number or name, or help, hint, undo, table, quit. The game's "
        "record is saved at the end (also on quit, Ctrl-C and end of input).",
        game=True,
    )
    _add_int(p, "--seat", 0, 7, 0, "your seat (default 0)")
    p.add_argument(
        "--bots",
        default=None,
        metavar="SPEC[,SPEC...]",
        help="the other seats' bots, one for all or one per seat in order "
        "(default: heuristic if built in, else random)",
    )
    _add_int(p, "--seed", 0, _M64, None, "seed of the deal (default: a random one, printed)")
    p.add_argument("--name", default="you", help="your name in the record")
    p.add_argument(
        "--hint",
        default=None,
        metavar="SPEC",
        help="the bot that answers hint (default: best, the game's strongest built in)",
    )
    p.add_argument(
        "--record",
        metavar="FILE",
        default=None,
        help="where to save the record (default pycards-GAME-SEED.txt)",
    )
    p.add_argument("--no-record", action="store_true", help="do not save a record")
    p.add_argument(
        "--seat-record",
        action="store_true",
        help="save your seat's record (only what you may know; it cannot be replayed) "
        "instead of the referee's",
    )


def _check_play(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    game = args.game_obj
    if args.seat >= game.num_players:
        parser.error(f"--seat: 0..{game.num_players - 1} for {game.num_players} players")
    if args.seed is None:
        args.seed = int.from_bytes(os.urandom(4), "little")
    default = "heuristic" if "heuristic" in bot_names() else "random"
    specs = [s.strip() for s in (args.bots or default).split(",")]
    if len(specs) == 1:
        specs *= game.num_players - 1
    if len(specs) != game.num_players - 1:
        parser.error(f"--bots: one spec, or one per other seat ({game.num_players - 1})")
    for spec in [*specs, *([args.hint] if args.hint else [])]:
        try:
            make_bot(spec)
        except (ValueError, TypeError) as exc:
            parser.error(f"--bots: {exc}")
    args.bot_specs = specs
    if "\n" in args.name or not args.name.strip():
        parser.error("--name: a one-line name")


# ---------------------------------------------------------------------------
# replay


def _replay(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        print(f"pycards replay: error: {exc}", file=sys.stderr)
        return 1
    try:
        if text.lstrip().startswith("{"):  # the JSON machine format: its text record
            text = write_record(State.from_json(text))
        record = parse_record(text)
        if args.text and not record.replayable:
            print(text, end="")
            return 0
        if not record.replayable:
            print(
                f"{record.game}, {record.players} players, seat {record.view}'s record: "
                f"{len(record.actions)} actions, result {record.result or '*'}"
            )
            print("a seat's record has no seed: it cannot be replayed")
            return 0
        steps = list(replay(text))
    except (RecordError, IllegalActionError) as exc:
        print(f"pycards replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    if args.text:
        print(text, end="")
        return 0
    view = args.seat
    if view is not None and view >= record.players:
        raise ValueError(f"--seat: 0..{record.players - 1} for this record, got {view}")
    names = [n or f"seat {k}" for k, n in enumerate(record.names)]
    print(
        f"{record.game}, {record.players} players ({', '.join(names)}), seed {record.seed}: "
        f"{len(steps) - 1} actions, record checked"
    )
    if args.steps:
        for i, (step, state) in enumerate(steps):
            if step is not None:
                print(f"{i:4d}. seat {step[0]}: {step[1]}")
            if args.tables:
                print(state.table(view))
    final = steps[-1][1]
    print(final.table(view))
    result = " ".join(str(r) for r in final.returns()) if final.is_terminal else "* (in progress)"
    print(f"result: {result}")
    return 0


def _add_replay(sub: _Subparsers) -> None:
    p = _subcommand(
        sub,
        "replay",
        _replay,
        "check a game record and show the game",
        "Check a game record (see the records page) and show "
        "the game: every action with --steps, the final table.",
    )
    p.add_argument(
        "file", help="the record file, text or the JSON of State.to_json (- for standard input)"
    )
    p.add_argument(
        "--text", action="store_true", help="print the checked text record (JSON becomes text)"
    )
    p.add_argument("--steps", action="store_true", help="list every action")
    p.add_argument("--tables", action="store_true", help="with --steps: the table after each")
    _add_int(
        p, "--seat", 0, 7, None, "draw the tables from this seat (default: the referee's view)"
    )


# ---------------------------------------------------------------------------
# train


def _float_in(lo: float, hi: float) -> Callable[[str], float]:
    """An argparse type: a finite float in lo..hi."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be {lo:g}..{hi:g}, got {text}")
        return value

    parse.__name__ = "float"
    return parse


def _train(args: argparse.Namespace) -> int:
    if args.frames is None and args.minutes is None:
        raise ValueError("give --frames or --minutes (the training budget)")
    d = Settings()
    settings = Settings(
        hidden=tuple(args.hidden) if args.hidden else d.hidden,
        envs=args.envs,
        steps=args.steps,
        shards=args.shards if args.shards is not None else d.shards,
        epsilon=args.epsilon if args.epsilon is not None else d.epsilon,
        lr=args.lr if args.lr is not None else d.lr,
        batch_size=args.batch_size if args.batch_size is not None else d.batch_size,
        opponent=args.opponent,
        eval_every=args.eval_every if args.eval_every is not None else d.eval_every,
        eval_games=args.eval_games if args.eval_games is not None else d.eval_games,
    )
    command = "pycards " + shlex.join(args.argv)
    game = None if args.resume is not None else args.game_obj
    result = train(
        game if game is not None else args.game,
        frames=args.frames,
        minutes=args.minutes,
        seed=args.seed,
        settings=None if args.resume is not None and settings == d else settings,
        out=args.out,
        checkpoint=args.checkpoint,
        checkpoint_every=args.checkpoint_every,
        resume=args.resume,
        log=args.log,
        workers=args.workers,
        scheduler=args.scheduler,
        progress=False if os.environ.get("PYCARDS_NO_PROGRESS") else None,
        threads=args.threads,
        command=command,
        on_line=_train_line if args.verbose else None,
    )
    curve = result.curve
    rated = [c for c in curve if "strength" in c]
    first, last = rated[0], rated[-1]
    print(
        f"pycards train {args.game}: {last['frames']:,} frames, "
        f"{sum(c.get('seconds_play', 0) + c.get('seconds_fit', 0) for c in curve):.1f} s "
        f"of play and fit"
    )
    print(
        f"  against {settings.opponent}: {first['strength']:+.2f} ±{first['strength_ci']:.2f} "
        f"points a game before, {last['strength']:+.2f} ±{last['strength_ci']:.2f} after"
    )
    if not result.finished:
        print("  interrupted: the checkpoint (if any) holds the run so far")
    print(f"  network saved to {result.out}")
    if args.plot:
        plot_curve(curve, args.plot, title=f"{args.game}: deep Monte Carlo")
        print(f"  curve drawn to {args.plot}")
    return 0


def _train_line(line: dict[str, float]) -> None:
    print(" ".join(f"{k}={v}" for k, v in line.items()), file=sys.stderr, flush=True)


def _add_train(sub: _Subparsers) -> None:
    p = _subcommand(
        sub,
        "train",
        _train,
        "train a network by deep Monte Carlo (see the training page)",
        "Train a network for GAME from games played in the engine's vector "
        "environment against its heuristic (deep Monte Carlo), and save it for the "
        "net bot and the search.  The same --frames and --seed give the same file.",
        game=True,
    )
    p.add_argument(
        "--frames", type=_int_in(1), default=None, help="stop at this many learner steps"
    )
    p.add_argument(
        "--minutes", type=_float_in(0.001, 1e6), default=None, help="stop after this wall time"
    )
    _add_int(p, "--seed", 0, (1 << 63) - 1, 0, "the run's seed (default 0)")
    p.add_argument("--out", default="model.npz", help="the network file (default model.npz)")
    p.add_argument("--checkpoint", default=None, help="write a checkpoint here as it goes")
    _add_int(p, "--checkpoint-every", 1, None, 10, "iterations between checkpoints (default 10)")
    p.add_argument("--resume", default=None, help="go on from this checkpoint")
    p.add_argument("--log", default=None, help="the training curve, one JSON object a line")
    p.add_argument("--plot", default=None, help="draw the curve to FILE (the plot extra)")
    p.add_argument("--hidden", type=_int_in(1, 1024), nargs="+", default=None, help="hidden widths")
    p.add_argument("--opponent", choices=("heuristic", "random"), default="heuristic")
    _add_int(
        p, "--envs", 1, 1 << 16, None, "games a seat's vector of a shard holds (default: auto)"
    )
    _add_int(
        p, "--steps", 1, 1 << 16, None, "learner steps of each game of a shard (default: auto)"
    )
    _add_int(p, "--shards", 1, 4096, None, "shards an iteration plays (Dask's unit of work)")
    p.add_argument("--epsilon", type=_float_in(0.0, 1.0), default=None, help="exploration")
    p.add_argument("--lr", type=_float_in(1e-9, 1.0), default=None, help="Adam's step size")
    _add_int(p, "--batch-size", 1, 1 << 20, None, "transitions a gradient step")
    _add_int(p, "--eval-every", 0, None, None, "iterations between strength measures")
    _add_int(p, "--eval-games", 1, 1 << 24, None, "games a seat of a strength measure")
    _add_int(p, "--threads", 1, 256, 1, "BLAS threads of the gradient steps (default 1)")
    _add_int(p, "--workers", 1, 4096, None, "play on a Dask LocalCluster of N processes")
    p.add_argument("--scheduler", default=None, help="play on a running Dask cluster")
    p.add_argument("--verbose", action="store_true", help="print each line of the curve")


# ---------------------------------------------------------------------------
# subcommands that live in their own modules (each with add_arguments/main)

#: subcommand -> (module, help); the module is imported only when its
#: subcommand is run, so a missing optional extra never breaks the others.
_MODULE_COMMANDS = {
    "arena": ("pycards.arena", "rate bots against each other (the arena extra)"),
    "serve": ("pycards.ui.web", "play in the browser against the bots (the web extra)"),
}


def _add_module_command(sub: _Subparsers, name: str, load: bool) -> None:
    module_name, help_text = _MODULE_COMMANDS[name]
    p = sub.add_parser(
        name,
        help=help_text,
        description=help_text[0].upper() + help_text[1:] + f" ({module_name}).",
    )
    p.set_defaults(run=_module_missing, module_command=name)
    if not load:
        return
    try:
        import importlib

        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        p.set_defaults(module_error=str(exc))
        return
    module.add_arguments(p)
    p.set_defaults(run=module.main)


def _module_missing(args: argparse.Namespace) -> int:
    why = getattr(args, "module_error", "")
    print(
        f"pycards {args.module_command}: not available in this installation ({why})",
        file=sys.stderr,
    )
    return 2


# ---------------------------------------------------------------------------


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The ``pycards`` argument parser (the options of a subcommand living in its
    own module are loaded only when ``argv`` starts with it)."""
    parser = argparse.ArgumentParser(
        prog="pycards",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"pycards {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="SUBCOMMAND")
    _SUBPARSERS.clear()
    _add_score(sub)
    _add_games(sub)
    _add_playouts(sub)
    _add_distribution(sub)
    _add_play(sub)
    _add_replay(sub)
    _add_train(sub)
    for name in _MODULE_COMMANDS:
        _add_module_command(sub, name, bool(argv) and argv[0] == name)
    _SUBPARSERS.update(sub.choices)
    return parser


def _take_definitions(args: list[str]) -> list[str]:
    """Register the games of the ``--define FILE.py[:NAME]`` options (before
    the subcommand: ``pycards --define mygame.py:GAME arena my_game``) and
    return the arguments without them."""
    rest: list[str] = []
    i = 0
    while i < len(args) and args[i].startswith("--define"):
        if args[i] == "--define" and i + 1 < len(args):
            spec, i = args[i + 1], i + 2
        elif args[i].startswith("--define="):
            spec, i = args[i].split("=", 1)[1], i + 1
        else:
            rest.append(args[i])
            i += 1
            continue
        try:
            load_description(spec).register()
        except (PycardsError, ValueError) as exc:
            print(f"pycards: --define: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
    return rest + args[i:]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pycards`` command; returns the exit status.

    With no subcommand (or options only) it runs ``score``: ``pycards --hands
    200000`` is ``pycards score --hands 200000``.
    """
    args_list = _take_definitions(list(sys.argv[1:] if argv is None else argv))
    if not args_list or (
        args_list[0].startswith("-") and args_list[0] not in ("-h", "--help", "--version")
    ):
        args_list.insert(0, "score")
    parser = build_parser(args_list)
    args = parser.parse_args(args_list)
    sub = _SUBPARSERS[args.command]
    args.argv = args_list
    if getattr(args, "needs_game", False):
        args.game_obj = _game_from_args(sub, args)
    if args.command == "play":
        _check_play(sub, args)
    try:
        status: int = args.run(args)
    except (PycardsError, ValueError) as exc:
        sub.error(str(exc))
    except KeyboardInterrupt:
        print("pycards: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. "pycards replay FILE | head": stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    return status


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
