"""No Takers? scoring: the worked examples of docs/notakers.rst, and the C best split against the
exhaustive reference (points, key, and that the sets form a valid split)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore import _core as c_core
from pycards import batch
from pycards.cards import CardSet
from pycards.errors import InvalidCardError, RulesError
from pycards.games.notakers import (
    NoTakersGame,
    NoTakersRules,
    batch_split_points,
    best_split,
    split_points,
    splits_exactly,
    winners,
)
from pycards.summary import story
from pycards.ui.web.tables import view_message

STRENGTH = {0: 0, 1: 2, 2: 3, 3: 1}
# docs/notakers.rst writes C Cups, H Shields, S Swords, K Skulls; the engine's
# suits are hearts, diamonds, spades, clubs for those.
_SEED_SUIT = {"C": "H", "H": "D", "S": "S", "K": "C"}


def seed_cards(text: str) -> CardSet:
    """Cards written as in docs/notakers.rst (suits C H S K)."""
    return CardSet(" ".join(tok[:-1] + _SEED_SUIT[tok[-1]] for tok in text.split()))


def bit(card: int) -> int:
    return 1 << (16 * (card // 13) + card % 13)


def mask(ids: list[int]) -> int:
    return sum(bit(c) for c in ids)


# ---------------------------------------------------------------------------
# the worked examples of docs/notakers.rst


def test_four_sevens_and_a_run_of_four() -> None:
    split = best_split(seed_cards("3C 4C 5C 6C 7C 7S 7K 7H"))
    assert split.points == 9
    assert [(s.kind, str(s.cards)) for s in split.sets] == [
        ("four", "7C 7D 7H 7S"),
        ("run", "3H 4H 5H 6H"),
    ]


def test_two_runs_beat_three_pairs() -> None:
    split = best_split(seed_cards("5C 5S 6C 6S 7C 7S"))
    assert split.points == 6
    assert [s.kind for s in split.sets] == ["run", "run"]


def test_three_nines_and_a_run() -> None:
    split = best_split(seed_cards("9H 9S 9K JC QC KC 2S"))
    assert split.points == 5
    assert sorted(s.kind for s in split.sets) == ["run", "trips"]


@pytest.mark.parametrize(
    ("ace", "top", "points"), [("low", 3, 3), ("high", 14, 3), ("both", 14, 3)]
)
def test_ace_in_runs(ace: str, top: int, points: int) -> None:
    split = best_split(seed_cards("AC 2C 3C QC KC"), NoTakersRules(ace_in_runs=ace))  # type: ignore[arg-type]
    assert split.points == points
    assert len(split.sets) == 1 and split.sets[0].kind == "run" and split.sets[0].top == top


def test_run_of_five_beats_four_of_a_kind() -> None:
    a, b = seed_cards("2C 3C 4C 5C 6C"), seed_cards("9H 9S 9K 9C 4S")
    assert split_points(a) == split_points(b) == 5
    assert winners([a, b]) == [0]
    assert winners([b, a]) == [1]


def test_cups_beat_swords() -> None:
    a, b = seed_cards("8C 9C TC 3H 3S"), seed_cards("8S 9S TS 2H 2C")
    assert split_points(a) == split_points(b) == 4
    assert winners([a, b]) == [0]


def test_shared_win_and_no_cards() -> None:
    assert winners(["5H 5S", "5D 5C", "2H 9C"]) == [0]  # hearts beat diamonds
    assert winners(["", ""]) == [0, 1]
    assert best_split("").points == 0 and best_split("").sets == ()


def test_tiebreak_ace_in_same_rank_sets() -> None:
    aces, kings = "AH AS", "KH KS"
    assert winners([aces, kings]) == [0]
    assert winners([aces, kings], NoTakersRules(tiebreak_ace="low")) == [1]


def test_whole_deck_is_thirteen_fours() -> None:
    # the C engine directly: the exhaustive reference cannot search 52 cards
    points, sets = c_core.notakers_best_split(CardSet.full().mask, 0, 0)
    assert points == 65
    assert [s[0] for s in sets] == [4] * 13  # fours
    assert [s[4] for s in sets] == [14, *range(13, 1, -1)]


def test_rules_are_checked() -> None:
    with pytest.raises(RulesError):
        NoTakersRules(max_turns=-1)
    with pytest.raises(RulesError):
        NoTakersRules(save_requires_set=1)  # type: ignore[arg-type]
    assert NoTakersRules.open_table().to_params() == (1, 1, 0, 0, 0, 2, 0)
    assert NoTakersRules.capped(50).max_turns == 50


def test_splits_exactly() -> None:
    assert splits_exactly("5H 6H 7H 7S 7C")  # run 5-7 + pair of 7s
    assert not splits_exactly("5H 6H 7H 7S")
    assert splits_exactly("")


# ---------------------------------------------------------------------------
# exactness against the exhaustive reference


def _assert_valid_split(cards: int, points: int, sets: list[tuple[int, ...]], ace: int) -> None:
    """The sets are disjoint, inside the cards, each a real set worth its points."""
    used = 0
    total = 0
    for kind, m, pts, position, _top, suit in sets:
        assert m & cards == m and m & used == 0
        used |= m
        ids = [c for c in range(52) if m & bit(c)]
        ranks = sorted({c % 13 for c in ids})
        suits = {c // 13 for c in ids}
        if kind in (1, 2, 4):  # same rank
            assert len(ranks) == 1
            assert len(ids) == {1: 2, 2: 3, 4: 4}[kind]
            assert pts == {1: 1, 2: 2, 4: 5}[kind] and position == {1: 1, 2: 2, 4: 5}[kind]
            assert suit == max(suits, key=lambda s: STRENGTH[s])
        else:
            assert kind == 3 and len(suits) == 1 and len(ids) >= 3 and suit in suits
            orders = {0: [list(range(13))], 1: [[*range(1, 13), 0]]}.get(
                ace, [list(range(13)), [*range(1, 13), 0]]
            )
            assert any(
                any(sorted(o[i : i + len(ids)]) == ranks for i in range(len(o) - len(ids) + 1))
                for o in orders
            ), ranks
            assert pts == len(ids) and position == (len(ids) if len(ids) < 5 else len(ids) + 1)
        total += pts
    assert total == points


def _check_hand(cards: int, ace: int, tb: int) -> None:
    got = c_core.notakers_best_split(cards, ace, tb)
    want = ref.notakers_best_split(cards, ace, tb)
    assert got[0] == want[0], hex(cards)
    key = [(s[3], s[4], STRENGTH[s[5]]) for s in got[1]]
    assert key == [(s[3], s[4], STRENGTH[s[5]]) for s in want[1]], hex(cards)
    assert key == sorted(key, reverse=True)
    _assert_valid_split(cards, got[0], got[1], ace)
    assert c_core.notakers_points(cards, ace) == got[0]
    assert c_core.notakers_splits_exactly(cards, ace) == ref.notakers_splits_exactly(cards, ace)


def _random_hands(seed: int, count: int, max_cards: int) -> list[int]:
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        if i % 2:
            hands.append(mask(rng.sample(range(52), rng.randint(0, max_cards))))
        else:  # dense: many cards of few ranks
            ranks = rng.sample(range(13), rng.randint(1, 4))
            pool = [s * 13 + r for r in ranks for s in range(4)]
            hands.append(mask(rng.sample(pool, min(len(pool), rng.randint(2, max_cards)))))
    return hands


@pytest.mark.parametrize("ace", [0, 1, 2])
@pytest.mark.parametrize("tb", [0, 1])
def test_exact_on_random_and_dense_hands(ace: int, tb: int) -> None:
    for cards in _random_hands(100 * ace + tb, 500, 12):
        _check_hand(cards, ace, tb)


@pytest.mark.parametrize("ace", [0, 1, 2])
def test_exact_on_consecutive_dense_hands(ace: int) -> None:
    """Neighbouring ranks in every suit: the hardest case for runs."""
    rng = random.Random(ace)
    for _ in range(300):
        low = rng.randrange(13)
        ranks = [(low + k) % 13 for k in range(rng.randint(3, 5))]
        pool = [s * 13 + r for r in ranks for s in range(4)]
        _check_hand(
            mask(rng.sample(pool, min(len(pool), rng.randint(6, 14)))), ace, rng.randint(0, 1)
        )


@settings(max_examples=60, deadline=None)
@given(ids=st.sets(st.integers(0, 51), min_size=13, max_size=26), ace=st.integers(0, 2))
def test_exact_on_big_hands(ids: set[int], ace: int) -> None:
    _check_hand(mask(sorted(ids)), ace, 0)


@pytest.mark.slow
@pytest.mark.parametrize("ace", [0, 1, 2])
def test_exact_many_hands(ace: int) -> None:
    for cards in _random_hands(1000 + ace, 20000, 13):
        _check_hand(cards, ace, random.Random(cards).randint(0, 1))


def test_batch_matches_scalar_and_reference() -> None:
    hands = np.array([*_random_hands(5, 400, 20), 0], dtype=np.uint64)
    for ace, name in enumerate(("low", "high", "both")):
        got = batch_split_points(hands, NoTakersRules(ace_in_runs=name))  # type: ignore[arg-type]
        assert got.dtype == np.int32
        assert got.tolist() == [c_core.notakers_points(int(h), ace) for h in hands]
        assert got[:60].tolist() == ref.notakers_batch_points(hands[:60], ace).tolist()


def test_batch_whole_deck() -> None:
    decks = np.full(3, 0x1FFF1FFF1FFF1FFF, dtype=np.uint64)
    for ace in (0, 1, 2):
        assert c_core.notakers_batch_points(decks, ace).tolist() == [65] * 3


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="outside"):
        c_core.notakers_points(1 << 13, 0)
    with pytest.raises(ValueError, match="ace_in_runs"):
        c_core.notakers_points(0, 3)
    with pytest.raises(ValueError, match="tiebreak_ace"):
        c_core.notakers_best_split(0, 0, 2)
    with pytest.raises(TypeError, match="uint64"):
        c_core.notakers_batch_points(np.zeros(3, dtype=np.int64), 0)
    with pytest.raises(ValueError, match="1-D"):
        c_core.notakers_batch_points(np.zeros((2, 2), dtype=np.uint64), 0)
    with pytest.raises(ValueError, match="contiguous"):
        c_core.notakers_batch_points(np.zeros(6, dtype=np.uint64)[::2], 0)
    with pytest.raises(ValueError, match=r"arr\[1\]"):
        c_core.notakers_batch_points(np.array([0, 1 << 14], dtype=np.uint64), 0)
    assert c_core.notakers_batch_points(np.zeros(0, dtype=np.uint64), 0).tolist() == []


def test_batch_split_points_threads_and_out() -> None:
    from pycards.batch import random_hands

    hands = random_hands(100_003, 7, seed=14)
    one = batch_split_points(hands)
    for t in (1, 2, 3, 7, 0):
        out = np.zeros(len(hands), dtype=np.int32)
        assert batch_split_points(hands, out=out, threads=t) is out
        assert np.array_equal(out, one)
    hands[99_999] |= np.uint64(1 << 63)
    hands[99_000 + 1_000 + 2] |= np.uint64(1 << 63)
    for t in (1, 2, 3, 7):
        with pytest.raises(InvalidCardError, match=r"\[99999\]"):
            batch_split_points(hands, threads=t)


def test_notakers_split_points_is_the_scalar_per_set() -> None:
    """pycards.batch.notakers_split_points == pycards.games.notakers.split_points."""
    hands = np.concatenate([c_core.random_hands(40, k, 70 + k) for k in (0, 3, 8, 13, 20)])
    for ace in ("low", "high", "both"):
        rules = NoTakersRules(ace_in_runs=ace)
        got = batch.notakers_split_points(hands, rules)
        assert got.dtype == np.int32 and got.shape == hands.shape
        assert got.tolist() == [split_points(int(h), rules) for h in hands]
    assert (
        batch.notakers_split_points(hands).tolist()
        == batch.notakers_split_points(hands, NoTakersRules()).tolist()
    )
    with pytest.raises(TypeError):
        batch.notakers_split_points(hands.astype(np.int64))


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_splits_pickle_and_copy(protocol: int) -> None:
    """Moved from the shared pickle tests: the game's results pickle to equal values."""
    import copy

    from pycards.games.notakers import best_split

    values: list[Any] = [
        best_split("3H 4H 5H 6H 7H 7S 7C 7D"),
        best_split("3H 4H 5H 6H 7H 7S 7C 7D").sets[0],
    ]
    for value in values:
        back = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert back == value and type(back) is type(value)
        assert copy.deepcopy(value) == value


def test_every_seats_final_score_shows_its_split() -> None:
    """At the end every seat lays its cards down: the game's summary, for a
    seat and for a spectator, gives each seat's best split, whose points are
    that seat's score; a story told from a seat's view alone gives its own."""
    game = NoTakersGame(NoTakersRules.capped(60), num_players=3)
    state = game.new_initial_state(2)
    rng = random.Random(1)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    scores = state.view(0).observation.points
    for viewer in (0, 1, None):
        (summary,) = [s for s in story(state, viewer).summaries if s.is_game]
        assert [split.points for split in summary.splits] == list(scores)
        for k, split in enumerate(summary.splits):
            line = summary.lines()[1 + k]
            assert all(str(s.cards) in line for s in split.sets), line
    names = ["Ann", "Bob", "Cat"]
    msg = view_message(state.view(1), names, names, state.events_dropped())  # the view alone
    (game_summary,) = [s for s in msg["summaries"] if s["round"] == 0]
    assert any(line.startswith("Bob: ") and "(" in line for line in game_summary["lines"])
