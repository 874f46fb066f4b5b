"""The strength table: every built-in bot against every other, per game row.

The rows come from each game's test profile, ``strength_rows`` of
``tests/profiles/<name>.py`` (a label, a player count, a rules preset); the bots are ``random``,
``heuristic``, ``pimc``, ``ismcts`` (each with the game's search defaults)
and ``best`` (the game's :attr:`~pycards.game.Game.BEST_BOT`).  Each pair
plays a duplicate-deal match in the arena (:class:`pycards.arena.Match`; two
bots at more seats sit A B A B), and the table gives the first bot's points
margin and win rate with 95% intervals, and both bots' milliseconds per move.
With OpenSpiel installed, every row also seats OpenSpiel's Python
``ISMCTSBot`` (through :class:`pycards.envs.openspiel.OpenSpielBot`, on
states resampled from its seat's view) against ``best``, its simulations
calibrated to ``best``'s CPU time per move in that row by a short match on
other deals (``--probe-deals``); ``--openspiel-only`` plays only those
matches.

Usage: ``python benchmarks/studies/strength_table.py [--deals N] [--games
name,...] [--quick] [--no-openspiel | --openspiel-only] [--probe-deals K]``.
``--deals`` is the deals per pair (each played in every seating);
``--quick`` plays one deal per pair of the first row of each game with tiny
budgets (a smoke test).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from typing import Any

import _here  # noqa: F401
from _games import GAMES

from pycards.arena import Match
from pycards.bots import register_bot
from pycards.game import load_game

#: The bots of the table, in its order.
BOTS = ("random", "heuristic", "pimc", "ismcts", "best")
#: Tiny budgets for --quick (the table's shape, not its figures).
QUICK_BOTS = ("random", "heuristic", "pimc:simulations=20:samples=4", "ismcts:simulations=20")


def rows(games: list[str] | None) -> list[tuple[str, str, int, str]]:
    """(game, label, players, preset) of every row, in registry order."""
    out = []
    for name, case in GAMES.items():
        if games is not None and name not in games:
            continue
        for label, players, preset in case.profile.strength_rows:
            out.append((name, label, players, preset))
    return out


def pair(
    name: str, players: int, preset: str, a: Any, b: Any, deals: int, seed: int
) -> tuple[Any, Any]:
    """The arena's figures of bots a and b (first bot's stats, second's)."""
    rules = getattr(load_game(name).RULES_TYPE, preset)()
    # one deal in every seating: a full rotation of the table
    match = Match(name, [a, b], games=deals * players, players=players, seed=seed, rules=rules)
    result = match.run(progress=False)
    for stats in result.bots:
        failed = {kind: n for kind, n in stats.failures.items() if n}
        if failed:  # a failed game scores nothing: its row would be meaningless
            raise RuntimeError(f"{name} {a} vs {b}: {stats.name} failed games {failed}")
    return result.bots[0], result.bots[1]


def ci(m: float, lo_hi: tuple[float, float], pct: bool = False) -> str:
    half = (lo_hi[1] - lo_hi[0]) / 2
    if pct:
        return f"{100 * m:.0f}% ±{100 * half:.0f}"
    return f"{m:+.1f} ±{half:.1f}"


