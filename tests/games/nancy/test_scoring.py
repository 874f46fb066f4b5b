"""Nancy rule functions (docs/nancy.rst, "Trick play" to "Result and score") on both
backends: published and hand-computed examples, batch kernels against the scalar ones, bad input."""

from __future__ import annotations

import random
from types import ModuleType

import numpy as np
import pytest
import reference as _reference

from cardcore import _core
from pycards.cards import NancyCard, to_mask78
from pycards.games.nancy import (
    NancyRules,
    base_score,
    legal_cards,
    objectives,
    settlement,
    trick_winner,
)

BACKENDS = [pytest.param(_core, id="c"), pytest.param(_reference, id="reference")]


def ids(text: str) -> list[int]:
    return [int(NancyCard.parse(t)) for t in text.split()]


def mask(text: str) -> int:
    return to_mask78(text)


# -- docs/nancy.rst, "Result and score": the source's examples (4 players, x3)
SOURCE_EXAMPLES = [
    # bid, completed, won, base, taker total
    (3, 2, False, -4, -12),  # bid 3 made 2 lost
    (3, 4, True, 13, 39),  # bid 3 made 4
    (2, 0, False, -21, -63),  # Skinny Nancy
    (2, 3, False, 1, 3),  # lost by rule 13 with 3 of 2
    (2, 0, True, -11, -33),  # won by rule 13 with 0 of 2
]


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize(("bid", "completed", "won", "base", "total"), SOURCE_EXAMPLES)
def test_source_scoring_examples(
    b: ModuleType, bid: int, completed: int, won: bool, base: int, total: int
) -> None:
    assert b.nancy_base_score(bid, completed, won) == base
    out = b.nancy_settlement(4, 1, -1, bid, completed, won)
    assert out == [-base, total, -base, -base]
    assert sum(out) == 0


@pytest.mark.parametrize("b", BACKENDS)
def test_partner_settlement(b: ModuleType) -> None:
    # docs/nancy.rst: five players with Partner, base 13: +39, +39, each opponent -26
    assert b.nancy_settlement(5, 0, 3, 3, 4, True) == [39, -26, -26, 39, -26]
    # six players: 2 x 4 with a Partner, 5 x 1 without (the wiki's 6-player EX rule)
    assert b.nancy_settlement(6, 2, 5, 3, 4, True) == [-26, -26, 52, -26, -26, 52]
    assert b.nancy_settlement(6, 2, -1, 3, 4, True) == [-13, -13, 65, -13, -13, -13]
    # a self-call (partner == taker) is playing alone
    assert b.nancy_settlement(5, 1, 1, 3, 4, True) == b.nancy_settlement(5, 1, -1, 3, 4, True)


@pytest.mark.parametrize("b", BACKENDS)
def test_settlement_rejects_bad_arguments(b: ModuleType) -> None:
    for args in [
        (1, 0, -1, 3, 1, True),
        (7, 0, -1, 3, 1, True),
        (4, 4, -1, 3, 1, True),
        (4, 0, 4, 3, 1, True),
        (4, 0, -1, 0, 1, True),
        (4, 0, -1, 10, 1, True),
    ]:
        with pytest.raises(ValueError):
            b.nancy_settlement(*args)


def test_facade_scores() -> None:
    assert base_score(3, 4, True) == 13
    assert settlement(4, 0, -1, 3, 2, False) == [-12, 4, 4, 4]


# -- docs/nancy.rst, "The objectives": objectives on the Nancy --------------
@pytest.mark.parametrize("b", BACKENDS)
def test_objectives(b: ModuleType) -> None:
    def obj(text: str, mode: int = 0) -> int:
        return int(b.nancy_objectives(mask(text), mode))

    assert obj("XXI I") & 1  # Heir's Bodyguard
    assert not obj("XXI II") & 1
    rats = " ".join(
        f"{r}R" for r in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"]
    )
    assert obj(rats) == 2  # Empire of Rats only (4 face cards, no trumps)
    assert obj(rats.replace("KR", "")) == 0
    pistols = rats.replace("R", "P")
    assert obj(pistols) == 16
    assert obj("JR CR QR KR JS CS QS KS") == 32  # Royal Executioner: 8 face cards
    assert obj("JR CR QR KR JS CS QS 10S") == 0  # 7 face cards
    # Master of the Arcane: X + XII = 22 in every mode
    for mode in (0, 1, 2):
        assert obj("X XII", mode) == 64
    # XXI + II = 23: only at_least
    assert [obj("XXI II", m) & 64 for m in (0, 1, 2)] == [0, 0, 64]
    # XXI + I + V = 27: subset XXI + I = 22, at least 22, not exactly 22
    assert [obj("XXI I V", m) & 64 for m in (0, 1, 2)] == [0, 64, 64]
    assert obj("", 2) == 0
    with pytest.raises(ValueError):
        b.nancy_objectives(1 << 14, 0)  # bit 14 of a lane is outside the deck
    with pytest.raises(ValueError):
        b.nancy_objectives(0, 3)


