"""The results of a match: per-bot statistics, confidence intervals, the
Bradley-Terry rating, and the table, CSV, JSON and plot outputs."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pycards._args import JSONObject, JSONValue
from pycards.arena._records import FAILURE_KINDS, GameRecord

if TYPE_CHECKING:  # a result keeps its match: the type is a name only
    from pycards.arena._match import Match

__all__ = [
    "RATING_METHOD",
    "Z95",
    "BotStats",
    "MatchResult",
    "bradley_terry",
    "game_scores",
    "mean_ci",
]

#: The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054

#: How the rating is computed (shown with the table).
RATING_METHOD = (
    "Bradley-Terry (MM fit over every pair of bots in every game, a prior of one drawn "
    "game per pair), Elo scale, mean 0"
)


def mean_ci(values: Sequence[float] | npt.NDArray[np.float64]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% normal confidence interval
    ``mean ± 1.96 * s / sqrt(n)`` (``s``: the sample standard deviation).

    The interval is ``nan`` for fewer than 2 values; the mean is ``nan`` for none.

    >>> mean_ci([1.0, 2.0, 3.0, 4.0])  # s = 1.29099, half-width 1.26517
    (2.5, 1.2348..., 3.7651...)
    """
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = float(x.mean())
    if n < 2:
        return (m, math.nan, math.nan)
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n)
    return (m, m - half, m + half)


def game_scores(record: GameRecord, nbots: int) -> dict[int, tuple[float, float, float]]:
    """Each bot's ``(return, win share, margin)`` in one game.

    - return: the mean of its seats' returns (a failing seat's return is the
      game's worst, see :class:`~pycards.arena.GameRecord`);
    - win share: the sum over its seats of the seat's share of the win: the
      seats with the highest return share it equally (ties split), and a
      failing seat never wins;
    - margin: its return minus the mean return of the other bots' seats.
    """
    r = record.returns
    failed = -1 if record.failure is None else record.failure.seat
    alive = [s for s in range(len(r)) if s != failed]
    best = max(r[s] for s in alive)
    winners = [s for s in alive if r[s] == best]
    share = [0.0] * len(r)
    for s in winners:
        share[s] = 1.0 / len(winners)
    out: dict[int, tuple[float, float, float]] = {}
    for b in sorted(set(record.seating)):
        mine = [s for s, x in enumerate(record.seating) if x == b]
        others = [s for s, x in enumerate(record.seating) if x != b]
        ret = sum(r[s] for s in mine) / len(mine)
        win = sum(share[s] for s in mine)
        margin = ret - sum(r[s] for s in others) / len(others) if others else math.nan
        out[b] = (ret, win, margin)
    return out


def _pair_scores(record: GameRecord, wins: npt.NDArray[np.float64]) -> None:
    """Add one game's pairwise outcomes to ``wins`` (wins[a, b]: a over b)."""
    r = record.returns
    failed = -1 if record.failure is None else record.failure.seat
    seats: dict[int, list[int]] = {}
    for s, b in enumerate(record.seating):
        seats.setdefault(b, []).append(s)
    bots = sorted(seats)
    for i, a in enumerate(bots):
        for b in bots[i + 1 :]:
            total = 0.0
            for s in seats[a]:
                for t in seats[b]:
                    if s == failed:
                        total += 0.0
                    elif t == failed or r[s] > r[t]:
                        total += 1.0
                    elif r[s] == r[t]:
                        total += 0.5
            score = total / (len(seats[a]) * len(seats[b]))
            wins[a, b] += score
            wins[b, a] += 1.0 - score


def bradley_terry(
    wins: npt.ArrayLike, prior: float = 0.5, tol: float = 1e-12, max_iter: int = 100_000
) -> npt.NDArray[np.float64]:
    """Bradley-Terry ratings on the Elo scale from a matrix of wins.

    ``wins[i, j]`` is how often bot ``i`` beat bot ``j`` (a tie counts half to
    each).  ``prior`` is added to every off-diagonal entry (by default one drawn
    game per pair), so that a bot that never won still gets a finite rating.
    The strengths ``p`` are fitted by the MM iteration of Hunter (2004),
    ``p_i = W_i / sum_j n_ij / (p_i + p_j)``; the ratings are
    ``400 * log10(p_i)`` shifted to mean 0, so that a difference of ``d``
    means ``i`` beats ``j`` with probability ``1 / (1 + 10 ** (-d / 400))``.

    >>> r = bradley_terry([[0, 3], [1, 0]], prior=0.0)  # 3 wins in 4: p = 3:1
    >>> round(float(r[0] - r[1]), 3) == round(400 * math.log10(3), 3)
    True
    """
    w = np.array(wins, dtype=np.float64)
    k = w.shape[0]
    if w.ndim != 2 or w.shape != (k, k):
        raise ValueError(f"wins must be a square matrix, got shape {w.shape}")
    w = w + prior * (1.0 - np.eye(k))
    np.fill_diagonal(w, 0.0)
    n = w + w.T
    total = w.sum(axis=1)
    p = np.ones(k)
    for _ in range(max_iter):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), p)
        new = np.maximum(new, 1e-300)
        new /= math.exp(float(np.log(new).mean()))
        done = bool(np.max(np.abs(new - p) / p) < tol)
        p = new
        if done:
            break
    ratings: npt.NDArray[np.float64] = 400.0 * np.log10(p)
    centered: npt.NDArray[np.float64] = ratings - ratings.mean()
    return centered


