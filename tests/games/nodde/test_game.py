"""The Nodde Knave game: C engine against the plain-Python reference step by
step, illegal actions, hidden information, the game flow of docs/nodde.rst,
and docs/nodde.rst against what the engine describes.

The oracle copies no shuffle: it is fed the cards of each shuffled deal (and
the drawn first dealer) the engine dealt, read from the engine's event log
(``reference.nodde.ChanceFromEngine``), and works out the rest on its own:
who gets which card, when the deck is reshuffled, the scoring and the play.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest
import reference as R  # noqa: N812
from _paths import DOCS
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.nodde import ChanceFromEngine, NoddeState
from reference.rng import Rng

from cardcore import _core as C  # noqa: N812
from pycards.cards import Card, CardSet
from pycards.errors import IllegalActionError
from pycards.game import TERMINAL, State
from pycards.games.nodde import EVENT_KINDS, NoddeGame, NoddeRules, score_hand

EV = {name: i for i, name in enumerate(EVENT_KINDS)}


def random_params(rng: random.Random, n: int) -> list[int]:
    p = [
        rng.randint(0, 1),
        1,
        rng.randint(0, 1),
        rng.randint(0, 1),
        rng.randint(0, 1),
        rng.randint(0, 2),
        rng.randint(0, 2),
        rng.randint(0, 1),
        rng.choice([31, 31, 61, 21, 15, 5]),
        rng.choice([-1, -1, rng.randrange(n)]),
    ]
    if n == 2:
        p[1] = rng.randint(0, 1)
    return p


def same(a: Any, b: Any, n: int) -> None:
    """Compare a C state and a reference state on everything observable."""
    assert a.current_player() == b.current_player()
    assert a.legal_actions() == b.legal_actions()
    assert a.legal_mask() == b.legal_mask()
    assert a.returns() == b.returns()
    assert a.events() == b.events()
    for p in range(n):
        assert np.array_equal(a.observe_tensor(p), b.observe_tensor(p))


def differential(games: int, seed: int) -> int:
    rng = random.Random(seed)
    steps = 0
    for _ in range(games):
        n = rng.choice([2, 3, 4])
        params = random_params(rng, n)
        game_seed = rng.getrandbits(64)
        a = C.new_state("nodde", params, n, game_seed)
        b = NoddeState(tuple(params), n, game_seed, chance=ChanceFromEngine(a))
        same(a, b, n)
        while a.current_player() != TERMINAL:
            probe = rng.randrange(-3, 60)
            assert a.verify(probe) == b.verify(probe)
            action = rng.choice(a.legal_actions())
            assert a.apply(action) == 0
            assert b.apply(action) == 0
            same(a, b, n)
            steps += 1
        assert a.verify(0) == b.verify(0) < 0  # game over
    return steps


def test_c_matches_reference_step_by_step() -> None:
    assert differential(games=300, seed=1) > 3000


@pytest.mark.slow
def test_c_matches_reference_thousands_of_games() -> None:
    assert differential(games=3000, seed=2) > 30000


def test_default_chance_deals_by_the_rules() -> None:
    """The oracle on its own chance (Python's ``random``): every deal is
    3 cards each and a turn-up of distinct cards, no card twice between two
    shuffles, and games end."""
    for n, params in [(2, [0, 0, 0, 0, 0, 1, 0, 1, 61, -1]), (4, [1, 1, 0, 0, 0, 1, 1, 1, 31, 0])]:
        for seed in range(5):
            state = R.new_state("nodde", params, n, seed)
            rng = random.Random(seed)
            while state.current_player() != TERMINAL:
                state.apply(rng.choice(state.legal_actions()))
            dealt: set[int] = set()
            for kind, _, _, value, extra, _ in state.events():
                if kind == EV["new_deal"] and extra:
                    dealt = set()
                if kind in (EV["deal_card"], EV["turnup"]):
                    assert value not in dealt and 0 <= value < 52
                    dealt.add(value)
            assert max(state.returns()) >= params[8]


def test_native_playouts_are_the_games_played_one_by_one() -> None:
    """``random_playouts`` (the C loop) plays game i from seed + i with actions
    drawn by one generator seeded seed ^ 0xA5A5A5A5A5A5A5A5 (the RNG is checked
    against published vectors in tests/core/test_rng.py): the same games through
    the engine's step-by-step entry points give the same totals."""
    for n, params in [
        (2, [0, 1, 0, 0, 0, 1, 0, 1, 31, -1]),
        (4, [0, 1, 1, 1, 1, 2, 2, 0, 31, 3]),
        (2, [0, 0, 0, 0, 0, 1, 0, 1, 61, -1]),
        (3, [1, 1, 0, 0, 0, 1, 1, 1, 31, 0]),
    ]:
        rng = Rng(9 ^ 0xA5A5A5A5A5A5A5A5)
        steps, points = 0, [0] * n
        for i in range(20):
            state = C.new_state("nodde", params, n, 9 + i)
            while state.current_player() != TERMINAL:
                legal = state.legal_actions()
                assert state.apply(legal[rng.below(len(legal))]) == 0
                steps += 1
            points = [a + b for a, b in zip(points, state.returns(), strict=True)]
        assert C.random_playouts("nodde", params, n, 9, 20) == (steps, points)


# ---------------------------------------------------------------------------
# illegal actions


def find_state(game: NoddeGame, want: str) -> State[Any]:
    """A state of a seeded random game where an action with reason ``want`` exists."""
    rng = random.Random(0)
    for seed in range(500):
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            if want == "over 31":
                held = state.observation(state.current_player).hand
                if any(a not in state.legal_actions() for a in held):
                    return state
            else:
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no such state")


def raw_snapshot(state: State[Any]) -> tuple[Any, ...]:
    backend = state.engine_state
    raw = backend.raw() if hasattr(backend, "raw") else None
    return (
        raw,
        backend.events(),
        [backend.observe_tensor(p).tobytes() for p in range(state.num_players)],
        state.history,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_illegal_action_says_why_and_changes_nothing(players: int) -> None:
    game = NoddeGame(num_players=players)
    state = find_state(game, "over 31")
    me = state.current_player
    hand = state.observation(me).hand
    over = next(a for a in hand if a not in state.legal_actions())
    not_held = next(a for a in range(52) if a not in hand)
    other = (me + 1) % players
    before = raw_snapshot(state)
    cases = [
        (over, None, "over 31"),
        (not_held, None, "card not held"),
        (state.legal_actions()[0], other, "not your turn"),
        (52, None, "action"),
        (-1, None, "action"),
    ]
    for action, player, reason in cases:
        assert not state.can_apply(action, player)
        with pytest.raises(IllegalActionError, match=reason) as info:
            state.apply(action, player)
        assert info.value.action == action
        assert raw_snapshot(state) == before
    # the engine itself refuses and keeps its bytes
    assert state.engine_state.apply(over) == 3 and state.engine_state.apply(not_held) == 2
    assert raw_snapshot(state) == before


def test_game_over_refuses_actions() -> None:
    game = NoddeGame(num_players=2)
    state = game.new_initial_state(3)
    rng = random.Random(3)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    before = raw_snapshot(state)
    for a in range(52):
        with pytest.raises(IllegalActionError, match="game over"):
            state.apply(a)
    assert raw_snapshot(state) == before
    assert state.legal_actions() == [] and not state.legal_action_mask().any()


# ---------------------------------------------------------------------------
# hidden information


# fewer examples on the slow pure-Python backend (its sampler enumerates hands)
@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**64 - 1),
    steps=st.integers(0, 40),
    viewer=st.integers(0, 3),
    sample_seed=st.integers(0, 2**64 - 1),
)
def test_observation_never_reveals_hidden_cards(
    players: int, seed: int, steps: int, viewer: int, sample_seed: int
) -> None:
    viewer %= players
    game = NoddeGame(num_players=players)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    # a state that differs only in cards hidden from the viewer ...
    other = state.sample_infoset(viewer, sample_seed)
    # ... looks exactly the same to him
    assert np.array_equal(other.observation_tensor(viewer), state.observation_tensor(viewer))
    assert other.events(viewer) == state.events(viewer)
    assert other.observation(viewer) == state.observation(viewer)
    # and the observation holds no card of another player's hand
    obs = state.observation(viewer)
    for seat in range(players):
        if seat != viewer:
            hidden = state.observation(seat).hand
            assert not (set(hidden) & set(obs.hand))
            events = state.events(viewer)
            start = max(i for i, e in enumerate(events) if e.kind == "new_deal")
            shown = [
                e.value
                for e in events[start:]
                if e.kind in ("deal_card", "turnup", "play") and e.value is not None
            ]
            assert not set(shown) & set(hidden)
    for e in state.events(viewer):
        if e.kind == "deal_card":
            assert (e.value is None) == (e.player != viewer)


