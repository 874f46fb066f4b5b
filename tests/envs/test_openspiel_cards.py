"""The OpenSpiel side of the agreement runs (``reference.openspiel_cards``),
checked against pyspiel alone: every id of the mapping against OpenSpiel's own
action names, deals and moves round-tripped through OpenSpiel's histories,
each rule of the module's table (labels H1..G3) on hand-built deals or
against a plain scorer of the neutral trajectory, and :func:`compare`
finding agreement where there is some and the first difference where there
is not."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from reference.openspiel_cards import (  # noqa: E402
    GAMES,
    NO_CARD,
    SUIT_CHARS,
    Card,
    Deal,
    Decision,
    Move,
    OpenSpielDriver,
    Trajectory,
    card_id,
    cards,
    compare,
    deal_from_history,
    deck,
    from_pycards_id,
    go_fish_hands,
    move_from_id,
    play_deal,
    pycards_id,
    random_deal,
    random_policy,
)

#: each game at its defaults and at other parameters
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("hearts", {}),
    ("hearts", {"pass_cards": False, "jd_bonus": True, "avoid_all_tricks_bonus": True}),
    ("hearts", {"can_lead_any_club": True, "no_pts_on_first_trick": False}),
    ("hearts", {"must_break_hearts": False, "qs_breaks_hearts": False}),
    ("hearts", {"can_lead_hearts_instead_of_qs": True}),
    ("oh_hell", {}),
    ("oh_hell", {"players": 5, "off_bid_penalty": True, "points_per_trick": 2}),
    ("oh_hell", {"players": 4, "num_suits": 3, "num_cards_per_suit": 7}),
    ("oh_hell", {"players": 7, "num_tricks_fixed": 3}),
    ("spades", {}),
    ("euchre", {}),
    ("euchre", {"allow_lone_defender": True, "stick_the_dealer": False}),
    ("go_fish", {}),
    ("go_fish", {"players": 3, "ask_after_empty_draw": False}),
    ("go_fish", {"players": 3, "ranks": 6, "suits": 3, "end_on_first_out": True}),
]

RANK_TEXT = "23456789TJQKA"


def scripted(moves: Sequence[str], then: int = 0) -> Any:
    """A policy making the moves named by ``moves`` (``str(move)``), in order,
    then random ones from seed ``then``."""
    queue = list(moves)
    rest = random_policy(then)

    def choose(d: Decision) -> Move:
        if queue:
            name = queue.pop(0)
            found = [m for m in d.legal if str(m) == name]
            assert found, f"{name} not legal at {d}"
            return found[0]
        return rest(d)

    return choose


# ---------------------------------------------------------------------------
# the mapping against OpenSpiel's own names


def expected_name(game: str, phase: str, move: Move) -> str:
    """OpenSpiel's name of ``move``, written from its games' formats."""
    if move.card != NO_CARD:
        r, s = RANK_TEXT[move.card.rank - 2], SUIT_CHARS[move.card.suit]
        return r + s if game == "hearts" else s + r
    if move.kind == "bid":
        return "Nil" if game == "spades" and move.number == 0 else str(move.number)
    if move.kind == "ask":
        return f"{move.seat}{'abcdefghijklm'[move.number - 2]}"
    if move.kind == "trump":
        return ("Clubs", "Diamonds", "Hearts", "Spades")[move.number]
    return {"pass": "Pass", "alone": "Alone", "partner": "Partner"}[move.kind]


@pytest.mark.parametrize(("game", "params"), CONFIGS)
def test_every_move_s_id_is_openspiel_s_action_of_that_name(
    game: str, params: dict[str, Any]
) -> None:
    driver = OpenSpielDriver(game, params)
    seen: set[tuple[str, int]] = set()
    for seed in range(40):
        st = driver.start(random_deal(game, params, seed))
        rng = random.Random(seed)
        while driver.to_move(st) >= 0:
            d = driver.decision(st)
            for m in d.legal:
                a = move_from_id(game, d.phase, _id(driver, m), params)
                assert a == m
                name = st.state.action_to_string(d.seat, _id(driver, m))
                assert name == expected_name(game, d.phase, m), (d.phase, m)
                seen.add((d.phase, _id(driver, m)))
            driver.apply(st, d.legal[rng.randrange(len(d.legal))])
    # every card was played at some point, in every game
    played = {a for phase, a in seen if phase == "play"}
    if game != "go_fish":
        assert played == {card_id(game, c, params) for c in deck(game, params)}


def _id(driver: OpenSpielDriver, move: Move) -> int:
    from reference.openspiel_cards import move_id

    return move_id(driver.name, move, driver.params)


@pytest.mark.parametrize(("game", "params"), CONFIGS)
def test_card_ids_are_the_chance_outcomes_of_the_same_names(
    game: str, params: dict[str, Any]
) -> None:
    # the deal's chance node names each card as OpenSpiel's moves do (Go
    # Fish: the rank's letter); the ids cover 0..n-1 once each
    state = pyspiel.load_game(game, params).new_initial_state()
    for _ in range({"hearts": 1, "oh_hell": 2, "euchre": 1}.get(game, 0)):
        state.apply_action(state.legal_actions()[0])
    ids = {card_id(game, c, params) for c in deck(game, params)}
    if game == "go_fish":
        assert ids == set(range(params.get("ranks", 13)))
        for c in deck(game, params):
            assert (
                state.action_to_string(-1, card_id(game, c, params)) == "abcdefghijklm"[c.rank - 2]
            )
        return
    assert ids == set(range(len(deck(game, params))))
    for c in deck(game, params):
        a = card_id(game, c, params)
        assert a in state.legal_actions()
        assert state.action_to_string(-1, a) == expected_name(game, "play", Move("play", c))


def test_pycards_ids() -> None:
    from pycards.cards import Card as PycardsCard

    ids = [pycards_id(c) for c in deck("hearts")]
    assert sorted(ids) == list(range(52))
    for c in deck("hearts"):
        assert pycards_id(c) == int(PycardsCard.parse(str(c)))
        assert from_pycards_id(pycards_id(c)) == c
    with pytest.raises(ValueError, match="52"):
        from_pycards_id(52)


def test_openspiel_has_these_games_and_no_whist() -> None:
    names = pyspiel.registered_names()
    assert set(GAMES) <= set(names)
    assert not [n for n in names if "whist" in n.lower()]


def test_the_neutral_cards() -> None:
    assert str(Card(12, 3)) == "QS" and Card.parse("td") == Card(10, 1)
    assert cards("2C AS") == (Card(2, 0), Card(14, 3))
    assert deck("euchre")[:4] == list(cards("9C 9D 9H 9S"))
    assert len(deck("oh_hell", {"num_suits": 2, "num_cards_per_suit": 3})) == 6
    # Oh Hell's first two suits are clubs and diamonds, then spades, hearts
    assert {c.suit for c in deck("oh_hell", {"num_suits": 3})} == {0, 1, 3}
    assert str(Move("ask", number=14, seat=2)) == "ask 2 for A"
    assert str(Move("trump", number=2)) == "trump H"


# ---------------------------------------------------------------------------
# round trips through OpenSpiel's own histories


def native_game(game: str, params: dict[str, Any], seed: int) -> tuple[Any, list[bool]]:
    """A game played by OpenSpiel alone, chance and moves uniform from
    ``seed``: the final state and, per history entry, whether chance made it."""
    rng = random.Random(seed)
    state = pyspiel.load_game(game, params).new_initial_state()
    by_chance = []
    while not state.is_terminal():
        by_chance.append(state.is_chance_node())
        if state.is_chance_node():
            # (Hearts without passing still lists every pass direction as an
            # outcome, but only "no pass" as legal: see H1)
            legal = set(state.legal_actions())
            actions, probs = zip(
                *[(a, p) for a, p in state.chance_outcomes() if a in legal], strict=True
            )
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
    return state, by_chance


def go_fish_deal(params: dict[str, Any], state: Any, by_chance: list[bool]) -> Deal:
    """Go Fish's neutral deal of a native game: copies of the ranks as the
    chance outcomes came (hands, then the draws, then the rest)."""
    players = params.get("players", 2)
    unused = {r: [c for c in deck("go_fish", params) if c.rank == r] for r in range(2, 15)}
    drawn = [
        unused[2 + a].pop() for a, chance in zip(state.history(), by_chance, strict=True) if chance
    ]
    rest = [c for r in sorted(unused) for c in unused[r]]
    hands = go_fish_hands(params, players, drawn + rest)
    used = sum(len(h) for h in hands)
    return Deal(hands=tuple(tuple(h) for h in hands), stock=tuple(drawn[used:] + rest))


@pytest.mark.parametrize(("game", "params"), CONFIGS)
def test_a_native_game_replays_move_for_move_through_the_neutral_terms(
    game: str, params: dict[str, Any]
) -> None:
    for seed in range(60 if game in ("hearts", "go_fish") else 150):
        state, by_chance = native_game(game, params, seed)
        history = state.history()
        if game == "go_fish":
            deal = go_fish_deal(params, state, by_chance)
        else:
            deal = deal_from_history(game, params, history)
        player_actions = [a for a, chance in zip(history, by_chance, strict=True) if not chance]
        replay = iter(player_actions)

        def again(d: Decision, replay: Any = replay) -> Move:
            m = move_from_id(game, d.phase, next(replay), params)
            assert m in d.legal
            return m

        traj = play_deal(game, params, deal, again)
        assert traj.history == history
        assert traj.final_string == str(state)
        assert traj.returns == tuple(state.returns())
        assert len(traj.steps) == len(player_actions)


@pytest.mark.parametrize(("game", "params"), CONFIGS)
def test_a_random_deal_is_dealt_as_given(game: str, params: dict[str, Any]) -> None:
    for seed in range(20):
        deal = random_deal(game, params, seed)
        assert deal == random_deal(game, params, seed)
        if game != "go_fish":
            driver = OpenSpielDriver(game, params)
            st = driver.start(deal)
            assert deal_from_history(game, params, st.state.history()) == deal
        every = [c for h in deal.hands for c in h] + list(deal.stock)
        every += [deal.upcard] if deal.upcard is not None else []
        assert len(set(every)) == len(every)
    assert random_deal(game, params, 1) != random_deal(game, params, 2)


@pytest.mark.parametrize(
    ("game", "deal", "match"),
    [
        ("hearts", Deal(hands=(tuple(deck("hearts")[:13]),) * 4, pass_direction=1), "repeated"),
        ("spades", Deal(hands=(cards("2C"),) * 3), "3 hands for 4 seats"),
        ("euchre", Deal(hands=(cards("9C"), cards("9D"), cards("9H"), cards("9S"))), "dealer"),
        (
            "oh_hell",
            Deal(hands=(cards("2C 3C"), cards("4C"), cards("5C")), dealer=0, upcard=Card(6, 0)),
            "sizes",
        ),
        (
            "oh_hell",
            Deal(hands=(cards("2C"), cards("4C"), cards("5C")), dealer=3, upcard=Card(6, 0)),
            "no seat",
        ),
        (
            "go_fish",
            Deal(hands=(tuple(deck("go_fish")[:7]), tuple(deck("go_fish")[7:14]))),
            "whole",
        ),
    ],
)
def test_a_deal_the_game_cannot_have_is_refused(game: str, deal: Deal, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        OpenSpielDriver(game).start(deal)


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    driver = OpenSpielDriver("spades")
    st = driver.start(random_deal("spades", {}, 0))
    before = str(st.state)
    with pytest.raises(ValueError, match="not legal"):
        driver.apply(st, Move("play", Card(2, 0)))
    assert str(st.state) == before


# ---------------------------------------------------------------------------
# the rules table: each label against pyspiel


def tricks(traj: Trajectory, players: int) -> list[tuple[int, list[Card]]]:
    """The tricks of a trajectory as (leader, cards), ``players`` cards each."""
    plays = [(s.seat, s.move.card) for s in traj.steps if s.move.kind == "play"]
    return [
        (plays[k][0], [c for _, c in plays[k : k + players]]) for k in range(0, len(plays), players)
    ]


def trick_winner(leader: int, played: list[Card], trump: int, seats: list[int]) -> int:
    """The seat winning a trick (highest trump, else highest of the led
    suit), ``seats`` the seats in the order they played."""
    led = played[0].suit
    best = max(
        range(len(played)),
        key=lambda i: (played[i].suit == trump, played[i].suit == led, played[i].rank),
    )
    return seats[best]


def test_h1_pass_direction_is_the_deal_s_chance_outcome() -> None:
    for direction in range(4):
        deal = random_deal("hearts", {}, 7)
        deal = Deal(hands=deal.hands, pass_direction=direction)
        traj = play_deal("hearts", {}, deal, random_policy(direction))
        passes = [s for s in traj.steps if s.phase == "pass"]
        assert len(passes) == (0 if direction == 0 else 12)
        assert [s.seat for s in passes] == sorted([0, 1, 2, 3] * 3) * (direction > 0)
        played_by = {s.move.card: s.seat for s in traj.steps if s.phase == "play"}
        for s in passes:
            assert played_by[s.move.card] == (s.seat + direction) % 4
    # without passing, "no pass" is the one legal outcome, though
    # chance_outcomes() still lists all four
    state = pyspiel.load_game("hearts", {"pass_cards": False}).new_initial_state()
    assert state.legal_actions() == [0] and len(state.chance_outcomes()) == 4
    state.apply_action(2)  # accepted, and then the seats pass across
    for a in range(52):
        state.apply_action(a)
    assert state.current_player() == 0 and str(state).startswith("Pass Direction: Across")
    with pytest.raises(ValueError, match="chance outcome 1"):
        OpenSpielDriver("hearts", {"pass_cards": False}).start(
            Deal(hands=random_deal("hearts", {}, 1).hands, pass_direction=1)
        )


def test_h2_two_of_clubs_leads_and_no_points_on_the_first_trick() -> None:
    deal = Deal(
        hands=(
            cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
            cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AD"),
            cards("QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"),
            cards("AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"),
        ),
        pass_direction=0,
    )
    traj = play_deal("hearts", {}, deal, random_policy(0))
    first = traj.steps[:4]
    assert first[0].legal == (Move("play", Card(2, 0)),)
    # seat 1 is void in clubs: only its diamond, not its hearts
    assert first[1].legal == (Move("play", Card(14, 1)),)
    # seat 2: any diamond but not QS; seat 3: spades, not AH
    assert Move("play", Card(12, 3)) not in first[2].legal and len(first[2].legal) == 12
    assert {m.card.suit for m in first[3].legal} == {3}
    traj = play_deal("hearts", {"can_lead_any_club": True}, deal, random_policy(0))
    assert len(traj.steps[0].legal) == 13


def hearts_hands(deal: Deal, traj: Trajectory) -> list[set[Card]]:
    """Each seat's hand after the passes of ``traj``."""
    hands = [set(h) for h in deal.hands]
    assert deal.pass_direction is not None
    for s in traj.steps:
        if s.phase == "pass":
            hands[s.seat].discard(s.move.card)
            hands[(s.seat + deal.pass_direction) % 4].add(s.move.card)
    return hands


