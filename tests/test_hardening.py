"""What a hostile trial found in the Python layer, each as a lasting test:
records (line length, look-alike digits, a byte order mark, names that would
not read back, a lying result, echoes), JSON with a key given twice,
look-alike action names and bot specs, the bot seed's type, OpenSpiel's
pickled state text, and the inputs decided one by one (docs/cards.rst,
docs/games.rst)."""

from __future__ import annotations

import base64
import builtins
import json
import pickle
from typing import Any

import pytest

from pycards.bots import make_bot, parse_bot_spec
from pycards.cards import CardSet, deal, parse_cards
from pycards.combos import count_pairs
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
# action names and bot specs


@pytest.mark.parametrize(
    ("game", "name"),
    [
        ("nodde", "play \u212aH"),  # Kelvin sign, lower()s to "k"
        ("nodde", "play\u3000KH"),  # ideographic space, split() by str.split
        ("nodde", "play K\u029c"),
        ("nodde", "play\x1fKH"),  # an ASCII control char str.split() takes as a blank
        ("nancy", "bid \uff11"),  # full-width 1
        ("nancy", "bid \u0661"),
    ],
)
def test_look_alike_action_names_are_refused(game: str, name: str) -> None:
    g = load_game(game, num_players=4 if game == "nancy" else 2)
    with pytest.raises(ValueError, match="not an ASCII"):
        g.action_from_name(name)
    state = g.new_initial_state(1)
    assert not state.can_apply(name)


def test_action_names_are_case_insensitive_ascii() -> None:
    # decided: names are case-insensitive, as card names are (docs/games.rst)
    game = load_game("cribbage")
    assert game.action_from_name("Pass") == game.action_from_name("pass")
    assert game.action_from_name("PLAY 5h") == game.action_from_name("play 5H")
    assert game.action_from_name("play\t5H") == game.action_from_name("play 5H")


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:simulations=\uff12\uff10\uff10",
        "ismcts:simulations=\u0662\u0660\u0660",
        "ismcts:s\u0131mulations=200",  # dotless i: an identifier, not ASCII
        "random\u3000",
        "ismcts: simulations=200",
    ],
)
def test_look_alike_bot_specs_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="bot spec"):
        parse_bot_spec(spec)
    with pytest.raises(ValueError, match="bot spec"):
        make_bot(spec)


def test_bot_spec_numbers_are_ascii_ints_and_floats() -> None:
    assert parse_bot_spec("x:a=200:b=-3:c=0.5:d=1e3:e=nan:f=inf") == (
        "x",
        {"a": 200, "b": -3, "c": 0.5, "d": 1000.0, "e": "nan", "f": "inf"},
    )
    # int() would read "1_0" as 10: here it stays text, which no bot takes as a count
    assert parse_bot_spec("pimc:samples=1_0") == ("pimc", {"samples": "1_0"})
    with pytest.raises(ValueError, match="bot spec"):
        make_bot("pimc:samples=1_0")


@pytest.mark.parametrize("seed", [1.0, None, "1", True, [1]])
def test_make_bot_refuses_a_seed_of_the_wrong_type(seed: object) -> None:
    with pytest.raises(TypeError, match="seed must be an int"):
        make_bot("random", seed=seed)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int"):
        make_bot("heuristic", seed=seed)  # type: ignore[arg-type]


def test_make_bot_refuses_a_seed_out_of_range() -> None:
    with pytest.raises(ValueError, match="seed must be 0"):
        make_bot("random", seed=-1)
    with pytest.raises(ValueError, match="seed must be 0"):
        make_bot("random", seed=1 << 64)


# ---------------------------------------------------------------------------
# OpenSpiel: no pickle on any text


def test_openspiel_state_text_is_never_unpickled() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import pycards.envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("pycards_nodde")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    text = pyspiel.serialize_game_and_state(game, state)
    assert "__dict__" not in text and "[State]\npycards={" in text

    class Payload:
        def __reduce__(self) -> tuple[Any, ...]:
            return (exec, ("import builtins; builtins._pycards_pwned = True",))

    blob = base64.b64encode(pickle.dumps(Payload())).decode()
    head = text.split("[State]\n")[0]
    crafted = f"{head}[State]\nhistory=1:18\nmove_number=1\n__dict__={blob}\n"
    try:
        with pytest.raises(RecordError, match="a pickled state is not read"):
            pyspiel.deserialize_game_and_state(crafted)
        with pytest.raises(RecordError, match="a pickled state is not read"):
            game.deserialize_state(f"history=1:18\nmove_number=1\n__dict__={blob}")
        assert not hasattr(builtins, "_pycards_pwned")
    finally:
        if hasattr(builtins, "_pycards_pwned"):
            del builtins._pycards_pwned


