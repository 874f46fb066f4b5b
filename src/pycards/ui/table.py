"""The table core: what a table does besides its input and output.

The terminal table (:mod:`pycards.ui.terminal`) and the browser table
(:mod:`pycards.ui.web.tables`) are command layers over one
:class:`TableCore`: it holds the real state, which seats its bots play, and
the seats' names, and it makes the bots' moves, answers a hint, finds a
person's last decision and takes a move back, by one rule everywhere.

The rule of undo
    An undo takes back the last move of the person asking and every move
    the bots made after it: the game returns exactly to where that person
    last decided (through :meth:`pycards.game.State.undo`).  It is for a
    person playing bots alone (not at a table with other people), while the
    game is not over, and it is refused once a deal or a draw has shown that
    person a card since that move (an event of one of the game's
    :attr:`~pycards.game.Game.DEAL_KINDS` whose card the person may see):
    the deck's order is fixed by the deal's seed, so a person who took back
    the move before a draw would know what the deck holds.  A card dealt or
    drawn face down to a bot, or a card a bot plays, does not forbid it.
    Each undo goes one decision further back.

The hint
    What :data:`HINT_BOT` (each game's strongest built-in configuration,
    :attr:`pycards.game.Game.BEST_BOT`) would play in the person's seat,
    computed from that seat's :class:`~pycards.view.PlayerView` alone, like
    any bot's move, and reseeded from the table's seed, the seat and the
    turn, so the same question has the same answer.

A person who leaves the table keeps the seat: a bot may play it meanwhile
(:meth:`TableCore.stand_in`) until the person comes back
(:meth:`TableCore.come_back`), so a table never waits for ever.

What a seat is shown comes from its view (:meth:`TableCore.view`), the same
one its bots would be given: the terminal draws the person's table from it,
and the browser table builds every seat's message from it alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pycards.bots import Bot, make_bot
from pycards.errors import EventsDroppedError, PycardsError
from pycards.game import State
from pycards.view import PlayerView

__all__ = [
    "HINT_BOT",
    "MAX_NAME",
    "Hint",
    "RefusedError",
    "TableCore",
    "bot_seed",
    "hint_action",
    "seat_names",
]

_M64 = (1 << 64) - 1

#: The bot a hint asks: each game's strongest built-in configuration.
HINT_BOT = "best"
#: The longest default seat name.
MAX_NAME = 24


class RefusedError(PycardsError):
    """A hint or an undo the table refuses; the message says why, and
    nothing changed."""


@dataclass(frozen=True)
class Hint:
    """A hint: the move the hint's bot would play.

    :ivar action: the action id (one of the seat's legal actions).
    :ivar name: the action's name.
    :ivar number: its place among the seat's legal actions, from 1.
    :ivar bot: the spec of the bot that chose it.
    """

    action: int
    name: str
    number: int
    bot: str


def bot_seed(*parts: int) -> int:
    """A 64-bit seed mixed from ``parts`` (the table's seed, a seat, a turn...).

    >>> bot_seed(1, 2, 3) == bot_seed(1, 2, 3) != bot_seed(1, 2, 4)
    True
    """
    h = hashlib.blake2b(b"|".join(str(p).encode() for p in parts), digest_size=8)
    return int.from_bytes(h.digest(), "little")


def hint_action(view: PlayerView[object], seed: int, bot: str = HINT_BOT) -> int:
    """The action ``bot`` (a spec) chooses for ``view``'s seat, reseeded with
    ``seed``: from the view alone, so two worlds the seat cannot tell apart
    get the same hint."""
    player = make_bot(bot, seed=seed)
    player.reset(seed)
    return player.act(view)


def seat_names(bots: Sequence[str | None], given: Sequence[str | None]) -> list[str]:
    """Each seat's name: the one given, else one that says who plays it and
    differs from every other seat's: ``Player k`` (from 1) for a person
    (``bots[k]`` is ``None``), the bot's registered name for a bot
    (``heuristic bot``, then ``heuristic bot 2``, ... for the next seats of
    the same kind).

    >>> seat_names([None, "random", "random:seconds=1"], ["Ann", None, None])
    ['Ann', 'random bot', 'random bot 2']
    """
    taken = {name for name in given if name is not None}
    out = []
    for p, (spec, name) in enumerate(zip(bots, given, strict=True)):
        if name is None:
            base = f"{spec.partition(':')[0]} bot" if spec else f"Player {p + 1}"
            name, k = base[:MAX_NAME], 1
            while name in taken:
                k += 1
                name = f"{base[: MAX_NAME - len(str(k)) - 1]} {k}"
            taken.add(name)
        out.append(name)
    return out


class TableCore:
    """One game at a table: the real state, the bots' seats, the names.

    :param state: the game's real state (it never leaves the table; a seat
        is shown its :meth:`view`).
    :param bots: the bot spec of each seat a bot plays (the others are
        people's).
    :param seed: the table's seed; seat ``k``'s bot is made with seed
        ``seed + 1 + k`` (mod 2**64).
    :param names: each seat's name (default: :func:`seat_names`).
    :param reseed: reseed a bot before each of its moves from the table's
        seed, its seat and the turn (:func:`bot_seed`), so the table plays on
        as it would have after a restart; else each bot keeps its own stream
        of random numbers from its first seed.
    :param hint_bot: the bot spec a hint asks (default :data:`HINT_BOT`).
    """

    def __init__(
        self,
        state: State[object],
        bots: Mapping[int, str],
        seed: int,
        names: Sequence[str] | None = None,
        *,
        reseed: bool = True,
        hint_bot: str = HINT_BOT,
    ) -> None:
        n = state.num_players
        if any(not 0 <= k < n for k in bots):
            raise ValueError(f"bots: seats are 0..{n - 1}, got {sorted(bots)}")
        self.state = state
        self.seed = seed
        #: Each seat's bot spec (``None``: a person's seat).
        self.specs: list[str | None] = [bots.get(k) for k in range(n)]
        #: Each seat's name.
        self.names = list(names) if names is not None else seat_names(self.specs, [None] * n)
        if len(self.names) != n:
            raise ValueError(f"names: one per seat ({n}), got {len(self.names)}")
        self.reseed = reseed
        self.hint_bot = hint_bot
        #: The bot of each bot's seat (and of each away person's stand-in).
        self.bots: dict[int, Bot] = {}
        #: The people's seats a bot plays while they are away (:meth:`stand_in`).
        self.stand_ins: set[int] = set()
        for k, spec in sorted(bots.items()):
            first = (seed + 1 + k) & _M64
            bot = make_bot(spec, seed=first)
            bot.reset(first)
            self.bots[k] = bot

    # -- what a seat is shown --------------------------------------------------
    @property
    def turn(self) -> int:
        """How many actions have been applied (an undo lowers it)."""
        return len(self.state.history)

    @property
    def people(self) -> list[int]:
        """The seats played by people."""
        return [k for k, spec in enumerate(self.specs) if spec is None]

    def view(self, seat: int) -> PlayerView[object]:
        """What ``seat`` may know: everything a seat is shown is built from it."""
        return self.state.view(seat)

    # -- a bot in an away person's seat ---------------------------------------
    def stand_in(self, seat: int, spec: str = "heuristic") -> None:
        """Let a bot (``spec``) play the person's ``seat`` while that person
        is away (the seat stays the person's: :meth:`come_back` ends it).
        :class:`RefusedError` at a bot's own seat."""
        if not 0 <= seat < len(self.specs) or self.specs[seat] is not None:
            raise RefusedError(f"seat {seat} is not a person's")
        if seat in self.stand_ins:
            return
        first = bot_seed(self.seed, seat, self.turn, 2)
        bot = make_bot(spec, seed=first)
        bot.reset(first)
        self.bots[seat] = bot
        self.stand_ins.add(seat)

    def come_back(self, seat: int) -> bool:
        """The person of ``seat`` is back: its stand-in bot (if any) leaves;
        whether there was one."""
        if seat not in self.stand_ins:
            return False
        self.stand_ins.discard(seat)
        del self.bots[seat]
        return True

    # -- moves ---------------------------------------------------------------
    def person_move(self, seat: int, action: int) -> None:
        """Apply the move of the person in ``seat``: :class:`RefusedError` at a
        bot's seat or when the game is over;
        :class:`~pycards.errors.IllegalActionError` (nothing changed) for a
        move out of turn or illegal."""
        if self.state.is_terminal:
            raise RefusedError("the game is over")
        if seat in self.stand_ins:
            raise RefusedError(f"{self.names[seat]} is away: a bot plays for them")
        if seat in self.bots:
            raise RefusedError(f"seat {seat} is a bot's")
        self.state.apply(action, player=seat)

    def bot_to_move(self) -> int | None:
        """The seat of the bot to act, or ``None`` (a person's turn, or the
        game is over)."""
        if self.state.is_terminal:
            return None
        p = self.state.current_player
        return p if p in self.bots else None

    def bot_choose(self, bot: Bot | None = None) -> int:
        """The action of the bot to act, not applied (safe to run in a worker
        thread while nothing changes the state); ``bot`` plays the seat in its
        bot's place (e.g. a random bot once a time budget is spent).
        :class:`RefusedError` if no bot is to act."""
        p = self.bot_to_move()
        if p is None:
            raise RefusedError("no bot is to act")
        player = self.bots[p] if bot is None else bot
        if self.reseed:
            player.reset(bot_seed(self.seed, p, self.turn))
        return player.act(self.view(p))

    def bot_apply(self, action: int) -> int:
        """Apply the action :meth:`bot_choose` chose; returns the bot's seat."""
        p = self.bot_to_move()
        if p is None:
            raise RefusedError("no bot is to act")
        self.state.apply(action, player=p)
        return p

    # -- help: the hint and the undo -------------------------------------------
    def _alone(self, seat: int, what: str) -> None:
        if self.people != [seat]:
            raise RefusedError(
                f"{what} is for a person playing bots: this table has other people at it"
            )
        if self.state.is_terminal:
            raise RefusedError("the game is over")

    def hint(self, seat: int) -> Hint:
        """What :attr:`hint_bot` would play for the person in ``seat`` now,
        from that seat's view alone (reseeded from the table's seed, the seat
        and the turn).  :class:`RefusedError` at a table with other people, when
        the game is over or when it is not ``seat``'s turn."""
        self._alone(seat, "a hint")
        if self.state.current_player != seat:
            raise RefusedError("a hint is for your turn")
        action = hint_action(
            self.view(seat), bot_seed(self.seed, seat, self.turn, 1), self.hint_bot
        )
        legal = self.state.legal_actions()
        return Hint(
            action, self.state.game.action_name(action), legal.index(action) + 1, self.hint_bot
        )

    def last_decision(self, seat: int) -> State[object] | None:
        """The state as it was when ``seat`` last decided (before its last
        move), taken back from the present by
        :meth:`~pycards.game.State.undo`, or ``None`` if ``seat`` has not
        moved.  Its :attr:`~pycards.game.State.history` is a beginning of
        the present one."""
        back = self.state.clone()
        while back.history:
            back.undo()
            if back.current_player == seat:
                return back
        return None

    def undo_refusal(self, seat: int) -> str | None:
        """Why an undo by ``seat`` is refused now, or ``None`` if it is
        allowed (the rule: this module's docstring)."""
        try:
            self._checked_decision(seat)
        except RefusedError as exc:
            return str(exc)
        return None

    def _checked_decision(self, seat: int) -> State[object]:
        self._alone(seat, "undo")
        back = self.last_decision(seat)
        if back is None:
            raise RefusedError("there is no move of yours to take back")
        kinds = type(self.state.game).DEAL_KINDS
        try:
            since = self.state.events(seat, since=back.event_count)
        except EventsDroppedError:
            raise RefusedError("too much has happened since your last move") from None
        if any(e.kind in kinds and e.card is not None for e in since):
            raise RefusedError("cards were dealt or drawn since your last move, and you saw them")
        return back

    def can_undo(self, seat: int) -> bool:
        """Whether :meth:`undo` would take a move of ``seat`` back now."""
        return self.undo_refusal(seat) is None

    def verify_undo(self, seat: int) -> None:
        """Raise :class:`RefusedError` saying why an undo by ``seat`` is refused now."""
        self._checked_decision(seat)

    def undo(self, seat: int) -> int:
        """Take back the last move of the person in ``seat`` and every bot's
        move after it; returns the turn the game is back at.
        :class:`RefusedError` (nothing changed) where the rule forbids it."""
        self.state = self._checked_decision(seat)
        return self.turn
