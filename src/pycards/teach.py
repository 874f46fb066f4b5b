"""What a table teaches: each game's rules in plain words, and what a prompt asks.

The rules panel of every table (the terminal's ``rules`` command, the
browser's Rules panel) shows :func:`rules_book`: the game's rules in plain
words, section by section.  The text has one source, the file
``pycards/games/rules/<name>.rst`` shipped with the package, which the
game's docs page includes as it is (its "In plain words" section), so the
panel and the docs cannot drift apart.  Such a file is a small part of
reStructuredText: each section opens with ``.. rubric:: Title``, then
paragraphs and ``*`` lists, in plain words (no other markup).

:func:`prompt` says, in words, what the seat to act is asked to decide now
("Discard 6 cards to the Nancy: no trumps, no Kings and not the Outsider"):
the game's :class:`~pycards.narrate.Narrator` words it
(:meth:`~pycards.narrate.Narrator.prompt`) from the seat's view alone::

    >>> from pycards.games.nodde import NoddeGame
    >>> from pycards.teach import prompt, rules_book
    >>> state = NoddeGame(num_players=2).new_initial_state(3)
    >>> prompt(state.view(state.current_player))
    'Lead a card: the count starts at 0 and may not go past 31'
    >>> [section.title for section in rules_book(state.game)]
    ['The aim', 'The deal', 'Your hand', 'The play']
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Sequence
from importlib import resources

from pycards.engine import find_game
from pycards.errors import PycardsError
from pycards.game import Game, Rules
from pycards.narrate import narrator
from pycards.view import PlayerView

__all__ = ["RulesSection", "prompt", "rules_book", "rules_source", "rules_text"]


@dataclasses.dataclass(frozen=True)
class RulesSection:
    """One section of a game's rules in plain words.

    :ivar title: the section's title ("The bids").
    :ivar paragraphs: its paragraphs, each one line of text.
    :ivar items: its list's items, each one line of text (may be empty).
    """

    title: str
    paragraphs: tuple[str, ...]
    items: tuple[str, ...]


def rules_source(name: str) -> str:
    """The text of ``pycards/games/rules/<name>.rst`` (a game's name), or
    else the game's :attr:`~pycards.game.Game.RULES_TEXT` (a defined game's);
    :class:`~pycards.errors.PycardsError` for a game that has neither."""
    path = resources.files("pycards.games") / "rules" / f"{name}.rst"
    if not path.is_file():
        try:
            cls = find_game(name)  # a defined game is found by name, listed or not
        except ValueError:
            cls = None
        if cls is not None and cls.RULES_TEXT is not None:
            return cls.RULES_TEXT
        raise PycardsError(f"no rules in plain words for the game {name!r}")
    return path.read_text(encoding="utf-8")


def _parse(text: str) -> tuple[RulesSection, ...]:
    sections: list[RulesSection] = []
    title: str | None = None
    paragraphs: list[str] = []
    items: list[str] = []
    block: list[str] = []
    bullet = False

    def end_block() -> None:
        nonlocal bullet
        if block:
            (items if bullet else paragraphs).append(" ".join(block))
        block.clear()
        bullet = False

    def end_section() -> None:
        end_block()
        if title is not None:
            sections.append(RulesSection(title, tuple(paragraphs), tuple(items)))
        paragraphs.clear()
        items.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith(".. rubric::"):
            end_section()
            title = line.removeprefix(".. rubric::").strip()
        elif not line:
            end_block()
        elif line.startswith("* "):
            end_block()
            bullet = True
            block.append(line[2:])
        else:
            block.append(line)
    end_section()
    return tuple(sections)


def rules_book(game: Game[Rules, object]) -> tuple[RulesSection, ...]:
    """The game's rules in plain words, section by section (from
    :func:`rules_source`)."""
    return _parse(rules_source(game.NAME))


def rules_text(game: Game[Rules, object], width: int = 80) -> str:
    """The rules in plain words as text lines no wider than ``width``."""
    out: list[str] = []
    for section in rules_book(game):
        out.append(section.title)
        for paragraph in section.paragraphs:
            out.extend(textwrap.wrap(paragraph, width, initial_indent="  ", subsequent_indent="  "))
        for item in section.items:
            out.extend(textwrap.wrap(item, width, initial_indent="  - ", subsequent_indent="    "))
    return "\n".join(out)


def prompt(view: PlayerView[object], names: Sequence[str] | None = None) -> str:
    """What ``view``'s seat is asked to decide now, in words (``""`` when it
    is not that seat's turn); ``names`` names the seats."""
    if view.is_terminal or view.current_player != view.seat:
        return ""
    return narrator(view.game).prompt(view, names)
