"""What a hostile trial found in the Python layer, each as a lasting test:
records (line length, look-alike digits, a byte order mark, names that would
not read back, a lying result, echoes), JSON with a key given twice,
look-alike action names and bot specs, the bot seed's type, OpenSpiel's
pickled state text, and the inputs decided one by one (docs/cards.rst,
docs/games.rst); the cases on one game's records, names or outputs are in
that game's ``test_<name>_hardening.py``."""

from __future__ import annotations

import base64
import builtins
import json
import pickle
from typing import Any

import pytest
from _games import GAMES
from _paths import ROOT

from pycards.bots import make_bot, parse_bot_spec
from pycards.cards import CardSet, deal, parse_cards
from pycards.combos import count_pairs
from pycards.errors import RecordError

#: the game of the tests that need one (any registered game does)
GAME = next(iter(GAMES.values()))


# ---------------------------------------------------------------------------
# bot specs


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


# ---------------------------------------------------------------------------
# the command line and the arena's plot


def test_distribution_offers_only_games_it_can_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pycards.game import has_score_distribution
    from pycards.ui.cli import main

    counted = [name for name, case in GAMES.items() if has_score_distribution(case.game_type)]
    others = [name for name in GAMES if name not in counted]
    assert counted
    for name in others:
        with pytest.raises(SystemExit) as info:
            main(["distribution", name])
        assert info.value.code == 2
        choices = ", ".join(repr(n) for n in counted)
        assert f"choose from {choices}" in capsys.readouterr().err


def test_plot_bars_show_a_zero_rating_and_the_legend_is_off_the_bars() -> None:
    pytest.importorskip("matplotlib")
    from pycards.arena import run_match
    from pycards.arena._results import _bar_baseline

    for ratings in ([0.0, 0.0], [-55.0, 55.0, 0.0], [3.0, 700.0], [-400.0, -1.0]):
        base = _bar_baseline(ratings)
        assert base < min([0.0, *ratings]) - 9.0  # every bar, a 0 one too, has a height
    result = run_match(GAME.name, ["random", "heuristic", "random"], 6, seed=1, progress=False)
    fig = result._figure()
    ax1, ax2 = fig.axes
    heights = [p.get_height() for p in ax1.patches]
    assert len(heights) == 3 and min(heights) > 0
    fig.canvas.draw()
    legend = ax2.get_legend().get_window_extent()
    assert legend.y1 <= ax2.get_window_extent().y0  # below the axes, over no bar


# ---------------------------------------------------------------------------
# docs slips


def test_docs_say_how_to_run_every_test() -> None:
    # (the introduction's list of games is made from the registry:
    # tests/project/test_docs_registry.py)

    root = ROOT
    games = (root / "docs" / "games.rst").read_text(encoding="utf-8")
    assert "``history``" in games.split("What a player may see")[0]
    readme = (root / "README.md").read_text(encoding="utf-8")
    for how in ("-m slow", "-m wheel", "PYCARDS_CFFI=1", "apt-get install chromium", "skipped"):
        assert how in readme, how
