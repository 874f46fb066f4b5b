"""The defined ports agree with OpenSpiel's C++ card games
(``reference._defined_openspiel`` over ``reference.openspiel_cards.compare``):
on a few hundred seeded random deals per game the seat to move, the legal
moves and the returns agree at every step; and a description changed away
from OpenSpiel's rules disagrees, at the step its rule shows."""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("pyspiel")

from reference._defined_openspiel import (
    HEARTS_OPENSPIEL,
    SPADES_CONTRACT,
    SPADES_OPENSPIEL,
    DefinedDriver,
    driver,
)
from reference.openspiel_cards import Deal, compare, random_deal

from pycards.define import OH_HELL, Bidding, TrickGame


def _deals(game: str, n: int, players: int | None = None) -> list[Deal]:
    params = {} if players is None else {"players": players}
    return [random_deal(game, params, 7_000 + i) for i in range(n)]


@pytest.mark.parametrize(("game", "deals"), [("hearts", 300), ("oh_hell", 300), ("spades", 300)])
def test_the_ports_agree_with_openspiel(game: str, deals: int) -> None:
    assert compare(driver(game, {}), game, _deals(game, deals), {}, seed=3) is None


def test_oh_hell_agrees_for_five_players() -> None:
    params = {"players": 5}
    found = compare(driver("oh_hell", params), "oh_hell", _deals("oh_hell", 150, 5), params, 4)
    assert found is None


_CASES = [
    # no shooting the moon: the returns of a deal where a seat took all 26
    ("hearts", dataclasses.replace(HEARTS_OPENSPIEL, shoot_the_moon=False), "returns"),
    # the project's rule: the QS does not break hearts
    ("hearts", dataclasses.replace(HEARTS_OPENSPIEL, break_card=None), "legal"),
    # Parlett's spades: broken when a spade is played
    ("spades", dataclasses.replace(SPADES_OPENSPIEL, breaks="played"), "legal"),
    # partners' bids not capped at 13
    ("spades", dataclasses.replace(SPADES_OPENSPIEL, bidding=Bidding(nil=True)), "legal"),
    # a failed nil's tricks only bags
    (
        "spades",
        dataclasses.replace(
            SPADES_OPENSPIEL,
            contract=dataclasses.replace(SPADES_CONTRACT, nil_tricks_count=False),
        ),
        "returns",
    ),
    # no hook
    ("oh_hell", dataclasses.replace(OH_HELL, bidding=Bidding()), "legal"),
]


@pytest.mark.parametrize(
    ("game", "base", "kind"),
    _CASES,
    ids=["no-moon", "qs-no-break", "spades-broken", "no-side-limit", "nil-bags", "no-hook"],
)
def test_a_changed_description_disagrees(game: str, base: TrickGame, kind: str) -> None:
    name = f"chg_{_CASES.index((game, base, kind))}"
    changed = dataclasses.replace(base, name=name, title=name.title().replace("_", ""))
    players = 3 if game == "oh_hell" else 4
    found = compare(DefinedDriver(game, players, changed), game, _deals(game, 400), {}, seed=3)
    assert found is not None
    assert found.what == kind


def test_host_takes_a_game_object_only() -> None:
    from pycards.envs.openspiel import host

    with pytest.raises(TypeError, match="a pycards Game"):
        host("hearts")  # type: ignore[arg-type]
    hosted = host(OH_HELL.register(listed=False)(None, 4))
    assert hosted.num_players() == 4
    assert hosted.get_type().short_name == "pycards_oh_hell"
