"""The information-set samplers of every game, checked without a twin of their code.

* A sample depends on what the player knows and on nothing else: for a real
  state ``T``, a player ``p`` and ``S = T.sample_infoset(p, j)`` (a state that
  ``p`` cannot tell from ``T``), ``T.sample_infoset(p, k)`` and
  ``S.sample_infoset(p, k)`` are the same state for every ``k`` (the same
  observation for every seat, the same player to act, legal actions and
  returns; the same bytes where the game's log is rewritten from public facts
  alone).  This fails if a sampler reads the hidden cards' identity or order.  So
  must two real states from stacked decks that differ in two swapped cards
  the player cannot tell apart (every game and player count): the same
  sample, its event log included.
* Every sample is consistent: ``p`` observes exactly what he observed in ``T``.
* Exactness on small positions (Nancy, 4 and 6 players, with and without
  face-up cards): every deal of the unknown cards into the other hands is
  tried by replaying the game's actions on a deck that deals it (a deal is
  consistent when every action is legal and the viewer's observation comes
  out the same); the samples must hit every consistent deal, and no other,
  with equal frequencies (chi-square, 1e-6 false alarms).  Nodde and No Takers
  have their brute-force counts in tests/games/nodde/test_sampler.py and
  tests/games/notakers/test_sampler.py.
"""

from __future__ import annotations

import pathlib
import random
import subprocess
from collections import Counter
from typing import Any

import pytest
from _brute import replayed_deals
from _cbuild import ROOT, c_compiler, engine_sources, include_flags
from _stats import Z_1E6, chi2, chi2_limit

from cardcore import _core
from pycards.errors import IllegalActionError
from pycards.game import REFEREE, State, game_names, load_game
from pycards.games.nancy import NancyGame, NancyRules

CASES: list[tuple[str, int, Any]] = [
    ("nodde", 2, None),
    ("nodde", 4, None),
    ("notakers", 3, None),
    ("notakers", 4, None),
    ("nancy", 3, None),
    ("nancy", 4, None),
    ("nancy", 4, NancyRules(face_up_count=0)),
    ("nancy", 5, None),
    ("nancy", 6, NancyRules(face_up_count=0)),
    ("nancy", 6, None),
    ("nancy", 4, NancyRules(reveal_hound=False)),
    ("nancy", 5, NancyRules(reveal_hound=False, face_up_count=0)),
]