@pytest.mark.parametrize("queen_breaks", [True, False])
def test_h3_hearts_lead_only_once_broken_and_the_queen_breaks_them(queen_breaks: bool) -> None:
    params = {"qs_breaks_hearts": queen_breaks}
    checked = {False: 0, True: 0}
    for seed in range(80):
        deal = random_deal("hearts", params, seed)
        traj = play_deal("hearts", params, deal, random_policy(seed))
        hands = hearts_hands(deal, traj)
        broken = False
        plays = [s for s in traj.steps if s.phase == "play"]
        for k, s in enumerate(plays):
            if k % 4 == 0 and k > 0:
                hand = hands[s.seat]
                others = {c for c in hand if c.suit != 2}
                expect = hand if broken or not others else others
                assert {m.card for m in s.legal} == expect
                checked[broken and bool(others) and len(others) < len(hand)] += 1
            hands[s.seat].discard(s.move.card)
            broken |= s.move.card.suit == 2 or (queen_breaks and s.move.card == Card(12, 3))
    # both cases came up: leads before hearts are broken, and after, from
    # hands holding hearts and other suits
    assert checked[False] > 300 and checked[True] > 100


def hearts_points(traj: Trajectory, jd: bool, avoid: bool) -> list[int]:
    """Hearts' points of a trajectory, from the rules of H4."""
    points, taken = [0] * 4, [0] * 4
    point_tricks = []
    for leader, played in tricks(traj, 4):
        seats = [(leader + i) % 4 for i in range(4)]
        w = trick_winner(leader, played, -1, seats)
        p = sum(1 for c in played if c.suit == 2) + 13 * (Card(12, 3) in played)
        p -= 10 * (jd and Card(11, 1) in played)
        points[w] += p
        taken[w] += 1
        if p not in (0, -10):
            point_tricks.append(w)
    moon = len(set(point_tricks)) == 1
    if moon:
        points = [p - 26 if s == point_tricks[0] else p + 26 for s, p in enumerate(points)]
    if avoid and not moon:
        points = [p - 5 * (taken[s] == 0) for s, p in enumerate(points)]
    return points


