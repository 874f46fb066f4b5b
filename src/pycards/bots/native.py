"""The built-in bots played by the engine: the game's heuristic, determinized
Monte Carlo (PIMC) and information-set MCTS (ISMCTS).

Each searches in C (GIL released) from the state behind the view, for the
view's seat, with only what that seat may know: every determinization is
drawn by the game's sampler for that seat.  See :doc:`/search` for the
algorithms, the reward and the cost.

>>> from pycards.game import load_game
>>> state = load_game("nodde", num_players=2).new_initial_state(seed=7)
>>> bot = ISMCTSBot(seed=1, simulations=200)
>>> bot.act(state.view(state.current_player)) in state.legal_actions()
True

A match where every seat is a built-in bot can run entirely in C through
:meth:`NativeBot.native_searcher` and :func:`cardcore._core.play_match`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeAlias, cast

import numpy as np
import numpy.typing as npt

from cardcore import _core

from .._args import as_int, echo
from ..game import Game, Rules, SearchValue
from ..nets import default_model, load_engine_net, resolve_network
from ..view import PlayerView
from .base import Bot, make_bot, parse_bot_spec, register_bot
from .value import win_probability_table

__all__ = [
    "BestBot",
    "HeuristicBot",
    "ISMCTSBot",
    "NativeBot",
    "NetBot",
    "PIMCBot",
    "SearchOptions",
    "search_defaults",
]

_M64 = 2**64 - 1

#: The deals simulated for a default win table (cached per rules).
WIN_TABLE_DEALS = 4000

#: A rollout policy hook: ``policy(obs, mask, player) -> action``.
Policy: TypeAlias = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_], int], int]
#: A leaf evaluation hook: ``evaluate(obs, masks, players) -> values`` ((n, players)).
Evaluate: TypeAlias = Callable[
    [npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int32]], npt.ArrayLike
]
#: A priors hook: ``priors(obs, mask, player) -> priors`` ((num_actions,)).
Priors: TypeAlias = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_], int], npt.ArrayLike]

# the engine's defaults (cc_bots.h, CC_BOT_DEFAULT_*), read once
_ENGINE = _core.search_defaults()
# the kinds of bot that search (and take SearchOptions)
_SEARCH_KINDS = ("pimc", "ismcts")
# the rollout policies the engine knows by name; any other name is a network
_ROLLOUT_NAMES = ("random", "heuristic")


@dataclasses.dataclass(frozen=True, slots=True)
class SearchOptions:
    """The options of a built-in search bot (PIMC or ISMCTS), whole: what
    :class:`cardcore._core.Searcher` is made with.  The defaults are the
    engine's (``CC_BOT_DEFAULT_*`` of ``cc_bots.h``, read through
    :func:`cardcore._core.search_defaults`); :meth:`for_game` lays a game's
    :attr:`~pycards.game.Game.SEARCH_DEFAULTS` and a bot's own options over
    them; :meth:`parse` reads a bot spec.  The engine checks the values
    (:func:`cardcore._core.check_bot`), not this class: see
    :class:`ISMCTSBot` and :class:`PIMCBot` for what each option means.

    >>> SearchOptions().simulations, SearchOptions().exploration
    (1000, 0.7)
    >>> SearchOptions.parse("ismcts:simulations=200:rollout=heuristic")
    ('ismcts', SearchOptions(simulations=200, rollout='heuristic'))
    """

    #: simulations (rollouts) per move, per tree (0 with ``seconds``: no cap)
    simulations: int = _ENGINE["simulations"]
    #: a time budget per move instead, or None
    seconds: float | None = _ENGINE["seconds"]
    #: ``"random"``, ``"heuristic"``, a network (its file or shipped name) or a policy hook
    rollout: str | Policy = _ENGINE["rollout"]
    #: the UCT constant (ISMCTS)
    exploration: float = _ENGINE["exploration"]
    #: determinizations per move (PIMC)
    samples: int = _ENGINE["samples"]
    #: ``"win"``, ``"margin"`` or ``"points"``
    reward: str = _ENGINE["reward"]
    #: ``"game"`` or ``"deal"``
    horizon: str = _ENGINE["horizon"]
    #: root-parallel trees
    threads: int = _ENGINE["threads"]
    #: the divisor of the margin reward
    scale: float = _ENGINE["scale"]
    #: the solver's reach, in cards left to play (0: never)
    solve: int = _ENGINE["solve"]
    #: leaves valued per ``evaluate`` call
    batch: int = _ENGINE["batch"]
    #: the deal-horizon win table (two players, reward ``"win"``), or None
    win_table: npt.NDArray[np.float64] | None = dataclasses.field(
        default=_ENGINE["win_table"], compare=False
    )
    #: the leaf evaluation hook (ISMCTS), or None
    evaluate: Evaluate | None = _ENGINE["evaluate"]
    #: the priors hook or network (its file or shipped name) (ISMCTS), or None
    priors: Priors | str | None = _ENGINE["priors"]
    #: the leaf value network (its file or shipped name) (ISMCTS), or None
    value: str | None = _ENGINE["value"]
    #: the value network's share of a leaf's value (1: no rollout)
    value_weight: float = _ENGINE["value_weight"]

    @classmethod
    def parse(cls, spec: str) -> tuple[str, SearchOptions]:
        """The kind and options of a search bot's spec (``"pimc:samples=20"``);
        ``ValueError`` for another bot, an unknown option or a value the
        engine refuses (naming it)."""
        kind, options = parse_bot_spec(spec)
        if kind not in _SEARCH_KINDS:
            raise ValueError(f"bot spec {echo(spec)}: {kind!r} is not a search bot (pimc, ismcts)")
        known = {f.name for f in dataclasses.fields(cls)}
        for key in options:
            if key not in known:
                raise ValueError(f"bot spec {echo(spec)}: unknown option {key!r}")
        out = cls._with(options)
        out.check(kind)
        return kind, out

    @classmethod
    def for_game(
        cls, game: Game[Rules, object], kind: str, options: Mapping[str, object] | None = None
    ) -> SearchOptions:
        """The options a ``kind`` bot searches ``game`` with: the engine's
        defaults, then the game's (:func:`search_defaults`), then ``options``;
        a win table where the reward is a win, the horizon the deal and the
        game a race of two players."""
        opts = cls._with({**search_defaults(game, kind), **(options or {})})
        if (
            opts.reward == "win"
            and opts.horizon == "deal"
            and opts.win_table is None
            and type(game).RACE_TARGET is not None
            and game.num_players == 2
        ):
            table = win_probability_table(game, deals=WIN_TABLE_DEALS)
            opts = dataclasses.replace(opts, win_table=table)
        return opts

    @classmethod
    def _with(cls, given: Mapping[str, object]) -> SearchOptions:
        # the engine's defaults with ``given`` over them, as the user wrote
        # them: the engine checks the values (check, searcher)
        out: SearchOptions = dataclasses.replace(cls(), **cast("Mapping[str, Any]", given))
        return out

    def _network_names(self) -> dict[str, str]:
        """The options that name a network (rollout, priors, value), by option."""
        out = {}
        if isinstance(self.rollout, str) and self.rollout not in _ROLLOUT_NAMES:
            out["rollout"] = self.rollout
        for key in ("priors", "value"):
            value = getattr(self, key)
            if isinstance(value, str):
                out[key] = value
        if self.value is not None and not isinstance(self.value, str):
            raise TypeError(f"value must be a network name or None, got {self.value!r}")
        return out

    def check(self, kind: str) -> None:
        """Raise ``TypeError`` or ``ValueError`` naming the option if the
        engine would refuse a ``kind`` bot with these options
        (:func:`cardcore._core.check_bot`); a network named that is no file
        and no shipped model is a :class:`~pycards.errors.NetworkError`."""
        names = self._network_names()
        for name in names.values():
            resolve_network(name)
        hooks = callable(self.rollout) or callable(self.priors) or self.evaluate is not None
        if names and hooks:
            raise ValueError("networks and Python hooks cannot be mixed in one searcher")
        if ("value" in names or "priors" in names) and kind != "ismcts":
            raise ValueError(f"value and priors networks are for the ismcts bot, not {kind!r}")
        # the networks stand in as "not given" here: whether they fit the
        # game is the searcher's check
        _core.check_bot(
            kind,
            simulations=self.simulations,
            seconds=self.seconds,
            rollout="random" if "rollout" in names else self.rollout,
            exploration=self.exploration,
            samples=self.samples,
            reward=self.reward,
            horizon=self.horizon,
            threads=self.threads,
            scale=self.scale,
            win_table=self.win_table,
            evaluate=self.evaluate,
            batch=self.batch,
            priors=None if "priors" in names else cast("Priors | None", self.priors),
            solve=self.solve,
            value_weight=self.value_weight,
        )

    def searcher(self, setup: _core.GameSetup, kind: str) -> _core.Searcher:
        """The engine's ``kind`` searcher for ``setup`` with these options
        (:class:`cardcore._core.Searcher`), its networks loaded
        (:func:`pycards.nets.load_engine_net`)."""
        nets = {
            key: load_engine_net(name, setup.name, setup.nplayers)
            for key, name in self._network_names().items()
        }
        priors = nets.get("priors", self.priors)
        return _core.Searcher(
            setup,
            kind,
            simulations=self.simulations,
            seconds=self.seconds,
            rollout=nets.get("rollout", self.rollout),
            exploration=self.exploration,
            samples=self.samples,
            reward=self.reward,
            horizon=self.horizon,
            threads=self.threads,
            scale=self.scale,
            win_table=self.win_table,
            evaluate=self.evaluate,
            batch=self.batch,
            priors=None if isinstance(priors, str) else priors,
            solve=self.solve,
            value=nets.get("value"),
            value_weight=self.value_weight,
        )

    def __repr__(self) -> str:
        default = SearchOptions()
        changed = []
        for f in dataclasses.fields(self):
            value, base = getattr(self, f.name), getattr(default, f.name)
            if value is base or (f.compare and value == base):
                continue
            changed.append(f"{f.name}={value!r}")
        return f"SearchOptions({', '.join(changed)})"


def search_defaults(game: Game[Rules, object], kind: str | None = None) -> dict[str, SearchValue]:
    """The search options a PIMC or ISMCTS bot takes in ``game`` unless told
    otherwise: the game's :attr:`~pycards.game.Game.SEARCH_DEFAULTS`, those of
    both kinds, then those of ``kind`` (``"pimc"`` or ``"ismcts"``; None: both
    kinds' only).  A game without defaults gets the engine's (an empty dict).

    >>> from pycards.game import load_game
    >>> search_defaults(load_game("notakers"), "ismcts")["reward"]
    'margin'
    """
    table = type(game).SEARCH_DEFAULTS
    opts = {k: v for k, v in table.items() if not isinstance(v, Mapping)}
    mine = table.get(kind, {}) if kind is not None else {}
    if isinstance(mine, Mapping):
        opts.update(mine)
    return opts


class NativeBot:
    """A bot played by the engine's searcher (:class:`cardcore._core.Searcher`).

    The searcher is made on the first move of a game of a new kind (game,
    rules, players) and kept; its generator is seeded by :meth:`reset` (the
    bot's ``seed`` until then).  Nothing else is kept between moves: the
    search tree is rebuilt for every move.
    """

    #: The engine's name of the bot kind.
    KIND: ClassVar[str]
    name: str = "native"

    #: Does this kind take the game's search defaults (:func:`search_defaults`)?
    SEARCH: ClassVar[bool] = False

    def __init__(self, seed: int = 0, **options: Any) -> None:
        """``options`` are the searcher's keyword arguments that this kind of
        bot takes (see :class:`cardcore._core.Searcher`); the engine checks
        them now.  An option that is None takes the game's default
        (:func:`search_defaults`), the others the searcher's."""
        self._seed = as_int(seed, "seed", 0, _M64)
        options = {k: v for k, v in options.items() if v is not None or k == "seconds"}
        if self.SEARCH:
            SearchOptions._with(options).check(self.KIND)
        else:
            _core.check_bot(self.KIND, **options)
        # passed through to the engine, which checks them (by name)
        self._options: dict[str, Any] = options
        self._searcher: _core.Searcher | None = None

    def __getstate__(self) -> dict[str, object]:
        # a copy (arena seats, pickles) makes its own searcher on first use
        state = dict(self.__dict__)
        state["_searcher"] = None
        return state

    @property
    def options(self) -> dict[str, object]:
        """The searcher's options this bot was made with (by name)."""
        return dict(self._options)

    def reset(self, seed: int) -> None:
        """Start a new game: reseed the generator with ``seed``."""
        self._seed = as_int(seed, "seed", 0, _M64)
        if self._searcher is not None:
            self._searcher.reset(self._seed)

    def native_searcher(self, game: Game[Rules, object]) -> _core.Searcher:
        """The engine's searcher of this bot for ``game`` (made on first use),
        for :func:`cardcore._core.play_match`."""
        setup = game._setup
        s = self._searcher
        if s is None or s.setup is not setup:
            if self.SEARCH:
                s = self.search_options(game).searcher(setup, self.KIND)
            else:
                s = _core.Searcher(setup, self.KIND, **self._options)
            s.reset(self._seed)
            self._searcher = s
        return s

    def search_options(self, game: Game[Rules, object]) -> SearchOptions:
        """The whole options this bot searches ``game`` with (a search bot's:
        :meth:`SearchOptions.for_game`); ``TypeError`` for a bot that does
        not search."""
        if not self.SEARCH:
            raise TypeError(f"a {self.KIND} bot does not search")
        return SearchOptions.for_game(game, self.KIND, self._options)

    def act(self, view: PlayerView[object]) -> int:
        """The action the search chooses for ``view``'s seat (on its turn)."""
        if not isinstance(view, PlayerView):
            raise TypeError(f"act expects a PlayerView, got {type(view).__name__}")
        if not view.is_my_turn:
            raise ValueError(f"seat {view.seat} has no legal action (not its turn, or game over)")
        searcher = self.native_searcher(view.game)
        action: int = searcher.act(view._state._s, view.seat)
        return action

    @property
    def last_simulations(self) -> int:
        """The simulations (rollouts) of the last move (0 before the first)."""
        return 0 if self._searcher is None else int(self._searcher.last_simulations)

    def __repr__(self) -> str:
        args = [f"seed={self._seed}", *(f"{k}={v!r}" for k, v in self._options.items())]
        return f"{type(self).__name__}({', '.join(args)})"


class HeuristicBot(NativeBot):
    """The game's documented rule-based policy (each game's page, "The heuristic
    bot"), ties broken by its generator; a random legal action for a game
    without one.

    >>> HeuristicBot(seed=3)
    HeuristicBot(seed=3)
    """

    KIND = "heuristic"
    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)


class PIMCBot(NativeBot):
    """Determinized Monte Carlo: ``samples`` states drawn among those the seat
    cannot tell apart; each legal action scored by rollouts in each; the best
    mean reward wins.  ``simulations`` rollouts per move in all (or a time
    budget of ``seconds``); ``rollout``, ``reward``, ``horizon``, ``scale``,
    ``threads`` and ``solve`` as for :class:`ISMCTSBot`; where the searched
    state itself is within the solver's reach, each determinization is solved
    once instead of rolled out.  Options left None take the game's
    defaults (:func:`search_defaults`), then the engine's (1000 simulations,
    10 samples)."""

    KIND = "pimc"
    name = "pimc"
    SEARCH = True

    def __init__(
        self,
        seed: int = 0,
        *,
        simulations: int | None = None,
        seconds: float | None = None,
        rollout: str | Policy | None = None,
        samples: int | None = None,
        reward: str | None = None,
        horizon: str | None = None,
        scale: float | None = None,
        threads: int = 1,
        solve: int | None = None,
    ) -> None:
        super().__init__(
            seed,
            simulations=simulations,
            seconds=seconds,
            rollout=rollout,
            samples=samples,
            reward=reward,
            horizon=horizon,
            scale=scale,
            threads=threads,
            solve=solve,
        )


class ISMCTSBot(NativeBot):
    """Single-observer information-set MCTS with UCT (``exploration`` is the
    constant ``c``) and availability counts: ``simulations`` iterations per
    move (or a time budget of ``seconds``), each on a fresh determinization,
    with ``rollout`` (``"random"``, ``"heuristic"`` or a callable ``policy(obs,
    mask, player) -> action``) to the ``horizon`` (``"game"`` or ``"deal"``),
    for the ``reward`` (``"win"``, ``"margin"``, ``"points"``), on ``threads``
    root-parallel trees; ``solve`` (0: never) hands a simulation over to the
    game's exact solver where at most that many cards are left to play
    (:doc:`/search`, "The solver leaf"); ``evaluate`` and ``priors`` are Python hooks
    (:class:`cardcore._core.Searcher`, :doc:`/search`).  Networks
    (:doc:`/networks`, a file or a shipped model's name): ``value`` values the
    leaves (``value_weight`` of the network, the rest the rollout's),
    ``priors`` gives PUCT priors and ``rollout`` the rollout policy.  Options left None
    take the game's defaults (:func:`search_defaults`), then the engine's
    (1000 simulations, exploration 0.7)."""

    KIND = "ismcts"
    name = "ismcts"
    SEARCH = True

    def __init__(
        self,
        seed: int = 0,
        *,
        simulations: int | None = None,
        seconds: float | None = None,
        rollout: str | Policy | None = None,
        exploration: float | None = None,
        reward: str | None = None,
        horizon: str | None = None,
        scale: float | None = None,
        threads: int = 1,
        evaluate: Evaluate | None = None,
        batch: int = 1,
        priors: Priors | str | None = None,
        solve: int | None = None,
        value: str | None = None,
        value_weight: float | None = None,
    ) -> None:
        super().__init__(
            seed,
            simulations=simulations,
            seconds=seconds,
            rollout=rollout,
            exploration=exploration,
            reward=reward,
            horizon=horizon,
            scale=scale,
            threads=threads,
            evaluate=evaluate,
            batch=batch,
            priors=priors,
            solve=solve,
            value=value,
            value_weight=value_weight,
        )


class NetBot(NativeBot):
    """A policy without search: one network call a move, the legal action of
    the highest policy output (ties: the lowest id), in microseconds.
    ``model`` is a network file or a shipped model's name
    (:func:`pycards.nets.resolve_network`); None plays the game's shipped
    model, ``"<game>-<n>p"`` (:func:`pycards.nets.default_model`).  The
    network must be made for the game and player count
    (:class:`~pycards.errors.NetworkError` on the first move otherwise).
    Spec: ``net`` or ``net:model=path/to/file.npz``."""

    KIND = "net"
    name = "net"

    def __init__(self, seed: int = 0, *, model: str | None = None) -> None:
        self._seed = as_int(seed, "seed", 0, _M64)
        if model is not None:
            if not isinstance(model, str):
                raise TypeError(f"model must be a network name or path, got {model!r}")
            resolve_network(model)
        self._model = model
        self._options = {} if model is None else {"model": model}
        self._searcher: _core.Searcher | None = None

    def native_searcher(self, game: Game[Rules, object]) -> _core.Searcher:
        """The engine's net bot for ``game`` (made on first use)."""
        setup = game._setup
        s = self._searcher
        if s is None or s.setup is not setup:
            name = self._model or default_model(type(game).NAME, game.num_players)
            net = load_engine_net(name, setup.name, setup.nplayers)
            s = _core.Searcher(setup, "net", net=net)
            s.reset(self._seed)
            self._searcher = s
        return s


class BestBot:
    """The strongest built-in bot of each game at no more than 20 ms a move:
    the bot of the game's :attr:`~pycards.game.Game.BEST_BOT` spec, made on
    its first move in that game (:doc:`/bots`, "The best bot", says what it is
    per game and how it was chosen).  It plays in the engine like the bot it
    stands for, and so joins the arena's C loop.

    >>> from pycards.game import load_game
    >>> state = load_game("nodde", num_players=2).new_initial_state(seed=7)
    >>> BestBot(seed=1).act(state.view(state.current_player)) in state.legal_actions()
    True
    """

    name = "best"

    def __init__(self, seed: int = 0) -> None:
        self._seed = as_int(seed, "seed", 0, _M64)
        self._bots: dict[str, Bot] = {}

    def bot_for(self, game: Game[Rules, object]) -> Bot:
        """The bot this one plays in ``game`` (made on first use, then kept)."""
        spec = type(game).BEST_BOT
        bot = self._bots.get(spec)
        if bot is None:
            bot = make_bot(spec, seed=self._seed)
            self._bots[spec] = bot
        return bot

    def reset(self, seed: int) -> None:
        """Start a new game: reseed every bot this one stands for."""
        self._seed = as_int(seed, "seed", 0, _M64)
        for bot in self._bots.values():
            bot.reset(self._seed)

    def native_searcher(self, game: Game[Rules, object]) -> _core.Searcher:
        """The engine's searcher of the game's best bot (for the C match loop)."""
        bot = self.bot_for(game)
        if not isinstance(bot, NativeBot):
            raise TypeError(
                f"{type(game).__name__}.BEST_BOT {type(game).BEST_BOT!r} is not a built-in bot"
            )
        return bot.native_searcher(game)

    def act(self, view: PlayerView[object]) -> int:
        """The action the game's best bot chooses for ``view``'s seat."""
        if not isinstance(view, PlayerView):
            raise TypeError(f"act expects a PlayerView, got {type(view).__name__}")
        return self.bot_for(view.game).act(view)

    def __repr__(self) -> str:
        return f"BestBot(seed={self._seed})"


register_bot("heuristic", HeuristicBot)
register_bot("pimc", PIMCBot)
register_bot("ismcts", ISMCTSBot)
register_bot("best", BestBot)
register_bot("net", NetBot)