@dataclasses.dataclass(frozen=True)
class BotStats:
    """One bot's results in a match.

    Every interval is a 95% normal confidence interval over the statistics
    units: the deal groups in duplicate play (a deal played in every seating),
    else the single games (see :func:`mean_ci`).

    :ivar name: the bot's name in the match.
    :ivar games: games it played.
    :ivar mean_return: its mean return per game (mean over units).
    :ivar return_ci: the interval of the mean return.
    :ivar margin: its mean return minus the other seats' mean return per game.
    :ivar margin_ci: the interval of the margin.
    :ivar win_rate: its mean win share per game (ties split).
    :ivar win_ci: the interval of the win rate.
    :ivar rating: its Bradley-Terry rating (Elo scale, mean 0 over the bots).
    :ivar failures: failed games by kind (see :data:`~pycards.arena.FAILURE_KINDS`).
    :ivar moves: moves it made.
    :ivar seconds: time it spent choosing them (see
        :class:`~pycards.arena.GameRecord`).
    """

    name: str
    games: int
    mean_return: float
    return_ci: tuple[float, float]
    margin: float
    margin_ci: tuple[float, float]
    win_rate: float
    win_ci: tuple[float, float]
    rating: float
    failures: dict[str, int]
    moves: int
    seconds: float

    @property
    def failed(self) -> int:
        """Games it lost by a failure."""
        return sum(self.failures.values())

    @property
    def time_per_move(self) -> float:
        """Mean seconds per move (``nan`` before any move)."""
        return self.seconds / self.moves if self.moves else math.nan

    def scores(self) -> JSONObject:
        """The deterministic part (everything but the timing), for comparisons."""
        d = dataclasses.asdict(self)
        del d["seconds"]
        return d


def _fmt_ci(m: float, ci: tuple[float, float], pct: bool = False, sign: bool = False) -> str:
    if math.isnan(m):
        return "-"
    scale = 100.0 if pct else 1.0
    body = f"{m * scale:+.2f}" if sign else f"{m * scale:.2f}"
    if pct:
        body += "%"
    if math.isnan(ci[0]):
        return body
    half = (ci[1] - ci[0]) / 2 * scale
    return f"{body} ±{half:.2f}" + ("%" if pct else "")


