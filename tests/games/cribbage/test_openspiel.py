"""Head to head with OpenSpiel's ``cribbage`` (skipped without pyspiel):
the same random deals, discards and plays in both engines, the points of the
play compared before every card and the show compared deal by deal.

OpenSpiel scores a four-card flush in the crib (the ACC rules score a crib
flush only with the starter, docs/cribbage.rst "The show"); pycards' preset
``CribbageRules.openspiel()`` scores it too.  So the expectation is: with the
OpenSpiel preset the two engines agree on every deal, and with the ACC rules
they disagree exactly on the deals whose crib holds four cards of one suit
and a starter of another, by exactly 4 points for the dealer."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pycards.cards import Card
from pycards.games.cribbage import CribbageGame, CribbageRules, score_show

pyspiel = pytest.importorskip("pyspiel")

PASS = 52 + 52 * 52  # OpenSpiel's pass action


def _flush4_crib(crib: list[int], starter: int) -> bool:
    suits = {c // 13 for c in crib}
    return len(suits) == 1 and starter // 13 not in suits


def one_deal(seed: int, rules: CribbageRules) -> dict[str, Any]:
    """Deal, discard and play one deal of a fresh 2-player game in both
    engines (OpenSpiel's first dealer is seat 0); return what each scored."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[:6], deck[6:12]]
    starter = deck[12]
    discards = [rng.sample(hands[0], 2), rng.sample(hands[1], 2)]

    os_state = pyspiel.load_game("cribbage").new_initial_state()
    for c in hands[0] + hands[1]:  # OpenSpiel deals six to seat 0, then six to seat 1
        os_state.apply_action(c)
    game = CribbageGame(dataclass_replace(rules, first_dealer=0), num_players=2)
    names = [" ".join(str(Card(c)) for c in h) for h in hands]
    ours = game.new_initial_state(seed, deck=game.stacked_deck(names, Card(starter)))
    for p in (0, 1):
        a, b = sorted(discards[p])
        os_state.apply_action(52 + 52 * a + b)
    for p in (1, 0):  # pycards: the pone lays away first
        for c in discards[p]:
            ours.apply(c)
    os_state.apply_action(starter)
    play_disagreements = []
    while not os_state.is_chance_node():
        legal = os_state.legal_actions()
        if legal == [PASS]:
            os_state.apply_action(PASS)
            continue
        card = rng.choice(legal)
        # both engines wait for the same card: every point so far is pegged
        # (pycards pegs a go as soon as nobody can play, OpenSpiel after the passes)
        assert ours.current_player == os_state.current_player()
        if ours.returns() != [int(x) for x in os_state.returns()]:
            play_disagreements.append((card, ours.returns(), list(os_state.returns())))
        ours.apply(52 + card)
        os_state.apply_action(card)
    shows = {e.kind + str(e.player): e.value for e in ours.events() if e.kind.startswith("show")}
    kept = [[c for c in hands[p] if c not in discards[p]] for p in (0, 1)]
    crib = discards[0] + discards[1]
    show_ours = [shows["show_hand0"] + shows["show_crib0"], shows["show_hand1"]]
    play_ours = [r - s for r, s in zip(ours.returns(), show_ours, strict=True)]
    show_theirs = [int(t) - p for t, p in zip(os_state.returns(), play_ours, strict=True)]
    return {
        "kept": kept,
        "crib": crib,
        "starter": starter,
        "ours": show_ours,
        "theirs": show_theirs,
        "play_disagreements": play_disagreements,
    }


def dataclass_replace(rules: CribbageRules, **changes: Any) -> CribbageRules:
    import dataclasses

    return dataclasses.replace(rules, **changes)


def test_the_engines_agree_under_openspiels_scoring() -> None:
    for seed in range(300):
        deal = one_deal(seed, CribbageRules.openspiel())
        assert deal["play_disagreements"] == []
        assert deal["ours"] == deal["theirs"], (seed, deal)


def test_every_acc_disagreement_is_a_four_card_crib_flush() -> None:
    found = 0
    for seed in range(1500):
        deal = one_deal(seed, CribbageRules.acc())
        assert deal["play_disagreements"] == []
        flush4 = _flush4_crib(deal["crib"], deal["starter"])
        if deal["ours"] == deal["theirs"]:
            assert not flush4, seed
            continue
        found += 1
        assert flush4, (seed, deal)
        assert deal["theirs"][1] == deal["ours"][1]  # the pone's hand
        assert deal["theirs"][0] - deal["ours"][0] == 4  # the dealer's crib
        crib = [str(Card(c)) for c in deal["crib"]]
        assert score_show(crib, Card(deal["starter"]), crib=True).total + 4 == (
            score_show(
                crib, Card(deal["starter"]), crib=True, rules=CribbageRules.openspiel()
            ).total
        )
    # about 1 crib in 100 is a four-card flush without the starter when the
    # discards are random (4 x C(13,4) / C(52,4) x 39/48 = 0.86%)
    assert 3 <= found <= 40
