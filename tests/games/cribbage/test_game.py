"""The cribbage game (docs/cribbage.rst): dealt positions played by hand
(his heels, go, 31, last card, the show in order, the game ending in the
show), 3 and 4 players, skunks, illegal actions, and the information-set
sampler counted against the exact distribution."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from _paths import DOCS
from _stats import Z_999, chi2, chi2_limit

from pycards.cards import Card, CardSet
from pycards.errors import IllegalActionError, InvalidCardError
from pycards.game import State
from pycards.games.cribbage import (
    CribbageGame,
    CribbageRules,
    game_result,
    score_show,
)

PONE = "KC QC JS TS 2H 3H"
DEALER = "9H 9D 8C 7C 4D 6D"


def dealt(rules: CribbageRules, starter: str, hands: tuple[str, str] = (PONE, DEALER)) -> Any:
    game = CribbageGame(rules, num_players=2)
    return game, game.new_initial_state(3, deck=game.stacked_deck(list(hands), starter))


def discard(state: State[Any]) -> None:
    for name in ("discard 2H", "discard 3H", "discard 4D", "discard 6D"):
        state.apply(name)


def events(state: State[Any], *kinds: str) -> list[tuple[str, int, int | None, int | None]]:
    return [(e.kind, e.player, e.target, e.value) for e in state.events() if e.kind in kinds]


def test_the_deal_and_the_discard() -> None:
    _, state = dealt(CribbageRules(first_dealer=1), "AS")
    assert state.current_player == 0  # the pone discards first
    assert state.observation(0).hand == CardSet(PONE)
    assert state.legal_action_names() == [f"discard {c}" for c in CardSet(PONE)]
    state.apply("discard 2H")
    assert state.current_player == 0  # two each with two players
    with pytest.raises(IllegalActionError, match="not the play"):
        state.apply("play KC")
    state.apply("discard 3H")
    assert state.current_player == 1
    state.apply("discard 4D")
    state.apply("discard 6D")
    obs = state.observation(0)
    assert obs.starter == Card.parse("AS") and obs.phase == 1
    assert obs.discards == CardSet("2H 3H") and len(obs.hand) == 4
    with pytest.raises(IllegalActionError, match="not the discard"):
        state.apply("discard KC")
    # a discard is seen by its owner only
    seen = [e.card for e in state.events(1) if e.kind == "discard"]
    assert seen == [None, None, "4D", "6D"]


def test_his_heels() -> None:
    _, state = dealt(CribbageRules(first_dealer=1), "JH")
    discard(state)
    assert events(state, "his_heels") == [("his_heels", 1, -1, 2)]
    assert state.returns() == [0, 2]


def test_go_last_card_and_the_show() -> None:
    _, state = dealt(CribbageRules(first_dealer=1), "AS")
    discard(state)
    for name in ("play KC", "play 9H", "play QC"):
        state.apply(name)
    # 29: neither can play; the pone played last and pegs 1
    assert events(state, "go", "last_card") == [
        ("go", 1, 29, 0),
        ("go", 0, 29, 0),
        ("last_card", 0, 29, 1),
    ]
    assert state.current_player == 1 and state.observation(0).total == 0
    with pytest.raises(IllegalActionError, match="card not held"):
        state.apply("play TS")
    for name in ("play 9D", "play JS", "play 8C"):
        state.apply(name)
    assert state.current_player == 0 and state.observation(0).total == 0  # go at 27
    state.apply("play TS")
    state.apply("play 7C")  # the last card: the show follows at once
    plays = [(e.player, e.card, e.target, e.extra) for e in state.events() if e.kind == "play"]
    assert plays == [
        (0, "KC", 10, 0), (1, "9H", 19, 0), (0, "QC", 29, 0),
        (1, "9D", 9, 0), (0, "JS", 19, 0), (1, "8C", 27, 0),
        (0, "TS", 10, 0), (1, "7C", 17, 0),
    ]  # fmt: skip
    last = [(e.player, e.target, e.extra) for e in state.events() if e.kind == "last_card"]
    assert last == [(0, 29, 0), (1, 27, 0), (1, 17, 1)]
    hand0 = score_show("KC QC JS TS", "AS").total
    hand1 = score_show("9H 9D 8C 7C", "AS").total
    crib = score_show("2H 3H 4D 6D", "AS", crib=True).total
    assert hand0 == 5  # a run of four and his nobs
    shows = events(state, "show_hand", "crib_card", "show_crib")
    assert shows[:2] == [("show_hand", 0, -1, hand0), ("show_hand", 1, -1, hand1)]
    assert sorted(str(Card(v)) for _, _, _, v in shows[2:6] if v is not None) == [
        "2H", "3H", "4D", "6D",
    ]  # fmt: skip
    assert shows[6] == ("show_crib", 1, -1, crib)
    assert state.returns() == [1 + hand0, 2 + hand1 + crib]
    # the next deal: the deal passes to the left
    assert events(state, "new_deal")[-1] == ("new_deal", 0, -1, 2)
    assert state.current_player == 1 and len(state.observation(1).hand) == 6


def test_thirty_one_and_the_count_after_it() -> None:
    hands = ("KC 5C QC 6H 2H 3H", "KH 5D 6C AD 4D 6D")
    _, state = dealt(CribbageRules(first_dealer=1), "8S", hands)
    for name in ("discard 2H", "discard 3H", "discard 4D", "discard 6D"):
        state.apply(name)
    for name in ("play KC", "play 5D", "play QC", "play 6C"):
        state.apply(name)
    assert [e.extra for e in state.events() if e.kind == "play"] == [0, 2, 0, 2]  # 15, 31
    assert not events(state, "last_card")  # 31 takes no go point
    assert state.current_player == 0 and state.observation(0).total == 0
    for name in ("play 5C", "play KH", "play 6H", "play AD"):
        state.apply(name)
    # 5 + 10 = 15 for the dealer; 6H AD: 22; last card to the dealer
    assert [e.extra for e in state.events() if e.kind == "play"][4:] == [0, 2, 0, 0]
    assert events(state, "last_card") == [("last_card", 1, 22, 1)]


def test_the_game_ends_in_the_show_in_order() -> None:
    # the pone pegs 1 in the play and 5 for his hand: a game to 6 ends there,
    # before the dealer (who pegged 2) shows
    _, state = dealt(CribbageRules(first_dealer=1, game_target=6), "AS")
    discard(state)
    for name in ("play KC", "play 9H", "play QC", "play 9D", "play JS", "play 8C", "play TS"):
        state.apply(name)
    state.apply("play 7C")
    assert state.is_terminal
    assert [e.kind for e in state.events()][-2:] == ["show_hand", "game_over"]
    assert state.events()[-1].player == 0 and state.events()[-1].value == 6
    assert state.returns() == [6, 2]
    result = game_result(state)
    assert result.winners == (0,) and result.scores == (6, 2) and result.skunk == (0, 0)


def _random_game(game: CribbageGame, seed: int) -> State[Any]:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_skunks_are_reported(players: int) -> None:
    game = CribbageGame(num_players=players)
    seen = Counter[int]()
    for seed in range(12):
        state = _random_game(game, seed)
        result = game_result(state)
        scores = state.returns()
        assert max(scores) >= 121
        skunks = {e.player: e.value for e in state.events() if e.kind == "skunk"}
        for q in range(players):
            want = 0 if scores[q] >= 121 else 2 if scores[q] <= 60 else 1 if scores[q] <= 90 else 0
            assert skunks.get(q, 0) == want == result.skunk[q]
            assert state.observation(q).skunk == result.skunk
            seen[want] += 1
        assert state.events()[-1].extra == max(result.skunk)
    assert seen[0]


def test_three_players() -> None:
    game = CribbageGame(CribbageRules(first_dealer=2), num_players=3)
    hands = ["AC 2C 3C 4C 5C", "AD 2D 3D 4D 5D", "AH 2H 3H 4H 5H"]
    deck = game.stacked_deck(hands, "KS", crib_card="QS")
    state = game.new_initial_state(1, deck=deck)
    crib_dealt = [e for e in state.engine_state.events() if e[0] == 3]  # the referee's log
    assert len(crib_dealt) == 1 and crib_dealt[0][3] == Card.parse("QS") and crib_dealt[0][5] == 0
    assert all(e.value is None for p in range(3) for e in state.events(p) if e.kind == "crib_dealt")
    assert [state.current_player] == [0]
    for name in ("discard AC", "discard AD", "discard AH"):
        assert state.legal_actions()  # one each
        state.apply(name)
    assert state.observation(0).starter == Card.parse("KS")
    assert [len(state.observation(q).hand) for q in range(3)] == [4, 4, 4]
    # the play goes round from the dealer's left until every card is played
    rng = random.Random(0)
    while state.observation(0).phase == 1 and state.observation(0).dealer == 2:
        state.apply(rng.choice(state.legal_actions()))
    crib = [e.card for e in state.events() if e.kind == "crib_card"]
    assert sorted(crib) == sorted(["AC", "AD", "AH", "QS"])
    shows = [e.player for e in state.events() if e.kind in ("show_hand", "show_crib")]
    assert shows == [0, 1, 2, 2]
    with pytest.raises(ValueError, match="crib_card"):
        game.stacked_deck(hands, "KS")


def test_bad_stacked_decks() -> None:
    game = CribbageGame(CribbageRules(first_dealer=0), num_players=2)
    with pytest.raises(InvalidCardError, match="6 cards"):
        game.stacked_deck(["AC 2C", DEALER], "KS")
    with pytest.raises(InvalidCardError, match="twice"):
        game.stacked_deck([PONE, PONE], "KS")
    with pytest.raises(InvalidCardError):
        game.new_initial_state(0, deck=list(range(51)))


def test_cut_for_deal_lowest_card_deals() -> None:
    game = CribbageGame(num_players=3)
    for seed in range(30):
        state = game.new_initial_state(seed)
        cuts = [e for e in state.events() if e.kind == "cut"]
        last = max(e.extra for e in cuts)
        final = [e for e in cuts if e.extra == last]
        ranks = [Card(e.value).rank for e in final]
        assert ranks.count(min(ranks)) == 1
        assert state.observation(0).dealer == final[ranks.index(min(ranks))].player
        for r in range(1, last):  # every earlier round tied for lowest
            tied = [Card(e.value).rank for e in cuts if e.extra == r]
            assert tied.count(min(tied)) > 1
    fixed = CribbageGame(CribbageRules(first_dealer=1), num_players=3).new_initial_state(5)
    assert not [e for e in fixed.events() if e.kind == "cut"]
    assert fixed.observation(0).dealer == 1


# ---------------------------------------------------------------------------
# the information-set sampler


def test_sampler_is_uniform_before_the_discard() -> None:
    _, state = dealt(CribbageRules(first_dealer=1), "AS")
    unseen = [c for c in range(52) if c not in CardSet(PONE)]
    counts = Counter[int]()
    n = 4600
    for k in range(n):
        sample = state.sample_infoset(0, k)
        hand = sample.observation(1).hand
        assert len(hand) == 6 and not hand & CardSet(PONE)
        counts.update(int(c) for c in hand)
    assert set(counts) <= set(unseen)
    assert chi2([counts[c] for c in unseen], [n * 6 / 46] * len(unseen)) < chi2_limit(45, Z_999)


def test_sampler_respects_go_and_is_uniform() -> None:
    """After 'KC 9H QC', both said go at 29 (room 2): the dealer's three held
    cards are above 2 pips, uniform among those seat 0 has not seen; his two
    discards are any two of the rest."""
    _, state = dealt(CribbageRules(first_dealer=1), "AS")
    discard(state)
    for name in ("play KC", "play 9H", "play QC"):
        state.apply(name)
    seen = CardSet(PONE) | CardSet("AS 9H")
    unseen = [c for c in range(52) if c not in seen]
    eligible = [c for c in unseen if Card(c).pips > 2]
    held = Counter[int]()
    n = 3600
    for k in range(n):
        sample = state.sample_infoset(0, k)
        obs = sample.observation(1)
        assert len(obs.hand) == 3 and min(c.pips for c in obs.hand) > 2
        assert len(obs.discards) == 2 and not (obs.hand | obs.discards) & seen
        held.update(int(c) for c in obs.hand)
    assert set(held) <= set(eligible)
    assert len(eligible) == 38  # 44 unseen, less three Aces and three 2s
    assert chi2([held[c] for c in eligible], [n * 3 / len(eligible)] * len(eligible)) < chi2_limit(
        37, Z_999
    )


# ---------------------------------------------------------------------------
# docs/cribbage.rst against the engine


def _docs() -> str:

    return (DOCS / "cribbage.rst").read_text()


def test_docs_page_examples_run() -> None:
    """Every code block of docs/cribbage.rst runs; ``expr  # value`` lines are checked."""
    import ast
    import re

    blocks = re.findall(r"\.\. code-block:: python\n\n((?:    .*\n|\n)+)", _docs())
    assert len(blocks) >= 3
    namespace: dict[str, Any] = {}
    checked = 0
    for block in blocks:
        lines = []
        for line in block.splitlines():
            m = re.match(r"^(\s*)(\S.*?)\s+# (.+)$", line[4:])
            if m:
                lines.append(
                    f"{m.group(1)}assert ({m.group(2)}) == {ast.literal_eval(m.group(3))!r}"
                )
                checked += 1
                continue
            lines.append(line[4:])
        exec("\n".join(lines), namespace)
    assert checked >= 8


