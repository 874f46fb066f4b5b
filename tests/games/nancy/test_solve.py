"""The Game of Nancy's exact solver of the play (``State.solve``) against a
brute-force minimax written here over the public ``State`` API: no pruning,
no table, no equivalent cards, every Outsider exchange card tried.

A position with the default rules may still draw an exchange card at random:
the brute force plays the same deal under rules where that card is picked
(the action history replayed, each card the real state drew picked instead),
and takes the mean over the cards at those picks.  ``-m slow`` runs 10,000
positions over every player count."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from pycards.game import REFEREE
from pycards.games.nancy import NancyGame, NancyRules

PLAY, PICK = 166, 244
OUTSIDER = 77
EACH = {2: 36, 3: 24, 4: 18, 5: 15, 6: 12}

RULES = {
    "wiki": NancyRules(match_rounds=1),
    "owner_choice": NancyRules(
        match_rounds=1, outsider_exchange_mode="owner_choice", deferred_exchange_pick="random"
    ),
    "partner_nancy": NancyRules(
        match_rounds=1,
        partner_tricks_to="nancy",
        exchange_from_discard=True,
        deferred_exchange_pick="owner_choice",
    ),
    "french": dataclasses.replace(NancyRules.french_tarot(), match_rounds=1),
    "arcane": NancyRules(
        match_rounds=1,
        arcane_sum_mode="subset_sum",
        overtrump_on_trump_lead=False,
        face_up_count=0,
        fat_nancy_outsider_exception="slam",
    ),
    "at_least": NancyRules(match_rounds=1, arcane_sum_mode="at_least", self_call_allowed=False),
}


def picking(rules: NancyRules) -> NancyRules:
    """The same rules with every exchange card picked by a player."""
    deferred = rules.deferred_exchange_pick
    return dataclasses.replace(
        rules,
        outsider_exchange_mode="owner_choice",
        deferred_exchange_pick="owner_choice" if deferred == "random" else deferred,
    )


def sides(state) -> set[int]:
    """The Taker's side: the Taker and the holder of the called card."""
    obs = state.observation(0)
    taker = obs.taker
    side = {taker}
    if obs.partner_revealed:
        if obs.partner is not None:
            side.add(obs.partner)
        return side
    if obs.called is not None:
        for q in range(state.num_players):
            o = state.observation(q)
            if q != taker and (obs.called in o.hand or obs.called in (o.face_up[q] or ())):
                side.add(q)
    return side


def deal_over(state) -> bool:
    return state.is_terminal or min(state.legal_actions()) < PLAY


def brute(state, side, chance_now, chance_deferred, start) -> tuple[float, ...]:
    """Every seat's expected points of the deal with perfect play (the
    Taker's side maximizes the Taker's points, the others minimize them)."""
    if deal_over(state):
        return tuple(float(r - s) for r, s in zip(state.returns(), start, strict=True))
    actions = state.legal_actions()
    outs = []
    for a in actions:
        child = state.clone()
        child.apply(a)
        outs.append(brute(child, side, chance_now, chance_deferred, start))
    taker = min(side)  # (the Taker's points equal the Partner's)
    if actions[0] >= PICK:
        # the exchange is deferred unless the Outsider was played to the
        # trick just won
        now = state.observation(state.current_player).trick_index
        outsider = [e.extra for e in state.events() if e.kind == "play" and e.value == OUTSIDER]
        deferred = outsider[-1] != now
        if chance_deferred if deferred else chance_now:
            return tuple(sum(o[i] for o in outs) / len(outs) for i in range(len(outs[0])))
    mine = state.current_player in side
    key = (lambda o: o[taker]) if mine else (lambda o: -o[taker])
    return max(outs, key=key)


def margins(points: tuple[float, ...], p: int) -> float:
    others = [x for q, x in enumerate(points) if q != p]
    return points[p] - sum(others) / len(others)


def position(n: int, rules: NancyRules, seed: int, cards_left: int):
    """A state with the Outsider's random draws, from play mixing the
    heuristic and random moves, stopped with at most cards_left cards to
    play; and the same position under picking(rules)."""
    rng = random.Random(seed)
    game = NancyGame(rules, n)
    state = game.new_initial_state(seed)
    history = []
    while True:
        if state.is_terminal:
            return None
        legal = state.legal_actions()
        if legal[0] >= PLAY:
            obs = state.observation(0)
            played = sum(1 for t in obs.trick if t is not None and len(t) > 0)
            left = (EACH[n] - obs.trick_index) * n - (0 if legal[0] >= PICK else played)
            if left <= cards_left:
                break
        if legal[0] >= PLAY and rng.random() < 0.5:
            a = state.engine_state.heuristic_action(rng.randrange(1 << 30))
        else:
            a = rng.choice(legal)
        state.apply(a)
        history.append(a)
    draws = [e.value for e in state.events(REFEREE) if e.kind == "exchange" and e.player == -1]
    twin = NancyGame(picking(rules), n).new_initial_state(seed)
    k = 0
    for a in history:
        while twin.legal_actions()[0] >= PICK and a < PICK:
            twin.apply(PICK + int(draws[k]))
            k += 1
        twin.apply(a)
    while k < len(draws):  # (drawn after the last action)
        twin.apply(PICK + int(draws[k]))
        k += 1
    assert twin.legal_actions() == state.legal_actions()
    return state, twin


