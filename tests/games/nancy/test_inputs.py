"""Strict input on the Nancy helpers and on ``cardcore._core``'s nancy_*
functions: a bool, a float or None is never an int, a card, a seat or a flag;
numpy integers are ints; errors name the argument or the card."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardcore import _core
from pycards.cards import Card, NancyCard, NancyCardSet
from pycards.errors import InvalidCardError
from pycards.game import load_game
from pycards.games.nancy import (
    NancyRules,
    base_score,
    batch_legal_cards,
    batch_objectives,
    batch_trick_winner,
    legal_cards,
    objectives,
    settlement,
    trick_winner,
)

NOT_INTS: list[Any] = [True, False, 1.0, 2.5, None, np.float64(1.0), np.bool_(True), "1"]


# -- the facade ---------------------------------------------------------------


def test_rules_decide_the_overtrump() -> None:
    assert str(legal_cards("3S XV II", "XI")) == "XV"
    assert str(legal_cards("3S XV II", "XI", NancyRules(overtrump_on_trump_lead=False))) == "II XV"
    assert str(legal_cards("3S XV II", "XI", overtrump=False)) == "II XV"
    assert str(legal_cards("3S XV II", "XI", overtrump=np.bool_(True))) == "XV"
    with pytest.raises(ValueError, match="not both"):
        legal_cards("3S", "XI", NancyRules(), overtrump=True)
    for bad in (1, 0, None, "yes", 1.0):
        if bad is None:
            continue
        with pytest.raises(TypeError, match="overtrump must be a bool"):
            legal_cards("3S", "XI", overtrump=bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be NancyRules"):
        legal_cards("3S", "XI", {"overtrump_on_trump_lead": False})  # type: ignore[arg-type]


def test_rules_decide_the_arcane_sum() -> None:
    assert objectives("V VII X XIV") == 0
    assert objectives("V VII X XIV", NancyRules(arcane_sum_mode="subset_sum")) == 64
    assert objectives("V VII X XIV", arcane_sum_mode="at_least") == 64
    with pytest.raises(ValueError, match="arcane_sum_mode"):
        objectives("V", arcane_sum_mode="exact")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="arcane_sum_mode"):
        objectives("V", arcane_sum_mode=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not both"):
        objectives("V", NancyRules(), arcane_sum_mode="at_least")
    rows = np.array([[0, NancyCardSet("V VII X XIV").mask >> 64]], dtype=np.uint64)
    assert batch_objectives(rows).tolist() == [0]
    assert batch_objectives(rows, NancyRules(arcane_sum_mode="at_least")).tolist() == [64]
    assert batch_objectives(rows, arcane_sum_mode="subset_sum").tolist() == [64]


def test_batch_legal_cards_take_the_rules() -> None:
    holding = NancyCardSet("3S XV II").mask
    rows = np.array([[holding & (2**64 - 1), holding >> 64]], dtype=np.uint64)
    tricks = np.array([[int(NancyCard.parse("XI")), -1]], dtype=np.int8)
    strict = batch_legal_cards(rows, tricks)
    loose = batch_legal_cards(rows, tricks, NancyRules(overtrump_on_trump_lead=False))
    assert int(strict[0, 0]) | int(strict[0, 1]) << 64 == NancyCardSet("XV").mask
    assert int(loose[0, 0]) | int(loose[0, 1]) << 64 == NancyCardSet("II XV").mask
    assert np.array_equal(batch_legal_cards(rows, tricks, overtrump=False), loose)
    with pytest.raises(TypeError, match="overtrump"):
        batch_legal_cards(rows, tricks, overtrump=0)  # type: ignore[arg-type]
    assert batch_trick_winner(tricks).tolist() == [0]


@pytest.mark.parametrize("bad", NOT_INTS)
def test_scores_refuse_what_is_not_an_int(bad: Any) -> None:
    with pytest.raises(TypeError, match="bid"):
        base_score(bad, 1, True)
    with pytest.raises(TypeError, match="completed"):
        base_score(1, bad, True)
    for i, name in enumerate(("nplayers", "taker", "partner", "bid", "completed")):
        args: list[Any] = [4, 0, -1, 2, 1, True]
        args[i] = bad
        with pytest.raises(TypeError, match=name):
            settlement(*args)


def test_scores_take_numpy_ints_and_name_the_range() -> None:
    assert base_score(np.int64(3), np.int8(4), True) == 13
    assert settlement(np.int32(4), np.int64(1), -1, 3, 4, np.bool_(True)) == [-13, 39, -13, -13]
    for won in (1, 0, None, "yes"):
        with pytest.raises(TypeError, match="won must be a bool"):
            base_score(3, 4, won)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"bid must be 1..9, got 10"):
        base_score(10, 0, True)
    with pytest.raises(ValueError, match=r"taker must be 0..3, got 4"):
        settlement(4, 4, -1, 1, 1, True)
    with pytest.raises(ValueError, match="partner"):
        settlement(5, 2, 2, 1, 1, True)
    with pytest.raises(ValueError, match=r"nplayers must be 2..6"):
        settlement(7, 0, -1, 1, 1, True)


@pytest.mark.parametrize("bad", [True, 1.5, None, Card(0), b"KR", np.float32(2)])
def test_cards_refuse_what_is_not_a_card(bad: Any) -> None:
    with pytest.raises(TypeError, match=r"trick\[1\]"):
        trick_winner(["KR", bad])
    with pytest.raises(TypeError, match=r"trick\[0\]"):
        legal_cards("3S", [bad])
    with pytest.raises(TypeError, match="holding"):
        legal_cards([bad] if isinstance(bad, Card) else bad, [])
    with pytest.raises(TypeError, match="nancy"):
        objectives([0, bad] if isinstance(bad, Card) else bad)


def test_cards_are_named_in_errors() -> None:
    with pytest.raises(InvalidCardError, match=r"trick\[1\].*'ZZ'"):
        trick_winner("KR ZZ")
    with pytest.raises(InvalidCardError, match=r"trick\[0\]: no Nancy card has id 78"):
        trick_winner([78])
    with pytest.raises(InvalidCardError, match="KR is played twice"):
        trick_winner(["KR", 13])
    with pytest.raises(InvalidCardError, match="KR is both in holding and in trick"):
        legal_cards("KR 3S", ["KR"])
    with pytest.raises(InvalidCardError, match="holding"):
        legal_cards("KR QQ", [])
    with pytest.raises(ValueError, match="at most 5"):
        legal_cards("KR", "1R 2R 3R 4R 5R 6R")
    with pytest.raises(ValueError, match="at most 6"):
        trick_winner("1R 2R 3R 4R 5R 6R 7R")
    assert trick_winner([np.int16(13), np.uint8(12)]) == 0
    assert str(legal_cards(np.int64(NancyCardSet("KR 3S").mask), [np.int8(0)])) == "KR"


# -- cardcore._core directly ---------------------------------------------------


@pytest.mark.parametrize("bad", NOT_INTS)
def test_core_refuses_what_is_not_an_int(bad: Any) -> None:
    with pytest.raises(TypeError, match="bid"):
        _core.nancy_base_score(bad, 1, True)
    with pytest.raises(TypeError, match="completed"):
        _core.nancy_base_score(1, bad, True)
    for i, name in enumerate(("nplayers", "taker", "partner", "bid", "completed")):
        args: list[Any] = [4, 0, -1, 2, 1, True]
        args[i] = bad
        with pytest.raises(TypeError, match=name):
            _core.nancy_settlement(*args)
    with pytest.raises(TypeError, match=r"trick\[0\]"):
        _core.nancy_trick_winner([bad])
    with pytest.raises(TypeError, match=r"trick\[1\]"):
        _core.nancy_legal_cards(0, [0, bad])
    with pytest.raises(TypeError, match="holding"):
        _core.nancy_legal_cards(bad, [])
    with pytest.raises(TypeError, match="nancy"):
        _core.nancy_objectives(bad, 0)
    with pytest.raises(TypeError, match="arcane_sum_mode"):
        _core.nancy_objectives(0, bad)
    rows = np.zeros((1, 2), dtype=np.uint64)
    with pytest.raises(TypeError, match="arcane_sum_mode"):
        _core.nancy_batch_objectives(rows, bad)


@pytest.mark.parametrize("bad", [1, 0, None, 1.0, "yes"])
def test_core_flags_are_bools(bad: Any) -> None:
    with pytest.raises(TypeError, match="won must be a bool"):
        _core.nancy_base_score(1, 1, bad)
    with pytest.raises(TypeError, match="won must be a bool"):
        _core.nancy_settlement(4, 0, -1, 1, 1, bad)
    with pytest.raises(TypeError, match="overtrump must be a bool"):
        _core.nancy_legal_cards(0, [], bad)
    rows = np.zeros((1, 2), dtype=np.uint64)
    tricks = np.full((1, 1), -1, dtype=np.int8)
    with pytest.raises(TypeError, match="overtrump must be a bool"):
        _core.nancy_batch_legal_cards(rows, tricks, bad)


def test_core_ranges_and_numpy_ints() -> None:
    assert _core.nancy_base_score(np.int64(3), np.uint8(4), np.bool_(True)) == 13
    assert _core.nancy_trick_winner([np.int8(13), np.int64(12)]) == 0
    assert _core.nancy_objectives(np.uint64(0), np.int8(2)) == 0
    with pytest.raises(ValueError, match=r"bid must be 1..9"):
        _core.nancy_base_score(0, 1, True)
    with pytest.raises(ValueError, match=r"completed must be 0..9"):
        _core.nancy_base_score(1, 10, True)
    with pytest.raises(ValueError, match=r"taker must be 0..4"):
        _core.nancy_settlement(5, 5, -1, 1, 1, True)
    with pytest.raises(ValueError, match=r"partner must be -1..3"):
        _core.nancy_settlement(4, 0, -2, 1, 1, True)
    with pytest.raises(ValueError, match=r"arcane_sum_mode must be 0..2"):
        _core.nancy_objectives(0, 3)
    with pytest.raises(ValueError, match=r"trick\[0\]: card id 78"):
        _core.nancy_trick_winner([78])
    with pytest.raises(TypeError, match="trick must be a sequence"):
        _core.nancy_trick_winner("KR")
    with pytest.raises(TypeError, match="trick must be a sequence"):
        _core.nancy_legal_cards(0, 5)
    with pytest.raises(ValueError, match=r"holding .* outside the Nancy deck"):
        _core.nancy_legal_cards(1 << 14, [])


# ---------------------------------------------------------------------------
# action names


@pytest.mark.parametrize("name", ["bid \uff11", "bid \u0661"])  # full-width 1, Arabic-Indic 1
def test_look_alike_action_names_are_refused(name: str) -> None:
    g = load_game("nancy", num_players=4)
    with pytest.raises(ValueError, match="not an ASCII"):
        g.action_from_name(name)
    state = g.new_initial_state(1)
    assert not state.can_apply(name)
