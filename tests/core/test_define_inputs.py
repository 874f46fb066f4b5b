"""Bad descriptions are refused with a DefinitionError naming the field;
hostile tables and actions never crash the engine."""

from __future__ import annotations

import random

import pytest

from cardcore import _core
from pycards.define import Bidding, Contract, Passing, TrickGame
from pycards.errors import DefinitionError, RulesError

GOOD = {"name": "bad_inputs", "title": "BadInputs", "players": 4}


@pytest.mark.parametrize(
    ("field", "changes"),
    [
        ("name", {"name": "Not Lower"}),
        ("players", {"players": 1}),
        ("players", {"players": True}),
        ("players", {"players": 4.0}),
        ("ranks", {"ranks": "A1"}),
        ("ranks", {"ranks": "AA"}),
        ("rank_order", {"rank_order": "AKQ"}),
        ("hand_sizes", {"hand_sizes": [13]}),
        ("hand_sizes", {"hand_sizes": (14,)}),
        ("deals", {"deals": 0}),
        ("target", {"target": 0}),
        ("passing.directions", {"passing": Passing(count=1, directions=(5,))}),
        ("trump_suit", {"trump": "fixed"}),
        ("trump_suit", {"trump": "fixed", "trump_suit": "X"}),
        ("must_trump", {"must_trump": True}),
        ("lead_card", {"lead": "card"}),
        ("lead_card", {"lead": "card", "lead_card": "2C", "ranks": "AKQJ"}),
        ("card_points", {"card_points": {"ZZ": 1}}),
        ("card_points['H']", {"card_points": {"H": 1.5}}),
        ("partners", {"partners": True, "players": 3}),
        ("contract", {"contract": Contract(kind="exact")}),
        ("contract", {"contract": "x"}),
        ("bidding.nil", {"bidding": Bidding(nil=True)}),
        ("breaks", {"breaks": "never"}),
        ("breaks", {"breaks": "sometimes", "break_suit": "H"}),
        ("break_card", {"break_card": "QS"}),
        ("break_card", {"break_card": "QS", "break_suit": "H", "breaks": "never"}),
        ("break_card", {"break_card": "XX", "break_suit": "H"}),
        ("bidding.side_limit", {"bidding": Bidding(side_limit=True)}),
        (
            "contract.nil_tricks_count",
            {"bidding": Bidding(), "contract": Contract(kind="exact", nil_tricks_count=True)},
        ),
        ("hand_sizes", {"ranks": "AK", "hand_sizes": (3,)}),
    ],
)
def test_a_bad_description_names_its_field(field: str, changes: dict[str, object]) -> None:
    with pytest.raises(DefinitionError) as info:
        TrickGame(**{**GOOD, **changes})  # type: ignore[arg-type]
    assert info.value.field.startswith(field.split("[")[0]) or info.value.field == field
    assert isinstance(info.value, RulesError)


def test_the_parts_name_their_fields() -> None:
    with pytest.raises(DefinitionError, match=r"^passing\.count: "):
        Passing(count=0, directions=(1,))
    with pytest.raises(DefinitionError, match=r"^passing\.directions: "):
        Passing(count=1, directions=(9,))
    with pytest.raises(DefinitionError, match=r"^bidding\.hook: "):
        Bidding(hook=1)  # type: ignore[arg-type]
    with pytest.raises(DefinitionError, match=r"^contract\.bag_limit: "):
        Contract(kind="exact", bag_limit=-1)
    with pytest.raises(DefinitionError, match=r"^bidding\.side_limit: "):
        Bidding(side_limit=1)  # type: ignore[arg-type]
    with pytest.raises(DefinitionError, match=r"^contract\.nil_tricks_count: "):
        Contract(kind="exact", nil_tricks_count=None)  # type: ignore[arg-type]


def test_the_engine_refuses_hostile_tables() -> None:
    rng = random.Random(7)
    good = TrickGame(**GOOD).table()  # type: ignore[arg-type]
    assert _core.defined_check(good) == -1
    for _ in range(3000):
        table = list(good)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(table))
            table[i] = rng.choice(
                [-(1 << 31), -1, 0, 1, 7, 52, 1000, (1 << 31) - 1, rng.randint(-99, 99)]
            )
        bad = _core.defined_check(table)
        if bad >= 0:
            with pytest.raises(RulesError, match=f"field {bad}"):
                _core.define_game("hostile_table", table)
    # the new fields refuse a value their game cannot have (cc_defined.h)
    for field, value in ((139, 0), (139, -2), (140, 1), (141, 1)):
        assert _core.defined_check([*good[:field], value, *good[field + 1 :]]) == field
    with pytest.raises(ValueError):
        _core.define_game("hostile_table", good[:-1])
    floats: list[object] = [*good[:-1], 1.0]
    with pytest.raises(TypeError):
        _core.define_game("hostile_table", floats)  # type: ignore[arg-type]


def test_hostile_actions_leave_the_state_unchanged() -> None:
    TrickGame(**{**GOOD, "name": "hostile_actions", "bidding": Bidding()}).register(listed=False)  # type: ignore[arg-type]
    state = _core.GameSetup("hostile_actions", (1,), 4).new_state(3)
    rng = random.Random(3)
    while state.legal_actions():
        before = state.raw()
        legal = set(state.legal_actions())
        for a in (-1, 52 + 14, 10**6, -(10**6), *range(0, 70)):
            if a not in legal and -(1 << 31) <= a < (1 << 31):
                assert state.verify(a) != 0
                try:
                    code = state.apply(a)
                except (ValueError, OverflowError):
                    code = -1
                assert code != 0
                assert state.raw() == before
        state.apply(rng.choice(sorted(legal)))
    assert state.apply(0) != 0