@pytest.mark.parametrize(
    "params", [{}, {"jd_bonus": True}, {"jd_bonus": True, "avoid_all_tricks_bonus": True}]
)
def test_h4_hearts_scoring(params: dict[str, Any]) -> None:
    jd, avoid = params.get("jd_bonus", False), params.get("avoid_all_tricks_bonus", False)
    for seed in range(150):
        traj = play_deal("hearts", params, random_deal("hearts", params, seed), random_policy(seed))
        points = hearts_points(traj, jd, avoid)
        assert traj.returns == tuple(26.0 - p for p in points)
        assert traj.scores == tuple(float(p) for p in points)


def test_h4_shooting_the_moon() -> None:
    # seat 0 holds every club: it leads them all and takes every trick
    deal = Deal(
        hands=(
            cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
            cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AD"),
            cards("QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"),
            cards("AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"),
        ),
        pass_direction=0,
    )
    assert play_deal("hearts", {}, deal, random_policy(1)).returns == (26.0, 0.0, 0.0, 0.0)
    # with the jack of diamonds: 26 - 10 taken, the moon takes 26 off: -10 points
    jd = play_deal("hearts", {"jd_bonus": True}, deal, random_policy(1))
    assert jd.returns == (36.0, 0.0, 0.0, 0.0) and jd.scores == (-10.0, 26.0, 26.0, 26.0)