def test_docs_worked_shows() -> None:
    import re

    rows = re.findall(
        r"^(\w\w \w\w \w\w \w\w)\s+(\w\w)\s+(\d+)\s+(\d+)\s", _docs(), flags=re.MULTILINE
    )
    assert len(rows) == 7
    for cards, starter, hand, crib in rows:
        assert score_show(cards, starter).total == int(hand)
        assert score_show(cards, starter, crib=True).total == int(crib)


def test_docs_list_every_event_kind_and_segment() -> None:
    import re

    from cardcore import _core

    text = _docs()
    kinds = _core.game_info("cribbage")["event_kinds"]
    # the "Event fields" list-table: kind, player, target, value (its type first), extra
    rows = re.findall(
        r"^   \* - ``(\w+)``\n(?:     - .*\n){2}     - (card|number|none)", text, flags=re.MULTILINE
    )
    assert rows == [(k["name"], k["value"]) for k in kinds]
    segs = re.findall(r"^``(\w+)``\s+(\d+ n|\d+|n)\s", text, flags=re.MULTILINE)
    for n, muggins in itertools.product((2, 3, 4), (False, True)):
        game = CribbageGame(CribbageRules(muggins=muggins), num_players=n)
        names = [s.name for s in game.segments]
        listed = [row for row in segs if row[0] in names]
        assert [name for name, _ in listed] == names
        for (_, length), seg in zip(listed, game.segments, strict=True):
            want = n * int(length[:-2] or 1) if length.endswith("n") else int(length)
            assert want == seg.length, seg.name
        extra = (4 if n == 4 else 0) + (55 + n if muggins else 0)
        assert game.tensor_size == 264 + 58 * n + extra


