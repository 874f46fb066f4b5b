"""Every pycards game registered with OpenSpiel as a Python game (extra
``openspiel``).

>>> import pyspiel
>>> import pycards.envs.openspiel  # registers the games
>>> game = pyspiel.load_game("pycards_nodde", {"players": 3})
>>> state = game.new_initial_state()
>>> state.current_player() in range(3), game.num_distinct_actions()
(True, 52)

The games are ``pycards_<name>`` (:func:`game_names`), with the parameters
``players``, ``seed``, ``max_game_length`` and one per rules field (the field's name; a choice is
its name as a string, a bool a bool, an optional int its engine value for
None, e.g. ``-1``: see the game's page).

* **Chance** is *sampled stochastic*: the engine draws deals inside the state
  from its seed, so no chance node ever comes up.  The ``k``-th state made by
  a game object is dealt from seed ``seed + k``; a clone carries its state's
  generator, so a clone's future deals are the original's.
* **Observations**: ``observation_tensor`` is the game's observation tensor,
  ``observation_string`` the table as that seat sees it; the information
  state string is everything the seat has seen (its redacted event log, the
  number of older events a long game no longer keeps, and its table), and the
  information state tensor is the observation tensor (the engine keeps the
  public facts of the past in it: played cards, bids, scores, voids).
* ``resample_from_infostate(player, sampler)`` draws, with the engine's
  sampler, a state uniformly among those consistent with what the player
  knows (the seed comes from ``sampler()``); OpenSpiel's Python
  ``ISMCTSBot`` searches through it.  Its C++ ``ISMCTSBot`` cannot: it runs
  without the GIL and never reaches a Python resampler (docs: the OpenSpiel
  page).
* ``action_to_string`` is the action's name (``"play 5H"``); an illegal
  action raises.
* **Serialization**: ``pyspiel.serialize_game_and_state`` and
  ``pyspiel.deserialize_game_and_state`` work for these games from Python: a
  sampled-stochastic game's text carries its generator's state
  (``[GameRNGState]``), which OpenSpiel's C++ asks of the game
  (``Game::GetRNGState``) and which pyspiel's trampoline for Python games
  does not forward to Python, so this module wraps the two functions (any
  other game goes to OpenSpiel's own).  The generator state of a game is the
  number of states it has made (the next is dealt from ``seed + k``); the
  state's part is one line, ``pycards=`` and the JSON of :func:`serialize`
  (the game, its parameters and the pycards record: seed, stacked deck and
  actions).  Nothing is unpickled: OpenSpiel's own text for a Python state
  carries a pickle of its attributes, which would run code when read, and
  :meth:`PycardsGame.deserialize_state` refuses it.  Pickling a game or a
  state keeps the same.  C++ callers (``random_sim_test`` with
  ``serialize=True``) still meet OpenSpiel's "GetRNGState unimplemented".
* Returns are the engine's final points (general sum), given at the end of
  the game (OpenSpiel's terminal reward model, which its MCTS requires); the
  utility bounds are ``-2**24 .. 2**24``.
* **Length**: the parameter ``max_game_length`` (0, the default:
  :func:`pycards.playouts.action_cap` of the game, 20 times its longest
  random game and at least 10,000) is the game's ``max_game_length()``, and
  a game still going after that many actions is cut: it is terminal, with
  the points so far as returns (``PycardsState.is_cut``), as OpenSpiel's games
  with a move limit end.  Only a game with no end in sight gets there (in the
  Game of Nancy, seats that never bid: a deal where every seat passes is
  dealt again).

:class:`PycardsBot` seats any pycards bot (:func:`pycards.bots.make_bot`) in
OpenSpiel's bots API, e.g. in ``evaluate_bots``; :class:`OpenSpielBot` seats an
OpenSpiel bot in pycards (the arena or :class:`pycards.envs.gymnasium.CardGameEnv`
through :func:`pycards.bots.register_bot`).
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import numpy.typing as npt

from pycards._args import as_int, echo
from pycards.bots import Bot, make_bot
from pycards.engine import ParamInfo
from pycards.envs._common import NUMBER_BOUND, missing_extra

try:
    import pyspiel
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "openspiel", __name__) from None

from pycards.errors import RecordError
from pycards.game import Game, Rules, State, load_game, unique_keys
from pycards.game import game_names as _pycards_games
from pycards.playouts import action_cap
from pycards.view import PlayerView

__all__ = [
    "MAX_GAME_LENGTH",
    "OpenSpielBot",
    "PycardsBot",
    "PycardsGame",
    "PycardsState",
    "deserialize",
    "deserialize_game_and_state",
    "game_names",
    "host",
    "register",
    "serialize",
    "serialize_game_and_state",
]

#: The largest ``max_game_length`` parameter a game takes (in actions).
MAX_GAME_LENGTH = (1 << 31) - 1
_PREFIX = "pycards_"


def game_names() -> list[str]:
    """The OpenSpiel names of the games, ``"pycards_<game>"``."""
    return [_PREFIX + name for name in _pycards_games()]


def _param_value(d: ParamInfo) -> bool | int | str:
    """A rules field's default as an OpenSpiel parameter value."""
    if d.kind == "bool":
        return bool(d.default)
    if d.kind == "choice":
        return str(d.choices[d.default])
    return int(d.default)


def _game_type(name: str, game: Game[Rules, object] | None = None) -> Any:
    info = (game if game is not None else load_game(name)).info
    spec: dict[str, Any] = {"players": 2, "seed": 0, "max_game_length": 0}
    for d in info.params:
        spec[d.name] = _param_value(d)
    return pyspiel.GameType(
        short_name=_PREFIX + name,
        long_name=f"pycards {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


def _rules(name: str, params: dict[str, Any]) -> Any:
    """The rules object of OpenSpiel parameters (fields left out keep their defaults)."""
    rules_type = load_game(name).RULES_TYPE
    values: dict[str, Any] = {}
    for d in rules_type.parameters():
        if d.name not in params:
            continue
        v = params[d.name]
        if d.kind == "optional" and v == d.none_value:
            v = None
        values[d.name] = v
    return rules_type(**values)


class PycardsGame(pyspiel.Game):
    """A pycards game as an OpenSpiel game (made by ``pyspiel.load_game``)."""

    def __init__(
        self,
        name: str,
        params: dict[str, Any] | None = None,
        game: Game[Rules, object] | None = None,
    ) -> None:
        params = dict(params or {})
        if game is None:
            game = load_game(
                name, _rules(name, params), as_int(params.get("players", 2), "players", 1, 64)
            )
        self.pycards_game: Game[Rules, object] = game
        self._seed = as_int(params.get("seed", 0), "seed", 0, (1 << 63) - 1)
        cap = as_int(params.get("max_game_length", 0), "max_game_length", 0, MAX_GAME_LENGTH)
        #: The actions after which a game is cut: its ``max_game_length()``.
        self.max_actions: int = cap or action_cap(game)
        self._made = 0  # states made: the generator state of the game
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=0,
            num_players=game.num_players,
            min_utility=-NUMBER_BOUND,
            max_utility=NUMBER_BOUND,
            utility_sum=None,
            max_game_length=self.max_actions,
        )
        super().__init__(_game_type(name, game), info, params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_game, (self.get_type().short_name, self.get_parameters(), self._made))

    def new_initial_state(self) -> PycardsState:
        """A new game, dealt from ``seed + k`` for the ``k``-th state made."""
        seed = (self._seed + self._made) & ((1 << 64) - 1)
        self._made += 1
        return PycardsState(self, self.pycards_game.new_initial_state(seed))

    def get_rng_state(self) -> str:
        """The game's generator state: how many states it has made."""
        return str(self._made)

    def set_rng_state(self, text: str) -> None:
        """Set the generator state of :meth:`get_rng_state`."""
        made = text.strip(" \t\r\n") if isinstance(text, str) else ""
        if not re.fullmatch(r"[0-9]{1,20}", made, re.ASCII):
            raise ValueError(f"a game's generator state is a count of states, got {echo(text)}")
        self._made = int(made)

    def serialize(self) -> str:
        """The game as OpenSpiel's ``Game::Serialize`` writes a sampled-stochastic
        game: its string and its generator state."""
        return f"{self.to_string()}\n{_RNG_HEADER}\n{self.get_rng_state()}"

    def deserialize_state(self, text: str) -> PycardsState:
        """The state of :meth:`PycardsState.serialize` (``pycards=`` and JSON),
        in this game.  Any other text, such as OpenSpiel's pickled state of a
        Python game, raises :class:`~pycards.errors.RecordError`: nothing is
        unpickled.  The game's generator state does not move."""
        if not isinstance(text, str):
            raise TypeError(f"a state's text is a str, got {type(text).__name__}")
        line = text.strip(" \t\r\n")
        if not line.startswith(_STATE_LINE) or "\n" in line:
            raise RecordError(
                f"a pycards state's text is one line {_STATE_LINE}<JSON>, got {echo(line)} "
                "(a pickled state is not read)"
            )
        data = _serialized(line[len(_STATE_LINE) :])
        record = State.from_json(json.dumps(data["record"]))
        if record.game != self.pycards_game:
            raise RecordError(f"the state is of {record.game!r}, not of this game {self}")
        return _replayed(self, record)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        """The observer of the observation (or, with perfect recall, the
        information state) strings and tensors."""
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.pycards_game.tensor_size, recall)


class PycardsState(pyspiel.State):
    """A pycards state as an OpenSpiel state; ``pycards_state`` is the pycards one."""

    def __init__(self, game: PycardsGame, state: State[object]) -> None:
        super().__init__(game)
        self.pycards_state = state

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL`` (-4, as in pycards;
        also once the game is cut at ``max_game_length``)."""
        if self.is_cut():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.pycards_state.current_player)

    def is_cut(self) -> bool:
        """True if the game was stopped at the game's ``max_game_length``
        actions without its end (then it is terminal for OpenSpiel)."""
        game: PycardsGame = self.get_game()
        return not self.pycards_state.is_terminal and self.move_number() >= game.max_actions

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_cut():
            return []
        return self.pycards_state.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.pycards_state.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.pycards_state.game.action_name(int(action))

    def is_terminal(self) -> bool:
        """True when the game is over, or cut at ``max_game_length``."""
        return self.pycards_state.is_terminal or self.is_cut()

    def returns(self) -> list[float]:
        """The final points per seat once the game is over (at a cut, the
        points so far), zeros before (OpenSpiel's terminal reward model; the
        running score is in ``pycards_state.returns()`` and in the
        observation)."""
        if not self.is_terminal():
            return [0.0] * self.pycards_state.num_players
        return [float(x) for x in self.pycards_state.returns()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """None: chance is sampled inside the state."""
        return []

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PycardsState:
        """A state drawn uniformly among those ``player_id`` cannot tell from
        this one (the engine's sampler, seeded from ``probability_sampler()``)."""
        seed = int(float(probability_sampler()) * (1 << 53))
        sample = self.pycards_state.sample_infoset(int(player_id), seed)
        return PycardsState(self.get_game(), sample)

    def __str__(self) -> str:
        return str(self.pycards_state)

    def serialize(self) -> str:
        """The state as one line of text: ``pycards=`` and the JSON of
        :func:`serialize` (read by :meth:`PycardsGame.deserialize_state`; no
        pickle, unlike OpenSpiel's text for a Python state)."""
        return _STATE_LINE + serialize(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (deserialize, (serialize(self),))


def serialize(state: PycardsState) -> str:
    """The state as text: its game and parameters and the pycards record (seed
    and actions).  OpenSpiel's own ``serialize_game_and_state`` needs the
    game's random generator state, which a Python game cannot give it, so
    pickling a state goes through here."""
    game = state.get_game()
    return json.dumps(
        {
            "game": game.get_type().short_name,
            "params": {k: v for k, v in game.get_parameters().items()},
            "record": json.loads(state.pycards_state.to_json()),
        },
        sort_keys=True,
    )


def _serialized(text: str) -> dict[str, Any]:
    """The checked JSON of :func:`serialize`: an object of a pycards game's
    name, its parameters and a record (a key given twice is refused)."""
    if not isinstance(text, str):
        raise TypeError(f"a serialized state is a str, got {type(text).__name__}")
    try:
        data = json.loads(text, object_pairs_hook=unique_keys)
    except RecordError:
        raise
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or set(data) != {"game", "params", "record"}:
        raise RecordError("a serialized state is a JSON object of game, params and record")
    name = data["game"]
    if not isinstance(name, str) or not name.startswith(_PREFIX):
        raise RecordError(f"not a pycards game: {echo(name)}", "game")
    if not isinstance(data["params"], dict):
        raise RecordError(f"must be an object, got {echo(data['params'])}", "params")
    return data


def _replayed(game: PycardsGame, record: State[object]) -> PycardsState:
    """A fresh deal of ``record``'s seed in ``game``, with its actions applied
    (OpenSpiel's history too)."""
    assert record.seed is not None  # a state read from JSON has its record
    fresh = game.pycards_game.new_initial_state(record.seed, record.deck)
    out = PycardsState(game, fresh)
    for action in record.history:
        out.apply_action(action)
    return out


def deserialize(text: str) -> PycardsState:
    """The state of :func:`serialize`: the game loaded, and the record's
    actions applied to a fresh deal of its seed (OpenSpiel's history too).
    The text is JSON, checked whole: a bad one raises
    :class:`~pycards.errors.RecordError`."""
    data = _serialized(text)
    game = pyspiel.load_game(data["game"], data["params"])
    record = State.from_json(json.dumps(data["record"]))
    if record.game != game.pycards_game:
        raise RecordError(f"the record is of {record.game!r}, not of {game}", "record")
    return _replayed(game, record)


_RNG_HEADER = "[GameRNGState]"
_STATE_LINE = "pycards="
_META = "# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n"


def _load_game(name: str, params: dict[str, Any], made: int) -> PycardsGame:
    game: PycardsGame = pyspiel.load_game(name, params)
    game._made = made
    return game


def serialize_game_and_state(game: Any, state: Any) -> str:
    """``pyspiel.serialize_game_and_state`` for every game, the pycards games
    included (the same text format: meta, game with its generator state, and
    state sections); other games go to OpenSpiel's own."""
    if not isinstance(game, PycardsGame):
        return str(_OPENSPIEL_SERIALIZE(game, state))
    return f"{_META}\n[Game]\n{game.serialize()}\n[State]\n{state.serialize()}\n"


def deserialize_game_and_state(text: str) -> tuple[Any, Any]:
    """``pyspiel.deserialize_game_and_state`` for every game: the game (with
    its generator state) and the state of :func:`serialize_game_and_state`."""
    sections: dict[str, list[str]] = {"[Meta]": [], "[Game]": [], "[State]": []}
    current: list[str] | None = None
    for line in text.split("\n"):
        if line in sections:
            current = sections[line]
        elif line and not line.startswith("#") and current is not None:
            current.append(line)
    game_text = "\n".join(sections["[Game]"])
    if not game_text.startswith(_PREFIX):
        game, state = _OPENSPIEL_DESERIALIZE(text)
        return game, state
    game_part, _, rng_part = game_text.partition(f"\n{_RNG_HEADER}\n")
    game = pyspiel.load_game(game_part)
    state = game.deserialize_state("\n".join(sections["[State]"]))
    game.set_rng_state(rng_part or "0")  # after deserialize_state, which makes a state
    return game, state


def information_state_string(state: State[object], player: int) -> str:
    """Everything ``player`` has seen: the redacted event log (with how many
    older events a long game no longer keeps) and the table from that seat."""
    lines = [f"seat {player}, {state.events_dropped()} older events"]
    for e in state.events(player):
        shown = e.card if e.card is not None else ("?" if e.value is None else e.value)
        lines.append(f"{e.kind} {e.player} {e.target} {shown} {e.extra}")
    lines.append(state.table(player))
    return "\n".join(lines)


class _Observer:
    """OpenSpiel's Python observer interface over the engine's tensor."""

    def __init__(self, size: int, perfect_recall: bool) -> None:
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: PycardsState, player: int) -> None:
        self.tensor[:] = state.pycards_state.observation_tensor(player)

    def string_from(self, state: PycardsState, player: int) -> str:
        if self.perfect_recall:
            return information_state_string(state.pycards_state, player)
        return state.pycards_state.table(player)


# ---------------------------------------------------------------------------
# bots across the two APIs


class PycardsBot(pyspiel.Bot):
    """A pycards bot (a :class:`pycards.bots.Bot` or a spec for
    :func:`pycards.bots.make_bot`) in OpenSpiel's bots API, for the pycards
    games registered here (it acts from the seat's player view)."""

    def __init__(self, bot: Bot | str, player_id: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.bot: Bot = make_bot(bot, seed) if isinstance(bot, str) else bot
        self.player_id = as_int(player_id, "player_id", 0, 63)
        self._seed = as_int(seed, "seed", 0, (1 << 64) - 1)

    def restart_at(self, state: Any) -> None:
        """Start a new game (the pycards bot is reset with the seed)."""
        self.bot.reset(self._seed)

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to track: the bot reads the state's view when it acts."""

    def step(self, state: Any) -> int:
        """The pycards bot's action for the seat to act."""
        return int(self.bot.act(state.pycards_state.view(self.player_id)))


class OpenSpielBot:
    """An OpenSpiel bot (``pyspiel.Bot``, e.g. a Python ``ISMCTSBot`` or
    ``MCTSBot`` made for the game's ``pycards_<name>`` OpenSpiel game) as a
    pycards :class:`~pycards.bots.Bot`.

    It acts on a full state: the bot is handed an OpenSpiel state resampled
    from what the view's seat knows (so it never sees a hidden card), or, with
    ``resample=False`` and a view that holds the true state, on that state
    (for perfect-information search bots, which then see every hand)."""

    name = "openspiel"

    def __init__(self, game: PycardsGame, bot: Any, *, resample: bool = True) -> None:
        self.game = game
        self.bot = bot
        self.resample = resample
        self._rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        """Start a new game."""
        self._rng = np.random.default_rng(as_int(seed, "seed", 0, (1 << 64) - 1))
        self.bot.restart()

    def act(self, view: PlayerView[object]) -> int:
        """The OpenSpiel bot's action for the view's seat."""
        state: State[object] = view._state
        if self.resample:
            state = state.sample_infoset(view.seat, int(self._rng.integers(0, 1 << 62)))
        return int(self.bot.step(PycardsState(self.game, state)))


# OpenSpiel's own functions (kept across a reload of this module)
_OPENSPIEL_SERIALIZE: Any = getattr(
    pyspiel.serialize_game_and_state, "openspiel_function", pyspiel.serialize_game_and_state
)
_OPENSPIEL_DESERIALIZE: Any = getattr(
    pyspiel.deserialize_game_and_state, "openspiel_function", pyspiel.deserialize_game_and_state
)


def host(game: Game[Rules, object]) -> PycardsGame:
    """An OpenSpiel game over the pycards ``game`` object itself: a game that
    :func:`pycards.game.load_game` does not find by name (a defined game
    registered with ``listed=False``) or a state made from a chosen deck, which
    ``PycardsState(hosted, state)`` wraps.  Its parameters are ``players``;
    pyspiel's registry does not know it, so it does not pickle or serialize."""
    if not isinstance(game, Game):
        raise TypeError(f"host: a pycards Game, got {type(game).__name__}")
    return PycardsGame(game.NAME, {"players": game.num_players}, game)


def register() -> None:
    """Register every pycards game with pyspiel and put
    :func:`serialize_game_and_state` and :func:`deserialize_game_and_state` in
    its place in ``pyspiel`` (done on import; idempotent)."""
    ours: Any
    for ours, theirs in (
        (serialize_game_and_state, _OPENSPIEL_SERIALIZE),
        (deserialize_game_and_state, _OPENSPIEL_DESERIALIZE),
    ):
        ours.openspiel_function = theirs
        setattr(pyspiel, ours.__name__, ours)
    known = set(pyspiel.registered_names())
    for name in _pycards_games():
        if _PREFIX + name not in known:
            # a class per game (as OpenSpiel's own Python games register): the
            # registry keeps it past the interpreter's end, which a class outlives
            cls = type(
                f"Pycards{name.title()}Game",
                (PycardsGame,),
                {"__init__": _init_for(name), "__module__": __name__},
            )
            _CLASSES[name] = cls
            pyspiel.register_game(_game_type(name), cls)


_CLASSES: dict[str, type[PycardsGame]] = {}


def _init_for(name: str) -> Any:
    def __init__(self: PycardsGame, params: dict[str, Any] | None = None) -> None:  # noqa: N807
        PycardsGame.__init__(self, name, params)

    return __init__


register()