def test_o1_number_of_tricks_and_dealer_are_chance_outcomes() -> None:
    state = pyspiel.load_game("oh_hell").new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == list(range(1, 18))
    state.apply_action(5)
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2]
    game = pyspiel.load_game("oh_hell", {"players": 7})
    assert game.new_initial_state().legal_actions() == list(range(1, 8))
    fixed = pyspiel.load_game("oh_hell", {"num_tricks_fixed": 4}).new_initial_state()
    assert fixed.legal_actions() == [4]


def test_o2_trump_card_first_bidder_and_the_hook() -> None:
    deal = Deal(hands=(cards("AS"), cards("2C"), cards("3C")), dealer=0, upcard=Card(4, 1))
    traj = play_deal("oh_hell", {}, deal, scripted(["bid 0", "bid 1"]))
    assert [s.seat for s in traj.steps] == [1, 2, 0, 1, 2, 0]
    # the dealer bids last and may not make the bids add up to 1
    assert traj.steps[2].legal == (Move("bid", number=1),)
    # 2C led, 3C follows, AS is no trump (diamonds are): seat 2 wins
    assert traj.returns == (0.0, 10.0, 11.0)
    trumped = Deal(hands=(cards("2D"), cards("2C"), cards("3C")), dealer=0, upcard=Card(4, 1))
    # the dealer's 2D trumps: it makes its forced bid of 1
    assert play_deal("oh_hell", {}, trumped, scripted(["bid 0", "bid 1"])).returns == (
        11.0,
        10.0,
        0.0,
    )
    penalty = play_deal("oh_hell", {"off_bid_penalty": True}, deal, scripted(["bid 0", "bid 1"]))
    assert penalty.returns == (-1.0, 10.0, 11.0)


