"""Cribbage scoring and discard analysis (docs/cribbage.rst) against the
plain-Python brute force of tests/reference/cribbage.py, the published
distribution of hand scores, and hand-computed play sequences."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from _hands import check_threads_and_out, hands_with_card
from reference import cribbage as R  # noqa: N812

from cardcore import _core as C  # noqa: N812
from pycards.cards import Card, CardSet
from pycards.errors import InvalidCardError, RulesError
from pycards.games.cribbage import (
    DISCARD_PAIRS,
    CribbageRules,
    analyze_discards,
    batch_discards,
    batch_score_show,
    score_play,
    score_show,
    show_score_distribution,
)

ACC = CribbageRules().to_params()
FOUR = CribbageRules.openspiel().to_params()

#: The number of the 12,994,800 (hand, starter) pairs scoring 0..29 points as
#: a hand: the published table (e.g. "Cribbage hand score distribution" in
#: the literature of the game; 19, 25, 26 and 27 points cannot be made).
PUBLISHED_HAND_DISTRIBUTION = [
    1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224,
    388740, 51680, 317340, 19656, 90100, 9168, 58248, 11196, 2708, 0,
    8068, 2496, 444, 356, 3680, 0, 0, 0, 76, 4,
]  # fmt: skip


def bit(card: int) -> int:
    return 1 << (16 * (card // 13) + card % 13)


def mask(cards: list[int]) -> int:
    return sum(bit(c) for c in cards)


def random_deals(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, list[list[int]]]:
    rng = random.Random(seed)
    hands, starters, lists = [], [], []
    for _ in range(n):
        five = rng.sample(range(52), 5)
        lists.append(five)
        hands.append(mask(five[:4]))
        starters.append(five[4])
    return np.array(hands, dtype=np.uint64), np.array(starters, dtype=np.uint8), lists


# ---------------------------------------------------------------------------
# the show


def test_published_hand_distribution() -> None:
    dist = show_score_distribution()
    assert dist.tolist() == PUBLISHED_HAND_DISTRIBUTION
    assert int(dist.sum()) == 12_994_800 == 270_725 * 48


def test_crib_distribution_differs_only_by_four_card_flushes() -> None:
    """A crib scores no four-card flush: the hands with one (and the starter of
    another suit) move down by 4; everything else is the same.  Counted by
    brute force: 4 suits x C(13, 4) hands x 39 starters."""
    hand = show_score_distribution()
    crib = show_score_distribution(crib=True)
    assert int(crib.sum()) == 12_994_800
    moved = np.zeros(34, dtype=np.int64)
    for four in itertools.combinations(range(13), 4):
        cards = list(four)  # clubs; the other suits are the same by symmetry
        for s in range(13, 52):
            moved[sum(R.show_points(cards, s).values())] += 4
    assert int(moved.sum()) == 4 * 715 * 39
    expect = hand.copy()
    expect -= moved[:30]
    expect[:26] += moved[4:30]
    assert crib.tolist() == expect.tolist()
    # with the four-card crib flush the crib is a hand
    assert show_score_distribution(crib=True, rules=CribbageRules.openspiel()).tolist() == (
        hand.tolist()
    )


@pytest.mark.parametrize("crib", [False, True])
def test_show_against_brute_force_sample(crib: bool) -> None:
    hands, starters, lists = random_deals(6000, 1 + crib)
    # the batch kernel takes its table path above 20,000 deals: run both
    for params in (ACC, FOUR):
        scalar = C.cribbage_batch_score_show(hands, starters, crib, params)
        tiled = np.tile(hands, 4), np.tile(starters, 4)
        table = C.cribbage_batch_score_show(*tiled, crib, params)[: len(hands)]
        assert scalar.tolist() == table.tolist()
        four = params == FOUR
        for k, five in enumerate(lists):
            want = sum(R.show_points(five[:4], five[4], crib, four).values())
            assert scalar[k] == want, (five, crib)


def test_itemized_show_against_brute_force() -> None:
    rng = random.Random(3)
    for _ in range(1500):
        five = rng.sample(range(52), 5)
        crib = rng.random() < 0.5
        got = score_show(five[:4], five[4], crib=crib)
        want = R.show_points(five[:4], five[4], crib)
        by_kind: dict[str, int] = {}
        for item in got.items:
            by_kind[item.kind] = by_kind.get(item.kind, 0) + item.points
            assert len(item.cards) >= 1
        assert {k: v for k, v in want.items() if v} == by_kind
        assert got.total == sum(want.values())


@pytest.mark.slow
@pytest.mark.parametrize("crib", [False, True])
def test_show_against_brute_force_exhaustive(crib: bool) -> None:
    """All 12,994,800 (hand, starter) pairs: the C batch against the brute
    force, the brute force memoized by what decides a score (the five ranks
    in order, whether the four hand cards share a suit and the starter does,
    which hand cards are Jacks of the starter's suit)."""
    memo: dict[tuple[object, ...], int] = {}
    hands = np.empty(48, dtype=np.uint64)
    starters = np.empty(48, dtype=np.uint8)
    for four in itertools.combinations(range(52), 4):
        h = mask(list(four))
        others = [s for s in range(52) if s not in four]
        hands[:] = h
        starters[:] = others
        got = C.cribbage_batch_score_show(hands, starters, crib, ACC)
        suits = {c // 13 for c in four}
        for k, s in enumerate(others):
            key = (
                tuple(sorted(c % 13 for c in four)),
                s % 13,
                len(suits) == 1,
                s // 13 in suits,
                any(c % 13 == 10 and c // 13 == s // 13 for c in four),
            )
            if key not in memo:
                memo[key] = sum(R.show_points(list(four), s, crib).values())
            assert got[k] == memo[key]


def test_famous_hands() -> None:
    assert score_show("5H 5S 5C JD", "5D").total == 29
    assert score_show("5H 5S 5C 5D", "JD").total == 28  # his nobs needs the Jack in hand
    assert score_show("4H 5H 6H 6S", "4D").total == 24
    assert score_show("7C 7D 8H 8S", "9C").total == 24
    assert score_show("3H 3S 3D 9C", "3C").total == 12 + 12  # pairs, 3+3+9 six ways
    assert score_show("AC 2D 3H 4S", "5C").total == 7  # 15 and a run of 5
    # even pips make no fifteen: only the flush
    assert score_show("2C 4C 6C 8C", "TC").total == 5
    assert score_show("2C 4C 6C 8C", "TC", crib=True).total == 5
    assert score_show("2C 4C 6C 8C", "TD").total == 4
    assert score_show("2C 4C 6C 8C", "TD", crib=True).total == 0  # no 4-card crib flush
    assert score_show("2C 4C 6C 8C", "TD", crib=True, rules=CribbageRules.openspiel()).total == 4
    assert score_show("JC 2D 4H 6S", "9C").total == 1 + 2 + 2  # nobs; 9+6, 2+4+9
    assert score_show("JC 2D 4H 6S", "9D").total == 4
    assert score_show("KH QH JH TH", "9S").total == 5 + 4  # run of 5, four-card flush
    assert score_show("TH JD QS KC", "5H").total == 4 * 2 + 4


def test_show_input_errors() -> None:
    with pytest.raises(InvalidCardError, match="4 cards"):
        score_show("5H 5S 5C", "5D")
    with pytest.raises(InvalidCardError, match="starter 5D is in the hand"):
        score_show("5H 5S 5C 5D", "5D")
    with pytest.raises(TypeError, match="crib"):
        score_show("5H 5S 5C JD", "5D", crib=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        score_show("5H 5S 5C JD", 5.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="4 cards"):
        C.cribbage_score_show(mask([1, 2, 3]), 5, False, ACC)
    with pytest.raises(ValueError, match="out of range"):
        C.cribbage_score_show(mask([1, 2, 3, 4]), 5, False, (0, 0, -1, 0, 0, 0))
    with pytest.raises(ValueError, match="deal 1"):
        C.cribbage_batch_score_show(
            np.array([mask([1, 2, 3, 4]), mask([1, 2, 3])], dtype=np.uint64),
            np.array([9, 9], dtype=np.uint8),
            False,
            ACC,
        )
    with pytest.raises(TypeError, match="starters"):
        batch_score_show(np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.int64))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# the play

PLAY_CASES = [
    # (count, points by hand)
    ("5H", 0),
    ("TH 5S", 2),  # fifteen
    ("JH JS", 2),  # pair
    ("5H 5S 5C", 2 + 6),  # fifteen, pair royal
    ("5H 5S 5C 5D", 12),  # double pair royal (total 20)
    ("AS AH AD AC", 12),
    ("3H 4S 2C", 3),  # run in any order
    ("4H 6S 5C", 2 + 3),  # fifteen and a run
    ("AH 2S 3C 4D 5H", 2 + 5),
    ("7H 8S 9H 6C", 4),
    ("2H 3S 4C 2D", 3),  # the last three make a run
    ("3H 4S 2C 4D", 0),  # a repeated rank breaks the run
    ("6H 6S 3C", 2),  # fifteen only: the pair is not at the end
    ("KH QS JC", 3),
    ("KH QS 6C 5D", 2),  # 31
    ("KH QS JC AH", 2),  # 31, no run
    ("5C 5D AH KS 9H", 0),  # total 30: nothing
    ("7C 8D 6H 4S 5C", 5),  # run of five (4..8) in any order
    ("AC 2C 3C 4C", 4),  # no flushes in the play
]


@pytest.mark.parametrize(("count", "points"), PLAY_CASES)
def test_play_scoring_by_hand(count: str, points: int) -> None:
    got = score_play(count)
    assert got.total == points
    ids = [int(Card.parse(t)) for t in count.split()]
    assert sum(R.play_points(ids).values()) == points


def test_play_against_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        k = rng.randint(1, 8)
        seq = rng.sample(range(52), k)
        while sum(min(c % 13 + 1, 10) for c in seq) > 31:
            seq.pop()
        if not seq:
            continue
        got = {kind: 0 for kind in ("fifteen", "pair", "run", "thirty_one")}
        for kind, _cards, pts in C.cribbage_score_play(seq):
            got[("fifteen", "pair", "run", "flush", "nobs", "thirty_one")[kind]] += pts
        assert got == R.play_points(seq), seq


def test_play_input_errors() -> None:
    with pytest.raises(ValueError, match="over 31"):
        score_play("KH QS JC 5D")
    with pytest.raises(InvalidCardError, match="twice"):
        score_play("5H 5H")
    with pytest.raises(ValueError, match="1 to"):
        score_play([])
    with pytest.raises(ValueError, match="distinct"):
        C.cribbage_score_play([52])


# ---------------------------------------------------------------------------
# discard analysis


def test_batch_discards_hand_part_against_brute_force() -> None:
    rng = random.Random(7)
    six_lists = [sorted(rng.sample(range(52), 6)) for _ in range(12)]
    hands = np.array([mask(h) for h in six_lists], dtype=np.uint64)
    hand, crib = batch_discards(hands)
    assert hand.shape == (12, 15) and crib is not None and crib.shape == (12, 15)
    for i, six in enumerate(six_lists[:4]):
        for k, (a, b) in enumerate(DISCARD_PAIRS):
            kept = [c for j, c in enumerate(six) if j not in (a, b)]
            assert hand[i, k] == pytest.approx(R.expected_hand(kept, six), abs=1e-12)


def test_crib_models_against_brute_force() -> None:
    six = [int(Card.parse(t)) for t in ["5H", "5S", "JD", "JC", "2C", "9H"]]
    six.sort()
    exact = C.cribbage_crib_exact(mask(six), ACC)
    _, table = C.cribbage_batch_discards(np.array([mask(six)], dtype=np.uint64), ACC, True)
    k = DISCARD_PAIRS.index((0, 5))  # the lowest and the highest card
    discards = [six[0], six[5]]
    pool46 = [c for c in range(52) if c not in six]
    assert exact[k] == pytest.approx(R.crib_expectation(discards, pool46), abs=1e-9)
    pool50 = [c for c in range(52) if c not in discards]
    assert table[0, k] == pytest.approx(R.crib_expectation(discards, pool50), abs=1e-9)


def test_analyze_discards_ranks_by_value() -> None:
    options = analyze_discards("5H 5S JD JC 2C 9H", dealer=True)
    assert len(options) == 15
    values = [o.value for o in options]
    assert values == sorted(values, reverse=True)
    for o in options:
        assert len(o.discard) == 2 and len(o.kept) == 4
        assert o.value == pytest.approx(o.hand + o.crib)
    pone = analyze_discards("5H 5S JD JC 2C 9H", dealer=False)
    for o in pone:
        assert o.value == pytest.approx(o.hand - o.crib)
    # the pone does not give his opponent the two fives
    assert pone[0].discard != CardSet("5H 5S")
    with pytest.raises(InvalidCardError, match="6 cards"):
        analyze_discards("5H 5S JD JC 2C")


def test_rules_errors() -> None:
    with pytest.raises(RulesError, match="game_target"):
        CribbageRules(game_target=0)
    with pytest.raises(RulesError, match="first_dealer"):
        from pycards.games.cribbage import CribbageGame

        CribbageGame(CribbageRules(first_dealer=3), num_players=3)


def test_show_agrees_with_cribbage_scorer() -> None:
    """The PyPI package ``cribbage-scorer`` (skipped when not installed), on
    random hands and cribs: no disagreement."""
    cs = pytest.importorskip("cribbage_scorer.cribbage_scorer")

    def card(c: int) -> tuple[int, str]:
        return c % 13 + 1, "CDHS"[c // 13]

    hands, starters, lists = random_deals(4000, 11)
    for crib in (False, True):
        ours = batch_score_show(hands, starters, crib=crib)
        for k, five in enumerate(lists):
            theirs = cs.show_calc_score(card(five[4]), [card(c) for c in five[:4]], crib)[0]
            assert ours[k] == theirs, (five, crib)


def test_batch_score_show_threads_and_out() -> None:
    # out= is returned, threads give the same scores and the same first bad deal
    hands, starters = hands_with_card(4, 5, 150_001)
    bad = hands.copy()
    bad[77_777] |= np.uint64(1 << 63)
    bad[140_000] |= np.uint64(1 << 63)
    check_threads_and_out(batch_score_show, hands, starters, bad, 77777)
    with pytest.raises(ValueError, match="out overlaps"):
        batch_score_show(hands, starters, out=hands.view(np.int32)[: len(hands)])
    with pytest.raises(TypeError, match="out must have dtype int32"):
        batch_score_show(hands, starters, out=np.zeros(len(hands), dtype=np.int64))


# ---------------------------------------------------------------------------
# the distribution command counts every hand


def test_distribution_counts_every_cribbage_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pycards.games.cribbage import show_score_distribution
    from pycards.ui.cli import main

    assert main(["distribution", "cribbage"]) == 0
    out = capsys.readouterr().out
    hist = show_score_distribution()
    assert "exact, every 4-card hand with every starter: 12,994,800 deals" in out
    assert f"{int(hist[29]):14,d}" in out.splitlines()[-2]  # the 29 hand, 4 of them
    assert main(["distribution", "cribbage", "--crib"]) == 0
    crib = show_score_distribution(crib=True)
    assert f"{int(crib[0]):14,d}" in capsys.readouterr().out
