"""What the tables teach (pycards.teach): each game's rules in plain words from
one source, and a prompt in words for every kind of decision of every game,
the same in the terminal and in the browser's messages."""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import pytest
from _games import GAMES, ROOT, game_params

from pycards.game import load_game
from pycards.narrate import Narrator, narrator
from pycards.teach import prompt, rules_book, rules_source, rules_text
from pycards.ui.web.tables import describe_rules, view_message

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
#: what a person should never read in a prompt: engine names and numbers
ENGINE = re.compile(
    r"_|\+\d|\b(rank|suit|card) [0-9AJQKT]|fallback|\bphase\b|\bseat \d|\bNow\b|\{|\bNone\b"
)


@pytest.mark.parametrize("name", game_params("none"))
def test_the_rules_in_plain_words_have_one_source(name: str) -> None:
    """The panel's text is the file the game's docs page includes as it is."""
    game = load_game(name)
    book = rules_book(game)
    assert len(book) >= 3 and all(s.title and (s.paragraphs or s.items) for s in book)
    page = (ROOT / "docs" / f"{name}.rst").read_text(encoding="utf-8")
    assert f".. include:: ../src/pycards/games/rules/{name}.rst" in page
    source = rules_source(name)
    assert (ROOT / "src" / "pycards" / "games" / "rules" / f"{name}.rst").read_text() == source
    # only the markup the panel reads: rubrics, paragraphs and lists
    for line in source.splitlines():
        assert not line.startswith("..") or line.startswith(".. rubric:: "), line
        assert "``" not in line and ":" not in line.split(" ")[0], line
    text = rules_text(game, 80)
    assert all(len(line) <= 80 for line in text.splitlines())
    flat = " ".join(text.split()).replace(" - ", " ")
    for section in book:
        for part in (section.title, *section.paragraphs, *section.items):
            assert " ".join(part.split()) in flat, part


def _decisions(name: str, players: int) -> dict[tuple[Any, ...], tuple[list[str], str, str]]:
    """A few random games of every preset at ``players``: for the first of
    each kind of decision (the phase, and the legal moves' first words), the
    legal moves' names, the generic prompt and the game's."""
    case = GAMES[name]
    found: dict[tuple[Any, ...], tuple[list[str], str, str]] = {}
    for preset in case.rules_type.PRESETS:
        rules = getattr(case.rules_type, preset)()
        game = load_game(name, rules, players)
        for seed in range(3):
            state = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not state.is_terminal and len(state.history) < 1500:
                view = state.view(state.current_player)
                obs = view.observation
                kind = (
                    getattr(obs, "phase", None),
                    tuple(sorted({n.split()[0] for n in view.legal_action_names()})),
                )
                if kind not in found:
                    generic = Narrator.prompt(narrator(game), view)
                    asked = prompt(view, NAMES[:players])
                    found[kind] = (view.legal_action_names(), generic, asked)
                state.apply(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize(("name", "players"), game_params("ends"))
def test_every_decision_has_a_prompt_in_words(name: str, players: int) -> None:
    decisions = _decisions(name, players)
    assert decisions
    for kind, (legal, generic, asked) in decisions.items():
        assert asked and asked[0].isupper(), (kind, asked)
        assert not ENGINE.search(asked), (kind, asked)
        # the game words it: not the generic list of the legal moves' first words
        assert asked != generic, (kind, asked)
        # and says what to do with one of the verbs a move starts with
        verbs = {n.split()[0].lower() for n in legal}
        said = set(re.findall(r"[a-z]+", asked.lower()))
        assert verbs & said or {"lay", "count", "lead", "choose"} & said, (kind, asked)


@pytest.mark.parametrize(("name", "players"), game_params("ends"))
def test_the_prompt_is_only_for_the_seat_to_act(name: str, players: int) -> None:
    state = load_game(name, None, players).new_initial_state(5)
    to_act = state.current_player
    for seat in range(players):
        asked = prompt(state.view(seat), NAMES[:players])
        assert bool(asked) == (seat == to_act), (seat, asked)


@pytest.mark.parametrize(("name", "players"), game_params("one"))
def test_the_browser_reads_the_same_layer(name: str, players: int) -> None:
    """The web message's prompt and rules panel come from pycards.teach."""
    game = load_game(name, None, players)
    state = game.new_initial_state(9)
    names = NAMES[:players]
    rng = random.Random(9)
    for _ in range(12):
        seat = state.current_player
        msg = view_message(state.view(seat), names, ["random"] * players)
        assert msg["prompt"] == prompt(state.view(seat), names) != ""
        state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal:
            break
    book = describe_rules(game)
    assert book["plain"] == [dataclasses.asdict(s) for s in rules_book(game)]