# ---------------------------------------------------------------------------
# the C engine against the plain-Python oracle, step by step


def _same(a: Any, b: Any, n: int) -> None:
    assert a.current_player() == b.current_player()
    assert a.legal_actions() == b.legal_actions()
    assert a.returns() == b.returns()
    assert [tuple(e) for e in a.events()] == b.events()
    for p in range(n):
        assert np.array_equal(a.observe_tensor(p), b.observe_tensor(p))


def _differential(games: int, seed: int) -> tuple[int, Counter[int]]:
    """Random games, C against the reference step by step: the steps, and
    the claim events by what was claimed (0 hand, 1 crib, 2 play, 3 go)."""
    from reference.cribbage import EV, ChanceFromEngine, CribbageState

    from cardcore import _core

    rng = random.Random(seed)
    steps = 0
    claims: Counter[int] = Counter()
    for _ in range(games):
        n = rng.choice([2, 3, 4])
        params = [
            rng.choice([121, 121, 61, 31, 15, 5]),
            rng.randint(0, 1),
            rng.choice([-1, -1, rng.randrange(n)]),
            rng.randint(0, 1),  # muggins
            rng.randint(0, 1),  # overclaim
            rng.randint(0, 1),  # partnership
        ]
        game_seed = rng.getrandbits(64)
        a = _core.new_state("cribbage", params, n, game_seed)
        b = CribbageState(tuple(params), n, game_seed, chance=ChanceFromEngine(a))
        _same(a, b, n)
        while a.current_player() != -4:
            probe = rng.randrange(-3, 140)
            assert a.verify(probe) == b.verify(probe)
            action = rng.choice(a.legal_actions())
            assert a.apply(action) == 0
            assert b.apply(action) == 0
            _same(a, b, n)
            steps += 1
        assert a.verify(0) == b.verify(0) < 0
        claims.update(e[2] for e in b.log if e[0] == EV["claim"])
    return steps, claims