def test_infoset_samples_vary_the_hidden_cards_only() -> None:
    game = NoddeGame(num_players=3)
    state = game.new_initial_state(5)
    state.apply(state.legal_actions()[0])
    me = 0
    hands = set()
    for s in range(30):
        sample = state.sample_infoset(me, s)
        assert sample.observation(me) == state.observation(me)
        others = tuple(sample.observation(p).hand for p in (1, 2))
        hands.add(others)
        # every sampled hand fits its player's public hand-score call
        turnup = sample.observation(me).turnup
        for p in (1, 2):
            obs = sample.observation(p)
            full = obs.hand | obs.played[p]
            assert score_hand(full, turnup, game.rules).total == obs.hand_scores[p]
    assert len(hands) > 5


# ---------------------------------------------------------------------------
# the game flow


def play_out(game: NoddeGame, seed: int) -> State[Any]:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_hand_score_events_are_the_hand_scores() -> None:
    game = NoddeGame(NoddeRules(score_25="flat4"), num_players=4)
    for seed in range(20):
        state = play_out(game, seed)
        hands: dict[int, list[int]] = {}
        turnup = -1
        for e in state.engine_state.events():
            kind, who, _, value, _, _ = e
            if kind == EV["new_deal"]:
                hands = {p: [] for p in range(4)}
            elif kind == EV["deal_card"]:
                hands[who].append(value)
            elif kind == EV["turnup"]:
                turnup = value
            elif kind == EV["hand_score"]:
                assert score_hand(hands[who], turnup, game.rules).total == value


