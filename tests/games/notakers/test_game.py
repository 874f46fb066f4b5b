"""No Takers? the game: C against the reference step by step (both dealt
from the same stacked deck), illegal actions, hidden information, and the
rules of docs/notakers.rst checked on played games."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
import reference as ref

from cardcore import _core as c_core
from pycards.errors import IllegalActionError
from pycards.games.notakers import (
    ACTION_DRAW,
    ACTION_GIVE,
    ACTION_SAVE,
    ACTION_SAVE_CANCEL,
    ACTION_SAVE_DONE,
    NoTakersGame,
    NoTakersRules,
    ask_action,
)

TERMINAL = -4
EV_DEAL, EV_DRAW, EV_SAVE, EV_ASK, EV_PASS, EV_GIVE, EV_NO_TAKERS, EV_SCORE, EV_GAME_OVER = range(9)
ALL = 0xFFFFFFFF
LOG_CAPACITY = 256
UNSEEN = -1


def stacked(rng: random.Random) -> list[int]:
    """A random deck (top first) to deal both engines from."""
    deck = list(range(52))
    rng.shuffle(deck)
    return deck


def pair(rng: random.Random, params: list[int], n: int) -> tuple[Any, Any]:
    """The C engine and the reference dealt from one stacked deck."""
    deck = stacked(rng)
    seed = rng.getrandbits(64)
    return (
        c_core.new_state("notakers", params, n, seed, deck),
        ref.new_state("notakers", params, n, seed, deck),
    )


def random_params(rng: random.Random) -> list[int]:
    return [
        rng.randint(0, 1),
        rng.randint(0, 1),
        rng.randint(0, 2),
        rng.randint(0, 1),
        rng.choice([0, 0, 0, 3, 30]),
        rng.randint(0, 2),
        rng.randint(0, 1),
    ]


def pick(rng: random.Random, legal: list[int]) -> int:
    """A random legal action, drawing more often than uniform play so games end."""
    if ACTION_DRAW in legal and rng.random() < 0.15:
        return ACTION_DRAW
    return rng.choice(legal)


def same(c: Any, r: Any, n: int) -> None:
    assert c.current_player() == r.current_player()
    assert c.legal_mask() == r.legal_mask()
    assert c.returns() == r.returns()
    for p in range(n):
        assert np.array_equal(c.observe_tensor(p), r.observe_tensor(p)), p
    assert c.events() == r.events()
    for p in range(n):
        assert c_core.notakers_knowledge(c, p) == ref.notakers_knowledge(r, p)


def play_pair(seed: int, max_steps: int) -> int:
    """Play one random game on both engines, comparing after every step."""
    rng = random.Random(seed)
    n = rng.randint(2, 8)
    params = random_params(rng)
    c, r = pair(rng, params, n)
    same(c, r, n)
    steps = 0
    while c.current_player() != TERMINAL and steps < max_steps:
        probe = rng.randrange(-1, c.num_actions() + 1)
        assert c.verify(probe) == r.verify(probe)
        a = pick(rng, c.legal_actions())
        assert c.apply(a) == 0 and r.apply(a) == 0
        steps += 1
        same(c, r, n)
    return steps


def test_c_equals_reference_step_by_step() -> None:
    ended = 0
    for seed in range(120):
        play_pair(seed, 3000)
    for seed in range(120):
        rng = random.Random(seed)
        n = rng.randint(2, 8)
        c = c_core.new_state("notakers", random_params(rng), n, seed)
        ended += c.current_player() != TERMINAL
    assert ended > 0


@pytest.mark.slow
def test_c_equals_reference_many_games() -> None:
    for seed in range(1000, 4000):
        play_pair(seed, 20000)


def test_a_seeded_deal_is_the_seeded_shuffle_stacked() -> None:
    """init(seed) deals the deck cc_shuffled_deck(seed) gives, as init_deck would."""
    for seed in (0, 1, 2**64 - 1):
        for n in (2, 5, 8):
            deck = c_core.shuffled_deck(seed, 52)
            a = c_core.new_state("notakers", [0] * 7, n, seed)
            b = c_core.new_state("notakers", [0] * 7, n, seed, deck)
            assert a.raw() == b.raw()
            assert [e[3] for e in a.events() if e[0] == EV_DEAL] == deck[: 26 // n * n]


def test_native_random_playouts_play_whole_games() -> None:
    for n in (2, 5, 8):
        for params in ([0] * 7, [1, 1, 1, 1, 0, 2, 1], [0, 0, 2, 0, 3, 1, 0]):
            steps, points = c_core.random_playouts("notakers", params, n, 9, 3)
            assert steps >= 3 and len(points) == n and min(points) >= 0


# ---------------------------------------------------------------------------
# the deal and the end


@pytest.mark.parametrize("n", range(2, 9))
def test_deal(n: int) -> None:
    s = c_core.new_state("notakers", [0] * 7, n, 42)
    each = 26 // n
    deals = [e for e in s.events() if e[0] == EV_DEAL]
    assert len(deals) == each * n
    tensor = s.observe_tensor(0)
    hand_sizes = tensor[156 : 156 + n]  # hidden saves: no save_piles segment
    assert hand_sizes.tolist() == [each] * n
    assert tensor[156 + 2 * n] == 52 - each * n  # n=4: 6 each, pile 28
    assert s.current_player() == 0
    assert len({e[3] for e in deals}) == len(deals)


def pile_size(s: Any, n: int) -> int:
    return int(s.observe_tensor(0)[156 + 2 * n])


def hand_size(s: Any, n: int, p: int) -> int:
    return int(s.observe_tensor(p)[156])


def drive_to_short_pile(params: list[int], n: int, seed: int) -> Any:
    """Draw (or give) until the pile holds fewer cards than players."""
    rng = random.Random(seed)
    s = c_core.new_state("notakers", params, n, seed)
    while pile_size(s, n) >= n or s.current_player() == TERMINAL or s.verify(ACTION_DRAW):
        if s.current_player() == TERMINAL:
            seed += 1000
            s = c_core.new_state("notakers", params, n, seed)
            continue
        legal = s.legal_actions()
        s.apply(
            ACTION_DRAW if pile_size(s, n) >= 2 * n and ACTION_DRAW in legal else rng.choice(legal)
        )
    return s


@pytest.mark.parametrize(("short_draw", "takes"), [(0, True), (1, False)])
def test_short_draw(short_draw: int, takes: bool) -> None:
    n = 3  # 8 each, pile 28: 28 = 9 * 3 + 1 leaves a short pile
    s = drive_to_short_pile([0, 0, 0, short_draw, 0, 0, 0], n, 3)
    p = s.current_player()
    left, before = pile_size(s, n), hand_size(s, n, p)
    assert 0 < left < n
    s.apply(ACTION_DRAW)
    assert s.current_player() == TERMINAL
    assert hand_size(s, n, p) == before + (left if takes else 0)
    assert s.events()[-1] == (EV_GAME_OVER, p, 0, 0, 0, ALL)
    scores = s.events()[-1 - n : -1]
    assert all(e[0] == EV_SCORE for e in scores)
    assert [e[3] for e in scores] == s.returns()
    assert any(e[4] for e in scores)


def test_draw_taking_the_last_card_ends_the_game() -> None:
    n = 2  # 13 each, pile 26 = 13 draws of 2
    s = c_core.new_state("notakers", [0] * 7, n, 5)
    for _ in range(13):
        assert s.current_player() != TERMINAL
        s.apply(ACTION_DRAW)
    assert s.current_player() == TERMINAL and pile_size(s, n) == 0


def test_max_turns() -> None:
    s = c_core.new_state("notakers", [0, 0, 0, 0, 4, 0, 0], 4, 1)
    for _ in range(4):
        s.apply(ask_action(1, 17 + 0))  # ask for the ace of clubs: every turn ends
        while s.current_player() != TERMINAL and s.verify(ACTION_DRAW) != 0:
            s.apply(s.legal_actions()[0])
    assert s.current_player() == TERMINAL
    assert [e[3] for e in s.events() if e[0] == EV_GAME_OVER] == [1]
    assert s.events()[-1][0] == EV_GAME_OVER


# ---------------------------------------------------------------------------
# the Ask (the worked example of docs/notakers.rst, and every game's log)


def test_ask_example_pass_fallback() -> None:
    """P1 asks P2 for sevens; P2 passes; P3 (two 7s) gives one, P4 (one 7) gives 7."""
    game = NoTakersGame(num_players=4)
    for seed in range(5000):
        s = game.new_initial_state(seed)
        sevens = [sum(1 for c in s.observation(p).hand if c.rank == 6) for p in range(4)]
        if sevens[1:] == [0, 2, 1]:
            break
    else:
        pytest.fail("no such deal")
    s.apply("ask +1 rank 7")
    assert s.events()[-1].kind == "pass" and s.current_player == 2
    legal = s.legal_action_names()
    assert len(legal) == 2 and all(name.startswith("give 7") for name in legal)
    s.apply(legal[1])
    assert s.current_player == 3 and len(s.legal_actions()) == 1
    s.apply(s.legal_actions()[0])
    gives = [e for e in s.events() if e.kind == "give"]
    assert [(e.player, e.target, e.extra) for e in gives] == [(2, 0, 1), (3, 0, 1)]
    assert s.current_player == 1
    assert sum(1 for c in s.observation(0).hand if c.rank == 6) == 3


def check_log(events: list[tuple[int, ...]], n: int, params: list[int]) -> None:
    """The rules of play (docs/notakers.rst) read back from a game's full event log."""
    hands: list[set[int]] = [set() for _ in range(n)]
    i = 0
    while i < len(events):
        kind, player, target, value, extra, seen = events[i]
        if kind in (EV_DEAL, EV_DRAW):
            first_forced = kind == EV_DRAW and extra == 1 and events[i - 1][:2] != (EV_DRAW, player)
            if first_forced:
                assert not hands[player], "a forced draw only on an empty hand"
            hands[player].add(value)
            assert seen == 1 << player
        elif kind == EV_SAVE:
            hands[player].remove(value)
            assert seen == (ALL if params[1] else 1 << player)
        elif kind == EV_GIVE:
            hands[player].remove(value)
            hands[target].add(value)
            assert seen == (1 << player) | (1 << target)
        elif kind == EV_NO_TAKERS:
            asker = player
            k = 1
            while i + 1 < len(events) and events[i + 1][0] == EV_GIVE:
                i += 1
                e = events[i]
                assert (e[1], e[2], e[4]) == (asker, (asker + k) % n, 2)
                hands[asker].remove(e[3])
                hands[e[2]].add(e[3])
                k += 1
            assert k == n or not hands[asker]
        elif kind == EV_PASS:
            asked, asker = player, target
            order = [(asked + k) % n for k in range(1, n) if (asked + k) % n != asker]
            givers = []
            while i + 1 < len(events) and events[i + 1][0] == EV_GIVE:
                i += 1
                e = events[i]
                hands[e[1]].remove(e[3])
                hands[e[2]].add(e[3])
                assert e[2] == asker and e[4] == 1
                givers.append(e[1])
            assert givers == sorted(givers, key=order.index)
            if params[2] == 0:
                assert len(givers) == len(set(givers))
            if params[2] == 2:
                assert len(givers) <= 1
        i += 1