def check(n: int, name: str, seed: int, cards_left: int) -> bool:
    """One position: the solver's values against the brute force's."""
    rules = RULES[name]
    made = position(n, rules, seed, cards_left)
    if made is None:
        return False
    state, twin = made
    p = state.current_player
    values = state.solve()
    assert sorted(values) == state.legal_actions()
    side = sides(state)
    chance_now = rules.outsider_exchange_mode == "random"
    chance_deferred = rules.deferred_exchange_pick == "random"
    start = twin.returns()
    for a, v in values.items():
        child = twin.clone()
        child.apply(a)
        want = margins(brute(child, side, chance_now, chance_deferred, start), p)
        assert v == pytest.approx(want, abs=1e-9), (n, name, seed, a)
    return True


def run(count: int, seed0: int) -> int:
    done = 0
    names = sorted(RULES)
    for i in range(count):
        n = 2 + i % 5
        rng = random.Random(seed0 + i)
        name = names[rng.randrange(len(names))]
        cards_left = rng.randint(1, 3 * n)
        if check(n, name, seed0 + i, cards_left):
            done += 1
    return done


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_solver_matches_brute_force(n: int) -> None:
    checked = 0
    for name in sorted(RULES):
        for k in range(8):
            seed = 1000 * n + 10 * k + sorted(RULES).index(name) * 100
            checked += check(n, name, seed, 1 + (seed * 7) % (3 * n))
    assert checked >= 40


@pytest.mark.slow
def test_solver_matches_brute_force_10000() -> None:
    assert run(10_000, 500_000) >= 9_900


def test_solve_depth_counts_the_cards_left() -> None:
    game = NancyGame(NancyRules(match_rounds=1), 4)
    state = game.new_initial_state(3)
    rng = random.Random(3)
    while not state.is_terminal:
        legal = state.legal_actions()
        if legal[0] < PLAY:
            assert state.solve_depth == -1
        else:
            held = 0
            for q in range(4):
                o = state.observation(q)
                held += len(o.hand) + len(o.face_up[q] or ())
            assert state.solve_depth == held
        state.apply(rng.choice(legal))
    assert state.solve_depth == -1


def test_errors() -> None:
    game = NancyGame(NancyRules(match_rounds=1), 4)
    state = game.new_initial_state(5)
    with pytest.raises(ValueError):
        state.solve()  # bidding
    made = position(4, RULES["wiki"], 11, 72)
    assert made is not None
    state = made[0]
    with pytest.raises(RuntimeError):
        state.solve(max_nodes=50)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError):
        state.solve()


def test_a_win_table_is_refused() -> None:
    """A match of Nancy is a number of deals, not a race to a target score:
    the solver values points only."""
    made = position(2, RULES["wiki"], 3, 6)
    assert made is not None
    state = made[0]
    assert state.solve()
    with pytest.raises(ValueError):
        state.solve(win_table=np.full((5, 5), 0.5))


def test_a_later_deal_is_valued_by_its_own_points() -> None:
    rules = NancyRules(match_rounds=3, outsider_exchange_mode="owner_choice")
    game = NancyGame(rules, 3)
    state = game.new_initial_state(21)
    rng = random.Random(21)
    while state.observation(0).rounds_done < 1 or state.legal_actions()[0] < PLAY:
        state.apply(rng.choice(state.legal_actions()))
    while state.solve_depth > 6:
        state.apply(rng.choice(state.legal_actions()))
    assert any(state.returns())
    p = state.current_player
    side = sides(state)
    for a, v in state.solve().items():
        child = state.clone()
        child.apply(a)
        assert v == pytest.approx(margins(brute(child, side, 0, 0, state.returns()), p))


@pytest.mark.parametrize("n", [3, 5])
def test_a_sample_is_solved_from_its_own_cards(n: int) -> None:
    rules = picking(RULES["owner_choice"])  # (no card drawn at random)
    made = position(n, rules, 77 + n, 2 * n)
    assert made is not None
    state = made[0]
    p = state.current_player
    for k in range(3):
        sample = state.sample_infoset(p, k)
        side = sides(sample)
        values = sample.solve()
        for a, v in values.items():
            child = sample.clone()
            child.apply(a)
            want = margins(brute(child, side, False, False, sample.returns()), p)
            assert v == pytest.approx(want, abs=1e-9)


def test_two_threads_solve_at_once() -> None:
    """The solver keeps nothing global: threads (the GIL released) get the
    values a lone solve gets."""
    from concurrent.futures import ThreadPoolExecutor

    states = []
    for seed in range(6):
        made = position(4, RULES["wiki"], 40 + seed, 12)
        if made is not None:
            states.append(made[0])
    alone = [s.solve() for s in states]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(lambda s: s.clone().solve(), states * 2))
    assert together == alone * 2