def test_objectives_facade() -> None:
    assert objectives("XXI I") == 65
    assert objectives("XXI I V", arcane_sum_mode="subset_sum") == 65
    assert objectives("XXI I V", NancyRules(arcane_sum_mode="subset_sum")) == 65
    assert objectives("XXI I V") == 1  # exact_total: 21 + 1 + 5 is not 22


# -- docs/nancy.rst, "Trick play": obligations, the Outsider, the winner
LEGAL_CASES = [
    # holding, trick, overtrump, legal
    ("KR 3S XV OUT", "", True, "KR 3S XV OUT"),  # leading: anything
    ("KR 3S XV OUT", "5R", True, "KR OUT"),  # (a) follow suit; the Outsider always
    ("3S XV II", "5R", True, "XV II"),  # (b) no Rats: a trump higher than none = any
    ("3S XV II", "5R X", True, "XV"),  # (b) higher than X
    ("3S IX II", "5R X", True, "IX II"),  # (c) no higher trump: any trump
    ("3S 4P", "5R X", True, "3S 4P"),  # (d) no trump: anything
    ("3S XV II", "XI", True, "XV"),  # trump led: overtrump if able
    ("3S XV II", "XI", False, "XV II"),  # overtrump_on_trump_lead = false
    ("3S IX II", "XI", True, "IX II"),  # cannot overtrump: any trump
    ("3S 4P", "XI", True, "3S 4P"),  # no trump at all
    ("3S XV II", "OUT", True, "3S XV II"),  # the Outsider led: next card sets the suit
    ("3S 9S XV II", "OUT 5S", True, "3S 9S"),  # ... and the Outsider does not count
    ("3S XV II", "OUT XI", True, "XV"),  # the Outsider led, then a trump: trumps
    ("KS QS", "5R XX 2R", True, "KS QS"),  # no Rats, no trumps
    ("XXI KR", "5R XX", True, "KR"),  # following beats overtrumping
]


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize(("holding", "trick", "overtrump", "legal"), LEGAL_CASES)
def test_legal_cards(b: ModuleType, holding: str, trick: str, overtrump: bool, legal: str) -> None:
    assert b.nancy_legal_cards(mask(holding), ids(trick), overtrump) == mask(legal)


def test_legal_cards_facade() -> None:
    assert str(legal_cards("3S XV II", ["5R", "X"])) == "XV"


WINNER_CASES = [
    ("5R KR 2R", 1),  # highest of the led suit
    ("5R KS 2R", 0),  # an off-suit card never wins
    ("5R I KR", 1),  # any trump beats the suit
    ("5R I XXI II", 2),  # highest trump
    ("OUT 5S KS", 2),  # the Outsider led: the next card sets the suit, it never wins
    ("5S OUT 2S", 0),
    ("OUT", -1),
    ("", -1),
]


@pytest.mark.parametrize("b", BACKENDS)
@pytest.mark.parametrize(("trick", "winner"), WINNER_CASES)
def test_trick_winner(b: ModuleType, trick: str, winner: int) -> None:
    assert b.nancy_trick_winner(ids(trick)) == winner


def test_trick_winner_facade() -> None:
    assert trick_winner(["KR", "II", "QR"]) == 1


@pytest.mark.parametrize("b", BACKENDS)
def test_bad_tricks_and_holdings(b: ModuleType) -> None:
    with pytest.raises(ValueError):
        b.nancy_legal_cards(0, [5, 5])  # duplicate
    with pytest.raises(ValueError):
        b.nancy_legal_cards(0, [78])
    with pytest.raises(ValueError):
        b.nancy_legal_cards(1 << 127, [])
    with pytest.raises(ValueError):
        b.nancy_legal_cards(0, [1, 2, 3, 4, 5, 6])
    with pytest.raises(ValueError):
        b.nancy_trick_winner([-2])


