"""The strength table: every built-in bot against every other, per game row.

The rows come from each game's :attr:`~pycards.game.Game.STRENGTH_ROWS` hook
(a label, a player count, a rules preset); the bots are ``random``,
``heuristic``, ``pimc``, ``ismcts`` (each with the game's search defaults)
and ``best`` (the game's :attr:`~pycards.game.Game.BEST_BOT`).  Each pair
plays a duplicate-deal match in the arena (:class:`pycards.arena.Match`; two
bots at more seats sit A B A B), and the table gives the first bot's points
margin and win rate with 95% intervals, and both bots' milliseconds per move.
With OpenSpiel installed, two-player rows also seat OpenSpiel's Python
``ISMCTSBot`` (through :class:`pycards.envs.openspiel.OpenSpielBot`, on
states resampled from its seat's view) against ``best``, its simulations
calibrated to ``best``'s time per move in that row.

Usage: ``python benchmarks/studies/strength_table.py [--deals N] [--games
name,...] [--quick] [--no-openspiel]``.  ``--deals`` is the deals per pair
(each played in every seating); ``--quick`` plays one deal per pair of the
first row of each game with tiny budgets (a smoke test).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from typing import Any

import _here  # noqa: F401

from pycards.arena import Match
from pycards.engine import registered_games
from pycards.game import load_game

#: The bots of the table, in its order.
BOTS = ("random", "heuristic", "pimc", "ismcts", "best")
#: Tiny budgets for --quick (the table's shape, not its figures).
QUICK_BOTS = ("random", "heuristic", "pimc:simulations=20:samples=4", "ismcts:simulations=20")


def rows(games: list[str] | None) -> list[tuple[str, str, int, str]]:
    """(game, label, players, preset) of every row, in registry order."""
    out = []
    for name, cls in registered_games().items():
        if games is not None and name not in games:
            continue
        for label, players, preset in cls.STRENGTH_ROWS:
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
    return result.bots[0], result.bots[1]


def ci(m: float, lo_hi: tuple[float, float], pct: bool = False) -> str:
    half = (lo_hi[1] - lo_hi[0]) / 2
    if pct:
        return f"{100 * m:.0f}% ±{100 * half:.0f}"
    return f"{m:+.1f} ±{half:.1f}"


def openspiel_bot(name: str, players: int, preset: str, ms: float) -> tuple[Any, int] | None:
    """OpenSpiel's Python ISMCTS for the row at about ``ms`` per move, or None."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        import pycards.envs.openspiel as adapter
    except ImportError:
        return None
    rules = getattr(load_game(name).RULES_TYPE, preset)()
    params: dict[str, Any] = {"players": players}
    for d in type(rules).parameters():
        v = getattr(rules, d["name"])
        params[d["name"]] = d["none_value"] if v is None else v
    game = pyspiel.load_game(f"pycards_{name}", params)
    rs = __import__("numpy").random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    # calibrate: the time of 20 simulations from the first position
    probe = ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=rs)
    state = game.new_initial_state()
    t0 = time.perf_counter()
    probe.step(state)
    per_sim = (time.perf_counter() - t0) / 20
    sims = max(1, round(ms / 1000 / per_sim))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=rs)
    return adapter.OpenSpielBot(game, bot), sims


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="deals per pair (default 20)")
    parser.add_argument("--games", default=None, help="games, comma-separated (default all)")
    parser.add_argument("--quick", action="store_true", help="a tiny run (a smoke test)")
    parser.add_argument("--no-openspiel", action="store_true", help="leave OpenSpiel out")
    parser.add_argument("--seed", type=int, default=0, help="the match seed (default 0)")
    args = parser.parse_args()
    games = args.games.split(",") if args.games else None
    deals = 1 if args.quick else args.deals
    table = rows(games)
    if args.quick:
        seen: set[str] = set()
        table = [r for r in table if not (r[0] in seen or seen.add(r[0]))]  # type: ignore[func-returns-value]
    bots = QUICK_BOTS if args.quick else BOTS
    print(f"{deals} deal(s) per pair, every seating (duplicate); seed {args.seed}")
    print("margin and win rate are the first bot's, ± the 95% interval; ms per move of each\n")
    head = ("row", "bot", "vs", "margin", "win rate", "ms/move", "ms/move (vs)")
    lines = []
    for name, label, players, preset in table:
        best_ms = float("nan")
        for a, b in itertools.combinations(bots, 2):
            sa, sb = pair(name, players, preset, a, b, deals, args.seed)
            ms_a, ms_b = 1000 * sa.time_per_move, 1000 * sb.time_per_move
            if b == "best":
                best_ms = ms_b
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
        if args.no_openspiel or players != 2 or best_ms != best_ms:
            continue
        made = openspiel_bot(name, players, preset, best_ms)
        if made is None:
            continue
        bot, sims = made
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