def test_order_of_scoring_and_winning_at_once() -> None:
    game = NoddeGame(NoddeRules(game_target=5), num_players=3)
    ended_in_hand_scoring = 0
    for seed in range(60):
        state = play_out(game, seed)
        ev = state.events()
        assert ev[-1].kind == "game_over"
        winner_side = ev[-1].target
        assert state.returns()[winner_side] >= 5
        assert sum(r >= 5 for r in state.returns()) == 1
        deal = [e for e in ev[max(i for i, e in enumerate(ev) if e.kind == "new_deal") :]]
        kinds = [e.kind for e in deal]
        if ev[-2].kind == "hand_score":
            ended_in_hand_scoring += 1
            # the later players of this deal never called their hands
            assert kinds.count("hand_score") < 3 or ev[-2].player == deal[0].player
            assert "play" not in kinds
        # hand scoring goes from elder round to the dealer
        dealer = deal[0].player
        order = [e.player for e in deal if e.kind == "hand_score"]
        assert order == [(dealer + 1 + i) % 3 for i in range(len(order))]
    assert ended_in_hand_scoring > 0


def test_dealer_rotates_and_turned_knave() -> None:
    for scorer in ("dealer", "elder"):
        game = NoddeGame(NoddeRules(turned_knave_scorer=scorer, game_target=121), num_players=2)
        knaves = 0
        for seed in range(15):
            ev = play_out(game, seed).events()
            deals = [e for e in ev if e.kind == "new_deal"]
            for a, b in itertools.pairwise(deals):
                assert b.player == (a.player + 1) % 2
                assert b.value == a.value + 1
            for i, e in enumerate(ev):
                if e.kind == "turnup" and Card(e.value).rank == 10:
                    knaves += 1
                    assert ev[i + 1].kind == "turned_knave" and ev[i + 1].value == 2
                    want = e.player if scorer == "dealer" else (e.player + 1) % 2
                    assert ev[i + 1].player == want
        assert knaves > 0


def test_no_reshuffle_deals_on_from_the_same_shuffle() -> None:
    game = NoddeGame(NoddeRules(reshuffle_each_deal=False, game_target=121), num_players=2)
    ev = play_out(game, 4).events(0)
    raw = play_out(game, 4).engine_state.events()
    deals = [e for e in ev if e.kind == "new_deal"]
    assert len(deals) > 8
    # 7 cards a deal: deals 1, 8, 15, ... start with a fresh shuffle
    assert [e.extra for e in deals] == [1 if (e.value - 1) % 7 == 0 else 0 for e in deals]
    # no card comes twice between two shuffles
    seen: set[int] = set()
    for kind, _, _, value, extra, _ in raw:
        if kind == EV["new_deal"] and extra:
            seen = set()
        if kind in (EV["deal_card"], EV["turnup"]):
            assert value not in seen
            seen.add(value)


def test_partners_share_a_score() -> None:
    game = NoddeGame(num_players=4)
    for seed in range(10):
        r = play_out(game, seed).returns()
        assert r[0] == r[2] and r[1] == r[3] and max(r) >= 31
    solo = play_out(NoddeGame(NoddeRules(four_player_mode="individual"), num_players=4), 1)
    assert len(solo.observation(0).scores) == 4


def test_play_to_31_with_go_and_last_card() -> None:
    game = NoddeGame(NoddeRules(game_target=121), num_players=3)
    gos = lasts = thirty_ones = 0
    for seed in range(30):
        ev = play_out(game, seed).events()
        for i, e in enumerate(ev):
            if e.kind == "play":
                assert e.target <= 31
                if e.target == 31:
                    thirty_ones += 1
                    assert ev[i + 1].kind in ("new_deal", "game_over")
            if e.kind == "go":
                gos += 1
            if e.kind == "last_card":
                lasts += 1
                assert e.target < 31 and e.value == 1
    assert gos and lasts and thirty_ones