class MatchResult:
    """What a match gave: per-bot :class:`BotStats`, the game records, and
    whether it was interrupted (then the statistics cover the finished games).

    :ivar match: the :class:`~pycards.arena.Match` played.
    :ivar records: the finished games, in game order.
    :ivar bots: one :class:`BotStats` per bot, in match order.
    :ivar interrupted: true if the match was stopped (Ctrl-C) before its end.
    :ivar native: true if the games were played by the engine's native loop.
    :ivar wall_seconds: the match's wall-clock time.
    """

    def __init__(
        self,
        match: Match,
        records: Sequence[GameRecord],
        *,
        interrupted: bool = False,
        native: bool = False,
        wall_seconds: float = math.nan,
    ) -> None:
        self.match = match
        self.records = sorted(records, key=lambda r: r.index)
        self.interrupted = interrupted
        self.native = native
        self.wall_seconds = wall_seconds
        self.bots = self._stats()

    def _stats(self) -> list[BotStats]:
        k = len(self.match.entries)
        # per bot: unit -> list of (return, win, margin) per game
        units: list[dict[int, list[tuple[float, float, float]]]] = [{} for _ in range(k)]
        fails = [dict.fromkeys(FAILURE_KINDS, 0) for _ in range(k)]
        moves = [0] * k
        seconds = [0.0] * k
        wins = np.zeros((k, k))
        for rec in self.records:
            for b, v in game_scores(rec, k).items():
                units[b].setdefault(rec.group, []).append(v)
            if rec.failure is not None:
                fails[rec.seating[rec.failure.seat]][rec.failure.kind] += 1
            for s, b in enumerate(rec.seating):
                moves[b] += rec.moves[s]
                seconds[b] += rec.seconds[s]
            _pair_scores(rec, wins)
        ratings = bradley_terry(wins)
        out = []
        for b, e in enumerate(self.match.entries):
            per_unit = np.array(
                [np.mean(np.array(v), axis=0) for _, v in sorted(units[b].items())]
            ).reshape(-1, 3)
            ret = mean_ci(per_unit[:, 0])
            win = mean_ci(per_unit[:, 1])
            mar = mean_ci(per_unit[:, 2])
            out.append(
                BotStats(
                    name=e.name,
                    games=sum(len(v) for v in units[b].values()),
                    mean_return=ret[0],
                    return_ci=(ret[1], ret[2]),
                    margin=mar[0],
                    margin_ci=(mar[1], mar[2]),
                    win_rate=win[0],
                    win_ci=(win[1], win[2]),
                    rating=float(ratings[b]),
                    failures=fails[b],
                    moves=moves[b],
                    seconds=seconds[b],
                )
            )
        return out

    # -- description -----------------------------------------------------------
    @property
    def games_played(self) -> int:
        """Finished games."""
        return len(self.records)

    def header(self) -> str:
        """One line: the game, players, games, seatings and seed."""
        m = self.match
        if m.duplicate:
            how = (
                f"{self.games_played} games ({-(-self.games_played // m.group_size)} deals "
                f"x {m.group_size} seatings, duplicate)"
            )
        else:
            how = f"{self.games_played} games (seating rotated)"
        flags = ", INTERRUPTED" if self.interrupted else ""
        rules = m.game.rules.differences()
        extra = f", rules {rules}" if rules else ""
        return f"{m.game.NAME}, {m.num_players} players{extra}, {how}, seed {m.seed}{flags}"

    def rows(self, timing: bool = True) -> list[list[str]]:
        """The table's rows as text (the first row is the header)."""
        head = ["bot", "games", "mean return", "margin", "win rate", "rating", "failures"]
        if timing:
            head.append("ms/move")
        rows = [head]
        for b in self.bots:
            row = [
                b.name,
                str(b.games),
                _fmt_ci(b.mean_return, b.return_ci),
                _fmt_ci(b.margin, b.margin_ci, sign=True),
                _fmt_ci(b.win_rate, b.win_ci, pct=True),
                f"{round(b.rating):+d}",
                str(b.failed),
            ]
            if timing:
                row.append("-" if math.isnan(b.time_per_move) else f"{b.time_per_move * 1e3:.3g}")
            rows.append(row)
        return rows

    def table(self, timing: bool = True) -> str:
        """The results as a plain-text table (``timing=False`` leaves out the
        time per move, which varies from run to run; the rest does not).

        The ± figures are the half-widths of the 95% confidence intervals.
        """
        rows = self.rows(timing)
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = [self.header()]
        for r in rows:
            rest = zip(r[1:], widths[1:], strict=True)
            cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in rest]
            lines.append("  ".join(cells).rstrip())
        lines.append(
            "± is the 95% CI half-width (normal, over "
            + ("deal groups" if self.match.duplicate else "games")
            + "); rating: Bradley-Terry, Elo scale"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return f"<MatchResult {self.header()}>"

    # -- files -----------------------------------------------------------------
    def to_dict(self, records: bool = True) -> JSONObject:
        """The results as a JSON-friendly dict (with each game's record unless
        ``records`` is false)."""
        m = self.match
        out: JSONObject = {
            "format": "pycards-arena/1",
            "game": m.game.NAME,
            "players": m.num_players,
            "rules": m.game.rules.to_dict(),
            "seed": m.seed,
            "duplicate": m.duplicate,
            "games_planned": m.total_games,
            "games_played": self.games_played,
            "move_time": m.move_time,
            "seatings": [list(s) for s in m.seatings],
            "interrupted": self.interrupted,
            "native": self.native,
            "wall_seconds": self.wall_seconds,
            "confidence": "95% normal interval over " + ("deal groups" if m.duplicate else "games"),
            "rating_method": RATING_METHOD,
            "bots": [
                {**dataclasses.asdict(b), "time_per_move": _nan_none(b.time_per_move)}
                for b in self.bots
            ],
        }
        if records:
            out["records"] = [r.to_dict() for r in self.records]
        return {k: _clean(v) for k, v in out.items()}

    def to_json(self, records: bool = True) -> str:
        """:meth:`to_dict` as JSON (``nan`` written as ``null``)."""
        return json.dumps(self.to_dict(records), indent=1)

    def to_csv(self) -> str:
        """One CSV row per bot: the statistics with both ends of every interval."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(
            [
                "bot",
                "games",
                "mean_return",
                "return_lo",
                "return_hi",
                "margin",
                "margin_lo",
                "margin_hi",
                "win_rate",
                "win_lo",
                "win_hi",
                "rating",
                "failures",
                *(f"failures_{k}" for k in FAILURE_KINDS),
                "moves",
                "seconds",
                "seconds_per_move",
            ]
        )
        for b in self.bots:
            w.writerow(
                [
                    b.name,
                    b.games,
                    *map(repr, (b.mean_return, *b.return_ci, b.margin, *b.margin_ci)),
                    *map(repr, (b.win_rate, *b.win_ci, b.rating)),
                    b.failed,
                    *(b.failures[k] for k in FAILURE_KINDS),
                    b.moves,
                    repr(b.seconds),
                    repr(b.time_per_move),
                ]
            )
        return buf.getvalue()

    def write_csv(self, path: str | Path) -> None:
        """Write :meth:`to_csv` to ``path``."""
        Path(path).write_text(self.to_csv())

    def write_json(self, path: str | Path) -> None:
        """Write :meth:`to_json` to ``path``."""
        Path(path).write_text(self.to_json() + "\n")

    def plot(self, path: str | Path) -> None:
        """Save a figure to ``path`` (format from its suffix: png, svg, pdf):
        the rating of each bot, and the distribution of its margin per deal
        group (per game without duplicate deals).  Needs the ``plot`` extra
        (matplotlib).

        The rating bars rise from a baseline below the lowest rating, so a
        bot rated 0 has a bar too (its value is written on it, and a line
        marks 0); the legend of the distributions sits below their axes,
        off the bars."""
        fig = self._figure()
        fig.savefig(str(path), bbox_inches="tight")

    def _figure(self) -> Any:
        try:
            from matplotlib.figure import Figure
        except ImportError:
            raise ImportError("plotting needs matplotlib: pip install 'pycards[plot]'") from None
        k = len(self.bots)
        margins: list[list[float]] = [[] for _ in range(k)]
        per: list[dict[int, list[float]]] = [{} for _ in range(k)]
        for rec in self.records:
            for b, v in game_scores(rec, k).items():
                per[b].setdefault(rec.group, []).append(v[2])
        for b in range(k):
            margins[b] = [float(np.mean(v)) for _, v in sorted(per[b].items())]
        fig = Figure(figsize=(11, 4))
        ax1, ax2 = fig.subplots(1, 2)
        names = [b.name for b in self.bots]
        ratings = [float(b.rating) for b in self.bots]
        base = _bar_baseline(ratings)
        bars = ax1.bar(names, [r - base for r in ratings], bottom=base, color="tab:blue")
        ax1.bar_label(bars, labels=[f"{r:.0f}" for r in ratings], padding=2)
        high = max([0.0, *(r for r in ratings if math.isfinite(r))])
        ax1.set_ylim(base, high + 0.15 * (high - base))
        ax1.axhline(0, color="black", linewidth=0.8)
        ax1.set_ylabel("rating (Bradley-Terry, Elo scale)")
        ax1.set_title("rating")
        for b in range(k):
            if margins[b]:
                ax2.hist(margins[b], bins=30, alpha=0.5, label=names[b])
        ax2.set_xlabel("margin per " + ("deal group" if self.match.duplicate else "game"))
        ax2.set_ylabel("count")
        ax2.set_title("score distribution")
        if any(margins):
            ax2.legend(
                loc="upper center",
                bbox_to_anchor=(0.5, -0.18),
                ncol=max(1, min(k, 4)),
                frameon=False,
            )
        fig.suptitle(self.header(), fontsize=9)
        fig.tight_layout()
        return fig


def _bar_baseline(ratings: Sequence[float]) -> float:
    """Where the rating bars start: below the lowest rating and below 0 by a
    tenth of the span (at least 10 rating points), so every bar has a height."""
    finite = [r for r in ratings if math.isfinite(r)]
    low = min([0.0, *finite])
    high = max([0.0, *finite])
    return low - max(10.0, 0.1 * (high - low))


def _nan_none(x: float) -> float | None:
    return None if math.isnan(x) else x


def _clean(obj: JSONValue) -> JSONValue:
    if isinstance(obj, float):
        return None if math.isnan(obj) else obj
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj
