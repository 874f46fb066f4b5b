"""The bot protocol, the random bot, and the registry of bots by name."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from cardcore import _core

from .._args import as_int, echo
from ..view import PlayerView

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "parse_bot_spec", "register_bot"]

_M64 = 2**64 - 1


@runtime_checkable
class Bot(Protocol):
    """What every bot offers (built in or written by you).

    A bot is given only a :class:`~pycards.view.PlayerView` of its seat.  The
    arena calls :meth:`reset` before each game with that game's seed, so a bot
    that keeps no other state between games plays the same game the same way
    wherever it runs.
    """

    #: A short name for tables (e.g. ``"ismcts"``).
    name: str

    def reset(self, seed: int) -> None:
        """Start a new game; draw all randomness of that game from ``seed``."""

    def act(self, view: PlayerView[object]) -> int:
        """The action id to play; called only on the bot's turn."""
        ...


class RandomBot:
    """Plays a uniformly random legal action.

    It draws with the engine's generator exactly as the native random policy
    does (the ``k``-th legal action, ascending, with ``k = below(n)``), so a
    match of built-in bots gives the same games in Python and in C.

    >>> from pycards.game import load_game
    >>> state = load_game("notakers", num_players=3).new_initial_state(seed=2)
    >>> bot = RandomBot(seed=5)
    >>> bot.act(state.view(state.current_player)) in state.legal_actions()
    True
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._seed = as_int(seed, "seed", 0, _M64)
        self._rng = _core.Rng(self._seed)

    def reset(self, seed: int) -> None:
        """Reseed the generator for a new game."""
        self._seed = as_int(seed, "seed", 0, _M64)
        self._rng.seed(self._seed)

    def act(self, view: PlayerView[object]) -> int:
        """A uniformly random legal action of ``view``'s seat."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (not its turn, or game over)")
        return legal[self._rng.below(len(legal))]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self._seed})"


#: A bot factory: called with ``seed=`` and the spec's options as keywords.
BotFactory = Callable[..., Bot]

_REGISTRY: dict[str, BotFactory] = {"random": RandomBot}
_PLUGINS = ("pycards.bots.native", "pycards.bots.infer")
_loaded = False


def _load_plugins() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in _PLUGINS:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``factory`` available to :func:`make_bot` (and the arena) as ``name``."""
    if not isinstance(name, str) or not _KEY.fullmatch(name):
        raise ValueError(f"a bot name is an identifier, got {name!r}")
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    """The names :func:`make_bot` knows, sorted."""
    _load_plugins()
    return sorted(_REGISTRY)


# ASCII only (``int()`` and ``float()`` would read full-width digits, "1_000"
# and "nan"): a spec is printable ASCII without blanks
_SPEC = re.compile(r"[\x21-\x7e]+")
_INT = re.compile(r"[-+]?[0-9]+")
_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _option(text: str) -> int | float | str:
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return text


def parse_bot_spec(spec: str) -> tuple[str, dict[str, int | float | str]]:
    """Split ``"name:key=value:key=value"`` into the name and its options.

    Values that read as an int or a float (in ASCII digits) become one.  A
    registered bot's name is followed by options only.  A
    spec is printable ASCII without blanks and its name and keys are ASCII
    identifiers (``ValueError`` names any other character, such as a
    full-width digit).
    A name that is not a registered bot's, followed by a part without
    ``=``, is an import path, ``"module:attribute"``, kept whole as the name.

    >>> parse_bot_spec("ismcts:simulations=200:rollout=heuristic")
    ('ismcts', {'simulations': 200, 'rollout': 'heuristic'})
    >>> parse_bot_spec("mypkg.bots:MyBot:depth=2")
    ('mypkg.bots:MyBot', {'depth': 2})
    """
    if not isinstance(spec, str):
        raise TypeError(f"a bot spec is a str, got {type(spec).__name__}")
    text = spec.strip(" \t")
    if not _SPEC.fullmatch(text):
        bad = next((ch for ch in text if not _SPEC.fullmatch(ch)), "")
        what = f"{bad!a} is not allowed" if bad else "it is empty"
        raise ValueError(f"bot spec {echo(spec)}: {what} (printable ASCII, no blanks)")
    name, *parts = text.split(":")
    _load_plugins()
    path = parts and "=" not in parts[0] and name not in _REGISTRY
    if ("." in name and not parts) or path:
        if not parts or not parts[0]:
            raise ValueError(
                f"bot spec {echo(spec)}: an import path is module:attribute, e.g. mypkg.bots:MyBot"
            )
        name = f"{name}:{parts.pop(0)}"
    options: dict[str, int | float | str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not _KEY.fullmatch(key) or not value:
            raise ValueError(f"bot spec {echo(spec)}: option {echo(part)} is not key=value")
        if key in options or key == "seed":
            raise ValueError(f"bot spec {echo(spec)}: option {key!r} repeated or reserved")
        options[key] = _option(value)
    return name, options


def _import_factory(spec: str, path: str) -> BotFactory:
    """The class or factory at ``module:attribute`` (dotted attributes too)."""
    module_name, _, attr = path.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise ValueError(f"bot spec {echo(spec)}: no module named {exc.name!r}") from None
        raise
    for part in attr.split("."):
        if not (part.isascii() and part.isidentifier()) or not hasattr(obj, part):
            raise ValueError(f"bot spec {echo(spec)}: module {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"bot spec {echo(spec)}: {path} is not a class or factory")
    factory: BotFactory = obj
    return factory


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its spec, e.g. ``"random"``, ``"heuristic"`` or
    ``"ismcts:simulations=200:rollout=heuristic"`` (see :func:`bot_names`), or
    a class or factory by import path, ``"mypkg.bots:MyBot:key=value"``: it
    is called with ``seed=`` and the options as keywords.  A missing module,
    attribute or option is a ValueError naming it.

    ``seed`` is an int 0..2**64-1 (``TypeError`` for a float, ``None`` or a
    str; ``ValueError`` out of range).

    >>> make_bot("random", seed=3)
    RandomBot(seed=3)
    """
    name, options = parse_bot_spec(spec)
    seed = as_int(seed, "seed", 0, _M64)
    _load_plugins()
    factory = _REGISTRY.get(name)
    if factory is None and ":" in name:
        factory = _import_factory(spec, name)
    if factory is None:
        raise ValueError(f"unknown bot {echo(name)}; known: {', '.join(sorted(_REGISTRY))}")
    try:
        bot = factory(seed=seed, **options)
    except TypeError as exc:
        raise ValueError(f"bot spec {echo(spec)}: {exc}") from None
    if not callable(getattr(bot, "act", None)):
        raise ValueError(f"bot spec {echo(spec)}: {name} made {type(bot).__name__}, not a bot")
    return bot