def test_observation_decodes_the_state() -> None:
    game = NoddeGame(num_players=3)
    state = game.new_initial_state(21)
    rng = random.Random(21)
    for _ in range(5):
        state.apply(rng.choice(state.legal_actions()))
    assert not state.is_terminal
    obs = state.observation(state.current_player)
    assert obs.current_player == state.current_player
    assert set(obs.hand) >= {Card(a) for a in state.legal_actions()}
    assert obs.to_act == state.current_player and obs.game_over == 0
    assert obs.total == sum(c.pips for c in obs.play) <= 31
    assert CardSet(obs.play) == obs.played[0] | obs.played[1] | obs.played[2]
    assert list(obs.scores) == state.returns()
    events = state.events(obs.player)
    start = max(i for i, e in enumerate(events) if e.kind == "new_deal")
    plays = [e for e in events[start:] if e.kind == "play"]
    assert [Card(e.value) for e in plays] == list(obs.play)
    assert obs.hand_called == (1, 1, 1)
    hand_scores = [e.value for e in events[start:] if e.kind == "hand_score"]
    assert sorted(hand_scores) == sorted(obs.hand_scores)


def test_json_round_trip_with_variants() -> None:
    rules = NoddeRules(four_player_mode="individual", score_25="per_card", game_target=61)
    game = NoddeGame(rules, num_players=4)
    state = game.new_initial_state(77)
    rng = random.Random(77)
    for _ in range(25):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    again = State.from_json(state.to_json())
    assert again.game.rules == rules
    assert raw_snapshot(again) == raw_snapshot(state)


def test_docs_page_examples_run() -> None:
    """Every code block of docs/nodde.rst runs; ``expr  # value`` lines are checked."""
    import ast
    import re

    text = (DOCS / "nodde.rst").read_text()
    blocks = re.findall(r"\.\. code-block:: python\n\n((?:    .*\n|\n)+)", text)
    assert len(blocks) >= 2
    namespace: dict[str, Any] = {}
    checked = 0
    for block in blocks:
        lines = []
        for line in block.splitlines():
            m = re.match(r"^(\s*)(\S.*?)\s+# (.+)$", line[4:])
            if m:
                try:
                    want = ast.literal_eval(m.group(3))
                except (ValueError, SyntaxError):
                    want = None
                if want is not None:
                    lines.append(f"{m.group(1)}assert ({m.group(2)}) == {want!r}")
                    checked += 1
                    continue
            lines.append(line[4:])
        exec("\n".join(lines), namespace)
    assert checked >= 3


def _docs_section(title: str) -> list[str]:

    text = (DOCS / "nodde.rst").read_text()
    lines = text.splitlines()
    start = lines.index(title) + 2
    assert set(lines[start - 1]) == {"-"}, title
    end = next(
        (i - 1 for i in range(start + 1, len(lines)) if lines[i] and set(lines[i]) == {"-"}),
        len(lines),
    )
    return lines[start:end]


def test_docs_list_every_event_kind_and_segment() -> None:
    """docs/nodde.rst cannot drift from the engine: its event table lists every
    kind the engine describes (in id order, name, value kind) and its observation table
    every tensor segment, in order, with its length for each player count."""
    import re

    kinds = C.game_info("nodde")["event_kinds"]
    # the "Event fields" list-table: kind, player, target, value (its type first), extra
    rows = re.findall(
        r"^   \* - ``(\w+)``\n(?:     - .*\n){2}     - (card|number|none)",
        "\n".join(_docs_section("Events")) + "\n",
        flags=re.MULTILINE,
    )
    assert rows == [(k["name"], k["value"]) for k in kinds]
    assert [k["name"] for k in kinds] == list(EVENT_KINDS)

    section = _docs_section("Observation")
    rows = [
        m.groups() for line in section if (m := re.match(r"^``(\w+)``\s+(\d+ n|\d+|n)\s", line))
    ]
    size = re.search(r"``(\d+) \+ (\d+) n`` entries", " ".join(section))
    assert size is not None
    for n in (2, 3, 4):
        for mode in ("partners", "individual"):
            game = NoddeGame(NoddeRules(four_player_mode=mode), num_players=n)  # type: ignore[arg-type]
            segments = game.segments
            assert [name for name, _ in rows] == [s.name for s in segments]
            for (_, length), seg in zip(rows, segments, strict=True):
                want = n * int(length[:-2] or 1) if length.endswith("n") else int(length)
                assert want == seg.length, (seg.name, n)
            total = int(size.group(1)) + int(size.group(2)) * n
            assert (
                total
                == sum(s.length for s in segments)
                == C.new_state("nodde", game.params, n, 0).tensor_size()
            )
