"""The defined games' interpreter against the oracle (reference._defined):
random playouts of the ports and of random descriptions compare the legal
actions, the events, the observation tensors and the returns move by move."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Literal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference._defined import oracle_for

from cardcore import _core
from pycards.define import PORTS, Bidding, Contract, Passing, TrickGame

PORT_NAMES = sorted(PORTS)


def _compare(desc: TrickGame, n: int, seed: int, first_dealer: int, deck: Any = None) -> int:
    """Play one game with random legal actions in C and in the oracle, the
    same actions; return the number of actions."""
    params = (first_dealer,)
    c = _core.GameSetup(desc.name, params, n).new_state(seed, deck)
    ref = oracle_for(desc)(params, n, seed, deck=deck)
    rng = random.Random(seed)
    steps = 0
    while True:
        assert c.current_player() == ref.current_player()
        assert c.legal_actions() == ref.legal_actions(), steps
        kept = c.events()  # the engine's log is a ring: its newest events
        assert kept == ref.events()[len(ref.events()) - len(kept) :], steps
        for p in range(n):
            assert np.array_equal(c.observe_tensor(p), ref.observe_tensor(p)), (steps, p)
        assert c.returns() == ref.returns()
        legal = c.legal_actions()
        if not legal:
            break
        a = rng.choice(legal)
        assert c.apply(a) == 0
        assert ref.apply(a) == 0
        steps += 1
    return steps


@pytest.mark.parametrize("name", PORT_NAMES)
def test_ports_agree_with_the_oracle(name: str) -> None:
    desc = PORTS[name]
    desc.register(listed=False)
    lo, hi = desc.player_range
    for seed in range(3):
        n = lo + seed % (hi - lo + 1)
        assert _compare(desc, n, seed, -1) > 0


# OpenSpiel's rule choices (tests/reference/_defined_openspiel.py): QS breaks
# hearts; spades never broken, partners' bids capped, nil tricks counted
_VARIANTS = (
    dataclasses.replace(
        PORTS["hearts"], name="var_hearts_qs", title="VarHeartsQs", break_card="QS"
    ),
    dataclasses.replace(
        PORTS["spades"],
        name="var_spades_os",
        title="VarSpadesOs",
        breaks="never",
        bidding=Bidding(nil=True, side_limit=True),
        contract=Contract(
            kind="at_least",
            made_per_bid=10,
            set_per_bid=-10,
            over_per_trick=1,
            bag_limit=10,
            bag_penalty=-100,
            nil_bonus=100,
            nil_tricks_count=True,
        ),
    ),
)


@pytest.mark.parametrize("desc", _VARIANTS, ids=lambda d: d.name)
def test_the_openspiel_variants_agree_with_the_oracle(desc: TrickGame) -> None:
    desc.register(listed=False)
    for seed in range(4):
        assert _compare(desc, 4, seed, -1) > 0


def test_a_stacked_deck_deals_in_the_documented_order() -> None:
    desc = PORTS["whist"]
    desc.register(listed=False)
    deck = list(range(51, -1, -1))
    state = _core.GameSetup("whist", (3,), 4).new_state(5, deck)
    dealt = [(e[1], e[3]) for e in state.events() if e[0] == 1]
    # card k to seat (dealer + 1 + k) mod 4, the dealer (seat 3) last
    assert dealt[:5] == [(0, 51), (1, 50), (2, 49), (3, 48), (0, 47)]
    turnup = next(e for e in state.events() if e[0] == 2)
    assert turnup[3] == 0 and turnup[4] == 0  # the dealer's last card, the AC: clubs
    _compare(desc, 4, 5, 3, deck)


_counter = iter(range(10**6))


@st.composite
def descriptions(draw: Any) -> TrickGame:
    players = draw(st.integers(2, 5))
    ranks = "".join(r for r in "A23456789TJQK" if draw(st.booleans()) or r in "AKQJT98")
    deck = 4 * len(ranks)
    trump = draw(st.sampled_from(["none", "fixed", "turnup", "dealer_card"]))
    most = (deck - (trump == "turnup")) // players
    hands = tuple(draw(st.lists(st.integers(1, min(most, 17)), min_size=1, max_size=3)))
    bidding = draw(st.sampled_from([None, Bidding(), Bidding(nil=True), Bidding(hook=True)]))
    contract = None
    if bidding is not None and (bidding.nil or draw(st.booleans())):
        contract = Contract(
            kind=draw(st.sampled_from(["exact", "at_least"])),
            made_bonus=draw(st.integers(-5, 10)),
            made_per_bid=draw(st.integers(0, 10)),
            set_per_bid=draw(st.integers(-10, 0)),
            over_per_trick=draw(st.integers(0, 2)),
            bag_limit=draw(st.integers(0, 4)),
            bag_penalty=-7,
            nil_bonus=draw(st.integers(0, 50)),
        )
    passing = None
    if draw(st.booleans()) and min(hands) > 2:
        passing = Passing(2, (1, 0, players - 1))
    lead_card = None
    if draw(st.booleans()):
        lead_card = draw(st.sampled_from([f"{r}{s}" for r in ranks for s in "CDHS"]))
    break_suit = draw(st.sampled_from([None, "H", "S"]))
    breaks: Literal["played", "never"] = (
        "never" if break_suit is not None and draw(st.booleans()) else "played"
    )
    break_card = None
    if break_suit is not None and breaks == "played" and draw(st.booleans()):
        break_card = draw(st.sampled_from([f"{r}{s}" for r in ranks for s in "CDHS"]))
    points = {"H": -1} if draw(st.booleans()) else {}
    if draw(st.booleans()):
        points["QS" if "Q" in ranks else "AS"] = draw(st.integers(-13, 5))
    return TrickGame(
        name=f"hypo_{next(_counter)}",
        title="Hypo",
        players=players,
        ranks=ranks,
        hand_sizes=hands,
        deals=draw(st.integers(1, 3)),
        passing=passing,
        bidding=bidding,
        trump=trump,
        trump_suit="S" if trump == "fixed" else None,
        must_trump=trump != "none" and draw(st.booleans()),
        must_overtrump=trump != "none" and draw(st.booleans()),
        lead="card" if lead_card else "left",
        lead_card=lead_card,
        break_suit=break_suit,
        breaks=breaks,
        break_card=break_card,
        no_points_first_trick=draw(st.booleans()),
        card_points=points,
        shoot_the_moon=draw(st.booleans()),
        trick_points=draw(st.integers(0, 2)),
        book=draw(st.integers(0, 2)),
        partners=False,
        contract=contract,
        trick_points_always=draw(st.booleans()),
    )


@settings(max_examples=40, deadline=None, database=None)
@given(descriptions(), st.integers(0, 2**32), st.integers(-1, 1))
def test_random_descriptions_agree_with_the_oracle(
    desc: TrickGame, seed: int, first_dealer: int
) -> None:
    game_type = desc.register(listed=False)
    n = desc.player_range[0]
    assert desc.name == game_type.NAME
    _compare(desc, n, seed, first_dealer)


# the ports are defined games: the conformance checks of a built-in game's
# own files (its module, page, record, profile) are not theirs
# (tests/_games.py, builtin_game_names)
_CONFORMANCE = """
import sys
import pycards.define as d
from reference.game import register
from reference._defined import oracle_for
for desc in d.PORTS.values():
    desc.register()
    register(oracle_for(desc))
import pytest
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", sys.argv[1], "-k", sys.argv[2]]))
"""


def test_the_ports_pass_the_conformance_checks() -> None:
    # in a process of its own: registering the ports lists them for good
    import os
    import pathlib
    import subprocess
    import sys

    tests = pathlib.Path(__file__).resolve().parents[1]
    ports = " or ".join(PORT_NAMES)
    env = dict(os.environ)
    # the pycards this test imports: the checkout's src, or the installed package
    src = pathlib.Path(_core.__file__).resolve().parents[1]
    env["PYTHONPATH"] = os.pathsep.join([str(src), str(tests), env.get("PYTHONPATH", "")])
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            _CONFORMANCE,
            str(tests / "games" / "test_conformance.py"),
            ports,
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tests.parent,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert " passed" in out.stdout and "failed" not in out.stdout