# -- batch kernels ----------------------------------------------------------
def _random_rows(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = random.Random(seed)
    holdings = np.zeros((n, 2), dtype=np.uint64)
    tricks = np.full((n, 5), -1, dtype=np.int8)
    for i in range(n):
        deck = list(range(78))
        rng.shuffle(deck)
        m = to_mask78(deck[: rng.randint(1, 20)])
        holdings[i] = (m & ((1 << 64) - 1), m >> 64)
        k = rng.randint(0, 5)
        tricks[i, :k] = deck[20 : 20 + k]
    return holdings, tricks


@pytest.mark.parametrize("b", BACKENDS)
def test_batch_matches_scalar(b: ModuleType) -> None:
    holdings, tricks = _random_rows(1, 300)
    for overtrump in (True, False):
        out = b.nancy_batch_legal_cards(holdings, tricks, overtrump)
        assert out.shape == (300, 2) and out.dtype == np.uint64
        for i in range(300):
            h = int(holdings[i, 0]) | int(holdings[i, 1]) << 64
            trick = [int(c) for c in tricks[i] if c >= 0]
            assert int(out[i, 0]) | int(out[i, 1]) << 64 == b.nancy_legal_cards(h, trick, overtrump)
    winners = b.nancy_batch_trick_winner(tricks)
    assert winners.dtype == np.int8
    for i in range(300):
        assert winners[i] == b.nancy_trick_winner([int(c) for c in tricks[i] if c >= 0])
    objs = b.nancy_batch_objectives(holdings, 1)
    assert objs.dtype == np.uint16
    for i in range(300):
        h = int(holdings[i, 0]) | int(holdings[i, 1]) << 64
        assert objs[i] == b.nancy_objectives(h, 1)


def test_batch_c_equals_reference() -> None:
    holdings, tricks = _random_rows(2, 500)
    for overtrump in (True, False):
        assert np.array_equal(
            _core.nancy_batch_legal_cards(holdings, tricks, overtrump),
            _reference.nancy_batch_legal_cards(holdings, tricks, overtrump),
        )
    assert np.array_equal(
        _core.nancy_batch_trick_winner(tricks), _reference.nancy_batch_trick_winner(tricks)
    )
    for mode in (0, 1, 2):
        assert np.array_equal(
            _core.nancy_batch_objectives(holdings, mode),
            _reference.nancy_batch_objectives(holdings, mode),
        )


@pytest.mark.parametrize("b", BACKENDS)
def test_batch_input_validation(b: ModuleType) -> None:
    holdings, tricks = _random_rows(3, 4)
    with pytest.raises(TypeError, match="uint64"):
        b.nancy_batch_legal_cards(holdings.astype(np.int64), tricks)
    with pytest.raises(TypeError, match="int8"):
        b.nancy_batch_legal_cards(holdings, tricks.astype(np.int32))
    with pytest.raises(TypeError):
        b.nancy_batch_legal_cards([[0, 0]], tricks)
    with pytest.raises(ValueError, match="shape"):
        b.nancy_batch_legal_cards(holdings.reshape(-1), tricks)
    with pytest.raises(ValueError, match="rows"):
        b.nancy_batch_legal_cards(holdings[:2], tricks)
    with pytest.raises(ValueError, match="C-contiguous"):
        b.nancy_batch_legal_cards(np.asfortranarray(holdings), tricks)
    buf = np.zeros(holdings.nbytes + 1, dtype=np.uint8)
    unaligned = buf[1:].view(np.uint64).reshape(holdings.shape)
    unaligned[...] = holdings
    with pytest.raises(ValueError, match="aligned"):
        b.nancy_batch_legal_cards(unaligned, tricks)
    with pytest.raises(ValueError, match="aligned"):
        b.nancy_batch_objectives(unaligned)
    bad = holdings.copy()
    bad[2, 1] = np.uint64(1 << 40)
    with pytest.raises(ValueError, match="row 2"):
        b.nancy_batch_legal_cards(bad, tricks)
    with pytest.raises(ValueError, match="row 2"):
        b.nancy_batch_objectives(bad)
    badt = tricks.copy()
    badt[1] = [3, -1, 4, -1, -1]  # padding in the middle
    with pytest.raises(ValueError, match="row 1"):
        b.nancy_batch_legal_cards(holdings, badt)
    with pytest.raises(ValueError, match="row 1"):
        b.nancy_batch_trick_winner(badt)
    empty = b.nancy_batch_legal_cards(np.zeros((0, 2), np.uint64), np.zeros((0, 3), np.int8))
    assert empty.shape == (0, 2)


def test_the_card_bit_arithmetic_of_the_engine() -> None:
    """nancy_internal.h places suit card c (0..55) at bit (c / 14) * 16 + c % 14
    as c + 2 * ((c * 37) >> 9), without a division; and mask_cards moves suit
    s's lane down by 2 s bits to reach card ids."""
    for c in range(56):
        assert (c * 37) >> 9 == c // 14
        bit = c + 2 * ((c * 37) >> 9)
        assert bit == (c // 14) * 16 + c % 14
        assert bit - 2 * (bit // 16) == c
