"""What a hostile trial found in the Python layer, on Nodde Knave's records and
states: records (line length, look-alike digits, a byte order mark, names
that would not read back, a lying result, echoes), JSON with a key given
twice, look-alike action names, and a finished game's information set."""

from __future__ import annotations

from typing import Any

import pytest

from pycards.errors import RecordError
from pycards.game import State, load_game
from pycards.record import MAX_LINE, MAX_NAME, parse_record, read_record, write_record


def _finished(name: str = "nodde", seed: int = 7) -> State[Any]:
    state = load_game(name).new_initial_state(seed)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    return state


def _record(steps: int = 6) -> str:
    state = load_game("nodde").new_initial_state(7)
    for _ in range(steps):
        state.apply(state.legal_actions()[0])
    return write_record(state)


def _line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), start=1) if line.startswith(start))


# ---------------------------------------------------------------------------
# records: the reader


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


# ---------------------------------------------------------------------------
# action names


@pytest.mark.parametrize(
    "name",
    [
        "play \u212aH",  # Kelvin sign, lower()s to "k"
        "play\u3000KH",  # ideographic space, split() by str.split
        "play K\u029c",
        "play\x1fKH",  # an ASCII control char str.split() takes as a blank
    ],
)
def test_look_alike_action_names_are_refused(name: str) -> None:
    g = load_game("nodde", num_players=2)
    with pytest.raises(ValueError, match="not an ASCII"):
        g.action_from_name(name)
    state = g.new_initial_state(1)
    assert not state.can_apply(name)


# ---------------------------------------------------------------------------
# inputs decided one by one (docs/games.rst)


def test_a_finished_game_can_be_sampled() -> None:
    # decided: the information set of a finished game is still defined
    state = _finished("nodde", 3)
    for seat in range(2):
        sample = state.sample_infoset(seat, 1)
        assert sample.is_terminal and sample.returns() == state.returns()
        assert sample.observation(seat) == state.observation(seat)
