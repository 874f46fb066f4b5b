"""Text game records: exact round trips for random games, and bad records refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from _paths import RECORDS
from _play import random_game, random_moves
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pycards.engine import game_info as _info
from pycards.errors import RecordError, RulesError
from pycards.game import State, game_names, load_game
from pycards.record import parse_record, read_record, replay, write_record

GAMES = game_names()


@st.composite
def random_rules(draw: st.DrawFn, rtype: type) -> object:
    """Any rules the parameter table allows (small numbers, so games stay short)."""
    values: dict[str, object] = {}
    for d in rtype.parameters():
        if d.kind == "bool":
            values[d.name] = draw(st.booleans())
        elif d.kind == "choice":
            values[d.name] = draw(st.sampled_from(d.choices))
        else:
            num = st.integers(d.min, min(d.max, d.min + 30))
            values[d.name] = draw(st.one_of(st.none(), num) if d.kind == "optional" else num)
    return rtype(**values)


@st.composite
def games(draw: st.DrawFn) -> State:
    """A random game of any game, player count and rules (a preset, the
    defaults or any rules), shuffled or stacked, finished or in progress."""
    name = draw(st.sampled_from(GAMES))
    info = _info(name)
    players = draw(st.integers(info.min_players, info.max_players))
    rtype = load_game(name, num_players=info.min_players).RULES_TYPE
    which = draw(st.sampled_from([None, "random", *rtype.PRESETS]))
    rules = getattr(rtype, which)() if which not in (None, "random") else rtype()
    if which == "random":
        try:
            rules = draw(random_rules(rtype))
        except RulesError:
            assume(False)
    seed = draw(st.integers(0, 2**64 - 1))
    steps = draw(st.one_of(st.none(), st.integers(0, 60)))
    if which == "random" and steps is None:
        steps = 300
    stacked = draw(st.booleans())
    try:
        game = load_game(name, rules, players)
    except RulesError:
        assume(False)
    return random_moves(game, seed, steps, stacked)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.lists(st.text('abc xyz"\\', max_size=6), min_size=8, max_size=8))
def test_referee_record_round_trips_exactly(state: State, names: list[str]) -> None:
    names = names[: state.num_players]
    text = write_record(state, names=names, date="2026.11.30", event='a "test" game')
    again = read_record(text)
    assert again.history == state.history
    assert again.seed == state.seed
    assert again.deck == state.deck
    assert again.game == state.game
    assert again.returns() == state.returns()
    assert write_record(again, names=names, date="2026.11.30", event='a "test" game') == text
    record = parse_record(text)
    assert record.text() == text
    assert record.names == tuple(names)
    steps = list(replay(text))
    assert len(steps) == len(state.history) + 1
    assert steps[0][0] is None
    assert [s for s, _ in steps[1:]] == [(seat, name) for seat, name in record.actions]
    assert steps[-1][1].history == state.history


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.data())
def test_seat_record_round_trips_and_does_not_replay(state: State, data: st.DataObject) -> None:
    seat = data.draw(st.integers(0, state.num_players - 1))
    text = write_record(state, viewer=seat)
    record = parse_record(text)
    assert record.text() == text
    assert record.view == seat and record.seed is None and record.deck is None
    assert "[Seed" not in text and "[Deck" not in text
    assert len(record.actions) == len(state.history)
    with pytest.raises(RecordError, match="cannot be replayed"):
        read_record(text)


@st.composite
def damaged(draw: st.DrawFn) -> str:
    """A good record with a few random edits: lines deleted, repeated, swapped
    or with a character changed."""
    name = draw(st.sampled_from(GAMES))
    state = random_game(name, _info(name).min_players, None, draw(st.integers(0, 99)), 30, False)
    lines = write_record(state, names=["Ann", "Bob"]).splitlines()[:200]
    lines = [*lines[: _info(name).min_players + 10], *lines[-30:]] if len(lines) > 60 else lines
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["delete", "repeat", "swap", "char", "junk"]))
        if how == "delete" and len(lines) > 1:
            del lines[i]
        elif how == "repeat":
            lines.insert(i, lines[i])
        elif how == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "char" and lines[i]:
            k = draw(st.integers(0, len(lines[i]) - 1))
            c = draw(st.sampled_from(list('"[]=:?;\\ 0123456789xQ\t\x00é')))
            lines[i] = lines[i][:k] + c + lines[i][k + 1 :]
        else:
            lines.insert(i, draw(st.text(max_size=20)))
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_a_damaged_record_is_read_or_refused_never_crashes(text: str) -> None:
    try:
        state = read_record(text)
    except RecordError as exc:
        assert str(exc)
        return
    assert isinstance(state, State)


GOLDEN = sorted(RECORDS.glob("*.txt"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_records_still_replay(path: Path) -> None:
    """Records written by ``pycards play`` (tests/records, one whole game of
    each game) replay to the same end and are written back byte for byte: a
    change of the format or of the engine's deals shows here."""
    text = path.read_text(encoding="utf-8")
    record = parse_record(text)
    state = read_record(text)
    assert state.is_terminal and tuple(state.returns()) == record.result
    assert write_record(state, names=record.names, date=record.date) == text
