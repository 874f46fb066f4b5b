"""The terminal table: a person plays a game against the built-in bots.

:func:`play` runs one game on a text terminal (what ``pycards play`` calls).
The table is drawn from the person's seat (:meth:`pycards.game.State.table`),
the legal moves are listed by number and by name, and the bots' moves are
shown as the person may see them (a hidden card is ``?``).  The story is
told as it goes (:mod:`pycards.narrate`): every score change with its
reason, the tricks, the results, and each round's summary and the game's
(:mod:`pycards.summary`).  Every line fits the terminal's width (80 columns
or more), wrapped between words and cards.

Before the moves, a line says in words what is asked
(:func:`pycards.teach.prompt`).  When there are more legal moves than fit a
short list (No Takers? offers up to 487), the move is chosen in steps: the
first word (``ask``), then the next (the seat, named), then the rest (a
rank), each step a short numbered list in words (the game's narrator words
the moves: ``ask Bob for sevens``); a step with more choices than a list
shows (a card among 52) is shown compactly, by name in rows of numbered
ranges; ``back`` goes up one step.  A move can also be typed by name
at any time, and any unambiguous beginning of a name (``ask +1 rank``)
goes straight to that step; on a terminal, Tab completes a name.  At the
prompt:

``<number>`` or ``<move name>``
    Play that move, or take that step (``3``, ``play 9H``, ``bid 2``,
    ``ask +2``).
``help``
    The commands and the legal moves.
``rules`` (or ``?``)
    The game's rules in plain words (:func:`pycards.teach.rules_text`).
``hint``
    What the strongest built-in bot would play here (it sees only your seat):
    the table core's hint (:meth:`pycards.ui.table.TableCore.hint`), the
    browser table's too.
``undo``
    Take back your last move and the bots' moves after it, by the one rule
    of every table (:mod:`pycards.ui.table`): allowed while the game is not
    over and no deal or draw has shown you a card since that move (the
    deck's order is fixed, so a take-back never lets you see a card before
    you decide).
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
import textwrap
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from pycards.errors import PycardsError
from pycards.game import Game, Rules, State
from pycards.narrate import Line, narrator
from pycards.record import write_record
from pycards.summary import Story, Summary, fold_deals, named, story
from pycards.teach import prompt, rules_text
from pycards.ui.table import HINT_BOT, TableCore, seat_names

if TYPE_CHECKING:  # the cli extra: imported where it is used
    from rich.console import Console

__all__ = ["MAX_LISTED", "MIN_WIDTH", "TerminalTable", "choices", "completions", "play"]

# the commands besides the moves (for Tab completion)
_COMMANDS = ("help", "rules", "hint", "undo", "table", "back", "quit")

#: Most moves listed at once; with more, the move is chosen in steps.
MAX_LISTED = 30
#: The narrowest width the table is laid out for.
MIN_WIDTH = 80

_HELP = """commands:
  <number> or <move>  play that move (e.g. 1, or the move's name), or take
                      that step when the moves are chosen in steps
  back                one step back (when the moves are chosen in steps)
  help                this help and the legal moves
  rules (or ?)        the game's rules in plain words
  hint                what the strongest built-in bot would play
  undo                take back your last move (and the bots' moves after it),
                      unless a deal or a draw has shown you a card since
  table               draw the table again
  quit                stop here (the record so far is saved)"""


def choices(names: Sequence[str], prefix: str = "") -> list[tuple[str, str | None]]:
    """The next step among the legal move ``names`` that start with
    ``prefix`` (a whole-word beginning, ``""`` for all): ``(label, move)``
    pairs, where ``move`` is the move's name when the label is a whole move,
    and ``None`` when the label is a step on (it ends with ``" ..."``).

    >>> choices(["draw", "ask +1 rank 7", "ask +1 suit H", "ask +2 rank 7"])
    [('draw', 'draw'), ('ask ...', None)]
    >>> choices(["draw", "ask +1 rank 7", "ask +1 suit H", "ask +2 rank 7"], "ask")
    [('ask +1 ...', None), ('ask +2 rank 7', 'ask +2 rank 7')]
    """
    words = prefix.split()
    depth = len(words)
    groups: dict[str, list[str]] = {}
    for name in names:
        parts = name.split()
        if parts[:depth] != words or len(parts) <= depth:
            continue
        groups.setdefault(" ".join(parts[: depth + 1]), []).append(name)
    out: list[tuple[str, str | None]] = []
    for label, members in groups.items():
        if len(members) == 1:
            out.append((members[0], members[0]))
        else:
            if label in members:  # a move that is also the start of others
                out.append((label, label))
            out.append((f"{label} ...", None))
    return out


class _Output:
    """Prints with rich when it is installed, plain text otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.console: Console | None = None
        try:
            from rich.console import Console
        except ImportError:  # pragma: no cover - the cli extra is not installed
            return
        self.console = Console(file=stream, highlight=False, soft_wrap=False)

    def fit(self, text: str) -> str:
        """``text`` with each line too wide for the terminal wrapped between
        words (and so between cards), continued with an indent."""
        width = self.width()
        out = []
        for line in text.split("\n"):
            if len(line) <= width:
                out.append(line)
                continue
            lead = len(line) - len(line.lstrip(" "))
            out.extend(
                textwrap.wrap(
                    line,
                    width,
                    initial_indent="",
                    subsequent_indent=" " * (lead + 4),
                    break_long_words=False,
                    break_on_hyphens=False,
                    drop_whitespace=True,
                )
                or [line]
            )
        return "\n".join(out)

    def line(self, text: str = "", style: str | None = None, wrap: bool = True) -> None:
        """One line of text (wrapped to the terminal's width unless not ``wrap``:
        a file name stays whole)."""
        text = self.fit(text) if wrap else text
        if self.console is not None:
            from rich.text import Text

            self.console.print(Text(text, style=style or ""), soft_wrap=True)
        else:
            print(text, file=self.stream, flush=True)

    def panel(self, text: str, title: str) -> None:
        """A titled rule, then the text, its lines wrapped between cards when
        wider than the terminal."""
        text = self.fit(text)
        if self.console is not None:
            from rich.rule import Rule
            from rich.text import Text

            self.console.print(Rule(Text(title, style="bold"), align="left"))
            self.console.print(Text(text), soft_wrap=True)
        else:
            print(f"--- {title} ---\n{text}", file=self.stream, flush=True)

    def width(self) -> int:
        """The terminal's width (at least :data:`MIN_WIDTH`)."""
        if self.console is not None:
            return max(MIN_WIDTH, int(self.console.width))
        return max(MIN_WIDTH, shutil.get_terminal_size((100, 24)).columns)


class TerminalTable:
    """A game at the terminal, one typed line at a time (what :func:`play`
    reads from the terminal): the terminal's input and output over the
    table core (:class:`pycards.ui.table.TableCore`), which holds the game,
    makes the bots' moves and answers ``hint`` and ``undo``.

    :param game: the game.
    :param seat: the person's seat.
    :param bots: one bot spec per other seat, in order, or one for all.
    :param seed: the seed of the deal.
    :param name: the person's name (a bot's seat is named by its spec).
    :param hint_bot: the bot ``hint`` asks (default
        :data:`pycards.ui.table.HINT_BOT`).
    :param stdout: where to print (default: standard output).
    :param state: a game of ``game`` to sit down at (one dealt from a stacked
        deck, or already under way) instead of a new deal from ``seed``.
    """

    def __init__(
        self,
        game: Game[Rules, object],
        *,
        seat: int = 0,
        bots: Sequence[str] = ("random",),
        seed: int = 0,
        name: str = "you",
        hint_bot: str | None = None,
        stdout: TextIO | None = None,
        state: State[object] | None = None,
    ) -> None:
        n = game.num_players
        if state is not None and state.game is not game:
            raise ValueError("state: a state of another game")
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat}")
        specs = list(bots)
        if len(specs) == 1:
            specs = specs * (n - 1)
        if len(specs) != n - 1:
            raise ValueError(f"--bots: one bot, or one per other seat ({n - 1}), got {len(specs)}")
        seats = dict(enumerate([*specs[:seat], "you", *specs[seat:]]))
        del seats[seat]
        names = [name if k == seat else seats[k] for k in range(n)]
        self.game = game
        self.seat = seat
        self.out = _Output(stdout or sys.stdout)
        #: What the story calls each seat: the person's name, and each bot
        #: by what it is ("random bot", "random bot 2"); the record keeps
        #: the bots' specs.
        self.shown_names = seat_names(
            [seats.get(k) for k in range(n)], [name if k == seat else None for k in range(n)]
        )
        self.out.line(f"pycards play {game.NAME}, seed {seed}: {self._players()}", style="bold")
        self.out.line("type help for the commands, rules for the rules of the game")
        # the bots keep their own streams: a terminal session is never restarted
        self.core = TableCore(
            game.new_initial_state(seed) if state is None else state,
            seats,
            seed,
            names,
            reseed=False,
            hint_bot=hint_bot or HINT_BOT,
        )
        #: Whether the table and the moves were drawn since the last change.
        self.shown = False
        self._tell()

    @property
    def state(self) -> State[object]:
        """The table's real state."""
        return self.core.state

    @property
    def names(self) -> list[str]:
        """Each seat's name."""
        return self.core.names

    # -- showing --------------------------------------------------------------
    def _players(self) -> str:
        """Who sits where: ``"Ann (you, seat 0), random bot (seat 1)"``."""
        return ", ".join(
            f"{name} ({'you, ' if k == self.seat and name.lower() != 'you' else ''}seat {k})"
            for k, name in enumerate(self.shown_names)
        )

    def _who(self, k: int) -> str:
        return "you" if k == self.seat else self.shown_names[k]

    def show_table(self) -> None:
        """Draw the table from the person's seat (the seats by number, named
        in the title)."""
        seats = ", ".join(
            f"{k} {'you' if k == self.seat else name}" for k, name in enumerate(self.shown_names)
        )
        self.out.panel(
            self.core.view(self.seat).table(), f"{self.game.TITLE or self.game.NAME}: seat {seats}"
        )

    def prompt(self) -> str:
        """What the person is asked to decide now, in words
        (:func:`pycards.teach.prompt`)."""
        return prompt(self.core.view(self.seat), self.shown_names)

    def show_rules(self) -> None:
        """The game's rules in plain words (:func:`pycards.teach.rules_text`)."""
        self.out.panel(
            rules_text(self.game, self.out.width() - 2),
            f"{self.game.TITLE or self.game.NAME}: the rules",
        )

    @property
    def step(self) -> str:
        """The step of a move chosen in steps (``""``: the first)."""
        return str(self.__dict__.get("_step", ""))

    @step.setter
    def step(self, prefix: str) -> None:
        self.__dict__["_step"] = prefix

    def menu(self) -> list[tuple[str, str | None]]:
        """The numbered list shown: every legal move, or the current step's
        choices when there are more than :data:`MAX_LISTED`."""
        legal = self.state.legal_action_names()
        if len(legal) <= MAX_LISTED:
            return [(name, name) for name in legal]
        return choices(legal, self.step) or choices(legal)

    def label(self, label: str) -> str:
        """A menu label in words (the game's narrator words a move or the
        start of one: ``"ask +1 rank ..."`` is ``"ask Bob for a rank ..."``)."""
        more = label.endswith(" ...")
        words = narrator(self.game).words(
            label.removesuffix(" ..."), self.core.view(self.seat), self.shown_names
        )
        return words + (" ..." if more else "")

    def moves_text(self) -> str:
        """The numbered moves, as many on a line as fit; a step with more
        choices than :data:`MAX_LISTED` is shown compactly, each choice by
        its last word, in rows of numbered ranges."""
        menu = self.menu()
        width = max(40, self.out.width() - 2)
        if len(menu) > MAX_LISTED:
            rows = []
            for first in range(0, len(menu), 13):
                part = menu[first : first + 13]
                span = f"{first + 1}-{first + len(part)}"
                rows.append(f"{span:>7}  " + " ".join(lab.split()[-1] for lab, _ in part))
            return "type one by name or by number:\n" + "\n".join(rows)
        items = [f"{i}) {self.label(label)}" for i, (label, _) in enumerate(menu, 1)]
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
        """Say what is asked, then list the person's moves (or the current
        step's choices)."""
        asked = self.prompt()
        if asked:
            self.out.line(asked, style="bold")
        many = len(self.state.legal_actions()) > MAX_LISTED
        step = f" ({self.label(self.step)} ...; back: one step back)" if many and self.step else ""
        self.out.line(f"your moves{step}:", style="bold")
        self.out.line(self.moves_text())

    def move_names(self) -> list[str]:
        """The legal moves' names and the commands (for Tab completion)."""
        return [*self.state.legal_action_names(), *_COMMANDS]

    # -- acting ----------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Play the person's ``action``."""
        self.core.person_move(self.seat, action)
        self._tell()

    def _story(self) -> Story:
        told = self.__dict__.get("_told")
        if told is None:
            told = self.__dict__["_told"] = Story(self.game, self.seat, self.shown_names)
        return told

    def _tell(self) -> None:
        """The story of the new events in the order they happened, as the
        person may see them: each event told in words (a deal's cards in
        one line), every score change with its reason (``*``), and the
        summaries of the rounds that ended (``=``)."""
        told = self._story()
        told.update(self.state)
        run: list[Line] = []
        for item in [*told.told, None]:
            if isinstance(item, Line):
                run.append(item)
                continue
            for line, text in fold_deals(run, self.shown_names, told.teller.seat_name):
                mine = line.event.player == self.seat
                self.out.line(
                    f"  {'*' if line.points else ' '} {text}", style="bold" if mine else None
                )
            run = []
            if isinstance(item, Summary):
                said = named(str(item), self.shown_names).split("\n")
                self.out.line(f"  = {said[0]}", style="bold")
                for rest in said[1:]:
                    self.out.line(f"  {rest}")

    def bots_play(self) -> None:
        """The bots play until it is the person's turn or the game is over."""
        while self.core.bot_to_move() is not None:
            action = self.core.bot_choose()
            self.core.bot_apply(action)
            self._tell()

    def hint(self) -> str:
        """The hint's line: the table core's hint for the person's seat."""
        hint = self.core.hint(self.seat)
        return f"hint ({hint.bot}): {hint.number}) {hint.name}"

    def undo_reason(self) -> str | None:
        """Why undo is refused now, or None if allowed."""
        return self.core.undo_refusal(self.seat)

    def undo(self) -> None:
        """Take back the person's last move (the table core's undo), and tell
        the story again, silently, up to there."""
        self.core.undo(self.seat)
        self.step = ""
        # told again, silently
        self.__dict__["_told"] = story(self.state, self.seat, self.shown_names)

    def record(self, viewer: int | None = None) -> str:
        """The game's record (``viewer``: as that seat may know it)."""
        return write_record(self.state, viewer=viewer, names=self.names, date=_today())

    def command(self, line: str) -> bool:
        """Answer one typed line (a move by number or name, a step, or a
        command: ``help``, ``hint``, ``undo``, ``table``, ``back``,
        ``quit``); after a move or an undo the bots play up to the person's
        turn.  Returns ``False`` on ``quit``."""
        out = self.out
        text = " ".join(line.split())
        low = text.lower()
        if not text:
            return True
        if low == "help":
            out.line(_HELP)
            self.show_moves()
        elif low in ("rules", "?"):
            self.show_rules()
        elif low == "hint":
            out.line(self.hint())
        elif low == "table":
            self.shown = False
        elif low in ("quit", "exit"):
            out.line("stopped")
            return False
        elif low == "back":
            self.step = " ".join(self.step.split()[:-1])
            self.show_moves()
        elif low == "undo":
            reason = self.undo_reason()
            if reason is not None:
                out.line(f"cannot undo: {reason}")
                return True
            self.undo()
            out.line("took back your last move")
            self.bots_play()
            self.shown = False
        else:
            self._move(text)
        return True

    def _move(self, text: str) -> None:
        """Play the move ``text`` names, or take the step it begins."""
        out = self.out
        legal = self.state.legal_actions()
        action: int | None = None
        step: str | None = None
        if text.isdigit():
            k = int(text)
            menu = self.menu()
            if 1 <= k <= len(menu):
                label, move = menu[k - 1]
                if move is None:
                    step = label.removesuffix(" ...")
                else:
                    action = self.game.action_from_name(move)
        else:
            names = self.state.legal_action_names()
            typed = text.removesuffix(" ...")
            for label, move in self.menu():  # a label as the menu words it
                if self.label(label).removesuffix(" ...").lower() == typed.lower():
                    typed = label.removesuffix(" ...") if move is None else move
                    break
            # a name, or the rest of one after the current step's words
            for full in (typed, f"{self.step} {typed}" if self.step else typed):
                try:
                    a = self.game.action_from_name(full)
                except ValueError:
                    a = -1
                if a in legal:
                    action = a
                    break
                if step is None:
                    step = _beginning(names, full)
            if action is not None:
                step = None
        if step is not None:
            self.step = step
            self.show_moves()
            return
        if action is None:
            out.line(f"not a legal move: {text!r}; type a number or a name:")
            out.line(self.moves_text())
            return
        self.step = ""
        self.apply(action)
        self.bots_play()
        self.shown = False


def _today() -> str:
    import datetime

    return datetime.date.today().strftime("%Y.%m.%d")


def play(
    game: Game[Rules, object],
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
    table = TerminalTable(
        game, seat=seat, bots=bots, seed=seed, name=name, hint_bot=hint_bot, stdout=stdout
    )
    out = table.out
    if read is None and stdin is None and stdout is None and _completion([table]):

        def read(prompt: str) -> str:
            return input(prompt) + "\n"  # input() raises EOFError at the end

    if read is None:
        source = stdin or sys.stdin

        def read(prompt: str) -> str:
            out.stream.write(prompt)
            out.stream.flush()
            line = source.readline()
            if not line:
                raise EOFError
            return line

    n = game.num_players
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
        out.line(f"record saved to {record_path}", wrap=False)
    return status


def completions(names: Sequence[str], text: str) -> list[str]:
    """What Tab offers for ``text`` typed so far: each name that starts with
    it, up to the end of its next word (so a move is completed step by step).

    >>> completions(["ask +1 rank 7", "ask +1 suit H", "draw"], "ask")
    ['ask +1']
    >>> completions(["ask +1 rank 7", "ask +1 suit H", "draw"], "ask +1 s")
    ['ask +1 suit']
    """
    low = text.lower()
    out: list[str] = []
    for name in names:
        if not name.lower().startswith(low):
            continue
        cut = name.find(" ", len(text) + (1 if text.endswith(" ") else 0))
        done = name if cut < 0 else name[:cut]
        if done.strip() == text.strip():
            cut = name.find(" ", len(done) + 1)
            done = name if cut < 0 else name[:cut]
        if done not in out:
            out.append(done)
    return out


def _completion(tables: list[TerminalTable]) -> bool:
    """Tab completion of the moves' names on an interactive terminal (False
    where there is none: input is not a terminal, or no readline)."""
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return False
    try:
        import readline
    except ImportError:  # pragma: no cover - a Python built without readline
        return False

    def complete(text: str, k: int) -> str | None:
        if not tables:
            return None
        found = completions(tables[0].move_names(), readline.get_line_buffer())
        return found[k] if k < len(found) else None

    readline.set_completer_delims("")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
    return True


def _loop(table: TerminalTable, read: Callable[[str], str]) -> int:
    table.bots_play()
    while not table.state.is_terminal:
        if not table.shown:
            table.show_table()
            table.show_moves()
            table.shown = True
        if not table.command(read("your move> ")):
            return 0
    return 0


def _beginning(names: Sequence[str], text: str) -> str | None:
    """The step that ``text`` (whole words, any case) begins among the legal
    move ``names``, or ``None`` when no move starts so."""
    words = text.lower().split()
    if not words:
        return None
    for name in names:
        parts = name.split()
        if [w.lower() for w in parts[: len(words)]] == words and len(parts) > len(words):
            return " ".join(parts[: len(words)])
    return None
