"""Nodde Knave scoring and rules (docs/nodde.rst): worked examples, play scoring,
batch == scalar == reference, the exact distribution, rules validation."""

from __future__ import annotations

import pickle
import random
from itertools import combinations
from typing import Any

import numpy as np
import pytest
import reference as R  # noqa: N812
from _hands import check_threads_and_out, hands_with_card

from cardcore import _core as C  # noqa: N812
from pycards.cards import Card, CardSet
from pycards.errors import InvalidCardError, RulesError
from pycards.games.nodde import (
    NoddeGame,
    NoddeRules,
    batch_score_hands,
    hand_score_distribution,
    score_hand,
    score_play,
)

MWYNWEN = NoddeRules.mwynwen()
WILL = NoddeRules.willughby()
N_DEALS = 22100 * 49


def kinds(score: object) -> dict[str, int]:
    """Points per item kind."""
    out: dict[str, int] = {}
    for item in score.items:  # type: ignore[attr-defined]
        out[item.kind] = out.get(item.kind, 0) + item.points
    return out


# ---------------------------------------------------------------------------
# docs/nodde.rst worked examples (mwynwen() and willughby())

EXAMPLES = [
    # hand, turn-up, seed total, willughby total, seed points per kind
    ("6H 6S 9C", "3D", 8, 8, {"fifteen": 6, "pair": 2}),  # the seed overlooks 3+6+6
    ("TH 5S 5C", "KD", 10, 10, {"fifteen": 8, "pair": 2}),
    ("5H 5S 5C", "5D", 20, 20, {"fifteen": 8, "pair": 12}),
    ("4H 5H 6H", "6C", 13, 15, {"fifteen": 4, "pair": 2, "run": 4, "flush": 3}),
    ("JC 7C 8C", "9C", 9, 10, {"fifteen": 2, "run": 2, "flush": 4, "knave_noddy": 1}),
    ("6H 6S 9C", "KD", 8, 6, {"fifteen": 4, "pair": 2, "thirty_one": 2}),
    ("QH KS AC", "2D", 0, 0, {}),  # no wrap
]


@pytest.mark.parametrize(("hand", "turnup", "seed_total", "will_total", "parts"), EXAMPLES)
def test_rules_2_5_examples(
    hand: str, turnup: str, seed_total: int, will_total: int, parts: dict[str, int]
) -> None:
    s = score_hand(hand, turnup, MWYNWEN)
    assert s.total == seed_total
    assert kinds(s) == parts
    assert score_hand(hand, turnup, WILL).total == will_total
    assert score_hand(hand, turnup).total == seed_total  # mwynwen() is the default


def test_example_items_name_their_cards() -> None:
    # 6H 6S 9C + 3D: 6+9 twice and 3+6+6 (the one the source overlooks)
    s = score_hand("6H 6S 9C", "3D")
    fifteens = sorted(str(i.cards) for i in s.items if i.kind == "fifteen")
    assert fifteens == sorted(["9C 6H", "9C 6S", "3D 6H 6S"])
    # 4H 5H 6H + 6C: two distinct runs of 3
    runs = [i for i in score_hand("4H 5H 6H", "6C").items if i.kind == "run"]
    assert {i.cards for i in runs} == {CardSet("4H 5H 6H"), CardSet("4H 5H 6C")}
    assert all(i.points == 2 for i in runs)


def test_variants_in_hand() -> None:
    # 31 in hand: flat4 doubles it, off removes it (6+6+9+K = 31)
    assert score_hand("6H 6S 9C", "KD", NoddeRules(hand_31="flat4")).total == 10
    assert score_hand("6H 6S 9C", "KD", NoddeRules(hand_31="off")).total == 6
    # 25: T+5+K twice (fifteens 8 + pair 2 + 2 x 25)
    assert score_hand("TH 5S 5C", "KD", NoddeRules(score_25="flat4")).total == 18
    assert score_hand("TH 5S 5C", "KD", NoddeRules(score_25="per_card")).total == 16
    # a flush needing the hand: 4H 5H 6C + 6H has 3 hearts, but not in hand
    assert kinds(score_hand("4H 5H 6C", "6H"))["flush"] == 3
    hand3 = NoddeRules(flush_rule="hand3_required")
    assert "flush" not in kinds(score_hand("4H 5H 6C", "6H", hand3))
    assert kinds(score_hand("4H 5H 9H", "6H", hand3))["flush"] == 4
    # run of 4: seed 4, per card 4; knave noddy only for the Jack of trumps
    assert kinds(score_hand("AC 2D 3H", "4S"))["run"] == 4
    assert "knave_noddy" not in kinds(score_hand("JC 2D 3H", "4S"))
    assert kinds(score_hand("JS 2D 3H", "4S"))["knave_noddy"] == 1