def test_openspiel_state_text_is_checked() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from pycards.envs.openspiel import deserialize, serialize

    game = pyspiel.load_game("pycards_notakers", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[-1])
    text = serialize(state)
    assert str(deserialize(text)) == str(state)
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)
    data = json.loads(text)
    with pytest.raises(RecordError, match="given twice"):
        deserialize(text.replace('"game": ', '"game": "x", "game": ', 1))
    with pytest.raises(RecordError, match="not a pycards game"):
        deserialize(json.dumps({**data, "game": "kuhn_poker"}))
    other = pyspiel.load_game("pycards_notakers", {"players": 4})
    with pytest.raises(RecordError, match="not of this game"):
        other.deserialize_state(state.serialize())
    with pytest.raises(ValueError, match="count of states"):
        game.set_rng_state("\uff12")


# ---------------------------------------------------------------------------
# inputs decided one by one (docs/cards.rst, docs/games.rst)


def test_parse_cards_takes_commas_without_blanks() -> None:
    # decided: any run of blanks and commas separates cards
    assert parse_cards("5H,6H") == parse_cards("5H, 6H") == CardSet("5H 6H")


def test_a_mapping_is_not_a_card_set() -> None:
    with pytest.raises(TypeError, match="got dict"):
        count_pairs({"AS": 1})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got dict"):
        CardSet({"AS": 1, "AH": 2})  # type: ignore[arg-type]
    assert count_pairs({"AS", "AH"}) == 1  # a set of names is still a card collection


@pytest.mark.parametrize(("hands", "each"), [(0, 5), (5, 0), (-1, 5), (53, 1), (5, 11)])
def test_deal_needs_a_hand_of_a_card(hands: int, each: int) -> None:
    with pytest.raises(ValueError, match="cannot deal"):
        deal(1, hands, each)
    assert [len(h) for h in deal(1, 52, 1)] == [1] * 52


def test_a_finished_game_can_be_sampled() -> None:
    # decided: the information set of a finished game is still defined
    state = _finished("nodde", 3)
    for seat in range(2):
        sample = state.sample_infoset(seat, 1)
        assert sample.is_terminal and sample.returns() == state.returns()
        assert sample.observation(seat) == state.observation(seat)


# ---------------------------------------------------------------------------
# the command line and the arena's plot


def test_distribution_offers_cribbage_and_only_games_it_can_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pycards.cli import main
    from pycards.cribbage import show_score_distribution

    assert main(["distribution", "cribbage"]) == 0
    out = capsys.readouterr().out
    hist = show_score_distribution()
    assert "exact, every 4-card hand with every starter: 12,994,800 deals" in out
    assert f"{int(hist[29]):14,d}" in out.splitlines()[-2]  # the 29 hand, 4 of them
    assert main(["distribution", "cribbage", "--crib"]) == 0
    crib = show_score_distribution(crib=True)
    assert f"{int(crib[0]):14,d}" in capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        main(["distribution", "nancy"])
    assert info.value.code == 2
    assert "choose from 'cribbage', 'nodde', 'notakers'" in capsys.readouterr().err


def test_plot_bars_show_a_zero_rating_and_the_legend_is_off_the_bars() -> None:
    pytest.importorskip("matplotlib")
    from pycards.arena import run_match
    from pycards.arena._results import _bar_baseline

    for ratings in ([0.0, 0.0], [-55.0, 55.0, 0.0], [3.0, 700.0], [-400.0, -1.0]):
        base = _bar_baseline(ratings)
        assert base < min([0.0, *ratings]) - 9.0  # every bar, a 0 one too, has a height
    result = run_match("nodde", ["random", "heuristic", "random"], 6, seed=1, progress=False)
    fig = result._figure()
    ax1, ax2 = fig.axes
    heights = [p.get_height() for p in ax1.patches]
    assert len(heights) == 3 and min(heights) > 0
    fig.canvas.draw()
    legend = ax2.get_legend().get_window_extent()
    assert legend.y1 <= ax2.get_window_extent().y0  # below the axes, over no bar


# ---------------------------------------------------------------------------
# docs slips


def test_docs_name_every_game_and_how_to_run_every_test() -> None:
    from pathlib import Path

    from pycards.game import game_names

    root = Path(__file__).resolve().parent.parent
    index = (root / "docs" / "index.rst").read_text(encoding="utf-8")
    intro = index.split(".. toctree::")[0]
    titles = {"cribbage": "cribbage", "nancy": "Nancy", "nodde": "Nodde", "notakers": "No Takers"}
    assert sorted(titles) == game_names()
    for name, title in titles.items():
        assert title in intro, name
    games = (root / "docs" / "games.rst").read_text(encoding="utf-8")
    assert "``history``" in games.split("What a player may see")[0]
    readme = (root / "README.md").read_text(encoding="utf-8")
    for how in ("-m slow", "-m wheel", "PYCARDS_CFFI=1", "apt-get install chromium", "skipped"):
        assert how in readme, how