def openspiel_ismcts(name: str, players: int, preset: str, sims: int) -> str | None:
    """The spec of OpenSpiel's Python ISMCTS with ``sims`` simulations a move
    (random rollouts, exploration 2) for the row, or None without OpenSpiel.

    The spec names a bot registered here (``openspiel_ismcts``), so that the
    arena makes a fresh one for each seat it holds."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        import pycards.envs.openspiel as adapter
    except ImportError:
        return None
    rules = getattr(load_game(name).RULES_TYPE, preset)()
    params: dict[str, Any] = {"players": players}
    for d in type(rules).parameters():
        v = getattr(rules, d.name)
        params[d.name] = d.none_value if v is None else v
    game = pyspiel.load_game(f"pycards_{name}", params)

    def factory(seed: int = 0, simulations: int = sims) -> Any:
        rs = np.random.RandomState(seed % (1 << 32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rs)
        return adapter.OpenSpielBot(game, bot)

    register_bot("openspiel_ismcts", factory)
    return f"openspiel_ismcts:simulations={sims}"


#: The simulations of the calibration match (OpenSpiel's ISMCTS against best).
PROBE_SIMS = 20
#: The fewest simulations OpenSpiel's ISMCTS can choose a move with.
MIN_SIMS = 2


def openspiel_bot(
    name: str, players: int, preset: str, probe_deals: int, seed: int
) -> tuple[str, int, float] | None:
    """OpenSpiel's Python ISMCTS at about ``best``'s CPU time per move in the
    row: (the bot, its simulations, best's ms per move), or None.

    The calibration is a short match of ``best`` against the ISMCTS at
    :data:`PROBE_SIMS` simulations (other deals than the real match's): its
    CPU time per simulation over the positions it met, and ``best``'s time
    per move, both from the arena's thread-CPU clock."""
    probe = openspiel_ismcts(name, players, preset, PROBE_SIMS)
    if probe is None:
        return None
    sa, sb = pair(name, players, preset, probe, "best", probe_deals, seed + 1)
    per_sim = sa.time_per_move / PROBE_SIMS
    best_ms = 1000 * sb.time_per_move
    # OpenSpiel's ISMCTS needs 2 simulations: the first only expands the
    # root, and with no child visited its final policy fails an assert
    sims = max(MIN_SIMS, round(sb.time_per_move / per_sim))
    bot = openspiel_ismcts(name, players, preset, sims)
    assert bot is not None
    return bot, sims, best_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="deals per pair (default 20)")
    parser.add_argument("--games", default=None, help="games, comma-separated (default all)")
    parser.add_argument("--quick", action="store_true", help="a tiny run (a smoke test)")
    parser.add_argument("--no-openspiel", action="store_true", help="leave OpenSpiel out")
    parser.add_argument(
        "--openspiel-only",
        action="store_true",
        help="only best against OpenSpiel's ISMCTS at best's time per move",
    )
    parser.add_argument(
        "--probe-deals", type=int, default=2, help="deals of OpenSpiel's calibration (default 2)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the match seed (default 0)")
    args = parser.parse_args()
    games = args.games.split(",") if args.games else None
    deals = 1 if args.quick else args.deals
    table = rows(games)
    if args.quick:
        seen: set[str] = set()
        table = [r for r in table if not (r[0] in seen or seen.add(r[0]))]  # type: ignore[func-returns-value]
    bots = () if args.openspiel_only else QUICK_BOTS if args.quick else BOTS
    print(f"{deals} deal(s) per pair, every seating (duplicate); seed {args.seed}")
    print("margin and win rate are the first bot's, ± the 95% interval; ms per move of each\n")
    head = ("row", "bot", "vs", "margin", "win rate", "ms/move", "ms/move (vs)")
    lines = []
    for name, label, players, preset in table:
        for a, b in itertools.combinations(bots, 2):
            sa, sb = pair(name, players, preset, a, b, deals, args.seed)
            ms_a, ms_b = 1000 * sa.time_per_move, 1000 * sb.time_per_move
            lines.append(
                (
                    label,
                    a.split(":")[0],
                    b.split(":")[0],
                    ci(sa.margin, sa.margin_ci),
                    ci(sa.win_rate, sa.win_ci, pct=True),
                    f"{ms_a:.2f}",
                    f"{ms_b:.2f}",
                )
            )
            print(" | ".join(lines[-1]), file=sys.stderr, flush=True)
        if args.no_openspiel:
            continue
        probe_deals = 1 if args.quick else args.probe_deals
        made = openspiel_bot(name, players, preset, probe_deals, args.seed)
        if made is None:
            continue
        bot, sims, _ = made
        sa, sb = pair(name, players, preset, bot, "best", deals, args.seed)
        lines.append(
            (
                label,
                f"openspiel ismcts ({sims} sims)",
                "best",
                ci(sa.margin, sa.margin_ci),
                ci(sa.win_rate, sa.win_ci, pct=True),
                f"{1000 * sa.time_per_move:.2f}",
                f"{1000 * sb.time_per_move:.2f}",
            )
        )
        print(" | ".join(lines[-1]), file=sys.stderr, flush=True)
    widths = [max(len(r[i]) for r in [head, *lines]) for i in range(len(head))]
    rule = " ".join("=" * w for w in widths)
    print(rule)
    print(" ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
    print(rule)
    for r in lines:
        print(" ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    print(rule)
    return 0


if __name__ == "__main__":
    sys.exit(main())
