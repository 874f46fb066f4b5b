"""The registered games, for every test and benchmark that runs "every game".

Nothing here names a game.  The names come from :func:`pycards.game.game_names`
(the engine's games that have a facade), the player range from the engine's
table (``Game.info``), the oracle from ``tests/reference`` (the module that
registers the game's reference state), and what the shared tests and the
benchmarks need to know of one game (its quick preset, which tables to play,
how long a match must be to tell a bot from chance, the strength table's
rows) from the game's profile, ``tests/profiles/<name>.py``.

``tests/conftest.py`` offers the same as fixtures; test modules and the
benchmarks import this module (the benchmarks through their ``_here`` module).
"""

from __future__ import annotations

import dataclasses
import importlib
import pathlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest
import reference
from reference import game as reference_game

from pycards.define import DefinedGame
from pycards.engine import registered_games
from pycards.game import Game, Rules, game_names, load_game

TESTS = pathlib.Path(__file__).resolve().parent
ROOT = TESTS.parent

__all__ = ["GAMES", "ROOT", "TESTS", "GameCase", "Profile", "builtin_game_names", "game_params"]


@dataclasses.dataclass(frozen=True)
class Profile:
    """What the shared tests need to know of one game (its ``tests/profiles``
    module sets ``PROFILE``); every field has a default that fits a game
    without special needs."""

    #: The rules preset (a preset classmethod of the rules, one of ``PRESETS``)
    #: that tests and benchmarks play when one quick game will do; default:
    #: the first of ``PRESETS``.
    quick_preset: str = ""

    #: Table sizes the shared tests play, the usual one first (default: the
    #: fewest players the game allows).
    tables: tuple[int, ...] = ()
    #: Tables where the seats play in two partnerships (seat p with p + 2).
    partnerships: tuple[int, ...] = ()
    #: The heuristic against random seats: (players, games) for a one-sided
    #: binomial z above 4.
    heuristic_match: tuple[int, int] | None = None
    #: ISMCTS against random seats: (players, simulations, games, floor of the
    #: mean rank reward), the quick match and the slow one.
    ismcts_match: tuple[int, int, int, float] | None = None
    ismcts_match_slow: tuple[int, int, int, float] | None = None
    #: Table sizes the speed benchmarks time and the docs quote
    #: (``benchmarks/compare/compare_vecenv.py``, ``count_vecenv.py``); default:
    #: the shared tests' tables.
    bench_tables: tuple[int, ...] = ()
    #: Rules parameters (by the engine's names) that keep a game short enough
    #: for per-step checks of every seat at every step (OpenSpiel's
    #: ``random_sim_test``): a turn cap, a single deal; default: none needed.
    short_params: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: The sampler benchmarks' cases and their targets: (players, rules
    #: fields, the empty dict for the defaults; microseconds per sample).  A
    #: case with rules is a hard sampling problem the state benchmarks time
    #: too (``benchmarks/suite/bench_samplers.py``, ``bench_state.py``,
    #: ``benchmarks/compare/compare_samplers.py``, ``compare_state.py``).
    sampler_bench: tuple[tuple[int, dict[str, Any], float], ...] = ()
    #: The ISMCTS speed benchmarks' table and target, simulations per second
    #: with random rollouts (``benchmarks/_search_positions.py``); ``None``:
    #: the game is not timed there.
    search_bench: tuple[int, int] | None = None
    #: The browser test stops and restarts the server in the middle of this
    #: game's table (one game pays for the restart).
    web_restart: bool = False
    #: Headings the browser table's Rules panel must show for this game,
    #: written out by hand from its rule book in plain words.
    rules_headings: frozenset[str] = frozenset()
    #: A decision the browser test makes by name when it is offered (the
    #: action's name), and a pattern of a prompt that must follow it (the
    #: decision it leads to, asked in words); ``None``: play at random.
    web_lead: tuple[str, str] | None = None
    #: What the browser table's server tests (tests/ui/test_web*.py) play this
    #: game for: ``"quick"`` where any short game will do, ``"search"`` the
    #: tables of the heaviest allowed bot, ``"long"`` the table that plays on
    #: beside them, ``"three"`` the table of three seats that is stopped and
    #: resumed; ``""``: only the tests of every game.
    web_role: str = ""
    #: The arena matches that judge the search defaults against the heuristic
    #: (benchmarks/studies/search_defaults.py): (players, rules preset or
    #: None for the default rules); default: the fewest players, default rules.
    search_matches: tuple[tuple[int, str | None], ...] = ()
    #: The digest of a fixed course of ``VectorEnv.random_actions`` and steps
    #: at the smallest of ``bench_tables``
    #: (``tests/envs/test_vecenv_random_actions.py``), printed by the engine
    #: that drew every random action at the call; "": not checked.
    vector_random_digest: str = ""
    #: The terminal sessions whose records are in tests/records (tests/ui/test_terminal.py
    #: plays them again): the session's name (the game's name first) and the
    #: arguments of ``pycards play`` after the game's name; default: one
    #: session under the game's name, ``--seed 12``.
    terminal_sessions: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    #: The vector environment's thread check (tests/envs/test_vecenv_pool.py) at the
    #: usual table: the games in the vector, the opponent policy, and whether
    #: 150 steps finish some game (so that auto-resets are exercised).
    pool_case: tuple[int, str, bool] = (64, "random", True)
    #: The rules preset of the arena's matches of deterministic bots
    #: (tests/arena/test_arena.py), one that ends every game; ``None``: the defaults.
    arena_preset: str | None = None
    #: The vector environment's checks against its plain-Python twin
    #: (tests/envs/test_vector.py): (players, learner seat, steps, whether
    #: some game must finish in those steps); default: the usual table, seat
    #: 0, 100 steps, no finish required.
    vector_twin_cases: tuple[tuple[int, int, int, bool], ...] = ()
    #: The rows of the strength table (benchmarks/studies/strength_table.py,
    #: docs/strength.rst): each a label, a player count and a rules preset;
    #: default: none (the game is not in the table).
    strength_rows: tuple[tuple[str, int, str], ...] = ()
    #: The test files of ``tests/games/<name>/`` whose name no other game's
    #: folder uses, each with the reason it is this game's alone
    #: (tests/project/test_tests_tree.py); the others take the shared names.
    own_test_files: dict[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class GameCase:
    """One registered game as the tests see it."""

    name: str
    game_type: type[Game[Any, Any]]
    min_players: int
    max_players: int
    profile: Profile
    oracle: ModuleType

    @property
    def rules_type(self) -> type[Rules]:
        """The game's rules dataclass."""
        rules_type: type[Rules] = self.game_type.RULES_TYPE
        return rules_type

    @property
    def quick_preset(self) -> str:
        """The preset that tests and benchmarks play when one quick game will do."""
        presets = self.rules_type.PRESETS
        if not (self.profile.quick_preset or presets):
            raise LookupError(f"{self.name}: no rules preset; set its profile's quick_preset")
        return self.profile.quick_preset or presets[0]

    @property
    def players(self) -> range:
        """Every player count the game allows."""
        return range(self.min_players, self.max_players + 1)

    @property
    def tables(self) -> tuple[int, ...]:
        """The table sizes the shared tests play, the usual one first."""
        return self.profile.tables or (self.min_players,)

    @property
    def terminal_sessions(self) -> dict[str, tuple[str, ...]]:
        """The terminal sessions of tests/records: name and ``pycards play`` arguments."""
        return self.profile.terminal_sessions or {self.name: ("--seed", "12")}

    @property
    def bench_tables(self) -> tuple[int, ...]:
        """The table sizes the speed benchmarks time, the usual one first."""
        return self.profile.bench_tables or self.tables

    def arena_rules(self) -> Rules | None:
        """The rules of the arena's matches of deterministic bots (``None``: the defaults)."""
        preset = self.profile.arena_preset
        rules: Rules | None = getattr(self.rules_type, preset)() if preset else None
        return rules

    @property
    def vector_twin_cases(self) -> tuple[tuple[int, int, int, bool], ...]:
        """The vector env's twin checks: (players, learner, steps, must finish)."""
        return self.profile.vector_twin_cases or ((self.tables[0], 0, 100, False),)

    def sampler_cases(self) -> list[tuple[int, Rules | None, str, float]]:
        """The sampler benchmarks' cases: (players, rules or ``None`` for the
        defaults, a label, the target in microseconds per sample)."""
        out = []
        for players, fields, target in self.profile.sampler_bench:
            rules = self.rules_type(**fields) if fields else None
            label = ", ".join(f"{k}={v!r}" for k, v in fields.items()) or "defaults"
            out.append((players, rules, label, target))
        return out

    def quick_rules(self) -> Rules:
        """The rules of the game's quick preset."""
        rules: Rules = getattr(self.rules_type, self.quick_preset)()
        return rules

    def game(self, num_players: int | None = None, *, quick: bool = True) -> Game[Any, Any]:
        """The game at ``num_players`` (the usual table) with its quick preset,
        or its default rules when not ``quick``."""
        players = self.tables[0] if num_players is None else num_players
        return load_game(self.name, self.quick_rules() if quick else None, players)


def _oracle(name: str) -> ModuleType:
    state_type = reference_game._GAMES.get(name)
    if state_type is None:
        raise LookupError(f"{name}: no reference oracle registers this game (tests/reference/)")
    return importlib.import_module(state_type.__module__)


def _profile(name: str) -> Profile:
    try:
        module = importlib.import_module(f"profiles.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"profiles.{name}":
            raise
        return Profile()
    profile: Profile = module.PROFILE
    return profile


def _case(name: str) -> GameCase:
    game = load_game(name)
    return GameCase(
        name=name,
        game_type=type(game),
        min_players=game.info.min_players,
        max_players=game.info.max_players,
        profile=_profile(name),
        oracle=_oracle(name),
    )


assert reference  # the package import registers every oracle


def builtin_game_names() -> list[str]:
    """The registered games that are *built in*: hand-written in C, each with
    its facade module ``pycards.games.<name>``, its page, record, profile and
    tests folder, and its name kept out of shared files
    (tests/project/test_layout.py).  A *defined* game (a
    :class:`pycards.define.DefinedGame`, registered from a description: a
    port of :data:`pycards.define.PORTS` asked for by name, or a user's) is
    the other kind: it brings none of those files, so the per-game file
    checks do not apply to it, while the checks of the common API do."""
    games = registered_games()
    return [name for name in game_names() if not issubclass(games[name], DefinedGame)]


#: The registered games by name, in :func:`game_names` order.
GAMES: dict[str, GameCase] = {name: _case(name) for name in game_names()}


def game_params(tables: str = "one", extra: Sequence[str] = ()) -> list[Any]:
    """Parameters for ``pytest.mark.parametrize`` over every registered game.

    ``tables``: ``"none"`` gives ``name``; ``"one"`` gives ``(name, players)``
    at the usual table; ``"tables"`` one per table of the game's profile;
    ``"ends"`` the first and last of those; ``"all"`` every player count.
    ``extra`` names :class:`GameCase` attributes appended to each tuple
    (``"quick_preset"``...).  Ids read ``name-3p``.
    """
    out = []
    for case in GAMES.values():
        if tables == "none":
            counts: Sequence[int | None] = [None]
        elif tables == "one":
            counts = case.tables[:1]
        elif tables == "tables":
            counts = case.tables
        elif tables == "ends":
            counts = sorted({case.tables[0], case.tables[-1]}, key=case.tables.index)
        elif tables == "all":
            counts = case.players
        else:
            raise ValueError(f"tables must be none, one, tables, ends or all, got {tables!r}")
        for n in counts:
            values: list[Any] = [case.name] if n is None else [case.name, n]
            values += [getattr(case, attr) for attr in extra]
            label = case.name if n is None else f"{case.name}-{n}p"
            out.append(pytest.param(*values, id=label))
    return out
