"""The default ``ismcts`` and ``pimc`` of every game against ``heuristic`` in the
arena, with duplicate deals: the table of docs/search.rst, "Defaults".

For each match of :data:`MATCHES` (every registered game, at the tables and
rules its test profile names in ``search_matches``) and each search bot, the bot (with the
game's defaults: :func:`pycards.bots.native.search_defaults`) plays the
game's heuristic over ``deals`` deal groups (each deal played in every
seating), and the script prints the search's points margin with its 95%
interval, its win rate and rating, the games, and its time per move in two
clocks:

- ``cpu ms``: the process's CPU time over the match divided by the search
  bot's moves (the heuristic's moves and the referee cost next to nothing;
  the win table of a race game is computed before the clock starts), so a
  busy machine does not inflate it;
- ``wall ms``: the arena's own figure, the wall-clock time of the search
  (``BotStats.time_per_move``), which a busy machine does.

The defaults pass when every margin's interval lies above zero at no more
than 20 ms a move on one core.  The deal counts of :data:`MATCHES` (400 deal
groups each) are those the defaults are judged by; a whole run takes about
an hour of one core.  ``--deals N`` plays N deal groups in every match,
``--fraction F`` a fraction of each, ``--only LABEL`` one match.

Usage: ``python benchmarks/studies/search_defaults.py
[--deals N | --fraction F] [--only LABEL] [--seed S] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from typing import Any

import _here  # noqa: F401
from _games import GAMES

from pycards.arena import Match
from pycards.bots import make_bot
from pycards.game import load_game

#: The ms per move the defaults must keep (one core).
MS_PER_MOVE_LIMIT = 20.0
#: The search bots judged (each with the game's defaults).
BOTS = ("ismcts", "pimc")


@dataclasses.dataclass(frozen=True)
class Setting:
    """One match of the table: a game, its table size and rules preset."""

    label: str
    game: str
    players: int
    preset: str | None
    deals: int = 400

    def load(self) -> Any:
        """The game with these rules and players."""
        cls = type(load_game(self.game)).RULES_TYPE
        rules = None if self.preset is None else getattr(cls, self.preset)()
        return load_game(self.game, rules, self.players)


def _matches() -> tuple[Setting, ...]:
    """Every registered game's matches (its test profile's ``search_matches``;
    by default its fewest players with the default rules)."""
    out = []
    for name, case in GAMES.items():
        for players, preset in case.profile.search_matches or ((case.min_players, None),):
            label = f"{name} {players}p" + (f" {preset}" if preset else "")
            out.append(Setting(label, name, players, preset))
    return tuple(out)


MATCHES = _matches()


def run(setting: Setting, bot: str, deals: int, seed: int) -> dict[str, Any]:
    """Play ``bot`` against the heuristic over ``deals`` deal groups."""
    game = setting.load()
    make_bot(bot).native_searcher(game)  # win tables are cached: not timed
    bots = [bot, "heuristic"]
    seatings = len(Match(game, bots, games=1, players=setting.players).seatings)
    match = Match(game, bots, games=deals * seatings, players=setting.players, seed=seed)
    cpu0 = time.process_time()
    result = match.run(progress=False)
    cpu = time.process_time() - cpu0
    b = result.bots[0]
    return {
        "match": setting.label,
        "bot": bot,
        "deals": -(-result.games_played // match.group_size),
        "games": result.games_played,
        "margin": b.margin,
        "margin_half": (b.margin_ci[1] - b.margin_ci[0]) / 2,
        "margin_lo": b.margin_ci[0],
        "win_rate": b.win_rate,
        "rating": b.rating,
        "moves": b.moves,
        "cpu_ms": 1e3 * cpu / b.moves if b.moves else math.nan,
        "wall_ms": 1e3 * b.time_per_move,
    }


def _row(r: dict[str, Any]) -> str:
    ok = r["margin_lo"] > 0 and r["cpu_ms"] <= MS_PER_MOVE_LIMIT
    return (
        f"{r['match']:<20} {r['bot']:<7} {r['deals']:>5} {r['games']:>6} "
        f"{r['margin']:+8.2f} ±{r['margin_half']:<6.2f} {100 * r['win_rate']:6.1f}% "
        f"{r['rating']:+6.0f} {r['cpu_ms']:7.2f} {r['wall_ms']:7.2f}  {'yes' if ok else 'NO'}"
    )


def main(argv: list[str] | None = None) -> int:
    """Play the table's matches and print it; 1 if a default fails."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--deals", type=int, default=None, help="deal groups in every match")
    how.add_argument("--fraction", type=float, default=1.0, help="this share of each match's deals")
    parser.add_argument("--only", default=None, help="one match, by its label (see --list)")
    parser.add_argument("--list", action="store_true", help="list the matches and exit")
    parser.add_argument("--bots", default=",".join(BOTS), help="the search bots (default: both)")
    parser.add_argument("--seed", type=int, default=2026, help="the arena seed")
    parser.add_argument("--json", default=None, help="also write the rows as JSON")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(s.label for s in MATCHES))
        return 0
    settings = [s for s in MATCHES if args.only in (None, s.label)]
    if not settings:
        parser.error(f"--only: no match {args.only!r} ({', '.join(s.label for s in MATCHES)})")
    print(
        f"{'match':<20} {'bot':<7} {'deals':>5} {'games':>6} {'margin ±95%':>16} "
        f"{'win':>7} {'rating':>6} {'cpu ms':>7} {'wall ms':>7}  pass"
    )
    rows = []
    for s in settings:
        deals = args.deals if args.deals is not None else max(1, round(s.deals * args.fraction))
        for bot in args.bots.split(","):
            r = run(s, bot, deals, args.seed)
            rows.append(r)
            print(_row(r), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    ok = all(r["margin_lo"] > 0 and r["cpu_ms"] <= MS_PER_MOVE_LIMIT for r in rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
