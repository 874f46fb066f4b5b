"""The convention every game follows (docs/internals.rst, "One convention"),
checked over every registered game: names, rules and presets, the engine's
self-description, events, game over, observations, action names, text views,
copying, pickling, threads and records.  A new game passes this file or is
not done."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import json
import pickle
import random
import re
import sys
import threading
from typing import Any

import numpy as np
import pytest
from _games import builtin_game_names

from cardcore import _core
from pycards.define import unlisted_names
from pycards.engine import find_game
from pycards.errors import IllegalActionError, PycardsError, RecordError, RulesError
from pycards.game import TERMINAL, Game, Rules, State, game_names, load_game

GAMES = game_names()
#: the built-in games: the checks of a game's own files (its module, page,
#: profile, C prefix, sessions) are theirs; a defined game has none of them
BUILTIN = builtin_game_names()
CASES = [
    (name, n)
    for name in GAMES
    for n in range(_core.game_info(name)["min_players"], _core.game_info(name)["max_players"] + 1)
]


def _module(name: str) -> Any:
    return importlib.import_module(f"pycards.games.{name}")


def _play(game: Game[Any, Any], seed: int, steps: int | None = None) -> State[Any]:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    k = 0
    while not state.is_terminal and (steps is None or k < steps):
        state.apply(rng.choice(state.legal_actions()))
        k += 1
    return state


def test_every_engine_game_has_a_facade() -> None:
    # games defined with listed=False (pycards.define) are the engine's only;
    # every other engine game is found by name (a defined one registered
    # earlier is found though another test's listing of it has ended)
    engine = [n for n in _core.game_names() if n not in unlisted_names()]
    assert set(game_names()) <= set(engine)
    for name in engine:
        assert name == find_game(name).NAME


@pytest.mark.parametrize("name", BUILTIN)
def test_names_follow_one_scheme(name: str) -> None:
    game = load_game(name)
    cls = type(game)
    assert cls.__name__.endswith("Game")
    prefix = cls.__name__[: -len("Game")]
    assert cls.RULES_TYPE.__name__ == f"{prefix}Rules"
    assert cls.OBSERVATION_TYPE.__name__ == f"{prefix}Observation"
    module = _module(name)
    for public in (cls.__name__, f"{prefix}Rules", f"{prefix}Observation", "EVENT_KINDS"):
        assert public in module.__all__, public
    assert name == cls.NAME


@pytest.mark.parametrize("name", GAMES)
def test_rules_are_the_engine_parameters(name: str) -> None:
    rules_type = load_game(name).RULES_TYPE
    assert issubclass(rules_type, Rules)
    assert dataclasses.is_dataclass(rules_type)
    assert rules_type.__dataclass_params__.frozen  # type: ignore[attr-defined]
    params = _core.game_info(name)["params"]
    assert params, "the engine describes no parameters"
    assert [f.name for f in dataclasses.fields(rules_type)] == [p["name"] for p in params]
    default = rules_type()
    assert default.to_params() == tuple(p["default"] for p in params)
    assert rules_type.from_params(default.to_params()) == default
    assert repr(default) == f"{rules_type.__name__}()"
    for p in params:
        assert p["doc"], f"{p['name']} has no doc"
        if p["kind"] == "choice":
            assert len(p["choices"]) == p["max"] + 1 and p["min"] == 0
        elif p["kind"] == "bool":
            assert (p["min"], p["max"]) == (0, 1)
        elif p["kind"] == "optional":
            assert not p["min"] <= p["none_value"] <= p["max"]


@pytest.mark.parametrize("name", GAMES)
def test_every_parameter_refuses_a_wrong_value_by_name(name: str) -> None:
    rules_type = load_game(name).RULES_TYPE
    for p in _core.game_info(name)["params"]:
        bad: list[object] = [1.5, "x" if p["kind"] != "choice" else "not-a-choice"]
        if p["kind"] != "bool":
            bad.append(True)
        if p["kind"] == "bool":
            bad.append(1)
        if p["kind"] in ("int", "optional"):
            bad += [p["min"] - 1, p["max"] + 1]
        if p["kind"] != "optional":
            bad.append(None)
        for value in bad:
            with pytest.raises(RulesError, match=p["name"]):
                rules_type(**{p["name"]: value})


@pytest.mark.parametrize("name", GAMES)
def test_repr_shows_only_the_differences(name: str) -> None:
    rules_type = load_game(name).RULES_TYPE
    for preset, rules in rules_type.presets().items():
        assert isinstance(rules, rules_type), preset
        text = repr(rules)
        for field, value in rules.differences().items():
            assert f"{field}={value!r}" in text
        assert text.count("=") == len(rules.differences())
        assert eval(text, {rules_type.__name__: rules_type}) == rules


@pytest.mark.parametrize("name", GAMES)
def test_presets_are_named_and_playable(name: str) -> None:
    game_type = type(load_game(name))
    rules_type = game_type.RULES_TYPE
    assert rules_type.PRESETS, "a game lists its presets"
    info = _core.game_info(name)
    for preset, rules in rules_type.presets().items():
        assert "seed" not in preset
        assert callable(getattr(rules_type, preset))
        playable = 0
        for n in range(info["min_players"], info["max_players"] + 1):
            try:
                game = game_type(rules, n)
            except RulesError:
                continue
            playable += 1
            assert _play(game, 1, steps=50).history
        assert playable, f"preset {preset} fits no player count"


@pytest.mark.parametrize("name", BUILTIN)
def test_event_kinds_are_one_tuple_numbered_from_zero(name: str) -> None:
    kinds = _module(name).EVENT_KINDS
    assert isinstance(kinds, tuple) and all(isinstance(k, str) for k in kinds)
    engine = [k["name"] for k in _core.game_info(name)["event_kinds"]]
    assert list(kinds) == engine
    assert len(set(kinds)) == len(kinds)
    assert "game_over" in kinds
    game = load_game(name)
    assert game.event_kind_name(0) == kinds[0]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_game_over_looks_the_same_everywhere(name: str, players: int) -> None:
    game = load_game(name, num_players=players)
    state = _play(game, 7)
    assert state.is_terminal and state.current_player == TERMINAL
    assert state.legal_actions() == [] and not state.legal_action_mask().any()
    assert state.events()[-1].kind == "game_over"
    with pytest.raises(IllegalActionError, match="game over"):
        state.apply(0)


@pytest.mark.parametrize("name", BUILTIN)
def test_helpers_take_rules_by_keyword(name: str) -> None:
    module = _module(name)
    rules_type = load_game(name).RULES_TYPE
    checked = 0
    for public in module.__all__:
        obj = getattr(module, public)
        if not inspect.isfunction(obj):
            continue
        for param in inspect.signature(obj).parameters.values():
            if rules_type.__name__ in str(param.annotation):
                assert param.name == "rules", f"{public}({param.name}=...)"
                assert param.default is None, f"{public}: rules defaults to None"
                checked += 1
    assert checked or not any(inspect.isfunction(getattr(module, p)) for p in module.__all__)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_segments_cover_the_tensor_and_name_the_observation(name: str, players: int) -> None:
    game = load_game(name, num_players=players)
    offset = 0
    for seg in game.segments:
        assert seg.offset == offset, seg.name
        assert seg.length > 0 and seg.doc
        offset += seg.length
    assert offset == game.tensor_size
    fields = [f.name for f in dataclasses.fields(game.OBSERVATION_TYPE)]
    assert fields[0] == "player"
    names = [s.name for s in game.segments]
    assert [f for f in fields[1:] if f in names] == names
    for f in dataclasses.fields(game.OBSERVATION_TYPE)[1:]:
        if f.name not in names:
            assert f.default is not dataclasses.MISSING, f"{f.name}: not a segment, no default"
    state = _play(game, 3, steps=5)
    for p in range(players):
        obs = state.observation(p)
        assert obs.player == p


@pytest.mark.parametrize(("name", "players"), CASES)
def test_action_names_round_trip(name: str, players: int) -> None:
    game = load_game(name, num_players=players)
    names = [game.action_name(a) for a in range(game.num_actions)]
    named = [n for n in names if not n.startswith("action ")]
    assert len(set(named)) == len(named)
    for a, n in enumerate(names):
        if not n.startswith("action "):
            assert game.action_from_name(n) == a
            assert game.action_from_name(n.upper()) == a
    for bad in (True, 1.0, None, -1, game.num_actions):
        with pytest.raises((TypeError, ValueError)):
            game.action_name(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown action"):
        game.action_from_name("fly away")


@pytest.mark.parametrize(("name", "players"), CASES)
def test_errors_name_the_action(name: str, players: int) -> None:
    game = load_game(name, num_players=players)
    state = _play(game, 5, steps=3)
    illegal = [a for a in range(game.num_actions) if a not in state.legal_actions()]
    before = state.clone()
    with pytest.raises(IllegalActionError) as info:
        state.apply(illegal[0])
    assert repr(game.action_name(illegal[0])) in str(info.value)
    assert state.engine_state.raw() == before.engine_state.raw() and state.history == before.history


@pytest.mark.parametrize(("name", "players"), CASES)
def test_text_views_show_what_each_seat_may_know(name: str, players: int) -> None:
    game = load_game(name, num_players=players)
    for steps in (0, 4, 15):
        state = _play(game, 11, steps=steps)
        assert "\n" not in repr(state)
        assert str(state) == state.table()
        for p in range(players):
            # a sample agrees with everything p knows: p's view cannot tell them apart
            sample = state.sample_infoset(p, 99)
            assert sample.table(p) == state.table(p)
            assert sample.observation(p) == state.observation(p)
            assert [e.card for e in sample.events(p)] == [e.card for e in state.events(p)]


@pytest.mark.parametrize("name", GAMES)
def test_events_carry_card_names(name: str) -> None:
    game = load_game(name)
    state = _play(game, 2, steps=10)
    kinds = _core.game_info(name)["event_kinds"]
    seen = 0
    for viewer in (None, *range(game.num_players)):
        for e in state.events(viewer):
            if kinds[e.kind_id]["value"] == "card" and e.value is not None and e.value >= 0:
                assert e.card == str(game.CARD_TYPE(e.value))
                seen += 1
            else:
                assert e.card is None
    assert seen, "no card event any seat may see in 10 actions"


@pytest.mark.parametrize("name", GAMES)
def test_copies_are_independent_and_states_pickle(name: str) -> None:
    game = load_game(name)
    state = _play(game, 4, steps=6)
    for other in (copy.copy(state), copy.deepcopy(state), state.clone()):
        assert other.engine_state.raw() == state.engine_state.raw()
        other.apply(other.legal_actions()[0])
        assert (
            other.history != state.history and other.engine_state.raw() != state.engine_state.raw()
        )
    back = pickle.loads(pickle.dumps(state))
    assert back.engine_state.raw() == state.engine_state.raw() and back.history == state.history
    assert pickle.loads(pickle.dumps(game.rules)) == game.rules


@pytest.mark.parametrize("name", GAMES)
def test_a_sample_carries_none_of_the_truth(name: str) -> None:
    game = load_game(name)
    state = _play(game, 6, steps=4)
    sample = state.sample_infoset(0, 12345)
    assert sample.seed is None and sample.deck is None and sample.history == ()
    assert "seed" not in repr(sample).replace("sampled", "")
    with pytest.raises(PycardsError, match="sampled"):
        sample.to_json()
    with pytest.raises(PycardsError):
        pickle.dumps(sample)
    # the sample plays on
    if not sample.is_terminal:
        sample.apply(sample.legal_actions()[0])


@pytest.mark.parametrize("name", GAMES)
def test_threads_cannot_split_a_state(name: str) -> None:
    game = load_game(name, num_players=_core.game_info(name)["max_players"])
    state = game.new_initial_state(8)

    def worker(k: int) -> None:
        rng = random.Random(k)
        for _ in range(300):
            try:
                legal = state.legal_actions()
                if not legal:
                    return
                state.apply(rng.choice(legal))
            except IllegalActionError:
                pass  # the other thread moved first: refused, nothing changed

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    replay = State.from_json(state.to_json())
    assert replay.engine_state.raw() == state.engine_state.raw()


BAD_RECORDS: list[tuple[str, Any]] = [
    ("history", "000"),
    ("history", ["1"]),
    ("history", [True]),
    ("history", [1.0]),
    ("seed", 1.9),
    ("seed", -1),
    ("seed", True),
    ("players", 2.9),
    ("players", 99),
    ("rules", None),
    ("rules", {"no_such_field": 1}),
    ("deck", "AS"),
    ("game", "no_such_game"),
    ("format", "other/1"),
]


@pytest.mark.parametrize("name", GAMES)
def test_from_json_checks_the_whole_document(name: str) -> None:
    game = load_game(name)
    good = json.loads(_play(game, 9, steps=6).to_json())
    for field, value in BAD_RECORDS:
        doc = dict(good)
        doc[field] = value
        with pytest.raises(RecordError, match=field):
            State.from_json(json.dumps(doc))
    missing = dict(good)
    del missing["rules"]
    with pytest.raises(RecordError, match="rules"):
        State.from_json(json.dumps(missing))
    for text in ("", "[]", "{", "[" * 100000, '"x"', "null"):
        with pytest.raises(RecordError):
            State.from_json(text)
    replayed = dict(good)
    replayed["history"] = [*good["history"], *good["history"]]
    with pytest.raises(IllegalActionError, match=r"action \d+"):
        State.from_json(json.dumps(replayed))


@pytest.mark.parametrize("name", GAMES)
def test_strict_ints_at_the_state_api(name: str) -> None:
    game = load_game(name)
    state = game.new_initial_state(np.uint64(5))
    assert type(state.seed) is int
    a = state.legal_actions()[0]
    state.clone().apply(np.int64(a))
    for bad in (float(a), True, None):
        with pytest.raises(TypeError):
            state.apply(bad)  # type: ignore[arg-type]
    for bad_seat in (True, 0.0, None):
        with pytest.raises(TypeError):
            state.observation(bad_seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        state.observation(game.num_players)
    for bad_seed in (1.0, True, None):
        with pytest.raises(TypeError):
            game.new_initial_state(bad_seed)  # type: ignore[arg-type]
    for bad_n in (2.0, True, None):
        with pytest.raises(TypeError):
            type(game)(None, bad_n)  # type: ignore[arg-type]
    sample = state.sample_infoset(np.int32(0), np.int64(3))
    assert sample.current_player == state.current_player


# ---------------------------------------------------------------------------
# what a game brings besides its facade (docs/internals.rst, "Adding a game")


def _parametrized_games(module: str, test: str) -> set[str]:
    """The game names a parametrized test of ``module`` runs (its first argument)."""
    function = getattr(importlib.import_module(module), test)
    names: set[str] = set()
    for mark in getattr(function, "pytestmark", []):
        argnames = mark.args[0] if mark.name == "parametrize" else ""
        first = argnames[0] if isinstance(argnames, (list, tuple)) else argnames.split(",")[0]
        if first.strip() in ("game", "name"):
            for value in mark.args[1]:
                values = value.values if hasattr(value, "values") else value
                names.add(values if isinstance(values, str) else values[0])
    return names


@pytest.mark.parametrize("name", BUILTIN)
def test_the_c_functions_of_a_game_carry_its_prefix(name: str) -> None:
    # every function of the public headers that names the game is cc_<name>_...
    from _games import ROOT

    include = ROOT / "src" / "cardcore" / "include"
    declared = re.compile(r"\b(cc_\w+)\s*\(", re.M)
    for header in sorted(include.glob("*.h")):
        for fn in declared.findall(header.read_text(encoding="utf-8")):
            if re.search(rf"(?<![a-z]){name}(?![a-z])", fn):
                assert fn.startswith(f"cc_{name}_"), f"{header.name}: {fn}"
    assert (include / f"cc_{name}.h").is_file()


@pytest.mark.parametrize("name", BUILTIN)
def test_the_profile_names_presets_of_the_game(name: str) -> None:
    # the quick preset and the strength table's rows live in tests/profiles/<name>.py
    from _games import GAMES as REGISTERED

    case = REGISTERED[name]
    presets = case.rules_type.PRESETS
    assert case.quick_preset in presets, f"quick_preset {case.quick_preset!r}"
    for label, players, preset in case.profile.strength_rows:
        assert preset in presets, f"strength row {label!r}: preset {preset!r}"
        assert players in case.players, f"strength row {label!r}: {players} players"


@pytest.mark.parametrize("name", BUILTIN)
def test_a_game_brings_its_page_oracle_record_and_paths(name: str) -> None:
    from _games import GAMES as REGISTERED
    from _games import ROOT, TESTS

    assert (ROOT / "docs" / f"{name}.rst").is_file(), f"docs/{name}.rst"
    assert REGISTERED[name].oracle.__name__ == f"reference.{name}", "tests/reference/<name>.py"
    assert (TESTS / "records" / f"{name}.txt").is_file(), f"tests/records/{name}.txt"
    guard_dir = str(ROOT / "benchmarks" / "guard")
    if guard_dir not in sys.path:
        sys.path.insert(0, guard_dir)
    import paths as guarded

    mine = [p.name for p in guarded.paths() if p.name.startswith(f"{name}.")]
    assert mine, f"no guard path starts with {name}. (benchmarks/guard/paths.py)"


@pytest.mark.parametrize("name", BUILTIN)
@pytest.mark.parametrize(
    ("module", "test"),
    [
        ("ui.test_terminal", "test_complete_game_at_the_terminal"),
        ("ui.test_web", "test_two_people_and_a_spectator_play_a_whole_game"),
        ("ui.test_web_browser", "test_two_people_play_a_whole_game_in_chromium"),
    ],
)
def test_a_game_has_a_terminal_and_a_web_session(name: str, module: str, test: str) -> None:
    pytest.importorskip("pexpect" if module == "ui.test_terminal" else "starlette")
    if module == "ui.test_web_browser":
        pytest.importorskip("playwright")
    assert name in _parametrized_games(module, test), f"{module}.{test} does not play {name}"
