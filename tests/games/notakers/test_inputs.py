"""Bad input to No Takers?, on the public API and on ``cardcore._core`` directly.

A bool, a float (Python or numpy) or None is never an int or a card set
(TypeError naming the argument); an int out of range raises ValueError (or
its subclasses InvalidCardError / RulesError) naming it; numpy integers are
accepted.  Every value check is the engine's: these tests reach it through
the binding.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from _paths import DOCS

from cardcore import _core
from pycards.cards import CardSet
from pycards.errors import IllegalActionError, InvalidCardError, RulesError
from pycards.games.notakers import (
    EVENT_KINDS,
    NoTakersGame,
    NoTakersRules,
    ask_action,
    batch_split_points,
    best_split,
    descriptor_name,
    split_points,
    splits_exactly,
    winners,
)

NOT_INTS: list[Any] = [True, False, np.True_, 1.0, 0.0, np.float64(1.0), np.float32(2.0), None, "1"]
HUGE = [2**31, 2**63, -(2**31) - 1, -(2**63) - 1, 2**64]
OUTSIDE_DECK = [1 << 13, 1 << 63, 0x1FFF1FFF1FFF1FFF + 1]  # a bit between suits / at the top
HAND = CardSet("5H 5S 6H 6S 7H 7S AH 2H 3H").mask


# ---------------------------------------------------------------------------
# cardcore._core.notakers_*


@pytest.mark.parametrize("bad", NOT_INTS)
def test_core_card_sets_refuse_non_ints(bad: Any) -> None:
    for call in (
        lambda: _core.notakers_points(bad, 0),
        lambda: _core.notakers_splits_exactly(bad, 0),
        lambda: _core.notakers_best_split(bad, 0, 0),
    ):
        with pytest.raises(TypeError, match="cards"):
            call()


@pytest.mark.parametrize("bad", NOT_INTS)
def test_core_ints_refuse_non_ints(bad: Any) -> None:
    arr = np.zeros(2, dtype=np.uint64)
    for call, name in (
        (lambda: _core.notakers_points(HAND, bad), "ace_in_runs"),
        (lambda: _core.notakers_splits_exactly(HAND, bad), "ace_in_runs"),
        (lambda: _core.notakers_best_split(HAND, bad, 0), "ace_in_runs"),
        (lambda: _core.notakers_best_split(HAND, 0, bad), "tiebreak_ace"),
        (lambda: _core.notakers_batch_points(arr, bad), "ace_in_runs"),
    ):
        with pytest.raises(TypeError, match=name):
            call()


@pytest.mark.parametrize("ace", [-1, 3, 255, -(2**31), 2**31 - 1, *HUGE])
def test_core_ace_in_runs_out_of_range(ace: int) -> None:
    arr = np.array([HAND], dtype=np.uint64)
    for call in (
        lambda: _core.notakers_points(HAND, ace),
        lambda: _core.notakers_splits_exactly(HAND, ace),
        lambda: _core.notakers_best_split(HAND, ace, 0),
        lambda: _core.notakers_batch_points(arr, ace),
        # the engine checks ace_in_runs even when there is no element
        lambda: _core.notakers_batch_points(np.zeros(0, dtype=np.uint64), ace),
    ):
        with pytest.raises(ValueError, match="ace_in_runs") as info:
            call()
        assert not isinstance(info.value, InvalidCardError)


@pytest.mark.parametrize("tie", [-1, 2, 3, 2**31 - 1, *HUGE])
def test_core_tiebreak_ace_out_of_range(tie: int) -> None:
    with pytest.raises(ValueError, match="tiebreak_ace") as info:
        _core.notakers_best_split(HAND, 0, tie)
    assert "ace_in_runs" not in str(info.value)


def test_core_names_both_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"ace_in_runs.*tiebreak_ace"):
        _core.notakers_best_split(HAND, 7, 7)


@pytest.mark.parametrize("cards", [-1, -(2**63), 2**64, 2**100, *OUTSIDE_DECK])
def test_core_card_sets_out_of_deck(cards: int) -> None:
    for call in (
        lambda: _core.notakers_points(cards, 0),
        lambda: _core.notakers_splits_exactly(cards, 0),
        lambda: _core.notakers_best_split(cards, 0, 0),
    ):
        with pytest.raises(InvalidCardError, match="cards"):
            call()


@pytest.mark.parametrize("kind", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64])
def test_core_accepts_numpy_ints(kind: Any) -> None:
    cards = CardSet("5H 5S 6H 6S 7H 7S").mask if np.dtype(kind).itemsize == 8 else 7
    for ace in range(3):
        points = _core.notakers_points(cards, ace)
        assert isinstance(points, int)
        assert _core.notakers_points(kind(cards), kind(ace)) == points
        assert _core.notakers_splits_exactly(kind(cards), kind(ace)) == (
            _core.notakers_splits_exactly(cards, ace)
        )
        for tie in range(2):
            assert _core.notakers_best_split(kind(cards), kind(ace), kind(tie)) == (
                _core.notakers_best_split(cards, ace, tie)
            )
    arr = np.array([cards, 0], dtype=np.uint64)
    assert _core.notakers_batch_points(arr, kind(1)).tolist() == [
        _core.notakers_points(cards, 1),
        0,
    ]


@pytest.mark.parametrize(
    ("arr", "exc"),
    [
        (np.zeros(3, dtype=np.int64), TypeError),
        (np.zeros(3, dtype=np.float64), TypeError),
        (np.zeros(3, dtype=np.uint32), TypeError),
        (np.zeros(3, dtype=bool), TypeError),
        (np.zeros((2, 2), dtype=np.uint64), ValueError),
        (np.zeros((), dtype=np.uint64), ValueError),
        (np.zeros(6, dtype=np.uint64)[::2], ValueError),
        ([1, 2], TypeError),
        (None, TypeError),
        (3, TypeError),
    ],
)
def test_core_batch_refuses_bad_arrays(arr: Any, exc: type[Exception]) -> None:
    with pytest.raises(exc, match="arr"):
        _core.notakers_batch_points(arr, 0)
    with pytest.raises(exc, match="arr"):
        batch_split_points(arr)


@pytest.mark.parametrize("bad", OUTSIDE_DECK)
def test_core_batch_names_the_bad_element(bad: int) -> None:
    arr = np.array([HAND, HAND, bad, 1 << 13], dtype=np.uint64)
    with pytest.raises(InvalidCardError, match=r"arr\[2\]"):
        _core.notakers_batch_points(arr, 0)
    with pytest.raises(InvalidCardError, match=r"arr\[2\]"):
        batch_split_points(arr)


def test_core_knowledge_refuses_bad_players_and_states() -> None:
    state = _core.new_state("notakers", (0,) * 7, 3, 1)
    for bad in NOT_INTS:
        with pytest.raises(TypeError, match="player"):
            _core.notakers_knowledge(state, bad)
    for bad in [-1, 3, 8, 2**31 - 1, *HUGE]:
        with pytest.raises(ValueError, match="player"):
            _core.notakers_knowledge(state, bad)
    assert _core.notakers_knowledge(state, np.int64(2)) == _core.notakers_knowledge(state, 2)
    other = _another_games_state()
    with pytest.raises(ValueError, match="No Takers"):
        _core.notakers_knowledge(other, 0)
    with pytest.raises(ValueError, match="No Takers"):
        _core.notakers_knowledge(_core.GameState(), 0)
    with pytest.raises(TypeError):
        _core.notakers_knowledge(None, 0)


def _another_games_state() -> Any:
    """The engine state of a registered game other than No Takers?."""
    from _games import GAMES

    case = next(case for name, case in GAMES.items() if name != "notakers")
    return _core.new_state(case.name, case.game(quick=False).params, case.tables[0], 1)


# ---------------------------------------------------------------------------
# the public scoring helpers


@pytest.mark.parametrize("bad", [True, False, np.True_, 1.0, np.float64(3.0), None])
def test_scoring_refuses_non_card_sets(bad: Any) -> None:
    for fn in (best_split, split_points, splits_exactly):
        with pytest.raises(TypeError, match="cards"):
            fn(bad)
    with pytest.raises(TypeError, match="cards"):
        winners(["7H 7S", bad])


@pytest.mark.parametrize("bad", [-1, 2**64, *OUTSIDE_DECK, "7H 7X", "7H 7H", [0, 0], [52]])
def test_scoring_refuses_cards_outside_the_deck(bad: Any) -> None:
    for fn in (best_split, split_points, splits_exactly):
        with pytest.raises(InvalidCardError):
            fn(bad)
    with pytest.raises(InvalidCardError):
        winners(["7H 7S", bad])


def test_scoring_accepts_numpy_ints_and_checks_rules() -> None:
    mask = CardSet("5H 5S 6H 6S 7H 7S").mask
    assert split_points(np.uint64(mask)) == split_points(mask) == 6
    assert best_split(np.int64(mask)) == best_split(mask)
    assert splits_exactly(np.uint64(mask)) is True
    for bad in ["both", NoTakersRules, object(), 1]:
        for fn in (best_split, split_points, splits_exactly):
            with pytest.raises(TypeError, match="rules"):
                fn(mask, bad)
        with pytest.raises(TypeError, match="rules"):
            winners([mask], bad)
        with pytest.raises(TypeError, match="rules"):
            batch_split_points(np.zeros(1, dtype=np.uint64), bad)


@pytest.mark.parametrize("bad", NOT_INTS)
def test_ask_action_and_descriptor_name_refuse_non_ints(bad: Any) -> None:
    with pytest.raises(TypeError, match="offset"):
        ask_action(bad, 0)
    with pytest.raises(TypeError, match="descriptor"):
        ask_action(1, bad)
    with pytest.raises(TypeError, match="descriptor"):
        descriptor_name(bad)


@pytest.mark.parametrize("bad", [-1, 69, 70, *HUGE])
def test_descriptor_out_of_range(bad: int) -> None:
    with pytest.raises(ValueError, match="descriptor"):
        ask_action(1, bad)
    with pytest.raises(ValueError, match="descriptor"):
        descriptor_name(bad)


@pytest.mark.parametrize("bad", [0, -1, 8, *HUGE])
def test_offset_out_of_range(bad: int) -> None:
    with pytest.raises(ValueError, match="offset"):
        ask_action(bad, 0)


def test_ask_action_accepts_numpy_ints() -> None:
    a = ask_action(np.int64(2), np.uint8(30))
    assert type(a) is int and a == ask_action(2, 30) == 108 + 69 + 30
    assert descriptor_name(np.int32(13)) == descriptor_name(13) == "suit C"


# ---------------------------------------------------------------------------
# rules and games

RULES_BAD: list[tuple[str, Any]] = [
    ("save_requires_set", 1),
    ("save_requires_set", 0.0),
    ("save_requires_set", None),
    ("save_requires_set", "True"),
    ("save_visibility", "face up"),
    ("save_visibility", 1),
    ("save_visibility", None),
    ("save_visibility", True),
    ("pass_fallback", "each"),
    ("pass_fallback", 0),
    ("short_draw", "end"),
    ("short_draw", None),
    ("max_turns", True),
    ("max_turns", 1.0),
    ("max_turns", np.float64(5.0)),
    ("max_turns", "5"),
    ("max_turns", 0),
    ("max_turns", -1),
    ("max_turns", 1_000_001),
    ("max_turns", 2**31),
    ("max_turns", 2**63),
    ("ace_in_runs", "wrap"),
    ("ace_in_runs", 2),
    ("ace_in_runs", None),
    ("tiebreak_ace", "middle"),
    ("tiebreak_ace", 0),
    ("tiebreak_ace", False),
]


@pytest.mark.parametrize(("field", "value"), RULES_BAD)
def test_rules_fields_refuse_bad_values(field: str, value: Any) -> None:
    with pytest.raises(RulesError, match=field):
        NoTakersRules(**{field: value})


def test_rules_accept_numpy_and_normalize() -> None:
    r = NoTakersRules(max_turns=np.int64(40), save_requires_set=np.True_)
    assert type(r.max_turns) is int and r.max_turns == 40
    assert r.save_requires_set is True
    assert r == NoTakersRules(max_turns=40, save_requires_set=True)
    assert NoTakersRules.capped(np.int32(7)).max_turns == 7
    with pytest.raises(RulesError, match="max_turns"):
        NoTakersRules.capped(0)


@pytest.mark.parametrize("bad", [True, 1.0, np.float64(3.0), None, "3"])
def test_game_num_players_refuses_non_ints(bad: Any) -> None:
    with pytest.raises(TypeError, match="num_players"):
        NoTakersGame(num_players=bad)


@pytest.mark.parametrize("bad", [-1, 0, 1, 9, *HUGE])
def test_game_num_players_out_of_range(bad: int) -> None:
    with pytest.raises(RulesError, match="players"):
        NoTakersGame(num_players=bad)


def test_game_accepts_numpy_num_players() -> None:
    g = NoTakersGame(num_players=np.int64(5))
    assert type(g.num_players) is int and g.num_players == 5
    # a preset is named exactly; anything else that is not rules is refused
    assert NoTakersGame("open_table", num_players=3).rules == NoTakersRules.open_table()
    with pytest.raises(RulesError, match="no rules preset"):
        NoTakersGame("Open_Table", num_players=3)
    with pytest.raises(TypeError, match="rules"):
        NoTakersGame(b"open_table", num_players=3)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# actions


GAME = NoTakersGame(num_players=3)


@pytest.mark.parametrize("bad", NOT_INTS[:-1])
def test_action_ids_refuse_non_ints(bad: Any) -> None:
    state = GAME.new_initial_state(seed=1)
    with pytest.raises(TypeError, match="action"):
        GAME.action_name(bad)
    for verb in (state.apply, state.verify):
        with pytest.raises(TypeError, match="action"):
            verb(bad)
    assert state.can_apply(bad) is False


@pytest.mark.parametrize("bad", [-1, GAME.num_actions, 591, *HUGE])
def test_action_ids_out_of_range(bad: int) -> None:
    state = GAME.new_initial_state(seed=1)
    with pytest.raises(ValueError, match="action"):
        GAME.action_name(bad)
    with pytest.raises(ValueError, match="action"):
        state.apply(bad)


@pytest.mark.parametrize(
    "name",
    [
        "bogus",
        "",
        "save 7X",
        "give 1H",
        "ask +3 rank 7",  # 3 players: seats +1 and +2 only
        "ask +0 rank 7",
        "ask +1 rank X",
        "ask +1 suit Q",
        "ask +1 card 7",
        "ask 1 rank 7",
    ],
)
def test_unknown_action_names(name: str) -> None:
    state = GAME.new_initial_state(seed=1)
    with pytest.raises(ValueError, match=re.escape(repr(name))):
        GAME.action_from_name(name)
    with pytest.raises(ValueError):
        state.apply(name)
    assert state.history == ()


def test_action_names_round_trip_with_numpy_ids() -> None:
    for a in range(GAME.num_actions):
        name = GAME.action_name(np.int32(a))
        assert GAME.action_from_name(name) == a


def _refused_actions(state: Any) -> list[int]:
    legal = set(state.legal_actions())
    return [a for a in range(GAME.num_actions) if a not in legal]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_refused_action_leaves_the_state_exactly_as_it_was(seed: int) -> None:
    """Walk a game; at every step try every illegal action (by id and by name):
    each raises IllegalActionError naming it and leaves the engine's bytes,
    the history and the legal actions unchanged."""
    rng = np.random.default_rng(seed)
    state = GAME.new_initial_state(seed=seed)
    steps = 0
    while not state.is_terminal and steps < 40:
        raw, history, legal = state.engine_state.raw(), state.history, state.legal_actions()
        events = [str(e) for e in state.events()]
        refused = _refused_actions(state)
        assert refused
        for a in refused[:: max(1, len(refused) // 25)]:
            name = GAME.action_name(a)
            with pytest.raises(IllegalActionError, match=re.escape(repr(name))) as info:
                state.apply(a)
            assert info.value.action == a and info.value.name == name
            with pytest.raises(IllegalActionError):
                state.apply(name)
            with pytest.raises(IllegalActionError):
                state.apply(np.int64(a))
            assert state.engine_state.raw() == raw
            assert state.history == history and state.legal_actions() == legal
            assert [str(e) for e in state.events()] == events
        state.apply(int(rng.choice(legal)))
        assert state.engine_state.raw() != raw
        steps += 1
    assert steps > 5


def test_refused_action_when_the_game_is_over() -> None:
    state = NoTakersGame(NoTakersRules.capped(2), num_players=2).new_initial_state(seed=4)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    raw = state.engine_state.raw()
    with pytest.raises(IllegalActionError):
        state.apply(0)
    assert state.engine_state.raw() == raw
    assert state.events()[-1].kind == "game_over"


# ---------------------------------------------------------------------------
# the docs page lists every segment and every event kind

DOC = (DOCS / "notakers.rst").read_text()


def _section(title: str) -> str:
    start = DOC.index(f"\n{title}\n{'-' * len(title)}\n")
    end = re.search(r"\n[^\n]+\n-{3,}\n", DOC[start + len(title) + 4 :])
    assert end is not None
    return DOC[start : start + len(title) + 4 + end.start()]


def test_docs_list_every_segment_and_event_kind() -> None:
    tensor = _section("Observation tensor")
    names: set[str] = set()
    for rules in (NoTakersRules(), NoTakersRules.open_table()):
        for n in (2, 5, 8):
            game = NoTakersGame(rules, num_players=n)
            segments = game.segments
            names |= {s.name for s in segments}
            total = sum(s.length for s in segments)
            assert total == game.new_initial_state(0).observation_tensor(0).size
            open_piles = 52 * (n - 1) if rules.save_visibility == "open" else 0
            assert total == 234 + 7 * n + open_piles  # the size the page gives
    assert "save_piles" in names
    for name in names:
        assert f"``{name}``" in tensor, name
    events = _section("Events")
    info = _core.game_info("notakers")
    assert [k["name"] for k in info["event_kinds"]] == list(EVENT_KINDS)
    # the "Event fields" table lists the kinds in id order
    listed = re.findall(r"^   \* - ``(\w+)``$", events, flags=re.MULTILINE)
    assert listed == list(EVENT_KINDS)
    assert EVENT_KINDS[-1] == "game_over"
    assert f"ring of the last {info['log_capacity']} events" in events
    actions = _section("Action encoding")
    for r in info["action_ranges"]:
        template = r["name"].split(" {")[0].replace("+{seat}", "+k")
        assert template in actions, r["name"]
    for preset in NoTakersRules.PRESETS:
        assert f"{preset}(" in DOC, preset
    assert "16384" not in DOC and "log full" not in DOC
