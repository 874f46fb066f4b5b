"""Matches: the schedule of games, their seeds, and playing them in Python.

A match is a list of games numbered ``0..total_games - 1``.  Everything a
game needs (its deal seed, which bot sits in which seat, each seat's bot
seed) is a function of the match and the game's index alone, so any chunk
of games can be played anywhere (another process, another machine) and gives
the same records as the single-process run.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import hashlib
import itertools
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from pycards._args import as_int
from pycards.arena._native import native_possible, play_native
from pycards.arena._records import FAILURE_KINDS, Failure, GameRecord
from pycards.arena._results import MatchResult
from pycards.arena._run import run
from pycards.bots import Bot, make_bot, parse_bot_spec
from pycards.engine import GameInfo, find_game, game_info, offered_games
from pycards.errors import RulesError, StalledGameError
from pycards.game import Game, Rules, State, game_names, load_game
from pycards.playouts import action_cap, stalled_message
from pycards.view import PlayerView

__all__ = [
    "FAILURE_KINDS",
    "BotLike",
    "Failure",
    "GameRecord",
    "Match",
    "SeatBots",
    "derive_seed",
    "known_game_info",
]

_M64 = (1 << 64) - 1


@runtime_checkable
class BotLike(Protocol):
    """What the arena needs of a bot (the :class:`pycards.bots.Bot` protocol)."""

    name: str

    def reset(self, seed: int) -> None:
        """Start a new game; ``seed`` is the game's bot seed for this seat."""

    def act(self, view: PlayerView[object]) -> int:
        """The action to play, from the player's view."""
        ...


def derive_seed(seed: int, kind: str, *index: int) -> int:
    """A 64-bit seed derived from the match seed, a kind (``"deal"``,
    ``"bot"``) and indices: the first 8 bytes (little-endian) of the BLAKE2b
    hash of ``"pycards-arena/<kind>/<seed>/<i>/<j>..."``.

    The same on every platform and in every process.

    >>> derive_seed(0, "deal", 0) == derive_seed(0, "deal", 0)
    True
    >>> derive_seed(0, "deal", 0) != derive_seed(0, "deal", 1)
    True
    """
    text = "/".join(["pycards-arena", kind, str(seed), *(str(i) for i in index)])
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


@dataclasses.dataclass(frozen=True)
class _Entry:
    """A bot of the match: its display name and either a spec or an object."""

    name: str
    spec: str | None
    obj: BotLike | None


@contextlib.contextmanager
def _current_folder_on_path() -> Iterator[None]:
    """The current folder at the end of ``sys.path`` while the block runs (if
    it is not there already): what ``python -m`` would give a bot's module,
    which the ``pycards`` command, run as a script, does not."""
    here = os.getcwd()
    if any(os.path.abspath(p or os.curdir) == here for p in sys.path):
        yield
        return
    sys.path.append(here)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(here)