def test_c_matches_reference_step_by_step() -> None:
    steps, claims = _differential(games=40, seed=1)
    assert steps > 2000
    assert min(claims[k] for k in range(4)) > 20  # the show and the play claimed


@pytest.mark.slow
def test_c_matches_reference_hundreds_of_games() -> None:
    assert _differential(games=600, seed=2)[0] > 30000


def test_stacked_deck_matches_reference() -> None:
    from reference.cribbage import ChanceFromEngine, CribbageState

    from cardcore import _core

    for n, muggins, partnership in ((2, 0, 0), (3, 1, 0), (4, 0, 0), (4, 1, 1)):
        deck = random.Random(n).sample(range(52), 52)
        params = [121, 0, 1, muggins, 0, partnership]
        a = _core.new_state("cribbage", params, n, 9, deck)
        b = CribbageState(tuple(params), n, 9, deck=deck, chance=ChanceFromEngine(a))
        rng = random.Random(n)
        for _ in range(60):
            _same(a, b, n)
            action = rng.choice(a.legal_actions())
            a.apply(action)
            b.apply(action)


@pytest.mark.parametrize(
    ("players", "muggins"), [(2, False), (3, False), (4, False), (2, True), (3, True)]
)
def test_samples_keep_every_go_of_the_deal(players: int, muggins: bool) -> None:
    """Random positions: in every sample, each seat that said go this deal
    holds no card that would have fitted then, the seat to play a card
    (not one claiming points) holds one that fits, and the cards seat 0 has
    seen are where they were."""
    game = CribbageGame(CribbageRules(muggins=muggins), num_players=players)
    rng = random.Random(players)
    checked = 0
    for seed in range(25):
        state = game.new_initial_state(seed)
        for _ in range(rng.randrange(5, 40)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal:
            continue
        events = state.events()
        start = max(i for i, e in enumerate(events) if e.kind == "new_deal")
        gos = [(e.player, 31 - e.target) for e in events[start:] if e.kind == "go"]
        for k in range(20):
            sample = state.sample_infoset(0, 1000 * seed + k)
            for q, room in gos:
                held = sample.observation(q).hand
                assert all(c.pips > room for c in held)
            to_act = sample.current_player
            obs = sample.observation(to_act)
            if obs.phase == 1 and obs.claimant is None:
                assert any(c.pips <= 31 - obs.total for c in obs.hand)
            assert sample.observation(0) == state.observation(0)
            checked += 1
    assert checked > 200


# ---------------------------------------------------------------------------
# muggins (docs/cribbage.rst, "Muggins"): the worked deal of the rules, with
# every point claimed by the players.  The play makes nothing but go and
# last card: seat 0 claims a go at 29, seat 1 a go at 27 and the last card;
# after it seat 0 has 1, seat 1 has 2.  The true show: seat 0's hand 5,
# seat 1's hand 10, the crib 6.

WORKED = ["KC QC JS TS 2H 3H", "9H 9D 8C 7C 4D 6D"]
WORKED_PLAY = [
    "discard 2H", "discard 3H", "discard 4D", "discard 6D",
    "play KC", "play 9H", "play QC", "claim 1", "play 9D", "play JS", "play 8C", "claim 1",
    "play TS", "play 7C", "claim 1",
]  # fmt: skip


def _worked(**rules: object) -> State:
    game = CribbageGame(CribbageRules(first_dealer=1, muggins=True, **rules), num_players=2)  # type: ignore[arg-type]
    state = game.new_initial_state(0, deck=game.stacked_deck(WORKED, "AS"))
    for name in WORKED_PLAY:
        state.apply(name)
    return state


def _show_events(state: State) -> list[tuple[str, int, int, int, int]]:
    """The show's claims and calls (the worked play has only true claims)."""
    kinds = {"claim", "muggins", "no_muggins", "overclaim", "penalty", "show_hand", "show_crib"}
    return [
        (e.kind, e.player, e.target, int(e.value), e.extra)
        for e in state.events()
        if e.kind in kinds and not (e.kind == "claim" and e.target >= 2)
    ]


def test_muggins_claims_a_call_and_a_correction() -> None:
    state = _worked()
    assert state.returns() == [1, 2]
    assert state.current_player == 0  # the pone claims first
    assert state.legal_action_names() == [f"claim {k}" for k in range(30)]
    obs = state.observation(1)
    assert obs.claimant == 0 and obs.show_crib == 0 and obs.muggins_call == 0
    assert obs.phase is None and obs.crib_shown == CardSet()
    with pytest.raises(IllegalActionError, match="the show: claim"):
        state.apply("play KC")
    with pytest.raises(IllegalActionError, match="no claim to call muggins on"):
        state.apply("muggins")
    state.apply("claim 3")  # two short
    assert state.returns() == [4, 2]
    assert state.current_player == 1 and state.legal_action_names() == ["muggins", "pass"]
    obs = state.observation(0)
    assert obs.claimant == 0 and obs.claim == 3 and obs.muggins_call == 1
    with pytest.raises(IllegalActionError, match="nothing is being claimed"):
        state.apply("claim 5")
    state.apply("muggins")
    assert state.returns() == [4, 4]
    assert state.current_player == 1
    state.apply("claim 12")  # two over: corrected to 10, no penalty (ACC 8.4)
    assert state.returns() == [4, 14]
    obs = state.observation(0)
    assert obs.claimant == 1 and obs.show_crib == 1
    assert obs.crib_shown == CardSet("2H 3H 4D 6D")
    state.apply("claim 6")
    assert state.returns() == [4, 20]
    assert _show_events(state) == [
        ("claim", 0, 0, 3, 5), ("show_hand", 0, -1, 3, 0), ("muggins", 1, 0, 2, 0),
        ("claim", 1, 0, 12, 10), ("overclaim", 1, 0, 2, 0), ("show_hand", 1, -1, 10, 0),
        ("claim", 1, 1, 6, 6), ("show_crib", 1, -1, 6, 0),
    ]  # fmt: skip
    assert state.observation(0).phase == 0  # the next deal
    assert state.observation(0).dealer == 0


def test_muggins_pass_and_the_penalty_variant() -> None:
    state = _worked(overclaim="penalty")
    state.apply("claim 0")
    state.apply("pass")  # seat 1 lets the 5 go
    state.apply("claim 13")  # three over: seat 0 pegs the excess
    state.apply("claim 5")  # one short; the crib is the last item: seat 0 may call
    assert state.current_player == 0
    state.apply("muggins")
    assert state.returns() == [1 + 3 + 1, 2 + 10 + 5]
    kinds = [e[0] for e in _show_events(state)]
    assert kinds == [
        "claim", "show_hand", "no_muggins", "claim", "overclaim", "show_hand", "penalty",
        "claim", "show_crib", "muggins",
    ]  # fmt: skip
    assert ("overclaim", 1, 0, 3, 2) in _show_events(state)


def test_false_claim_of_game() -> None:
    """Game to 15: seat 0 (1 point) claims 14 for a hand of 5: that would
    reach the game hole, so it is a false claim of game (ACC 8.4): seat 0
    pegs 5, goes back 15 (to 0), and seat 1 pegs the 9 overclaimed up to the
    game hole (15 - 1 - 5)."""
    state = _worked(game_target=15)
    state.apply("claim 14")
    assert state.returns() == [0, 11]
    assert _show_events(state)[-4:] == [
        ("overclaim", 0, 1, 9, 1), ("show_hand", 0, -1, 5, 0),
        ("penalty", 0, 0, -6, 0), ("penalty", 1, 0, 9, 0),
    ]  # fmt: skip
    state.apply("claim 10")  # seat 1 reaches 15 with his hand
    assert state.is_terminal and state.returns() == [0, 21]
    assert state.events()[-1].kind == "game_over"


def test_an_overclaim_that_wins_truly_is_not_false() -> None:
    state = _worked(game_target=6)  # seat 0 has 1; his hand of 5 wins
    state.apply("claim 20")
    assert state.is_terminal and state.returns() == [6, 2]
    assert ("overclaim", 0, 1, 15, 0) in _show_events(state)


def test_heuristic_claims_true_and_calls_every_underclaim() -> None:
    from pycards.bots import make_bot

    game = CribbageGame(CribbageRules.acc_muggins(), num_players=3)
    bot = make_bot("heuristic", seed=1)
    rng = random.Random(5)
    calls = claims = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        bot.reset(seed)
        while not state.is_terminal:
            if state.current_player == 1:
                action = bot.act(state.view(1))
                name = game.action_name(action)
                if state.observation(1).muggins_call:
                    assert name == "muggins"
                    calls += 1
                elif name.startswith("claim"):
                    claims += 1
                state.apply(action)
            else:
                state.apply(rng.choice(state.legal_actions()))
        for e in state.events():
            if e.kind == "claim" and e.player == 1:
                assert e.value == e.extra  # its true score
    assert calls > 3 and claims > 10


def test_muggins_sampler_keeps_the_show() -> None:
    """In a muggins show the samples agree with everything the observer
    knows: every hand, and once turned up, the crib; before it, the other
    discards are drawn from the unseen cards."""
    game = CribbageGame(CribbageRules(muggins=True), num_players=3)
    rng = random.Random(3)
    seen_show = seen_crib = 0
    for seed in range(20):
        state = game.new_initial_state(seed)
        while not state.is_terminal and (
            state.observation(0).claimant is None or state.observation(0).phase == 1
        ):
            state.apply(rng.choice(state.legal_actions()))
        while not state.is_terminal and state.observation(0).claimant is not None:
            me = state.observation(0)
            for k in range(5):
                sample = state.sample_infoset(0, 100 * seed + k)
                assert sample.observation(0) == me
                for q in range(3):
                    assert sample.observation(q).played == state.observation(q).played
                if me.crib_shown:
                    for q in range(3):
                        assert sample.observation(q).discards == state.observation(q).discards
            seen_show += 1
            seen_crib += bool(me.crib_shown)
            state.apply(rng.choice(state.legal_actions()))
    assert seen_show > 40 and seen_crib > 10


# ---------------------------------------------------------------------------
# four players: partners by the cut


def test_partners_by_the_cut() -> None:
    game = CribbageGame(num_players=4)
    orders = set()
    for seed in range(60):
        state = game.new_initial_state(seed)
        cuts = [e for e in state.events() if e.kind == "cut"]
        last = max(e.extra for e in cuts)
        final = sorted((Card(e.value).rank, e.player) for e in cuts if e.extra == last)
        ranks = [r for r, _ in final]
        assert ranks[0] < ranks[1] < ranks[2]  # no tie decides anything
        low = {final[0][1], final[1][1]}
        for r in range(1, last):  # every earlier round tied where it mattered
            tied = sorted(Card(e.value).rank for e in cuts if e.extra == r)
            assert tied[0] == tied[1] or tied[1] == tied[2]
        obs = state.observation(final[0][1])
        assert obs.dealer == final[0][1]  # the lowest deals
        assert obs.partner == final[1][1]
        for q in range(4):
            mate = state.observation(q).partner
            assert (q in low) == (mate in low) and mate != q
        partners = [(e.player, e.target, e.value) for e in state.events() if e.kind == "partners"]
        order = game.table_order(seed)
        assert partners == [(0, order[2], 0), (order[1], order[3], 1)]
        orders.add(order)
        # play passes round the table: the pone is the dealer's left
        assert state.current_player == order[(order.index(obs.dealer) + 1) % 4]
    assert len(orders) == 3  # every pairing occurs


def test_four_players_are_partners() -> None:
    for rules in (CribbageRules(), CribbageRules(partnership="seats")):
        game = CribbageGame(rules, num_players=4)
        rng = random.Random(2)
        state = game.new_initial_state(2)
        mate = state.observation(0).partner
        assert mate is not None
        if rules.partnership == "seats":
            assert mate == 2 and game.table_order() == (0, 1, 2, 3)
        others = tuple(q for q in (1, 2, 3) if q != mate)
        while not state.is_terminal:
            r = state.returns()
            assert r[0] == r[mate] and r[others[0]] == r[others[1]]
            state.apply(rng.choice(state.legal_actions()))
        result = game_result(state)
        assert result.winners in ((0, mate), others)


def test_stacked_deck_follows_the_table() -> None:
    game = CribbageGame(CribbageRules(first_dealer=1), num_players=4)
    seed = next(s for s in range(50) if game.table_order(s) != (0, 1, 2, 3))
    hands = ["AC 2C 3C 4C 5C", "AD 2D 3D 4D 5D", "AH 2H 3H 4H 5H", "AS 2S 3S 4S 5S"]
    with pytest.raises(ValueError, match="seed"):
        game.stacked_deck(hands, "KS")
    state = game.new_initial_state(seed, deck=game.stacked_deck(hands, "KS", seed=seed))
    for q in range(4):
        assert state.observation(q).hand == CardSet(hands[q])
    assert "partners: seats" in state.table(0)


def test_claims_need_the_muggins_rule() -> None:
    state = CribbageGame(num_players=2).new_initial_state(1)
    before = state.to_json()
    for name in ("claim 5", "muggins", "pass"):
        with pytest.raises(IllegalActionError, match="the muggins rule is not in play"):
            state.apply(name)
    assert state.to_json() == before
    assert all(a < 104 for a in state.legal_actions())


# ---------------------------------------------------------------------------
# muggins in the play (ACC rule 10): the points of each card and each go are
# claimed by the player who made them.  Dealer seat 1; seat 0 keeps
# 7H KH QH JH, seat 1 8S KS QS JS; the starter AD.

PLAY_HANDS = ["7H KH QH JH 2C 3C", "8S KS QS JS 4D 6D"]
PAIR_HANDS = ["KH 7H QH JH 2C 3C", "KS 8S QS JS 4D 6D"]


def _play_deal(hands: list[str], **rules: object) -> State:
    game = CribbageGame(CribbageRules(first_dealer=1, muggins=True, **rules), num_players=2)  # type: ignore[arg-type]
    state = game.new_initial_state(0, deck=game.stacked_deck(hands, "AD"))
    for name in ("discard 2C", "discard 3C", "discard 4D", "discard 6D"):
        state.apply(name)
    return state


def _claims(state: State) -> list[tuple[str, int, int, int, int]]:
    kinds = {"play", "last_card", "claim", "muggins", "no_muggins", "overclaim", "penalty"}
    return [
        (e.kind, e.player, e.target, int(e.value), e.extra)
        for e in state.events()
        if e.kind in kinds
    ]


def test_play_underclaimed_fifteen_is_mugged() -> None:
    state = _play_deal(PLAY_HANDS)
    state.apply("play 7H")
    state.apply("play 8S")  # fifteen: 2 for seat 1, who must claim them
    assert state.current_player == 1
    assert state.legal_action_names() == [f"claim {k}" for k in range(15)]
    obs = state.observation(0)
    assert obs.phase == 1 and obs.claimant == 1 and obs.muggins_call == 0 and obs.total == 15
    with pytest.raises(IllegalActionError, match="claim the points of the play first"):
        state.apply("play KS")
    with pytest.raises(IllegalActionError, match="more points than a card of the play"):
        state.apply("claim 15")
    assert state.returns() == [0, 0]
    state.apply("claim 0")  # overlooked
    assert state.current_player == 0 and state.legal_action_names() == ["muggins", "pass"]
    with pytest.raises(IllegalActionError, match="nothing is being claimed"):
        state.apply("claim 2")
    state.apply("muggins")
    assert state.returns() == [2, 0]
    assert state.current_player == 0
    assert state.legal_action_names() == ["play JH", "play QH", "play KH"]
    assert _claims(state)[-3:] == [
        ("play", 1, 15, Card.parse("8S"), 0), ("claim", 1, 2, 0, 2), ("muggins", 0, 1, 2, 2),
    ]  # fmt: skip


def test_play_pass_and_a_missed_go_point() -> None:
    state = _play_deal(PLAY_HANDS)
    for name in ("play 7H", "play 8S", "claim 1", "pass"):  # one short, let go
        state.apply(name)
    assert state.returns() == [0, 1]
    state.apply("play KH")  # 25: seat 1 and seat 0 say go; seat 0 has the go point
    assert state.current_player == 0
    assert state.legal_action_names() == [f"claim {k}" for k in range(15)]
    state.apply("claim 0")  # he forgets it
    state.apply("muggins")  # seat 1 takes it
    assert state.returns() == [0, 2]
    assert _claims(state)[2:] == [
        ("claim", 1, 2, 1, 2), ("no_muggins", 0, 1, 1, 2),
        ("play", 0, 25, Card.parse("KH"), 0), ("last_card", 0, 25, 0, 0),
        ("claim", 0, 3, 0, 1), ("muggins", 1, 0, 1, 3),
    ]  # fmt: skip
    # the new count: seat 1 leads
    assert state.current_player == 1 and state.observation(0).total == 0


def test_play_overclaimed_pair_is_corrected() -> None:
    state = _play_deal(PAIR_HANDS)
    state.apply("play KH")
    state.apply("play KS")  # a pair: 2
    state.apply("claim 4")  # two over: corrected (ACC 8.4), no call
    assert state.returns() == [0, 2]
    assert state.current_player == 0 and state.legal_action_names()[0].startswith("play")
    assert _claims(state)[-2:] == [("claim", 1, 2, 4, 2), ("overclaim", 1, 0, 2, 0)]
    # the older laws: the excess to the opponent
    state = _play_deal(PAIR_HANDS, overclaim="penalty")
    for name in ("play KH", "play KS", "claim 4"):
        state.apply(name)
    assert state.returns() == [2, 2]
    assert _claims(state)[-2:] == [("overclaim", 1, 0, 2, 2), ("penalty", 0, 1, 2, 0)]


def test_play_false_claim_of_game() -> None:
    """Game to 3: seat 1 claims 3 for a pair of 2: a false claim of game
    (ACC 8.4): he pegs 2, goes back 2 (not below 0), and seat 0 pegs the
    1 point overclaimed up to the game hole."""
    state = _play_deal(PAIR_HANDS, game_target=3)
    for name in ("play KH", "play KS", "claim 3"):
        state.apply(name)
    assert state.returns() == [1, 0] and not state.is_terminal
    assert _claims(state)[-3:] == [
        ("overclaim", 1, 0, 1, 1), ("penalty", 1, 1, -2, 0), ("penalty", 0, 1, 1, 0),
    ]  # fmt: skip


def test_true_play_claims_peg_what_the_engine_pegs() -> None:
    """The worked deal's play with three true go claims pegs what the engine
    pegs without muggins (seat 0 1, seat 1 2)."""
    events = _worked().events()
    assert [(e.player, e.target, e.value, e.extra) for e in events if e.kind == "claim"] == [
        (0, 3, 1, 1), (1, 3, 1, 1), (1, 3, 1, 1),
    ]  # fmt: skip
    _, state = dealt(CribbageRules(first_dealer=1), "AS", (WORKED[0], WORKED[1]))
    for name in WORKED_PLAY:
        if not name.startswith("claim"):
            state.apply(name)
    pegged = [0, 0]
    for e in state.events():
        if e.kind == "play":
            pegged[e.player] += e.extra
        elif e.kind == "last_card":
            pegged[e.player] += int(e.value)
    assert pegged == _worked().returns() == [1, 2]


@pytest.mark.parametrize(
    ("hands", "target", "overclaim", "names"),
    [
        (PLAY_HANDS, 121, 0, ["play 7H", "play 8S", "claim 0", "muggins", "play KH", "claim 0"]),
        (PLAY_HANDS, 121, 0, ["play 7H", "play 8S", "claim 1", "pass", "play KH", "claim 1"]),
        (PAIR_HANDS, 121, 0, ["play KH", "play KS", "claim 4", "play QH"]),
        (PAIR_HANDS, 121, 1, ["play KH", "play KS", "claim 4", "play QH"]),
        (PAIR_HANDS, 3, 0, ["play KH", "play KS", "claim 3"]),
    ],
)
def test_play_claims_match_the_reference(
    hands: list[str], target: int, overclaim: int, names: list[str]
) -> None:
    """The hand-computed play claims above, replayed on the reference."""
    from reference.cribbage import ChanceFromEngine, CribbageState

    from cardcore import _core

    game = CribbageGame(CribbageRules(first_dealer=1), num_players=2)
    deck = [int(c) for c in game.stacked_deck(hands, "AD")]
    params = [target, 0, 1, 1, overclaim, 0]
    a = _core.new_state("cribbage", params, 2, 0, deck)
    b = CribbageState(tuple(params), 2, 0, deck=deck, chance=ChanceFromEngine(a))
    view = CribbageGame(CribbageRules(first_dealer=1, muggins=True), num_players=2)
    for name in ["discard 2C", "discard 3C", "discard 4D", "discard 6D", *names]:
        action = view.action_from_name(name)
        assert a.apply(action) == 0
        assert b.apply(action) == 0
        _same(a, b, 2)
