"""Text game records: exact round trips for random games, and bad records refused."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pycards.engine import game_info as _info
from pycards.errors import RecordError, RulesError
from pycards.game import State, game_names, load_game
from pycards.record import Record, parse_record, read_record, replay, write_record

GAMES = game_names()


def _play(
    name: str, players: int, preset: str | None, seed: int, steps: int | None, stacked: bool
) -> State:
    game = load_game(name, num_players=players)
    if preset is not None:
        game = load_game(name, getattr(game.RULES_TYPE, preset)(), players)
    deck = None
    if stacked and _info(name)["can_stack_deck"]:
        deck = list(range(_info(name)["deck_size"]))
        random.Random(seed).shuffle(deck)
    state = game.new_initial_state(seed, deck)
    rng = random.Random(seed ^ 0x5EED)
    n = 0
    while not state.is_terminal and (steps is None or n < steps):
        state.apply(rng.choice(state.legal_actions()))
        n += 1
    return state


@st.composite
def random_rules(draw: st.DrawFn, rtype: type) -> object:
    """Any rules the parameter table allows (small numbers, so games stay short)."""
    values: dict[str, object] = {}
    for d in rtype.parameters():
        if d["kind"] == "bool":
            values[d["name"]] = draw(st.booleans())
        elif d["kind"] == "choice":
            values[d["name"]] = draw(st.sampled_from(d["choices"]))
        else:
            num = st.integers(d["min"], min(d["max"], d["min"] + 30))
            values[d["name"]] = draw(st.one_of(st.none(), num) if d["kind"] == "optional" else num)
    return rtype(**values)


@st.composite
def games(draw: st.DrawFn) -> State:
    """A random game of any game, player count and rules (a preset, the
    defaults or any rules), shuffled or stacked, finished or in progress."""
    name = draw(st.sampled_from(GAMES))
    info = _info(name)
    players = draw(st.integers(info["min_players"], info["max_players"]))
    rtype = load_game(name, num_players=info["min_players"]).RULES_TYPE
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
    deck = None
    if stacked and info["can_stack_deck"]:
        deck = list(range(info["deck_size"]))
        random.Random(seed).shuffle(deck)
    state = game.new_initial_state(seed, deck)
    rng = random.Random(seed ^ 0x5EED)
    n = 0
    while not state.is_terminal and (steps is None or n < steps):
        state.apply(rng.choice(state.legal_actions()))
        n += 1
    return state


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.lists(st.text('abc xyz"\\', max_size=6), min_size=8, max_size=8))
def test_referee_record_round_trips_exactly(state: State, names: list[str]) -> None:
    names = names[: state.num_players]
    text = state.to_record(names=names, date="2026.11.30", event='a "test" game')
    again = read_record(text)
    assert again.history == state.history
    assert again.seed == state.seed
    assert again.deck == state.deck
    assert again.game == state.game
    assert again.returns() == state.returns()
    assert again.to_record(names=names, date="2026.11.30", event='a "test" game') == text
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
    text = state.to_record(seat)
    record = parse_record(text)
    assert record.text() == text
    assert record.view == seat and record.seed is None and record.deck is None
    assert "[Seed" not in text and "[Deck" not in text
    assert len(record.actions) == len(state.history)
    with pytest.raises(RecordError, match="cannot be replayed"):
        read_record(text)


def test_seat_record_hides_what_the_seat_may_not_see() -> None:
    state = _play("nodde", 2, None, 3, 0, False)
    ref = state.to_record()
    mine = state.to_record(0)
    hand1 = re.search(r"= deal_card seat 1: (.*)", ref)
    assert hand1 is not None and "?" not in hand1[1]
    assert "= deal_card seat 1: ? ? ?" in mine
    assert f"= deal_card seat 0: {re.search(r'= deal_card seat 0: (.*)', ref)[1]}" in mine  # type: ignore[index]
    # No Takers?: a give between two other seats is hidden from the third
    state = _play("notakers", 3, None, 5, 40, False)
    mine = state.to_record(1)
    assert re.search(r"^seat [02]: give \?$", mine, re.M)
    assert not re.search(r"^seat 1: \w+ \?$", mine, re.M)  # one's own actions are shown


# ---------------------------------------------------------------------------
# bad records


@pytest.fixture(scope="module")
def good() -> str:
    return _play("nodde", 2, None, 11, None, False).to_record(names=["Ann", "Bob"])


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(needle))


def _replace_line(text: str, no: int, new: str) -> str:
    lines = text.splitlines()
    lines[no - 1] = new
    return "\n".join(lines) + "\n"


def test_good_record_reads(good: str) -> None:
    assert read_record(good).is_terminal


def test_unknown_tag_names_its_line(good: str) -> None:
    bad = good.replace('[Rules "default"]', '[Rules "default"]\n[Colour "blue"]')
    with pytest.raises(RecordError, match=r"line 6: unknown tag 'Colour'"):
        read_record(bad)


def test_illegal_action_names_line_and_action(good: str) -> None:
    no = _line_of(good, "seat 1: play")
    line = good.splitlines()[no - 1]
    # seat 1 plays a card it does not hold: the one seat 0 played just before
    prev = good.splitlines()[no - 2]
    assert prev.startswith("seat 0: play")
    bad = _replace_line(good, no, "seat 1: " + prev.split(": ")[1])
    with pytest.raises(RecordError, match=rf"line {no}: seat 1: 'play \w+' is illegal"):
        read_record(bad)
    assert line  # the good line was there


def test_wrong_seat_to_act(good: str) -> None:
    no = _line_of(good, "seat 0: play")
    bad = _replace_line(good, no, good.splitlines()[no - 1].replace("seat 0", "seat 1"))
    with pytest.raises(RecordError, match=rf"line {no}: .*seat 0 is to act"):
        read_record(bad)


def test_deal_that_the_seed_does_not_deal(good: str) -> None:
    bad = good.replace('[Seed "11"]', '[Seed "12"]')
    with pytest.raises(RecordError, match=r"line \d+: the deal .* is not what the seed"):
        read_record(bad)


def test_wrong_deck_refused() -> None:
    game = load_game("nodde")
    deck = list(range(52))
    state = game.new_initial_state(4, deck)
    text = state.to_record()
    assert "[Deck " in text
    no = _line_of(text, "[Deck")
    # a card placed twice
    bad = text.replace('[Deck "AC 2C', '[Deck "AC AC', 1)
    with pytest.raises(RecordError, match=rf"line {no}: Deck: .*twice"):
        read_record(bad)
    # a card missing
    bad = text.replace('[Deck "AC 2C', '[Deck "2C', 1)
    with pytest.raises(RecordError, match=rf"line {no}: Deck: .*missing AC"):
        read_record(bad)
    # a different (valid) deck: the deal lines refuse it
    bad = text.replace('[Deck "AC 2C', '[Deck "2C AC', 1)
    with pytest.raises(RecordError, match=r"the deal .* is not what the seed and deck deal"):
        read_record(bad)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (('[Game "nodde"]', '[Game "chess"]'), r"line 1: unknown game 'chess'"),
        (('[Players "2"]', '[Players "9"]'), r"line 2: Players: must be 2..4"),
        (('[Players "2"]', '[Players "two"]'), r"line 2: Players: expected a number"),
        (('[Rules "default"]', '[Rules "game_target=0"]'), r"line 5: Rules: game_target"),
        (('[Rules "default"]', '[Rules "colour=red"]'), r"line 5: Rules: unknown rule 'colour'"),
        (('[Rules "default"]', '[Rules "flush_in_play=yes"]'), r"line 5: Rules: .*true or false"),
        (('[Rules "default"]', '[Rules "flush_rule=none"]'), r"line 5: Rules: flush_rule"),
        (('[Preset "mwynwen"]', '[Preset "willughby"]'), r"line 6: the Rules are not"),
        (('[Seed "11"]', '[Seed "-1"]'), r"line 7: Seed: must be"),
        (('[Seed "11"]\n', ""), r"missing tag \[Seed\]"),
        (('[View "referee"]', '[View "north"]'), r"line 8: View is 'referee'"),
        (('[View "referee"]', '[View "seat 0"]'), r"line 7: a seat's record has no Seed"),
        (('[Result "', '[Result "1 '), r"line 9: Result: one number per seat"),
        (('[Seat0 "Ann"]', '[Seat0 "Ann]'), r'line 3: a tag is \[Name "value"\]'),
        (("seat 0: play", "seat 0: fold"), r"line \d+: seat 0: unknown action 'fold \w+'"),
        (("seat 0: play", "seat 7: play"), r"line \d+: seat: must be 0..1"),
        (("seat 0: play", "player 0 play"), r"line \d+: expected 'seat K: action'"),
    ],
)
def test_bad_records(good: str, edit: tuple[str, str], message: str) -> None:
    bad = good.replace(*edit, 1)
    with pytest.raises(RecordError, match=message):
        read_record(bad)


def test_result_must_match(good: str) -> None:
    result = re.search(r'\[Result "(.*)"\]', good)
    assert result is not None
    bad = good.replace(f'[Result "{result[1]}"]', '[Result "*"]')
    with pytest.raises(RecordError, match=r"the game is over; the record says \*"):
        read_record(bad)
    bad = good.replace(f'[Result "{result[1]}"]', '[Result "0 0"]')
    with pytest.raises(RecordError, match=r"Result: the replay ends"):
        read_record(bad)


def test_truncated_record_is_a_game_in_progress(good: str) -> None:
    lines = good.splitlines()
    cut = [line for line in lines[: len(lines) // 2]]
    text = "\n".join(cut).replace(re.search(r'\[Result "[^"]*"\]', good)[0], '[Result "*"]')  # type: ignore[index]
    state = read_record(text)
    assert not state.is_terminal
    assert state.to_record(names=["Ann", "Bob"]).startswith(text.split("\n\n")[0])


def test_comments_and_blank_lines_are_ignored(good: str) -> None:
    text = "; a game\n" + good.replace("\nseat 0:", "\n; next\n\nseat 0:", 1)
    assert read_record(text).history == read_record(good).history


def test_write_record_checks_its_arguments() -> None:
    state = _play("nodde", 2, None, 1, 3, False)
    with pytest.raises(ValueError, match="one name per seat"):
        write_record(state, names=["a"])
    with pytest.raises(ValueError, match=r"YYYY\.MM\.DD"):
        write_record(state, date="30/11/2026")
    with pytest.raises(ValueError, match="viewer"):
        write_record(state, viewer=5)
    sample = state.sample_infoset(0, 1)
    with pytest.raises(RecordError, match="sampled"):
        write_record(sample)
    with pytest.raises(TypeError):
        parse_record(b"[Game]")  # type: ignore[arg-type]
    assert isinstance(parse_record(state.to_record()), Record)


@st.composite
def damaged(draw: st.DrawFn) -> str:
    """A good record with a few random edits: lines deleted, repeated, swapped
    or with a character changed."""
    name = draw(st.sampled_from(GAMES))
    state = _play(name, _info(name)["min_players"], None, draw(st.integers(0, 99)), 30, False)
    lines = state.to_record(names=["Ann", "Bob"]).splitlines()[:200]
    lines = [*lines[: _info(name)["min_players"] + 10], *lines[-30:]] if len(lines) > 60 else lines
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


def test_record_object_replays(good: str) -> None:
    record = parse_record(good)
    state = record.to_state()
    assert state.history == read_record(good).history
    steps = list(replay(record))
    assert steps[-1][1].history == state.history
    broken = parse_record(good.replace('[Seed "11"]', '[Seed "12"]'))
    with pytest.raises(RecordError, match=r"game line \d+: the deal"):
        broken.to_state()


GOLDEN = sorted((Path(__file__).parent / "records").glob("*.txt"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_records_still_replay(path: Path) -> None:
    """Records written by ``pycards play`` (tests/records, one whole game of
    each game) replay to the same end and are written back byte for byte: a
    change of the format or of the engine's deals shows here."""
    text = path.read_text(encoding="utf-8")
    record = parse_record(text)
    state = read_record(text)
    assert state.is_terminal and tuple(state.returns()) == record.result
    assert state.to_record(names=record.names, date=record.date) == text