# ---------------------------------------------------------------------------
# play scoring (docs/nodde.rst, The play and the play examples of 2.5)


def prefix_points(cards: str, rules: NoddeRules = MWYNWEN) -> list[int]:
    seq = cards.split()
    return [score_play(seq[: k + 1], rules).total for k in range(len(seq))]


def test_play_examples() -> None:
    # 15 makes 2 (8S); run of 3 makes 2 (9H); 30, run of 4 makes 4 (6C)
    assert prefix_points("7H 8S 9H 6C") == [0, 2, 2, 4]
    # 15 makes 2; 25, flush of 3 hearts makes 3; 31 makes 2
    assert prefix_points("KH 5H QH 6S") == [0, 2, 3, 2]
    assert [i.kind for i in score_play("KH 5H QH 6S").items] == ["thirty_one"]


def test_play_pairs_runs_flushes_and_25() -> None:
    assert prefix_points("5C 5D 5H") == [0, 2, 6 + 2]  # pair, pair royal + fifteen
    assert prefix_points("2C 2D 2H 2S") == [0, 2, 6, 12]
    assert prefix_points("5C 3D 4H", WILL) == [0, 0, 3]  # run in any order, 1 per card
    assert prefix_points("AC 2D 3H 4S") == [0, 0, 2, 4]  # longest run only
    assert prefix_points("AC 3D 2H 5S 4C") == [0, 0, 2, 0, 6 + 2]  # run of 5 and 15
    assert prefix_points("2H 9H 3H", NoddeRules(flush_in_play=False)) == [0, 0, 0]
    assert prefix_points("KH 5H QH", NoddeRules(score_25="flat4")) == [0, 2, 3 + 4]
    assert prefix_points("KH 5H QH", NoddeRules(score_25="per_card")) == [0, 2, 3 + 3]
    with pytest.raises(ValueError, match="over 31"):
        score_play("KH QH JH 5C")
    with pytest.raises(InvalidCardError):
        score_play(["KH", "KH"])


# ---------------------------------------------------------------------------
# the rules object