@pytest.mark.parametrize(
    "params", [{}, {"players": 5, "off_bid_penalty": True, "points_per_trick": 3}]
)
def test_o3_oh_hell_following_and_scoring(params: dict[str, Any]) -> None:
    n = params.get("players", 3)
    per, penalty = params.get("points_per_trick", 1), params.get("off_bid_penalty", False)
    for seed in range(200):
        deal = random_deal("oh_hell", params, seed)
        traj = play_deal("oh_hell", params, deal, random_policy(seed))
        assert deal.upcard is not None and deal.dealer is not None
        bids = {s.seat: s.move.number for s in traj.steps if s.move.kind == "bid"}
        assert traj.steps[0].seat == (deal.dealer + 1) % n
        won = [0] * n
        hands = {s: set(h) for s, h in enumerate(deal.hands)}
        for leader, played in tricks(traj, n):
            seats = [(leader + i) % n for i in range(n)]
            for seat, c in zip(seats, played, strict=True):
                follows = {x for x in hands[seat] if x.suit == played[0].suit}
                assert c in follows or not follows
                hands[seat].discard(c)
            won[trick_winner(leader, played, deal.upcard.suit, seats)] += 1
        for s in range(n):
            made = won[s] == bids[s]
            expect = (
                per * won[s] + 10 * made if made or not penalty else -per * abs(won[s] - bids[s])
            )
            assert traj.returns[s] == expect


def spades_score(traj: Trajectory) -> list[int]:
    """The partnerships' scores of S3, from a neutral trajectory."""
    bids = {s.seat: s.move.number for s in traj.steps if s.move.kind == "bid"}
    won = [0] * 4
    for leader, played in tricks(traj, 4):
        won[trick_winner(leader, played, 3, [(leader + i) % 4 for i in range(4)])] += 1
    out = []
    for p in (0, 1):
        contract, taken = bids[p] + bids[p + 2], won[p] + won[p + 2]
        score = sum((-100 if won[s] else 100) for s in (p, p + 2) if bids[s] == 0)
        if taken < contract:
            score -= 10 * contract
        else:
            bags = taken - contract
            score += 10 * contract + bags - 100 * (bags // 10)
        out.append(score)
    return out


def test_s1_s3_spades_bidding_and_scoring() -> None:
    for seed in range(250):
        deal = random_deal("spades", {}, seed)
        traj = play_deal("spades", {}, deal, random_policy(seed))
        bids = traj.steps[:4]
        assert [s.seat for s in bids] == [0, 1, 2, 3] and traj.steps[4].seat == 0
        for s in bids[2:]:
            partner = bids[s.seat - 2].move.number
            assert {m.number for m in s.legal} == set(range(14 - partner))
        score = spades_score(traj)
        assert traj.returns == (score[0], score[1], score[0], score[1])


def test_s2_spades_are_never_broken() -> None:
    found = 0
    for seed in range(120):
        deal = random_deal("spades", {}, seed)
        traj = play_deal("spades", {}, deal, random_policy(seed))
        hands = {s: set(h) for s, h in enumerate(deal.hands)}
        plays = [s for s in traj.steps if s.move.kind == "play"]
        spade_played = False
        for k, step in enumerate(plays):
            if k % 4 == 0:
                others = {c for c in hands[step.seat] if c.suit != 3}
                legal = {m.card for m in step.legal}
                assert legal == (others or hands[step.seat])
                found += (
                    spade_played and bool(others) and any(c.suit == 3 for c in hands[step.seat])
                )
            spade_played |= step.move.card.suit == 3
            hands[step.seat].discard(step.move.card)
    assert found > 100  # leads after a spade was played, from hands with spades


SPADES_DEAL = Deal(
    hands=(
        cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),
        cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
        cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
        cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
    )
)


def test_s3_bags_and_nil_on_a_hand_built_deal() -> None:
    # seat 0 takes all 13: bid 1 with a nil partner: 10 + 12 bags - 100 + 100
    traj = play_deal("spades", {}, SPADES_DEAL, scripted(["bid 1", "bid 0", "bid 0", "bid 0"]))
    assert [s.move.number for s in traj.steps[:4]] == [1, 0, 0, 0]
    assert traj.returns == (22.0, 200.0, 22.0, 200.0)
    traj = play_deal("spades", {}, SPADES_DEAL, scripted(["bid 3", "bid 2", "bid 4", "bid 11"]))
    # 7 bid, 13 taken: 70 + 6 bags; the other side fails 13 with 0 tricks
    assert traj.returns == (76.0, -130.0, 76.0, -130.0)