def test_logs_follow_the_rules() -> None:
    rng = random.Random(7)
    seen_kinds: set[int] = set()
    whole = 0
    for seed in range(80):
        n = rng.randint(2, 8)
        params = random_params(rng)
        s = c_core.new_state("notakers", params, n, seed)
        while s.current_player() != TERMINAL:
            legal = s.legal_actions()
            s.apply(
                ACTION_DRAW if ACTION_DRAW in legal and rng.random() < 0.3 else rng.choice(legal)
            )
        events = s.events()
        assert events[-1][0] == EV_GAME_OVER
        assert [e[0] for e in events[-1 - n : -1]] == [EV_SCORE] * n
        if len(events) < LOG_CAPACITY:  # the ring kept the whole game
            assert [e[0] for e in events[: 26 // n * n]] == [EV_DEAL] * (26 // n * n)
            check_log(events, n, params)
            whole += 1
        seen_kinds |= {e[0] for e in events}
    assert whole >= 40
    assert seen_kinds == set(range(9))


def test_the_log_is_a_ring_and_the_game_goes_on() -> None:
    """Asking and never drawing: the log keeps the last 256 events, play goes on."""
    s = c_core.new_state("notakers", [0] * 7, 2, 3)
    r = ref.new_state("notakers", [0] * 7, 2, 3, c_core.shuffled_deck(3, 52))
    rng = random.Random(5)
    for _ in range(600):
        legal = [a for a in s.legal_actions() if a != ACTION_DRAW] or s.legal_actions()
        a = rng.choice(legal)
        assert s.apply(a) == 0 and r.apply(a) == 0
        if s.current_player() == TERMINAL:
            break
    assert len(r.log) > LOG_CAPACITY
    assert len(s.events()) == LOG_CAPACITY and s.events() == r.log[-LOG_CAPACITY:]


# ---------------------------------------------------------------------------
# illegal actions


def test_every_reason_leaves_the_state_unchanged() -> None:
    rng = random.Random(3)
    found: dict[int, int] = {}
    for _ in range(40):
        n = rng.randint(2, 8)
        params = random_params(rng)
        c, r = pair(rng, params, n)
        while True:
            for a in [0, 1, 2, 3, *rng.sample(range(-2, c.num_actions() + 2), 12)]:
                code = c.verify(a)
                assert code == r.verify(a)
                if code == 0:
                    continue
                found[code] = found.get(code, 0) + 1
                raw, events = c.raw(), c.events()
                assert c.apply(a) == code and r.apply(a) == code
                assert c.raw() == raw and c.events() == events
                assert c.reason_text(code) == r.reason_text(code)
            if c.current_player() == TERMINAL:
                break
            a = pick(rng, c.legal_actions())
            assert c.apply(a) == 0 and r.apply(a) == 0
    # -3: game over; 8 and 12 need set-only saves and two take-backs in a turn
    # (their own tests below)
    assert set(found) | {8, 12} == {-3, *range(2, 13)}, sorted(found)


def test_a_save_is_taken_back_at_most_twice_a_turn() -> None:
    """One Save taken back leaves Save open; a second closes it for the turn
    (reason 12, state unchanged); the next turn of the player opens it again."""
    s = c_core.new_state("notakers", [0] * 7, 2, 4)
    r = ref.new_state("notakers", [0] * 7, 2, 4, c_core.shuffled_deck(4, 52))
    hand = [c for c in range(52) if s.observe_tensor(0)[c]]
    for taken_back in (1, 2):
        for a in (ACTION_SAVE + hand[0], ACTION_SAVE + hand[1], ACTION_SAVE_CANCEL):
            assert s.apply(a) == 0 and r.apply(a) == 0
        saves = [a for a in s.legal_actions() if ACTION_SAVE <= a < ACTION_SAVE + 52]
        assert saves == ([ACTION_SAVE + c for c in sorted(hand)] if taken_back == 1 else [])
        assert s.legal_actions() == r.legal_actions()
    raw = s.raw()
    assert s.verify(ACTION_SAVE + hand[0]) == 12 and r.verify(ACTION_SAVE + hand[0]) == 12
    assert s.apply(ACTION_SAVE + hand[0]) == 12 and s.raw() == raw
    assert s.reason_text(12) == r.reason_text(12)
    for _ in range(2):  # both players draw: seat 0's next turn
        assert s.apply(ACTION_DRAW) == 0 and r.apply(ACTION_DRAW) == 0
    assert s.current_player() == 0 and s.verify(ACTION_SAVE + hand[0]) == 0


def test_a_bot_that_always_takes_back_cannot_stall_the_game() -> None:
    """Every turn ends, whatever the player does: a player who cancels a
    Save whenever he may and starts one whenever he may (else plays at
    random) finishes each turn within 2 take-backs, so a game capped at 100
    turns ends (before the cap on take-backs, such a player never did)."""
    rng = random.Random(11)
    params = [0] * 7
    params[4] = 100  # max_turns
    for seed in range(30):
        s = c_core.new_state("notakers", params, 3, seed)
        moves = 0
        while s.current_player() != TERMINAL:
            legal = s.legal_actions()
            saves = [a for a in legal if ACTION_SAVE <= a < ACTION_SAVE + 52]
            if ACTION_SAVE_CANCEL in legal:
                a = ACTION_SAVE_CANCEL
            elif saves:
                a = saves[0]
            else:
                a = rng.choice(legal)
            assert s.apply(a) == 0
            moves += 1
            assert moves < 100 * 20, f"seed {seed}: no end after {moves} moves"


def test_save_must_be_sets_when_required() -> None:
    """save_requires_set: 3 loose cards are refused (reason 8), a trips is saved."""
    from itertools import combinations

    s = c_core.new_state("notakers", [1, 0, 0, 0, 0, 0, 0], 2, 8)
    hand = [c for c in range(52) if s.observe_tensor(0)[c]]
    loose = next(
        t
        for t in combinations(hand, 3)
        if not ref.notakers_splits_exactly(sum(1 << (16 * (c // 13) + c % 13) for c in t), 0)
    )
    for c in loose:
        assert s.apply(ACTION_SAVE + c) == 0
    raw = s.raw()
    assert s.verify(ACTION_SAVE_DONE) == 8 and s.apply(ACTION_SAVE_DONE) == 8
    assert s.raw() == raw
    assert s.reason_text(8) == "the saved cards must split into sets with none left over"
    assert s.apply(2) == 0  # cancel: back to the turn's choice, nothing saved
    assert s.current_player() == 0 and s.observe_tensor(0)[52:104].sum() == 0


def test_facade_raises_with_the_reason() -> None:
    game = NoTakersGame(rules=NoTakersRules(), num_players=3)
    s = game.new_initial_state(1)
    absent = next(c for c in range(52) if c not in {int(x) for x in s.observation(0).hand})
    with pytest.raises(IllegalActionError, match="card not in hand"):
        s.apply(ACTION_SAVE + absent)
    with pytest.raises(IllegalActionError, match="not allowed in this phase"):
        s.apply(ACTION_GIVE)
    first = int(next(iter(s.observation(0).hand)))
    s.apply(ACTION_SAVE + first)
    with pytest.raises(IllegalActionError, match="at least 3 cards"):
        s.apply(ACTION_SAVE_DONE)
    assert s.observation(0).selection.ids() == [first]
    assert game.action_from_name(game.action_name(ask_action(2, 13))) == ask_action(2, 13)


# ---------------------------------------------------------------------------
# hidden information


def test_no_leak_hidden_cards_do_not_change_the_observation() -> None:
    rng = random.Random(11)
    differ = 0
    for seed in range(25):
        n = rng.randint(2, 6)
        params = random_params(rng)
        s = c_core.new_state("notakers", params, n, seed)
        for _ in range(rng.randint(0, 120)):
            if s.current_player() == TERMINAL:
                break
            s.apply(pick(rng, s.legal_actions()))
        if s.current_player() == TERMINAL:
            continue
        for p in range(n):
            other = s.sample_infoset(p, rng.getrandbits(64))
            assert np.array_equal(other.observe_tensor(p), s.observe_tensor(p))
            saved = other_saves(other, n)
            for real, fake in zip(s.events(), other.events(), strict=True):
                if real[5] >> p & 1:  # seen by p (or public): kept as it is
                    assert fake == real
                    continue
                assert fake[:3] == real[:3] and fake[4:] == real[4:]
                if real[0] == EV_SAVE:  # a hidden save shows a card of the sampled pile
                    assert fake[3] in saved[real[1]]
                    saved[real[1]].remove(fake[3])
                else:
                    assert fake[3] == UNSEEN
            assert other.legal_mask() == s.legal_mask() or other.current_player() != p
            if other.current_player() == p:
                assert other.legal_mask() == s.legal_mask()
            differ += any(
                not np.array_equal(other.observe_tensor(q), s.observe_tensor(q)) for q in range(n)
            )
    assert differ > 0, "the samples do move hidden cards"


def other_saves(state: Any, n: int) -> list[set[int]]:
    """Each seat's save pile in a state, read from its own observation."""
    return [{c for c in range(52) if state.observe_tensor(q)[52 + c]} for q in range(n)]


def test_given_card_is_seen_by_giver_and_receiver_only() -> None:
    game = NoTakersGame(num_players=4)
    rng = random.Random(2)
    s = game.new_initial_state(2)
    while not s.is_terminal and not any(e.kind == "give" for e in s.events()):
        s.apply(pick(rng, s.legal_actions()))
    give = next(i for i, e in enumerate(s.events()) if e.kind == "give")
    raw = s.events()[give]
    assert raw.value is None  # a spectator does not see it
    for p in range(4):
        seen = s.events(p)[give].value
        if p in (raw.player, raw.target):
            assert seen is not None and 0 <= seen < 52
        else:
            assert seen is None


def test_observation_decodes_the_tensor() -> None:
    game = NoTakersGame(rules=NoTakersRules(save_visibility="open"), num_players=3)
    rng = random.Random(4)
    s = game.new_initial_state(4)
    while not s.is_terminal:
        obs = s.observation(1)
        assert obs.current_player == s.current_player
        assert len(obs.hand) == obs.hand_sizes[1]
        assert obs.save_piles is not None and obs.save_piles[1] is None
        assert len(obs.save) == obs.save_sizes[1]
        for q in (0, 2):
            pile = obs.save_piles[q]
            assert pile is not None and len(pile) == obs.save_sizes[q]
        s.apply(pick(rng, s.legal_actions()))
    final = s.observation(0)
    assert final.phase_name == "over" and final.points == tuple(s.returns())
    assert final.current_player is None
    hidden = NoTakersGame(num_players=3).new_initial_state(4).observation(0)
    assert hidden.save_piles is None