def test_rules_presets_and_params() -> None:
    assert NoddeRules() == MWYNWEN
    assert MWYNWEN.to_params() == (0, 1, 0, 0, 0, 1, 0, 1, 31, -1)
    assert WILL.to_params() == (0, 1, 0, 1, 0, 0, 0, 1, 31, -1)
    p = NoddeRules(
        four_player_mode="individual",
        reshuffle_each_deal=False,
        turned_knave_scorer="elder",
        run_points="per_card",
        flush_rule="hand3_required",
        hand_31="flat4",
        score_25="per_card",
        flush_in_play=False,
        game_target=61,
        first_dealer=3,
    ).to_params()
    assert p == (1, 0, 1, 1, 1, 2, 2, 0, 61, 3)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"four_player_mode": "teams"},
        {"turned_knave_scorer": "nobody"},
        {"run_points": "double"},
        {"flush_rule": "any"},
        {"hand_31": "flat3"},
        {"score_25": "on"},
        {"game_target": 0},
        {"game_target": 122},
        {"game_target": 31.0},
        {"reshuffle_each_deal": 1},
        {"flush_in_play": "yes"},
        {"first_dealer": -1},
        {"first_dealer": 4},
        {"first_dealer": True},
        {"first_dealer": "0"},
    ],
)
def test_bad_rules_raise(kwargs: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        NoddeRules(**kwargs)  # type: ignore[arg-type]


def test_no_reshuffle_needs_two_players() -> None:
    rules = NoddeRules(reshuffle_each_deal=False)
    assert NoddeGame(rules, num_players=2).num_players == 2
    for n in (3, 4):
        with pytest.raises(RulesError, match="2 players"):
            NoddeGame(rules, num_players=n)
    with pytest.raises(ValueError):
        C.new_state("nodde", rules.to_params(), 3, 0)
    with pytest.raises(ValueError):
        R.new_state("nodde", rules.to_params(), 3, 0)


def test_bad_hands_raise() -> None:
    with pytest.raises(InvalidCardError):
        score_hand("6H 6S", "KD")
    with pytest.raises(InvalidCardError):
        score_hand("6H 6S 9C", "6H")
    for mod in (C, R):
        with pytest.raises(ValueError):
            mod.nodde_score_hand(int(CardSet("6H 6S 9C")), 52, MWYNWEN.to_params())
        with pytest.raises(ValueError):
            mod.nodde_score_hand(1 << 13, 0, MWYNWEN.to_params())


# ---------------------------------------------------------------------------
# batch == scalar == reference


def random_rules(rng: random.Random) -> NoddeRules:
    return NoddeRules(
        run_points=rng.choice(["mwynwen", "per_card"]),
        flush_rule=rng.choice(["any3_of_4", "hand3_required"]),
        hand_31=rng.choice(["off", "flat2", "flat4"]),
        score_25=rng.choice(["off", "flat4", "per_card"]),
    )


def random_deals(rng: random.Random, n: int) -> tuple[np.ndarray, np.ndarray]:
    hands = np.empty(n, dtype=np.uint64)
    turnups = np.empty(n, dtype=np.uint8)
    for i in range(n):
        cards = rng.sample(range(52), 4)
        hands[i] = int(CardSet(cards[:3]))
        turnups[i] = cards[3]
    return hands, turnups


@pytest.mark.parametrize("seed", range(6))
def test_batch_equals_scalar_equals_reference(seed: int) -> None:
    rng = random.Random(seed)
    params = random_rules(rng).to_params()
    hands, turnups = random_deals(rng, 9000)  # above the C table threshold
    big = C.nodde_batch_score_hand(hands, turnups, params)
    small = np.concatenate(
        [
            C.nodde_batch_score_hand(hands[i : i + 500], turnups[i : i + 500], params)
            for i in range(0, 9000, 500)
        ]
    )
    assert np.array_equal(big, small)
    for i in range(0, 9000, 30):
        h, t = int(hands[i]), int(turnups[i])
        c_items = C.nodde_score_hand(h, t, params)
        assert c_items == R.nodde_score_hand(h, t, params)
        assert sum(p for *_, p in c_items) == big[i]
    assert np.array_equal(R.nodde_batch_score_hand(hands[:300], turnups[:300], params), big[:300])


def test_play_scoring_matches_reference() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        params = random_rules(rng).to_params()
        seq: list[int] = []
        total = 0
        deck = rng.sample(range(52), 52)
        for c in deck:
            if total + min(c % 13 + 1, 10) <= 31 and len(seq) < 12:
                seq.append(c)
                total += min(c % 13 + 1, 10)
            if rng.random() < 0.2:
                break
        assert C.nodde_score_play(seq, params) == R.nodde_score_play(seq, params)


def test_batch_rejects_bad_input() -> None:
    params = MWYNWEN.to_params()
    hands, turnups = random_deals(random.Random(1), 10)
    with pytest.raises(TypeError):
        batch_score_hands(hands.astype(np.int64), turnups)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        batch_score_hands(hands, turnups.astype(np.int32))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="length"):
        batch_score_hands(hands, turnups[:5])
    with pytest.raises(ValueError, match="C-contiguous"):
        batch_score_hands(hands[::2], turnups[::2])
    buf = np.zeros(hands.nbytes + 1, dtype=np.uint8)
    unaligned = buf[1:].view(np.uint64)
    unaligned[...] = hands
    with pytest.raises(ValueError, match="aligned"):
        batch_score_hands(unaligned, turnups)
    bad = hands.copy()
    bad[7] = int(CardSet("AC 2C"))
    with pytest.raises(ValueError, match="deal 7"):
        batch_score_hands(bad, turnups)
    bad_t = turnups.copy()
    bad_t[3] = 52
    with pytest.raises(ValueError, match="deal 3"):
        C.nodde_batch_score_hand(hands, bad_t, params)
    assert batch_score_hands(hands[:0], turnups[:0]).shape == (0,)


# ---------------------------------------------------------------------------
# the exact distribution over all 22,100 x 49 deals