def test_s4_game_end_thresholds_compare_the_deal_s_score() -> None:
    def policy() -> Any:
        return scripted(["bid 3", "bid 2", "bid 4", "bid 11"])

    assert play_deal("spades", {}, SPADES_DEAL, policy()).returns == (76.0, -130.0, 76.0, -130.0)
    won = play_deal("spades", {"win_threshold": 50}, SPADES_DEAL, policy())
    assert won.returns == (276.0, -130.0, 276.0, -130.0)
    # the mercy rule applies whatever use_mercy_rule says (it is never read)
    for use in (True, False):
        params = {"mercy_threshold": -100, "use_mercy_rule": use}
        lost = play_deal("spades", params, SPADES_DEAL, policy())
        assert lost.returns == (76.0, -330.0, 76.0, -330.0)


def test_e1_euchre_deal_the_dealer_and_the_upcard() -> None:
    for seed in range(20):
        deal = random_deal("euchre", {}, seed)
        assert deal.dealer is not None and deal.upcard is not None
        driver = OpenSpielDriver("euchre")
        st = driver.start(deal)
        assert st.state.history()[1] in {card_id("euchre", c) for c in deal.hands[deal.dealer]}
        for seat in range(4):
            # "Dealer: S\nUpcard: CQ\nHand:\nS K\nH KT\nD A\nC J\n"
            text = st.state.information_state_string(seat).split("\n")
            assert text[0] == f"Dealer: {'NESW'[deal.dealer]}"
            assert text[1] == f"Upcard: {SUIT_CHARS[deal.upcard.suit]}{str(deal.upcard)[0]}"
            held = {
                Card.parse(r + line[0]) for line in text[3:7] for r in line[2:] if r in "9TJQKA"
            }
            assert held == set(deal.hands[seat])
        assert driver.to_move(st) == (deal.dealer + 1) % 4


def test_e2_bidding_rounds_and_stick_the_dealer() -> None:
    deal = random_deal("euchre", {}, 11)
    assert deal.upcard is not None and deal.dealer is not None
    up = deal.upcard.suit
    traj = play_deal("euchre", {}, deal, scripted(["pass"] * 7))
    first, second, last = traj.steps[0], traj.steps[4], traj.steps[7]
    assert first.legal == (Move("pass"), Move("trump", number=up))
    assert second.legal == tuple(
        [Move("pass")] + [Move("trump", number=s) for s in range(4) if s != up]
    )
    assert last.seat == deal.dealer and Move("pass") not in last.legal
    free = play_deal("euchre", {"stick_the_dealer": False}, deal, scripted(["pass"] * 8))
    assert len(free.steps) == 8 and free.returns == (0.0, 0.0, 0.0, 0.0)
    # ordered up: the dealer takes the upcard and discards one of its 5 others
    traj = play_deal("euchre", {}, deal, scripted([f"trump {SUIT_CHARS[up]}"]))
    discard = traj.steps[1]
    assert discard.seat == deal.dealer and discard.phase == "discard"
    assert {m.card for m in discard.legal} == set(deal.hands[deal.dealer])
    assert deal.upcard not in {m.card for m in discard.legal}
    played = {s.move.card for s in traj.steps if s.seat == deal.dealer and s.phase == "play"}
    assert played | {discard.move.card} == set(deal.hands[deal.dealer]) | {deal.upcard}


def test_e3_e4_a_lone_march_and_the_left_bower() -> None:
    # seat 1 holds the top five hearts; the upcard TH is ordered up
    deal = Deal(
        hands=(
            cards("9C TC JC QC KC"),
            cards("JH JD AH KH QH"),
            cards("9S TS JS QS KS"),
            cards("9D TD QD KD AD"),
        ),
        dealer=0,
        upcard=Card.parse("TH"),
    )
    traj = play_deal("euchre", {}, deal, scripted(["trump H", "discard 9C", "alone"], 3))
    plays = [s for s in traj.steps if s.phase == "play"]
    assert len(plays) == 15 and all(s.seat != 3 for s in plays) and plays[0].seat == 1
    assert traj.returns == (-4.0, 4.0, -4.0, 4.0)
    with_partner = play_deal("euchre", {}, deal, scripted(["trump H", "discard 9C", "partner"], 3))
    assert with_partner.returns == (-2.0, 2.0, -2.0, 2.0)


def euchre_suit(card: Card, trump: int) -> int:
    """A euchre card's suit when ``trump`` is trump (the left bower's is trump)."""
    left = {0: 3, 3: 0, 1: 2, 2: 1}[trump]
    return trump if card.rank == 11 and card.suit == left else card.suit