def positions(name: str, players: int, rules: Any, count: int, seed: int) -> list[State[Any]]:
    """``count`` states at random points of random games (not terminal)."""
    game = load_game(name, rules, num_players=players)
    rng = random.Random(seed)
    out: list[State[Any]] = []
    g = seed * 1000
    while len(out) < count:
        state = game.new_initial_state(g)
        g += 1
        for _ in range(rng.randint(0, 250)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal:
            out.append(state)
    return out


def same_state(a: State[Any], b: State[Any]) -> bool:
    """The same state for every seat: observations, player to act, legal
    actions and returns."""
    n = a.game.num_players
    return (
        all(
            a.observation_tensor(q).tobytes() == b.observation_tensor(q).tobytes() for q in range(n)
        )
        and a.current_player == b.current_player
        and a.legal_actions() == b.legal_actions()
        and a.returns() == b.returns()
    )


@pytest.mark.parametrize(("name", "players", "rules"), CASES)
def test_a_sample_depends_only_on_what_the_player_knows(
    name: str, players: int, rules: Any
) -> None:
    for t in positions(name, players, rules, 12, 1):
        for p in sorted({t.current_player, (t.current_player + 1) % players}):
            s = t.sample_infoset(p, 99)
            for k in (0, 1, 12345):
                a, b = t.sample_infoset(p, k), s.sample_infoset(p, k)
                assert same_state(a, b), (name, players, p, k)
                assert a.engine_state.raw() == b.engine_state.raw(), (name, players, p, k)


@pytest.mark.parametrize(("name", "players", "rules"), CASES)
def test_every_sample_looks_the_same_to_the_player(name: str, players: int, rules: Any) -> None:
    for t in positions(name, players, rules, 12, 2):
        for p in range(players):
            target = t.observation_tensor(p).tobytes()
            mine = t.legal_actions() if t.current_player == p else None
            for k in range(3):
                s = t.sample_infoset(p, k)
                assert s.observation_tensor(p).tobytes() == target
                assert s.current_player == t.current_player
                if mine is not None:
                    assert s.legal_actions() == mine


TWIN_CASES = [
    (name, n)
    for name in game_names()
    for n in range(_core.game_info(name)["min_players"], _core.game_info(name)["max_players"] + 1)
]


def _seen(state: State[Any], p: int) -> list[tuple[Any, ...]]:
    return [(e.kind, e.player, e.target, e.value, e.extra) for e in state.events(p)]


def _twins(name: str, players: int, seed: int, want: int) -> list[tuple[Any, Any, int]]:
    """Pairs of real states from stacked decks that differ in two swapped
    cards and that seat p cannot tell apart: the same actions, and p's
    observation tensor after each of them and p's events the same.  Random
    play for a random number of actions; swaps of two random deck positions,
    half of them of two card ids equal modulo 13 (in a 52-card deck the same
    rank: Nodde's public hand scores hide only suits)."""
    game = load_game(name, num_players=players)
    size = _core.game_info(name)["deck_size"]
    rng = random.Random(seed)
    out: list[tuple[Any, Any, int]] = []
    for _attempt in range(40):
        if len(out) >= want:
            break
        deck = list(range(size))
        rng.shuffle(deck)
        state = game.new_initial_state(seed, deck=deck)
        for _ in range(rng.randint(0, 60)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        history = list(state.history)
        for _swap in range(30):
            p = rng.randrange(players)
            i = rng.randrange(size)
            same = [k for k in range(size) if k != i and deck[k] % 13 == deck[i] % 13]
            j = rng.choice(same) if same and rng.random() < 0.5 else rng.randrange(size)
            if i == j:
                continue
            other = list(deck)
            other[i], other[j] = other[j], other[i]
            a = game.new_initial_state(seed, deck=deck)
            b = game.new_initial_state(seed, deck=other)
            alike = a.observation_tensor(p).tobytes() == b.observation_tensor(p).tobytes()
            try:
                for x in history:
                    if not alike:
                        break
                    a.apply(x)
                    b.apply(x)
                    alike = a.observation_tensor(p).tobytes() == b.observation_tensor(p).tobytes()
            except IllegalActionError:
                continue
            if (
                alike
                and _seen(a, p) == _seen(b, p)
                and a.engine_state.raw() != b.engine_state.raw()
            ):
                out.append((a, b, p))
                break
    return out


@pytest.mark.parametrize(("name", "players"), TWIN_CASES)
def test_twin_states_give_the_same_samples(name: str, players: int) -> None:
    """Two real states that differ only in cards seat p cannot see (stacked
    decks with two hidden cards swapped, the same actions) give the same
    sample for every seed: the same event log, order and values, and the
    same observation for every seat."""
    twins = _twins(name, players, 17 * players + len(name), 4)
    assert twins, "no twin states"
    for a, b, p in twins:
        for k in (0, 1, 2, 12345):
            x, y = a.sample_infoset(p, k), b.sample_infoset(p, k)
            assert x.events(REFEREE) == y.events(REFEREE), (name, players, p, k)
            for q in range(players):
                assert x.observation_tensor(q).tobytes() == y.observation_tensor(q).tobytes()


def _late_nancy(players: int, face_up: int, tricks_left: int, seed: int) -> Any:
    """A single deal (first dealer 0) played at random until ``tricks_left``
    tricks remain; returns the state, its deck and actions, or None."""
    rules = NancyRules(face_up_count=face_up, match_rounds=1, first_dealer=0)
    game = NancyGame(rules, players)
    rng = random.Random(seed)
    deck = list(range(78))
    rng.shuffle(deck)
    state = game.new_initial_state(seed, deck=deck)
    each = {3: 24, 4: 18, 5: 15, 6: 12}[players]
    while not state.is_terminal:
        obs = state.observation(0)
        if (
            obs.phase_name == "play"
            and obs.trick_index == each - tricks_left
            and not obs.trick_cards
        ):
            return state, deck, list(state.history)
        state.apply(rng.choice(state.legal_actions()))
    return None


@pytest.mark.parametrize(
    ("players", "face_up", "tricks_left"),
    [(4, 0, 2), (4, 6, 2), (6, 0, 1), (6, 6, 1), (5, 0, 1)],
)
def test_nancy_samples_are_uniform_over_the_consistent_deals(
    players: int, face_up: int, tricks_left: int
) -> None:
    """The Taker's view late in a deal (he saw the Hound and made the discards,
    so the unknown cards are the other hands' face-down cards)."""
    for seed in range(300):
        late = _late_nancy(players, face_up, tricks_left, seed)
        if late is None:
            continue
        state, deck, history = late
        p = state.observation(0).taker
        if p is None:
            continue
        others, real, consistent = replayed_deals(state, deck, history, p)
        if len(consistent) < 4:
            continue
        assert tuple(real) in consistent
        break
    else:
        raise AssertionError("no position with 4 consistent deals")
    draws = 300 * len(consistent)
    counts = dict.fromkeys(consistent, 0)
    for k in range(draws):
        sample = state.engine_state.sample_infoset(p, k)
        got = tuple(
            frozenset(int(c) for c in State(state.game, sample, None, None).observation(q).hand)
            for q in others
        )
        assert got in counts, "an inconsistent deal was sampled"
        counts[got] += 1
    observed = list(counts.values())
    assert min(observed) > 0
    assert chi2(observed, [draws / len(consistent)] * len(consistent)) < chi2_limit(
        len(consistent) - 1, Z_1E6
    )


RELAXED = ROOT / "tests" / "c" / "nancy_sampler_relaxed.c"


def _holders(cc: list[str], tmp: pathlib.Path, defines: list[str]) -> Counter[tuple[int, ...]]:
    sources = engine_sources()
    exe = tmp / ("relaxed" if "-DNANCY_RELAX_ABOVE=0" in defines else "exact")
    build = [
        *cc,
        "-std=c11",
        "-O2",
        *defines,
        *include_flags(),
        str(RELAXED),
        *sources,
        "-o",
        str(exe),
        "-lm",
        "-pthread",
    ]
    subprocess.run(build, check=True, capture_output=True, text=True)
    run = subprocess.run([str(exe), "8", "2000"], check=True, capture_output=True, text=True)
    counts: Counter[tuple[int, ...]] = Counter()
    for line in run.stdout.splitlines():
        pos, card, holder, count = (int(x) for x in line.split())
        counts[pos, card, holder] = count
    return counts


@pytest.mark.slow
def test_nancy_relaxed_stage_draws_like_the_exact_one(tmp_path: pathlib.Path) -> None:
    """The Nancy sampler's relaxed stage (merged places, a deal kept when every
    place admits its cards) runs only on large count tables, out of reach of
    brute force; built with it forced on every position (merging one pair of
    places, up to 2000 tries before the exact stage), it must put every
    unknown card with every holder as often as the exact stage alone does
    (chi-square homogeneity over all positions, cards and holders, 1e-6 false
    alarms)."""
    cc = c_compiler()
    if cc is None:
        pytest.skip("no C compiler")
    relaxed = _holders(
        cc,
        tmp_path,
        ["-DNANCY_RELAX_ABOVE=0", "-DNANCY_RELAX_MERGES=1", "-DNANCY_RELAX_TRIES=2000",
         "-DNANCY_NO_REJECT"],
    )  # fmt: skip
    exact = _holders(cc, tmp_path, ["-DNANCY_RELAX_ABOVE=INT64_MAX", "-DNANCY_NO_REJECT"])
    cells: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for key in set(relaxed) | set(exact):
        cells.setdefault(key[:2], []).append((relaxed[key], exact[key]))
    stat, dof = 0.0, 0
    for rows in cells.values():
        if len(rows) < 2:
            continue
        a, b = sum(r for r, _ in rows), sum(e for _, e in rows)
        for r, e in rows:
            total = r + e
            for got, size in ((r, a), (e, b)):
                expected = total * size / (a + b)
                stat += (got - expected) ** 2 / expected
        dof += len(rows) - 1
    assert dof > 100
    assert stat < chi2_limit(dof, Z_1E6)


def test_nodde_scans_by_rank_triples_find_every_consistent_filling(
    tmp_path: pathlib.Path,
) -> None:
    """The Nodde sampler's fallback for a slot of three hidden cards (a rare
    hand score) goes by rank triples; in C it must find as many consistent
    fillings as the scan over every subset, on ~2,000 slots of random
    positions (tests/c/nodde_scan_check.c)."""
    cc = c_compiler()
    if cc is None:
        pytest.skip("no C compiler")
    sources = engine_sources(exclude=("nodde_sample.c",))
    exe = tmp_path / "nodde_scan_check"
    harness = ROOT / "tests" / "c" / "nodde_scan_check.c"
    build = [
        *cc,
        "-std=c11",
        "-O2",
        *include_flags(),
        str(harness),
        *sources,
        "-o",
        str(exe),
        "-lm",
        "-pthread",
    ]
    subprocess.run(build, check=True, capture_output=True, text=True)
    run = subprocess.run([str(exe)], check=True, capture_output=True, text=True)
    slots, bad = (int(w) for w in run.stdout.split()[1::2])
    assert slots > 1000
    assert bad == 0