def all_deals() -> tuple[np.ndarray, np.ndarray]:
    hands, turnups = [], []
    for hand in combinations(range(52), 3):
        mask = int(CardSet(hand))
        for t in range(52):
            if t not in hand:
                hands.append(mask)
                turnups.append(t)
    return np.array(hands, dtype=np.uint64), np.array(turnups, dtype=np.uint8)


@pytest.mark.parametrize("rules", [MWYNWEN, WILL, NoddeRules(score_25="per_card", hand_31="flat4")])
def test_distribution_counts_every_deal(rules: NoddeRules) -> None:
    params = rules.to_params()
    hist = C.nodde_hand_distribution(params)
    assert hist.sum() == N_DEALS
    # against the scalar C path (no tables), deal by deal in small chunks
    hands, turnups = all_deals()
    scores = np.concatenate(
        [
            C.nodde_batch_score_hand(hands[i : i + 8000], turnups[i : i + 8000], params)
            for i in range(0, len(hands), 8000)
        ]
    )
    assert np.array_equal(np.bincount(scores, minlength=128), hist)
    # the reference on a seeded sample of the deals has the same scores
    idx = np.random.default_rng(0).choice(len(hands), 400, replace=False)
    assert np.array_equal(R.nodde_batch_score_hand(hands[idx], turnups[idx], params), scores[idx])


def test_public_distribution() -> None:
    d = hand_score_distribution()
    assert d.sum() == N_DEALS and d[-1] > 0
    # 5-5-5 + 5: 4 * C(4,3) = 4 ways, 20 points (docs/nodde.rst, worked examples);
    # nothing scores more
    assert len(d) == 21 and d[20] == 4


@pytest.mark.slow
@pytest.mark.parametrize("rules", [MWYNWEN, WILL])
def test_distribution_equals_reference_brute_force(rules: NoddeRules) -> None:
    params = rules.to_params()
    assert np.array_equal(R.nodde_hand_distribution(params), C.nodde_hand_distribution(params))


def test_turnup_as_card() -> None:
    assert score_hand(CardSet("6H 6S 9C"), Card.parse("KD")).total == 8
    assert score_hand([Card.parse("6H"), "6S", 8], 48).total == 8  # 9C is id 8, TS id 48


def test_batch_score_hands_threads_and_out() -> None:
    hands, turnups = hands_with_card(3, 6, 150_001)
    bad = hands.copy()
    bad[40_000] = 0
    bad[90_000] = 0
    check_threads_and_out(batch_score_hands, hands, turnups, bad, 40000)
    with pytest.raises(ValueError, match="threads"):
        batch_score_hands(hands, turnups, threads=-1)


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_scores_pickle_and_copy(protocol: int) -> None:
    """Moved from the shared pickle tests: the game's results pickle to equal values."""
    import copy

    from pycards.games.nodde import NoddeRules, score_hand, score_play

    values: list[Any] = [
        score_hand("JC 7C 8C", "9C"),
        score_hand("4H 5H 6H", "6C", rules=NoddeRules.willughby()),
        score_play("KH 5H QH"),
    ]
    for value in values:
        back = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert back == value and type(back) is type(value)
        assert copy.deepcopy(value) == value


def test_an_opponents_hand_score_gets_its_reason_once_the_hand_is_played() -> None:
    """Seat 1's hand is scored before seat 0 sees it (told without a reason,
    naming no card); its last card played makes it public, and that line
    gives the hand and the reason (AS 2S 3S + KC: 2-3-K is 15 for 2, the run
    A-2-3 2, three spades 3: 7)."""
    from pycards.narrate import narrate

    game = NoddeGame(NoddeRules(first_dealer=1), num_players=2)
    state = game.new_initial_state(0, deck=game.stacked_deck(["AH 4H 6H", "AS 2S 3S"], "KC"))
    told = [line.text for line in narrate(state, 0)]
    assert "seat 1 pegs 7 for their hand" in told
    assert not any("2S" in text or "3S" in text or "AS" in text for text in told)
    for card in ("AH", "AS", "4H", "2S", "6H"):
        state.apply(f"play {card}")
    before = [line.text for line in narrate(state, 0)]
    assert not any("hand was" in text for text in before)
    state.apply("play 3S")
    (line,) = [line for line in narrate(state, 0) if "plays 3S" in line.text]
    assert line.text == (
        "seat 1 plays 3S (total 17);"
        " seat 1's hand was AS 2S 3S + KC: 7 for a fifteen 2, a run 2, a flush 3"
    )