def euchre_winner(leader: int, played: list[Card], trump: int, seats: list[int]) -> int:
    """The seat winning a euchre trick (the bowers are the top trumps)."""
    left = {0: 3, 3: 0, 1: 2, 2: 1}[trump]

    def suit(c: Card) -> int:
        return euchre_suit(c, trump)

    def power(c: Card) -> tuple[int, int]:
        if c.rank == 11 and c.suit == trump:
            return (2, 20)
        if c.rank == 11 and c.suit == left:
            return (2, 19)
        return (2 if suit(c) == trump else 1 if suit(c) == suit(played[0]) else 0, c.rank)

    return seats[max(range(len(played)), key=lambda i: power(played[i]))]


@pytest.mark.parametrize("params", [{}, {"allow_lone_defender": True}])
def test_e3_e4_euchre_following_and_scoring(params: dict[str, Any]) -> None:
    scores = set()
    for seed in range(300):
        deal = random_deal("euchre", params, seed)
        traj = play_deal("euchre", params, deal, random_policy(seed))
        calls = [s for s in traj.steps if s.move.kind == "trump"]
        maker, trump = calls[0].seat, calls[0].move.number
        alone = {s.seat for s in traj.steps if s.move.kind == "alone"}
        out = {(s + 2) % 4 for s in alone}
        seats_in = [s for s in range(4) if s not in out]
        plays = [s for s in traj.steps if s.phase == "play"]
        n = len(seats_in)
        hands = {s: set(h) for s, h in enumerate(deal.hands)}
        for s in traj.steps:
            if s.phase == "discard":
                assert deal.upcard is not None
                hands[s.seat] = hands[s.seat] - {s.move.card} | {deal.upcard}
        for k, s in enumerate(plays):
            if k % n:
                led = euchre_suit(plays[k - k % n].move.card, trump)
                follows = {c for c in hands[s.seat] if euchre_suit(c, trump) == led}
                assert {m.card for m in s.legal} == (follows or hands[s.seat])
            hands[s.seat].discard(s.move.card)
        assert deal.dealer is not None
        assert plays[0].seat == next(
            (deal.dealer + i) % 4 for i in range(1, 5) if (deal.dealer + i) % 4 in seats_in
        )
        won = [0] * 4
        for k in range(0, len(plays), n):
            played = [s.move.card for s in plays[k : k + n]]
            won[euchre_winner(0, played, trump, [s.seat for s in plays[k : k + n]])] += 1
        makers = won[maker] + won[(maker + 2) % 4]
        lone_defender = bool(alone - {maker})
        if makers <= 2:
            score = -4 if lone_defender else -2
        elif makers <= 4:
            score = 1
        else:
            score = 4 if maker in alone else 2
        expect = tuple(float(score if s % 2 == maker % 2 else -score) for s in range(4))
        assert traj.returns == expect
        scores.add(score)
    # every score came up (-4 needs a lone defender)
    assert scores == ({-4} if params else set()) | {-2, 1, 2, 4}


def test_g1_g2_g3_go_fish_asks_draws_books_and_returns() -> None:
    params = {"ranks": 2, "suits": 2, "initial_cards": 1}
    deal = Deal(hands=(cards("2C"), cards("3C")), stock=cards("2D 3D"))
    traj = play_deal("go_fish", params, deal, random_policy(0))
    # seat 0 fishes the 2 it asked for (a book, the turn goes on), has no card,
    # draws 3D and asks again: two books to none
    assert [str(s.move) for s in traj.steps] == ["ask 1 for 2", "ask 1 for 3"]
    assert [s.seat for s in traj.steps] == [0, 0]
    assert traj.returns == (1.0, -1.0)
    no_ask = dict(params, ask_after_empty_draw=False)
    traj = play_deal("go_fish", no_ask, deal, random_policy(0))
    assert [(s.seat, str(s.move)) for s in traj.steps] == [(0, "ask 1 for 2"), (1, "ask 0 for 3")]
    assert traj.returns == (0.0, 0.0)
    # a miss passes the turn: seat 0 asks for 2, draws a 3
    miss = Deal(hands=(cards("2C"), cards("3C")), stock=cards("3D 2D"))
    traj = play_deal("go_fish", params, miss, random_policy(0))
    assert [s.seat for s in traj.steps][:2] == [0, 1]


def test_g2_a_book_in_the_deal_is_scored_and_its_seat_dealt_more() -> None:
    four = cards("2C 2D 2H 2S")
    rest = [c for c in deck("go_fish") if c not in four]
    random.Random(5).shuffle(rest)
    deal = random_deal("go_fish", {}, 0)
    assert [len(h) for h in deal.hands] == [7, 7]
    hands = go_fish_hands({}, 2, list(four) + rest)
    assert [len(h) for h in hands] == [11, 7] and hands[0][:4] == list(four)
    booked = Deal(hands=(tuple(hands[0]), tuple(hands[1])), stock=tuple(rest[14:]))
    st = OpenSpielDriver("go_fish").start(booked)
    lines = str(st.state).split("\n")
    assert lines[2].endswith(":1") and lines[3].endswith(":0")
    assert "a" not in lines[2].split(":")[0]  # the 2s are gone from seat 0's hand
    with pytest.raises(ValueError, match="the hands would be"):
        OpenSpielDriver("go_fish").start(
            Deal(
                hands=(tuple(hands[0][:7]), tuple(hands[1])),
                stock=tuple(hands[0][7:]) + tuple(rest[14:]),
            )
        )


