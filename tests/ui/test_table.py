"""One table core under every table: the terminal's and the browser's take a
move back by one rule and answer one hint (:mod:`pycards.ui.table`).

The same test runs against each table through an adapter that speaks to it
as its person does: typed lines for the terminal
(:class:`pycards.ui.terminal.TerminalTable`), the browser table's calls for
the web (:class:`pycards.ui.web.tables.Table`).  The rule is stated here
from the events alone: an undo goes back to the person's last decision,
and is refused before the person's first move, once the game is over, and
once a deal or a draw has shown the person a card since that decision.
"""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest

pytest.importorskip("starlette")

from _games import game_params

from pycards.game import Game, State, load_game
from pycards.ui.terminal import TerminalTable
from pycards.ui.web.tables import Table, TableError, TableSpec

GAMES = game_params("one", extra=["quick_preset"])
SOLO = 0  # the person's seat
SEED = 2024


def _game(name: str, players: int, preset: str) -> Game[Any, Any]:
    rules = load_game(name).RULES_TYPE.presets()[preset]
    return load_game(name, rules, players)


class TerminalAdapter:
    """The terminal table, spoken to in typed lines."""

    def __init__(self, name: str, players: int, preset: str, seed: int) -> None:
        self.game = _game(name, players, preset)
        self.out = io.StringIO()
        self.table = TerminalTable(
            self.game, seat=SOLO, bots=("random",), seed=seed, stdout=self.out
        )
        self.table.bots_play()

    @property
    def state(self) -> State[Any]:
        return self.table.state

    def load(self, state: State[Any]) -> None:
        self.table.core.state = state.clone()

    def _say(self, line: str) -> str:
        self.out.seek(0)
        self.out.truncate()
        assert self.table.command(line)
        return self.out.getvalue()

    def move(self, action: int) -> None:
        turn = len(self.state.history)
        self._say(self.game.action_name(action))
        assert self.state.history[turn] == action

    def undo(self) -> bool:
        said = self._say("undo")
        assert ("took back your last move" in said) != ("cannot undo:" in said), said
        return "took back your last move" in said

    def hint(self) -> int:
        said = self._say("hint")
        found = re.search(r"hint \(.*?\): \d+\) (.*)", said)
        assert found is not None, said
        return self.game.action_from_name(found[1].strip())


class WebAdapter:
    """The browser table, through the calls its socket makes."""

    def __init__(self, name: str, players: int, preset: str, seed: int) -> None:
        seats = [{"bot": None if p == SOLO else "random"} for p in range(players)]
        spec = {"game": name, "players": players, "preset": preset, "seats": seats}
        self.table, _ = Table.new(TableSpec.from_json({**spec, "practice": True, "seed": seed}))
        self._bots()

    def _bots(self) -> None:
        while self.table.bot_to_move() is not None:
            self.table.bot_move()

    @property
    def state(self) -> State[Any]:
        return self.table.state

    def load(self, state: State[Any]) -> None:
        self.table.state = state.clone()

    def move(self, action: int) -> None:
        self.table.person_move(SOLO, action, self.table.version)
        self._bots()

    def undo(self) -> bool:
        try:
            self.table.undo(SOLO, self.table.version)
        except TableError:
            return False
        return True

    def hint(self) -> int:
        action: int = self.table.hint(SOLO)["action"]
        return action


class OldWebAdapter(WebAdapter):
    """The browser table's undo before the one rule: back to the person's
    last decision whatever the person saw since (the control that shows the
    test of the rule can fail)."""

    def undo(self) -> bool:
        state = self.table.state
        if state.is_terminal:
            return False
        back = state.clone()
        while back.history:
            back.undo()
            if back.current_player == SOLO:
                self.table.state = back
                return True
        return False


ADAPTERS = {"terminal": TerminalAdapter, "web": WebAdapter}


def _shown_a_card(state: State[Any], since: int) -> bool:
    """Whether a deal or a draw has shown the person a card since the event
    count ``since``."""
    kinds = type(state.game).DEAL_KINDS
    return any(e.kind in kinds and e.card is not None for e in state.events(SOLO, since=since))


def _check_the_rule(table: Any, rng: random.Random) -> tuple[int, int]:
    """Play a game at random, asking for an undo wherever the rule refuses
    one and at about every other decision until six were done: each is done
    or refused as the rule says, and a done one returns exactly to the
    person's last decision.  Returns how many undos were done, and how many
    were refused because a card was shown."""
    decisions: list[tuple[str, int]] = []  # the state and its event count at each decision
    done = for_a_card = 0
    while not table.state.is_terminal:
        state = table.state
        assert state.current_player == SOLO
        here = state.to_json()
        shown = bool(decisions) and _shown_a_card(state, decisions[-1][1])
        # wherever the rule refuses, and at about every other decision until
        # six undos were done (so the game goes on)
        if shown or not decisions or (done < 6 and rng.random() < 0.5):
            if table.undo():
                assert decisions and not shown, "an undo the rule refuses was done"
                assert table.state.to_json() == decisions.pop()[0]
                done += 1
                continue
            assert not decisions or shown, "an undo the rule allows was refused"
            assert table.state.to_json() == here
            for_a_card += shown
        decisions.append((here, state.event_count))
        table.move(rng.choice(state.legal_actions()))
    over = table.state.to_json()
    assert not table.undo() and table.state.to_json() == over
    return done, for_a_card


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_undo_follows_one_rule(adapter: str, game: str, players: int, preset: str) -> None:
    done = for_a_card = 0
    for seed in range(SEED, SEED + 5):  # games until both sides of the rule were tried
        more, refused = _check_the_rule(
            ADAPTERS[adapter](game, players, preset, seed), random.Random(seed)
        )
        done, for_a_card = done + more, for_a_card + refused
        if done and for_a_card:
            break
    assert done and for_a_card


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_the_old_web_undo_breaks_the_rule(game: str, players: int, preset: str) -> None:
    with pytest.raises(AssertionError, match="an undo the rule refuses was done"):
        for seed in range(SEED, SEED + 5):
            _check_the_rule(OldWebAdapter(game, players, preset, seed), random.Random(seed))


@pytest.mark.parametrize(("game", "players", "preset"), GAMES)
def test_one_hint_at_every_table(game: str, players: int, preset: str) -> None:
    """At the same state and seed, the terminal and the browser table give
    the same hint, a legal move."""
    tables = [make(game, players, preset, SEED) for make in ADAPTERS.values()]
    state = _game(game, players, preset).new_initial_state(SEED)
    rng = random.Random(8)
    hints = 0
    while not state.is_terminal and hints < 4:
        if state.current_player == SOLO:
            for table in tables:
                table.load(state)
            chosen = [table.hint() for table in tables]
            assert chosen[0] == chosen[1] and chosen[0] in state.legal_actions()
            hints += 1
        state.apply(rng.choice(state.legal_actions()))
    assert hints
