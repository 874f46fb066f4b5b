"""Values of a position at the end of a deal, for searches that stop there.

In a race to a target (Nodde Knave, cribbage) the worth of the end of a deal
is the probability of winning the game from the two scores with a given
dealer.  :func:`win_probability_table` computes it for two players by
dynamic programming over the engine's own per-deal score sequences: many
deals played by the game's heuristic, each recorded as the points each seat
scored, action by action, so that a side that reaches the target first in a
deal wins even if the other would have reached it later in the same deal.

``table[x, y]`` is the probability that the dealer of the deal about to
start wins with ``x`` points to the other's ``y`` (``0 <= x, y < target``).
The same heuristic plays both seats; the deals are assumed not to depend on
the scores (the heuristics play a deal the same way at any score, near the
target excepted), which the tests check against whole games.

>>> from pycards.game import load_game
>>> table = win_probability_table(load_game("nodde", num_players=2), deals=2000)
>>> table.shape
(31, 31)
>>> bool(table[30, 0] > 0.9 and table[0, 30] < 0.1)
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cardcore import _core

from .._args import as_int
from ..engine import game_info, registered_games
from ..game import Game, Rules

__all__ = ["deal_score_sequences", "race_games", "win_probability_table"]


_TERMINAL = -4  # cardcore.h CC_PLAYER_TERMINAL
_CACHE: dict[tuple[str, Rules, int, int], npt.NDArray[np.float64]] = {}


def race_games() -> list[str]:
    """The registered games that are a race to a target score (their facade
    names the target's rules field, :attr:`pycards.game.Game.RACE_TARGET`)."""
    return sorted(name for name, cls in registered_games().items() if cls.RACE_TARGET)


def _race_field(game: Game[Rules, object]) -> str:
    field = type(game).RACE_TARGET
    if field is None:
        raise ValueError(f"{game.NAME} is not a race to a target (race games: {race_games()})")
    return field


def _target_and_rules(game: Game[Rules, object]) -> tuple[int, Rules]:
    field = _race_field(game)
    if game.num_players != 2:
        raise ValueError(f"a win table is for two players, got {game.num_players}")
    rules = game.rules
    return int(getattr(rules, field)), rules


def deal_score_sequences(
    game: Game[Rules, object], deals: int = 20000, seed: int = 0
) -> list[npt.NDArray[np.int32]]:
    """``deals`` deals of ``game`` (two players) played by the heuristic: for
    each, an int32 array (events x 2) of the points the dealer (column 0) and
    the other (column 1) scored, in order, one row per action that scored.

    A deal runs from the moment it is dealt (its dealing points included) to
    the moment the next is dealt (the next deal's dealing points included:
    that is where a search with a deal horizon values it).  The deals come
    from games to the highest target the rules allow, so that no game ends
    before its deal does."""
    deals = as_int(deals, "deals", 1, 10**7)
    seed = as_int(seed, "seed", 0, 2**64 - 1)
    _, rules = _target_and_rules(game)
    field = _race_field(game)
    long_rules = type(rules).from_dict({**rules.to_dict(), field: _max_target(game)})
    long_game = type(game)(long_rules, 2)
    out: list[npt.NDArray[np.int32]] = []
    g = 0
    rows: list[tuple[int, int]] = []
    while len(out) < deals:
        state = long_game.new_initial_state(seed=seed + g)._s
        g += 1
        info = _core.deal_index(state)
        assert info is not None
        deal, dealer = info
        before = state.returns()
        step = 0
        while state.current_player() != _TERMINAL:
            state.apply(state.heuristic_action(seed * 7919 + g * 100003 + step))
            step += 1
            now = state.returns()
            d0, d1 = now[dealer] - before[dealer], now[1 - dealer] - before[1 - dealer]
            before = now
            if d0 or d1:
                rows.append((d0, d1))
            info = _core.deal_index(state)
            assert info is not None
            if info[0] != deal:
                out.append(np.array(rows, dtype=np.int32).reshape(-1, 2))
                rows = []
                deal, dealer = info
                if len(out) == deals:
                    break
        rows = []  # the last deal of a game is cut short: not kept
    return out


def _max_target(game: Game[Rules, object]) -> int:
    field = _race_field(game)
    for p in game_info(game.NAME).params:
        if p.name == field:
            return p.max
    raise ValueError(f"{game.NAME}: no rules field {field!r}")  # pragma: no cover


def win_probability_table(
    game: Game[Rules, object], deals: int = 20000, seed: int = 0
) -> npt.NDArray[np.float64]:
    """The probability that the dealer wins a two-player race game (Nodde
    Knave, cribbage) from the start of a deal, by the scores: a float64 array
    ``table[x, y]``, ``x`` the dealer's points and ``y`` the other's, both
    below the target of ``game``'s rules.  Computed once per rules, deals and
    seed (cached) from :func:`deal_score_sequences`; each entry's standard
    error is about ``0.5 / sqrt(deals)``."""
    target, rules = _target_and_rules(game)
    key = (game.NAME, rules, deals, seed)
    table = _CACHE.get(key)
    if table is None:
        table = _dp(deal_score_sequences(game, deals, seed), target)
        table.setflags(write=False)
        _CACHE[key] = table
    return table


def _dp(seqs: list[npt.NDArray[np.int32]], target: int) -> npt.NDArray[np.float64]:
    """V[x, y] = mean over the deals k of: 1 if the dealer reaches the target
    first in k, 0 if the other does, else 1 - V[y + other's points, x +
    dealer's points] (the other deals next)."""
    t = target
    big = np.iinfo(np.int32).max
    seqs = [s for s in seqs if s.sum() > 0]  # a deal without a point (none in these games)
    k = len(seqs)
    # first[c][i, need]: the first event of deal i at which column c has
    # scored at least need points (big: never), need 0..t
    first = [np.full((k, t + 1), big, dtype=np.int64) for _ in range(2)]
    totals = np.zeros((k, 2), dtype=np.int64)
    for i, s in enumerate(seqs):
        cum = np.cumsum(s, axis=0)
        totals[i] = cum[-1]
        for c in range(2):
            need = np.arange(t + 1)
            idx = np.searchsorted(cum[:, c], need, side="left")
            first[c][i] = np.where(idx < len(s), idx, big)
    v = np.zeros((t, t), dtype=np.float64)
    for total in range(2 * t - 2, -1, -1):
        for x in range(max(0, total - t + 1), min(t - 1, total) + 1):
            y = total - x
            a = first[0][:, t - x]
            b = first[1][:, t - y]
            won = a < b
            tie = (a == b) & (a != big)
            go_on = (a == big) & (b == big)
            nx = np.minimum(y + totals[go_on, 1], t - 1)
            ny = np.minimum(x + totals[go_on, 0], t - 1)
            later = 1.0 - v[nx, ny]
            v[x, y] = (won.sum() + 0.5 * tie.sum() + later.sum()) / k
    return v
