"""Nodde Knave records (``pycards.record``): what a seat's record hides, and
every kind of bad record refused with the line at fault (the shared round
trips of every game: tests/games/test_record.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from _play import first_moves, random_game

from pycards.errors import RecordError
from pycards.game import State, load_game
from pycards.record import (
    MAX_LINE,
    MAX_NAME,
    Record,
    parse_record,
    read_record,
    replay,
    write_record,
)


def test_seat_record_hides_what_the_seat_may_not_see() -> None:
    state = random_game("nodde", 2, None, 3, 0, False)
    ref = write_record(state)
    mine = write_record(state, viewer=0)
    hand1 = re.search(r"= deal_card seat 1: (.*)", ref)
    assert hand1 is not None and "?" not in hand1[1]
    assert "= deal_card seat 1: ? ? ?" in mine
    assert f"= deal_card seat 0: {re.search(r'= deal_card seat 0: (.*)', ref)[1]}" in mine  # type: ignore[index]


# ---------------------------------------------------------------------------
# bad records


@pytest.fixture(scope="module")
def good() -> str:
    return write_record(random_game("nodde", 2, None, 11, None, False), names=["Ann", "Bob"])


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
    text = write_record(state)
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
    assert write_record(state, names=["Ann", "Bob"]).startswith(text.split("\n\n")[0])


def test_comments_and_blank_lines_are_ignored(good: str) -> None:
    text = "; a game\n" + good.replace("\nseat 0:", "\n; next\n\nseat 0:", 1)
    assert read_record(text).history == read_record(good).history


def test_write_record_checks_its_arguments() -> None:
    state = random_game("nodde", 2, None, 1, 3, False)
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
    assert isinstance(parse_record(write_record(state)), Record)


def test_record_object_replays(good: str) -> None:
    record = parse_record(good)
    state = record.to_state()
    assert state.history == read_record(good).history
    steps = list(replay(record))
    assert steps[-1][1].history == state.history
    broken = parse_record(good.replace('[Seed "11"]', '[Seed "12"]'))
    with pytest.raises(RecordError, match=r"game line \d+: the deal"):
        broken.to_state()


# ---------------------------------------------------------------------------
# records: the reader and the writer, against hostile input


def _finished() -> State[Any]:
    return first_moves("nodde", 7)


def _record(steps: int = 6) -> str:
    return write_record(first_moves("nodde", 7, steps))


def test_a_line_longer_than_the_cap_is_refused_naming_it() -> None:
    # a regex that backtracks over this line took seconds; the cap bounds any work
    text = _record() + "seat 1: a" + " " * (MAX_LINE + 10) + "b\n"
    no = text.count("\n")
    with pytest.raises(RecordError, match=rf"^line {no}: {MAX_LINE + 20} characters"):
        parse_record(text)


def test_a_megabyte_line_is_refused_before_anything_is_matched() -> None:
    for line in ("seat 1: a" + " " * 1_000_000 + "b", '[Seat0 "' + " " * 1_000_000 + '"]'):
        with pytest.raises(RecordError, match="a record's line has at most"):
            parse_record(line + "\n" + _record())


def test_blanks_inside_an_action_are_read_in_one_pass() -> None:
    # the longest line allowed, built to make a backtracking pattern quadratic
    body = "seat 1: a" + " " * (MAX_LINE - 11) + "b"
    assert len(body) <= MAX_LINE
    with pytest.raises(RecordError, match=r"unknown action 'a b'"):
        parse_record(_record() + body + "\n")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('[Seed "7"]', '[Seed "\uff17"]'),  # full-width 7
        ('[Players "2"]', '[Players "\u0662"]'),  # Arabic-Indic 2
        ('[Result "*"]', '[Result "\uff11 2"]'),
        ("seat 1: play", "seat \uff11: play"),
        ('[Rules "default"]', '[Rules "game_target=\u0663\u0661"]'),
        ('[View "referee"]', '[View "seat\u30000"]'),  # ideographic space
    ],
)
def test_look_alike_digits_and_blanks_are_refused(old: str, new: str) -> None:
    text = _record()
    assert old in text
    bad = text.replace(old, new, 1)
    no = _line_of(bad, new[:5])
    with pytest.raises(RecordError, match=rf"^line {no}: .* \(only ASCII"):
        parse_record(bad)


def test_a_leading_byte_order_mark_is_skipped() -> None:
    text = _record()
    assert read_record("\ufeff" + text).history == read_record(text).history
    # only at the very start: anywhere else it is a character like any other
    with pytest.raises(RecordError, match="line 2"):
        parse_record(text.replace("\n", "\n\ufeff", 1))


def test_lines_end_only_at_newlines() -> None:
    text = _record()
    assert parse_record(text.replace("\n", "\r\n")) == parse_record(text)
    # a vertical tab or a line separator is no line end: it is refused where it stands
    for sep in ("\x0b", "\u2028", "\x1e"):
        with pytest.raises(RecordError, match="line 1: "):
            parse_record(text.replace("\n", sep, 1))


@pytest.mark.parametrize("bad", ["\r", "\x85", "\u2028", "\u2029", "\x0b", "\x1e", "\t", "\xa0"])
def test_the_writer_refuses_what_would_not_read_back(bad: str) -> None:
    state = _finished()
    with pytest.raises(ValueError, match=r"names\[0\]: .* cannot be written"):
        write_record(state, names=[f"Ann{bad}Bo", "Cy"])
    with pytest.raises(ValueError, match=r"event: .* cannot be written"):
        write_record(state, event=f"final{bad}round")


def test_the_writer_refuses_a_name_longer_than_a_record_takes() -> None:
    state = _finished()
    with pytest.raises(ValueError, match=rf"names\[1\]: at most {MAX_NAME}"):
        write_record(state, names=["Ann", "x" * (MAX_NAME + 1)])
    with pytest.raises(TypeError, match="names"):
        write_record(state, names=["Ann", 3])  # type: ignore[list-item]


def test_free_text_reads_back_exactly() -> None:
    state = _finished()
    names = ['Zoë "the knave" \\ Ng', "x" * MAX_NAME]
    text = write_record(state, names=names, event='Ünïcode, quoted "and" slashed \\')
    record = parse_record(text)
    assert list(record.names) == names
    assert record.event == 'Ünïcode, quoted "and" slashed \\'
    assert read_record(text).history == state.history


def test_a_lying_result_names_its_line() -> None:
    state = _finished()
    text = write_record(state)
    got = " ".join(str(r) for r in state.returns())
    lie = " ".join(str(r + 1) for r in state.returns())
    bad = text.replace(f'[Result "{got}"]', f'[Result "{lie}"]')
    no = _line_of(bad, "[Result")
    with pytest.raises(RecordError, match=rf"^line {no}: Result: the replay ends {got}, .* {lie}$"):
        read_record(bad)
    # a finished game recorded as in progress, and the reverse, name the line too
    star = text.replace(f'[Result "{got}"]', '[Result "*"]')
    with pytest.raises(RecordError, match=rf"^line {no}: Result: the game is over"):
        read_record(star)


def test_error_messages_quote_at_most_forty_characters() -> None:
    text = _record()
    long = "x" * 3000
    cases = [
        text + f"seat 1: play {long}\n",
        text + f"nonsense {long}\n",
        text.replace('[Rules "default"]', f'[Rules "{long}=1"]'),
        text.replace('[Seed "7"]', f'[Seed "{long}"]'),
        text.replace('[Game "nodde"]', f'[Game "{long}"]'),
    ]
    for bad in cases:
        with pytest.raises(RecordError) as info:
            parse_record(bad)
        assert len(str(info.value)) < 300, str(info.value)[:400]
        assert "..." in str(info.value)


# ---------------------------------------------------------------------------
# JSON


def test_a_json_key_given_twice_is_refused() -> None:
    good = _finished().to_json()
    assert State.from_json(good).history == _finished().history
    twice = good.replace('"seed": 7', '"seed": 7, "seed": 8')
    assert twice != good
    with pytest.raises(RecordError, match="'seed' is given twice"):
        State.from_json(twice)
    nested = good.replace('"rules": {', '"rules": {"game_target": 61, ')
    with pytest.raises(RecordError, match="'game_target' is given twice"):
        State.from_json(nested)