def test_g1_go_fish_defaults() -> None:
    deal = random_deal("go_fish", {}, 0)
    assert [len(h) for h in deal.hands] == [7, 7] and len(deal.stock) == 38
    assert [len(h) for h in random_deal("go_fish", {"players": 3}, 0).hands] == [5, 5, 5]
    d = OpenSpielDriver("go_fish").decision(OpenSpielDriver("go_fish").start(deal))
    assert d.seat == 0
    assert {m.number for m in d.legal} == {c.rank for c in deal.hands[0]}
    assert {m.seat for m in d.legal} == {1}


def test_g3_the_most_books_share_the_win() -> None:
    for seed in range(100):
        for players in (2, 3):
            params = {"players": players}
            traj = play_deal(
                "go_fish", params, random_deal("go_fish", params, seed), random_policy(seed)
            )
            r = traj.returns
            assert abs(sum(r)) < 1e-9
            top = [s for s in range(players) if r[s] == max(r)]
            if len(top) < players:
                assert all(abs(r[s] - 1 / len(top)) < 1e-9 for s in top)


# ---------------------------------------------------------------------------
# the agreement loop


@pytest.mark.parametrize("game", GAMES)
def test_compare_agrees_with_openspiel_itself(game: str) -> None:
    deals = [random_deal(game, {}, s) for s in range(15)]
    assert compare(OpenSpielDriver(game), game, deals, seed=3) is None


class WrongLegal(OpenSpielDriver):
    """OpenSpiel's Hearts, but a leader may lead a heart before hearts are
    broken (from the second trick)."""

    def legal_moves(self, st: Any) -> list[Move]:
        legal = super().legal_moves(st)
        history = st.state.history()
        plays = len(history) - 53 - (12 if history[0] else 0)
        if self.phase(st) == "play" and plays >= 4 and plays % 4 == 0:
            held = _hand_text(st.state, self.to_move(st)).split()
            legal = sorted(set(legal) | {Move("play", Card.parse(c)) for c in held if c[1] == "H"})
        return legal


def _hand_text(state: Any, seat: int) -> str:
    """The cards ``seat`` holds, read from its information state string."""
    text = state.information_state_string(seat)
    lines = text.split("Hand: \n")[1].split("\n")[:4]
    out = []
    for line in lines:
        suit, ranks = line[0], line[2:]
        out += [r + suit for r in ranks if r in RANK_TEXT]
    return " ".join(out)


class WrongReturns(OpenSpielDriver):
    """OpenSpiel's game, but deal 3 (the fourth ``start``) scores 0 for all."""

    starts = 0

    def start(self, deal: Deal) -> Any:
        self.starts += 1
        return super().start(deal)

    def returns(self, st: Any) -> tuple[float, ...]:
        real = super().returns(st)
        return tuple(0.0 for _ in real) if self.starts == 4 else real


class WrongSeat(OpenSpielDriver):
    """OpenSpiel's Spades, but the seats of the bidding are shifted by one."""

    def to_move(self, st: Any) -> int:
        seat = super().to_move(st)
        return (seat + 1) % 4 if self.phase(st) == "bid" else seat


def test_compare_reports_the_first_legal_difference() -> None:
    deals = [random_deal("hearts", {}, s) for s in range(30)]
    found = compare(WrongLegal("hearts"), "hearts", deals, seed=1)
    assert found is not None and found.what == "legal"
    extra = set(found.ours) - set(found.theirs)
    assert extra and all(m.card.suit == 2 for m in extra) and set(found.theirs) < set(found.ours)
    # the same deal and step replayed by hand: OpenSpiel's legal set is theirs
    driver = OpenSpielDriver("hearts")
    st = driver.start(deals[found.deal_index])
    for m in found.moves:
        driver.apply(st, m)
    assert len(found.moves) == found.step and driver.legal_moves(st) == list(found.theirs)
    # every earlier deal agreed
    assert compare(WrongLegal("hearts"), "hearts", deals[: found.deal_index], seed=1) is None
    assert "legal differ" in str(found)


@pytest.mark.parametrize("game", GAMES)
def test_compare_reports_returns_and_seats(game: str) -> None:
    deals = [random_deal(game, {}, s) for s in range(6)]
    found = compare(WrongReturns(game), game, deals, seed=2)
    assert found is not None and (found.deal_index, found.what) == (3, "returns")
    assert found.ours == (0.0,) * len(found.theirs) != found.theirs
    assert found.step == len(found.moves) > 0
    if game == "spades":
        seat = compare(WrongSeat(game), game, deals)
        assert seat is not None and (seat.deal_index, seat.step, seat.what) == (0, 0, "seat")
        assert (seat.ours, seat.theirs) == (1, 0)