def _make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its spec; a bot by import path (``module:Class``) is looked
    up on ``sys.path``, then in the current folder."""
    name, _ = parse_bot_spec(spec)
    if ":" not in name:
        return make_bot(spec, seed=seed)
    with _current_folder_on_path():
        return make_bot(spec, seed=seed)


def _entries(bots: Sequence[str | BotLike]) -> tuple[_Entry, ...]:
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",")]
    if not isinstance(bots, Sequence):
        raise TypeError(f"bots must be a sequence of bot specs or bots, got {type(bots).__name__}")
    if len(bots) < 2:
        raise ValueError(f"a match needs at least 2 bots, got {len(bots)}")
    entries: list[_Entry] = []
    seen: dict[str, int] = {}
    for i, b in enumerate(bots):
        if isinstance(b, str):
            if not b:
                raise ValueError(f"bots[{i}]: an empty bot spec")
            try:
                bot = _make_bot(b)
            except (ValueError, TypeError, KeyError) as exc:
                raise ValueError(f"bots[{i}]: bad bot {b!r}: {exc}") from None
            name, spec, obj = b, b, None
            del bot
        elif isinstance(b, BotLike):
            name = b.name
            if not isinstance(name, str):
                raise TypeError(f"bots[{i}]: a bot's name is a str, got {type(name).__name__}")
            spec, obj = None, b
        else:
            raise TypeError(
                f"bots[{i}]: a bot spec (str) or an object with name, reset() and act(), "
                f"got {type(b).__name__}"
            )
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name}#{seen[name]}"
        entries.append(_Entry(name, spec, obj))
    return tuple(entries)


def _seatings(nbots: int, nplayers: int) -> tuple[tuple[int, ...], ...]:
    """Every seating of one deal group: the bots at each table, rotated.

    With no more bots than seats there is one table, seat ``s`` holding bot
    ``s mod nbots``; with more bots than seats, one table for every set of
    ``nplayers`` bots.  Each table is played in all its distinct cyclic
    rotations (the bot of slot ``i`` sits in seat ``(i + r) mod n``).
    """
    if nbots <= nplayers:
        tables = [tuple(s % nbots for s in range(nplayers))]
    else:
        tables = list(itertools.combinations(range(nbots), nplayers))
    out: list[tuple[int, ...]] = []
    for table in tables:
        seen: set[tuple[int, ...]] = set()
        for r in range(nplayers):
            seating = tuple(table[(s - r) % nplayers] for s in range(nplayers))
            if seating not in seen:
                seen.add(seating)
                out.append(seating)
    return tuple(out)


class Match:
    """A match between bots: which games, which seats, which seeds.

    :param game: a game name (see :func:`pycards.game.game_names`) or a
        :class:`~pycards.game.Game` (which carries its rules and players).
    :param bots: bot specs for :func:`pycards.bots.make_bot` (``"random"``,
        ``"ismcts:simulations=200"``, or a bot class by import path,
        ``"mybots:MyBot"``, whose module is looked up on ``sys.path``, then in
        the current folder), bot objects (``name``, ``reset(seed)``,
        ``act(view)``), or one comma-separated string of specs.
    :param games: how many games to play.  In duplicate play this is rounded
        up to whole deal groups (every deal is played in every seating).
    :param players: the player count (default: the number of bots, within the
        game's range).  Ignored, but checked, when ``game`` is a Game.
    :param seed: the match seed (0 to 2**64 - 1): every deal and bot seed is
        derived from it and the game's index.
    :param duplicate: replay each deal in every seating (duplicate deals); if
        false, every game has a deal of its own and the seating rotates.
    :param move_time: a time budget per move in seconds; a move that takes
        longer loses the game (``None``: no budget).
    :param max_actions: the most actions one game may take (``None``, the
        default: :func:`pycards.playouts.action_cap` of the game, 20 times its
        longest random game and at least 10,000).  A game still going after
        that many raises :class:`~pycards.errors.StalledGameError`, saying why
        (in the Game of Nancy, bots that never bid never end a game: a deal
        where every seat passes is dealt again).
    :param native: play in the engine's native loop when every bot is built in
        (``None``, the default), never (``False``), or always (``True``: an
        error if a bot is not built in or ``move_time`` is set).  The games are
        the same either way.

    Every name is checked here, before any game starts: an unknown game or
    bot, or a player count the game does not support, raises
    :class:`ValueError` (or :class:`~pycards.errors.RulesError` for the player
    count) naming it.
    """

    def __init__(
        self,
        game: str | Game[Rules, object],
        bots: Sequence[str | BotLike] | str,
        games: int = 100,
        *,
        players: int | None = None,
        seed: int = 0,
        duplicate: bool = True,
        move_time: float | None = None,
        rules: Rules | str | None = None,
        max_actions: int | None = None,
        native: bool | None = None,
    ) -> None:
        self.entries = _entries(bots)
        if isinstance(game, Game):
            if rules is not None:
                raise ValueError("pass rules inside the Game, not both")
            if players is not None:
                players = as_int(players, "players", 1, 64)
                if players != game.num_players:
                    raise RulesError(
                        f"players={players} but the game is for {game.num_players} players"
                    )
            self.game: Game[Rules, object] = game
        elif isinstance(game, str):
            info = known_game_info(game)
            lo, hi = info.min_players, info.max_players
            if players is None:
                players = min(max(len(self.entries), lo), hi)
            players = as_int(players, "players", -(1 << 31), 1 << 31)
            if not lo <= players <= hi:
                raise RulesError(f"{game}: {players} players not supported ({lo} to {hi})")
            self.game = load_game(game, rules, players)
        else:
            raise TypeError(f"game must be a game name or a Game, got {type(game).__name__}")
        self.games = as_int(games, "games", 1, 1 << 40)
        self.seed = as_int(seed, "seed", 0, _M64)
        if not isinstance(duplicate, bool):
            raise TypeError(f"duplicate must be a bool, got {type(duplicate).__name__}")
        self.duplicate = duplicate
        if move_time is not None:
            if isinstance(move_time, bool) or not isinstance(move_time, (int, float)):
                raise TypeError(f"move_time must be a number of seconds or None, got {move_time!r}")
            if not (move_time > 0 and math.isfinite(move_time)):
                raise ValueError(f"move_time must be positive, got {move_time!r}")
            move_time = float(move_time)
        self.move_time: float | None = move_time
        if native is not None and not isinstance(native, bool):
            raise TypeError(f"native must be a bool or None, got {type(native).__name__}")
        #: Use the native loop: ``None`` when possible, ``False`` never, ``True``
        #: always (:meth:`run` raises if it is not possible).
        self.native = native
        self.seatings = _seatings(len(self.entries), self.game.num_players)
        #: The most actions one game may take (see ``max_actions``).
        self.max_actions: int = (
            action_cap(self.game)
            if max_actions is None
            else as_int(max_actions, "max_actions", 1, 1 << 62)
        )

    # -- the schedule ---------------------------------------------------------
    @property
    def bot_names(self) -> tuple[str, ...]:
        """The bots' names, in match order (a repeated name gets ``#2``, ``#3``)."""
        return tuple(e.name for e in self.entries)

    @property
    def num_players(self) -> int:
        """Seats at the table."""
        return self.game.num_players

    @property
    def group_size(self) -> int:
        """Games of one deal group (duplicate play: the seatings), else 1."""
        return len(self.seatings) if self.duplicate else 1

    @property
    def total_games(self) -> int:
        """Games the match plays (``games`` rounded up to whole deal groups)."""
        k = self.group_size
        return -(-self.games // k) * k

    def group(self, index: int) -> int:
        """The statistics unit of game ``index`` (its deal group)."""
        return index // self.group_size

    def seating(self, index: int) -> tuple[int, ...]:
        """The bot in each seat in game ``index``."""
        return self.seatings[index % len(self.seatings)]

    def deal_seed(self, index: int) -> int:
        """The deal seed of game ``index`` (shared by its deal group)."""
        return derive_seed(self.seed, "deal", self.group(index))

    def bot_seeds(self, index: int) -> tuple[int, ...]:
        """Each seat's bot seed in game ``index`` (``bot.reset`` gets it)."""
        return tuple(derive_seed(self.seed, "bot", index, s) for s in range(self.num_players))

    def chunks(self, size: int) -> list[range]:
        """The games split into ranges of at most ``size`` games."""
        size = as_int(size, "chunk size", 1, 1 << 40)
        n = self.total_games
        return [range(a, min(a + size, n)) for a in range(0, n, size)]

    def __repr__(self) -> str:
        return (
            f"Match({self.game.NAME!r}, {list(self.bot_names)}, games={self.total_games}, "
            f"players={self.num_players}, seed={self.seed}, duplicate={self.duplicate})"
        )

    # -- playing --------------------------------------------------------------
    def use_native(self, seats: SeatBots | None = None) -> bool:
        """True if the games run in the engine's native loop (see ``native``)."""
        if self.native is False:
            return False
        possible = native_possible(self, SeatBots(self) if seats is None else seats)
        if self.native and not possible:
            raise ValueError(
                "native=True, but the native loop needs every bot built in, no move_time, "
                "and an engine with play_match"
            )
        return possible

    def play(
        self,
        indices: Sequence[int] | range,
        on_game: Callable[[GameRecord], None] | None = None,
    ) -> list[GameRecord]:
        """Play the games ``indices`` here and return their records in order.

        Uses the native loop when every bot is built in and the engine has it
        (see :meth:`use_native`), else plays in Python.  A
        :class:`KeyboardInterrupt` propagates; the games finished before it
        were passed to ``on_game``.
        """
        seats = SeatBots(self)
        out: list[GameRecord] = []
        if self.use_native(seats):
            return play_native(self, seats, list(indices), on_game)
        for i in indices:
            record = self.play_game(i, seats)
            out.append(record)
            if on_game is not None:
                on_game(record)
        return out

    def play_game(self, index: int, seats: SeatBots | None = None) -> GameRecord:
        """Play game ``index`` in Python and return its record."""
        if seats is None:
            seats = SeatBots(self)
        n = self.num_players
        seating = self.seating(index)
        bots = seats.at(seating)
        deal_seed = self.deal_seed(index)
        state = self.game.new_initial_state(deal_seed)
        moves = [0] * n
        seconds = [0.0] * n
        failure: Failure | None = None
        for s, seed in enumerate(self.bot_seeds(index)):
            try:
                bots[s].reset(seed)
            except Exception as exc:
                failure = Failure(s, "error", f"reset raised {exc!r}")
                break
        budget = self.move_time
        # the budget is wall-clock time; the cost reported is the thread's CPU
        # time, which a loaded machine does not inflate
        clock, cpu = time.perf_counter, time.thread_time
        cap, played = self.max_actions, 0
        while failure is None and not state.is_terminal:
            if played >= cap:
                raise StalledGameError(
                    f"{stalled_message(self.game, played)} (game {index} of the match, "
                    f"deal seed {deal_seed}; the match's max_actions is {cap:,})"
                )
            played += 1
            p = state.current_player
            view = _view(state, p)
            t0, c0 = clock(), cpu()
            try:
                action = bots[p].act(view)
            except Exception as exc:
                seconds[p] += cpu() - c0
                moves[p] += 1
                failure = Failure(p, "error", f"act raised {exc!r}")
                break
            dt = clock() - t0
            seconds[p] += cpu() - c0
            moves[p] += 1
            if budget is not None and dt > budget:
                failure = Failure(p, "timeout", f"a move took {dt:.3g} s (budget {budget:g} s)")
            elif isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                failure = Failure(p, "not_int", f"act returned {action!r}, not an int")
            elif not state.can_apply(int(action)):
                failure = Failure(p, "illegal", f"illegal action {int(action)}")
            else:
                state.apply(int(action))
        returns = [float(x) for x in state.returns()]
        if failure is not None:
            returns[failure.seat] = min(returns)
        return GameRecord(
            index=index,
            group=self.group(index),
            deal_seed=deal_seed,
            seating=seating,
            returns=tuple(returns),
            failure=failure,
            moves=tuple(moves),
            seconds=tuple(seconds),
        )

    def run(
        self,
        *,
        workers: int | None = None,
        scheduler: str | None = None,
        progress: bool | None = None,
        chunk_size: int | None = None,
    ) -> MatchResult:
        """Play the whole match and return its :class:`~pycards.arena.MatchResult`.

        ``workers=N`` plays it on a Dask LocalCluster of N processes on this
        machine, ``scheduler="tcp://host:8786"`` on an existing Dask cluster
        (both need the ``dask`` extra); otherwise it runs in this process.  The
        records, and so the table, are the same either way.  ``progress``
        shows a progress bar (``None``: when stderr is a terminal and rich is
        installed).  Ctrl-C stops the match and returns the finished games'
        results, flagged ``interrupted``.
        """
        outcome = run(
            self,
            label=f"{self.game.NAME} arena",
            workers=workers,
            scheduler=scheduler,
            progress=progress,
            chunk_size=chunk_size,
        )
        return MatchResult(
            self,
            outcome.records,
            interrupted=outcome.interrupted,
            native=outcome.native,
            wall_seconds=outcome.wall_seconds,
        )


def known_game_info(name: str) -> GameInfo:
    """The engine's description of the game ``name``; a :class:`TypeError`
    or :class:`ValueError` naming the known games if there is none."""
    if not isinstance(name, str):
        raise TypeError(f"a game name is a str, got {type(name).__name__}")
    try:
        find_game(name)
    except ValueError:
        known = sorted({*game_names(), *offered_games()})
        raise ValueError(f"unknown game {name!r}; known: {', '.join(known)}") from None
    return game_info(name)


def _view(state: State[object], seat: int) -> PlayerView[object]:
    # The bot gets a view of a copy: nothing it does through the view's
    # private parts can change the game the arena is refereeing.
    return state.clone().view(seat)


class SeatBots:
    """The bot objects of one process: one per (bot, seat occurrence).

    A bot that holds two seats of one game (more seats than bots) plays each
    with its own instance, so its seats do not share a generator or memory.
    The first instance of a bot given as an object is that object (a copy if
    the same object was given twice).
    """

    def __init__(self, match: Match) -> None:
        self._entries = match.entries
        self._made: dict[tuple[int, int], BotLike] = {}
        self._used: set[int] = set()

    def get(self, bot: int, occurrence: int) -> BotLike:
        key = (bot, occurrence)
        inst = self._made.get(key)
        if inst is None:
            e = self._entries[bot]
            if e.spec is not None:
                inst = _make_bot(e.spec)
            elif e.obj is None:
                raise AssertionError("an entry has a spec or a bot")
            elif occurrence == 0 and id(e.obj) not in self._used:
                inst = e.obj
            else:
                inst = copy.deepcopy(e.obj)
            self._used.add(id(inst))
            self._made[key] = inst
        return inst

    def at(self, seating: tuple[int, ...]) -> list[BotLike]:
        count: dict[int, int] = {}
        out = []
        for b in seating:
            k = count.get(b, 0)
            count[b] = k + 1
            out.append(self.get(b, k))
        return out
