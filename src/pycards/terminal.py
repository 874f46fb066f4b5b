"""The terminal table: a person plays a game against the built-in bots.

:func:`play` runs one game on a text terminal (what ``pycards play`` calls).
The table is drawn from the person's seat (:meth:`pycards.game.State.table`),
the legal moves are listed by number and by name, and the bots' moves are
shown as the person may see them (a hidden card is ``?``).  At the prompt:

``<number>`` or ``<move name>``
    Play that move (``3``, ``play 9H``, ``bid 2``).
``help``
    The commands and the legal moves.
``hint``
    What the strongest built-in bot would play here (it sees only your seat).
``undo``
    Take back your last move and the bots' moves after it.  Allowed while the
    game is not over and no card was dealt or drawn since that move (so a
    take-back never shows you a card you would keep knowing).
``table``
    Draw the table again.
``quit``
    Stop; the record so far is saved.

The record (:mod:`pycards.record`, the referee's record, so it replays
exactly) is saved at the end, on ``quit``, on Ctrl-C and at the end of input.
Taken-back moves are not in it.  Output uses rich (the ``cli`` extra) when it
is installed and plain text otherwise.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from pycards.bots import bot_names, make_bot
from pycards.engine import game_info
from pycards.errors import PycardsError
from pycards.game import Game, State
from pycards.narrate import NarrationMemory, narrate_event
from pycards.record import (
    all_events,
    deal_kinds,
    deal_lines,
    new_events,
    shown_action,
    write_record,
)

__all__ = ["HINT_BOTS", "best_bot", "play"]

# the event kinds told in the transcript besides every score change
_TOLD = frozenset(
    {"trick", "result", "score", "game_over", "go", "pass", "no_takers", "skunk", "taker"}
)

#: The bots ``hint`` asks, strongest first; the first one registered is used.
HINT_BOTS = ("ismcts", "pimc", "heuristic", "random")

_HELP = """commands:
  <number> or <move>  play that move (e.g. 1, or the move's name)
  help                this help and the legal moves
  hint                what the strongest built-in bot would play
  undo                take back your last move (and the bots' moves after it)
  table               draw the table again
  quit                stop here (the record so far is saved)"""


def best_bot(candidates: Sequence[str] = HINT_BOTS) -> str:
    """The first of ``candidates`` that :func:`pycards.bots.make_bot` knows."""
    known = set(bot_names())
    for name in candidates:
        if name in known:
            return name
    return "random"


class _Output:
    """Prints with rich when it is installed, plain text otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.console: Any = None
        try:
            from rich.console import Console
        except ImportError:  # pragma: no cover - the cli extra is not installed
            return
        self.console = Console(file=stream, highlight=False, soft_wrap=False)

    def line(self, text: str = "", style: str | None = None) -> None:
        if self.console is not None:
            from rich.text import Text

            self.console.print(Text(text, style=style or ""), soft_wrap=True)
        else:
            print(text, file=self.stream, flush=True)

    def panel(self, text: str, title: str) -> None:
        """A titled rule, then the text as is (never wrapped: a table line
        stays one line however narrow the terminal)."""
        if self.console is not None:
            from rich.rule import Rule
            from rich.text import Text

            self.console.print(Rule(Text(title, style="bold"), align="left"))
            self.console.print(Text(text), soft_wrap=True)
        else:
            print(f"--- {title} ---\n{text}", file=self.stream, flush=True)

    def width(self) -> int:
        if self.console is not None:
            return int(self.console.width)
        return shutil.get_terminal_size((100, 24)).columns


class _Table:
    def __init__(
        self,
        game: Game[Any, Any],
        seat: int,
        bots: Sequence[str],
        seed: int,
        names: Sequence[str],
        out: _Output,
        hint_bot: str,
    ) -> None:
        self.game = game
        self.seat = seat
        self.seed = seed
        self.names = list(names)
        self.out = out
        self.hint_bot = hint_bot
        self.specs = list(bots)
        self.bots: dict[int, Any] = {}
        for k, spec in enumerate(bots):
            if k == seat:
                continue
            bot = make_bot(spec, seed=(seed + 1 + k) % (1 << 64))
            bot.reset((seed + 1 + k) % (1 << 64))
            self.bots[k] = bot
        self.state: State[Any] = game.new_initial_state(seed)
        self.seen, raw = all_events(self.state)
        self._show_deals(raw)
        self._tell(len(raw))

    # -- showing --------------------------------------------------------------
    def _show_deals(self, events: Sequence[tuple[int, int, int, int, int, int]]) -> None:
        for text in deal_lines(self.game, events, self.seat):
            self.out.line(f"  = {text}", style="dim")

    def _who(self, k: int) -> str:
        return "you" if k == self.seat else f"seat {k} ({self.names[k]})"

    def show_table(self) -> None:
        title = f"{self.game.NAME}, seat {self.seat} (you)"
        self.out.panel(self.state.table(self.seat), title)

    def moves_text(self) -> str:
        legal = self.state.legal_action_names()
        items = [f"{i}) {name}" for i, name in enumerate(legal, 1)]
        width = max(40, self.out.width() - 2)
        lines: list[str] = []
        line = ""
        for item in items:  # a move is never split across lines
            if line and len(line) + 3 + len(item) > width:
                lines.append(line)
                line = ""
            line = f"{line}   {item}" if line else item
        lines.append(line)
        return "\n".join(lines)

    def show_moves(self) -> None:
        self.out.line("your moves:", style="bold")
        self.out.line(self.moves_text())

    # -- acting ----------------------------------------------------------------
    def apply(self, action: int) -> None:
        k = self.state.current_player
        self.state.apply(action)
        self.seen, fresh = new_events(self.state, self.seen)
        shown = shown_action(self.game, action, k, fresh, self.seat)
        self.out.line(f"{self._who(k)}: {shown}", style=None if k != self.seat else "bold")
        self._show_deals(fresh)
        self._tell(len(fresh))

    def _tell(self, count: int) -> None:
        """The story of the newest ``count`` events: every score change with
        its reason, trick winners, results and the end of the game."""
        if count <= 0:
            return
        memory = self.__dict__.setdefault("_memory", NarrationMemory())
        for ev in self.state.events(self.seat, since=self.state.event_count - count):
            line = narrate_event(self.game, ev, memory)
            if line.points or ev.kind in _TOLD:
                self.out.line(f"  * {line.text}")

    def bots_play(self) -> None:
        while not self.state.is_terminal and self.state.current_player != self.seat:
            k = self.state.current_player
            self.apply(self.bots[k].act(self.state.view(k)))

    def hint(self) -> str:
        bot = make_bot(self.hint_bot, seed=(self.seed + len(self.state.history)) % (1 << 64))
        bot.reset((self.seed + len(self.state.history)) % (1 << 64))
        a = bot.act(self.state.view(self.seat))
        number = self.state.legal_actions().index(a) + 1
        return f"hint ({self.hint_bot}): {number}) {self.game.action_name(a)}"

    def undo_reason(self) -> str | None:
        """Why undo is refused now, or None if allowed."""
        if self.state.is_terminal:
            return "the game is over"
        mine = self._my_last_move()
        if mine is None:
            return "you have no move to take back"
        replay = self.game.new_initial_state(self.seed)
        for a in self.state.history[:mine]:
            replay.apply(a)
        seen, _ = all_events(replay)
        chance = deal_kinds(self.game.NAME)
        kinds = game_info(self.game.NAME)["event_kinds"]
        for a in self.state.history[mine:]:
            replay.apply(a)
            seen, fresh = new_events(replay, seen)
            for ev in fresh:
                if 0 <= ev[0] < len(kinds) and kinds[ev[0]]["name"] in chance:
                    return "cards were dealt or drawn since your last move"
        return None

    def _my_last_move(self) -> int | None:
        replay = self.game.new_initial_state(self.seed)
        last = None
        for i, a in enumerate(self.state.history):
            if replay.current_player == self.seat:
                last = i
            replay.apply(a)
        return last

    def undo(self) -> None:
        mine = self._my_last_move()
        assert mine is not None
        state = self.game.new_initial_state(self.seed)
        for a in self.state.history[:mine]:
            state.apply(a)
        self.state = state
        self.seen, _ = all_events(state)
        self.__dict__.pop("_memory", None)  # the story goes on from the new state

    def record(self, viewer: int | None = None) -> str:
        return write_record(self.state, viewer=viewer, names=self.names, date=_today())


def _today() -> str:
    import datetime

    return datetime.date.today().strftime("%Y.%m.%d")


def play(
    game: Game[Any, Any],
    *,
    seat: int = 0,
    bots: Sequence[str] = ("random",),
    seed: int = 0,
    name: str = "you",
    record_path: str | None = None,
    seat_record: bool = False,
    hint_bot: str | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    read: Callable[[str], str] | None = None,
) -> int:
    """Play one game of ``game`` from ``seat`` against ``bots`` (one spec per
    other seat, or one spec for all), reading moves from the terminal.

    Returns 0 when the game ends or the person quits, 130 on Ctrl-C, 1 if a
    bot fails.  The record (see :mod:`pycards.record`) is written to
    ``record_path`` if given: the referee's (it replays exactly), or with
    ``seat_record`` the person's seat's (only what the seat may know).
    """
    out = _Output(stdout or sys.stdout)
    n = game.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat must be 0..{n - 1}, got {seat}")
    specs = list(bots)
    if len(specs) == 1:
        specs = specs * (n - 1)
    if len(specs) != n - 1:
        raise ValueError(f"--bots: one bot, or one per other seat ({n - 1}), got {len(specs)}")
    all_specs = [*specs[:seat], "you", *specs[seat:]]
    names = [name if k == seat else all_specs[k] for k in range(n)]
    if read is None:
        source = stdin or sys.stdin

        def read(prompt: str) -> str:
            out.stream.write(prompt)
            out.stream.flush()
            line = source.readline()
            if not line:
                raise EOFError
            return line

    players = ", ".join(f"seat {k}: {names[k]}" for k in range(n))
    out.line(f"pycards play {game.NAME} ({players}); seed {seed}", style="bold")
    out.line("type help for the commands")
    table = _Table(game, seat, all_specs, seed, names, out, hint_bot or best_bot())
    status = 0
    try:
        status = _loop(table, read)
    except KeyboardInterrupt:
        out.line("\ninterrupted")
        status = 130
    except EOFError:
        out.line("\nend of input")
    except PycardsError as exc:  # a bot that fails: the game so far is still saved
        out.line(f"\nerror: {exc}")
        status = 1
    if table.state.is_terminal:
        out.panel(table.state.table(seat), f"{game.NAME}: game over")
        scores = table.state.returns()
        out.line("result: " + ", ".join(f"{table._who(k)} {scores[k]}" for k in range(n)))
    if record_path is not None:
        with open(record_path, "w", encoding="utf-8") as f:
            f.write(table.record(seat if seat_record else None))
        out.line(f"record saved to {record_path}")
    return status


def _loop(table: _Table, read: Callable[[str], str]) -> int:
    out = table.out
    table.bots_play()
    shown = False
    while not table.state.is_terminal:
        if not shown:
            table.show_table()
            table.show_moves()
            shown = True
        text = " ".join(read("your move> ").split())
        if not text:
            continue
        low = text.lower()
        if low in ("help", "?"):
            out.line(_HELP)
            table.show_moves()
            continue
        if low == "hint":
            out.line(table.hint())
            continue
        if low == "table":
            shown = False
            continue
        if low in ("quit", "exit"):
            out.line("stopped")
            return 0
        if low == "undo":
            reason = table.undo_reason()
            if reason is not None:
                out.line(f"cannot undo: {reason}")
                continue
            table.undo()
            out.line("took back your last move")
            table.bots_play()
            shown = False
            continue
        legal = table.state.legal_actions()
        action: int | None = None
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(legal):
                action = legal[k - 1]
        else:
            try:
                a = table.game.action_from_name(text)
            except ValueError:
                a = -1
            if a in legal:
                action = a
        if action is None:
            out.line(f"not a legal move: {text!r}; type a number or a name:")
            out.line(table.moves_text())
            continue
        table.apply(action)
        table.bots_play()
        shown = False
    return 0
