"""The game tells its story: the event cursor, undo, narration, and no hidden
card in any seat's transcript (narration, record, terminal lines, web message)."""

from __future__ import annotations

import io
import random
import re
import sys
from typing import Any

import pytest

from pycards.errors import EventsDroppedError, EventsRewrittenError, PycardsError
from pycards.game import REFEREE, EventCursor, State, game_names, load_game
from pycards.narrate import narrate
from pycards.record import write_record
from pycards.summary import Story, named, story, summaries

GAMES = game_names()


def _counts(name: str) -> list[int]:
    info = load_game(name).info
    return list(range(info.min_players, info.max_players + 1))


CONFIGS = [(name, n) for name in GAMES for n in _counts(name)]
#: a registered game, for the tests of behaviour every game shares
ONE = GAMES[0]


def _random_game(name: str, n: int, seed: int, limit: int = 4000) -> State[Any]:
    state = load_game(name, None, n).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal and len(state.history) < limit:
        state.apply(rng.choice(state.legal_actions()))
    return state


# ---------------------------------------------------------------------------
# the event cursor


@pytest.mark.parametrize("name", GAMES)
def test_cursor_follows_an_overflowing_log_exactly_once(name: str) -> None:
    """Polling with since= after every action receives every event exactly
    once, in order, with the indexes 0, 1, 2, ...; the log overflows."""
    n = _counts(name)[-1]
    for seed in range(20):
        state = load_game(name, None, n).new_initial_state(seed)
        rng = random.Random(seed)
        got = list(state.events(REFEREE, since=0))
        while not state.is_terminal and len(state.history) < 6000:
            cursor = state.event_count
            state.apply(rng.choice(state.legal_actions()))
            got.extend(state.events(REFEREE, since=cursor))
        if state.events_dropped():
            break
    else:
        pytest.skip(f"{name}: no game of 20 overflows its log")
    assert [e.index for e in got] == list(range(state.event_count))
    kept = state.events(REFEREE)
    assert got[-len(kept) :] == kept
    with pytest.raises(EventsDroppedError) as exc:
        state.events(since=0)
    assert exc.value.dropped == state.events_dropped()


def test_cursor_checks_its_argument() -> None:
    state = load_game(ONE).new_initial_state(1)
    with pytest.raises(TypeError):
        state.events(since=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="since"):
        state.events(since=state.event_count + 1)
    assert state.events(since=state.event_count) == []


def test_referee_sees_every_value_and_the_spectator_the_public_ones() -> None:
    state = load_game(ONE).new_initial_state(4)
    assert all(e.value is not None for e in state.events(REFEREE))
    assert any(e.value is None for e in state.events())


# ---------------------------------------------------------------------------
# undo


@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_undo_is_replay_of_the_shorter_history(name: str, n: int) -> None:
    state = _random_game(name, n, 3, limit=300)
    history = state.history
    for k in range(1, min(40, len(history)) + 1):
        assert state.undo() == history[-k]
        assert state.history == history[:-k]
    again = load_game(name, None, n).new_initial_state(3)
    for a in state.history:
        again.apply(a)
    assert str(again) == str(state)
    assert again.events(REFEREE) == state.events(REFEREE)
    assert again.legal_actions() == state.legal_actions()
    # the snapshots follow a new line of play after an undo
    state.apply(state.legal_actions()[-1])
    branch = state.history
    state.undo()
    assert state.history == branch[:-1]


def _branch_point(name: str, n: int, seed: int) -> State[Any]:
    """A random game of ``name`` stopped where its mover has two legal actions."""
    state = load_game(name, None, n).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        if len(legal) > 1 and len(state.history) >= 5:
            return state
        state.apply(rng.choice(legal))
    pytest.skip(f"{name}: no choice in game {seed}")


@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_a_cursor_taken_before_an_undo_is_refused_past_the_cut(name: str, n: int) -> None:
    state = _branch_point(name, n, 7)
    first, second = state.legal_actions()[:2]
    base = state.cursor
    state.apply(first)
    after_first = state.cursor
    taken_back = state.events(REFEREE, since=base)
    assert state.undo() == first
    assert state.log_generation == 1
    # before the cut: the same events as then, whatever came after
    assert state.events(REFEREE, since=base) == []
    state.apply(second)
    new = state.events(REFEREE, since=base)
    again = load_game(name, None, n).new_initial_state(7)
    for action in state.history:
        again.apply(action)
    assert new == again.events(REFEREE, since=base.index)
    if after_first.index == base.index:
        assert taken_back == []
        return  # the action taken back logged nothing: no cursor went past the cut
    # past the cut: refused, saying where to read again from
    with pytest.raises(EventsRewrittenError) as caught:
        state.events(REFEREE, since=after_first)
    assert caught.value.rewound_to == base.index and caught.value.since == after_first.index
    # a plain index past the rewritten end names the undo, not a range
    if after_first.index > state.event_count:
        with pytest.raises(EventsRewrittenError):
            state.events(REFEREE, since=after_first.index)
    # a cursor taken after the undo is good
    assert state.events(REFEREE, since=state.cursor) == []


@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_a_story_drops_an_undone_move_and_tells_its_replacement(name: str, n: int) -> None:
    state = _branch_point(name, n, 11)
    first, second = state.legal_actions()[:2]
    told = Story(state.game, REFEREE)
    told.update(state)
    cut = state.event_count
    state.apply(first)
    told.update(state)
    state.undo()
    state.apply(second)
    lines, _ = told.update(state)
    whole = story(state, REFEREE)
    assert [line.text for line in told.lines] == [line.text for line in whole.lines]
    assert [str(s) for s in told.summaries] == [str(s) for s in whole.summaries]
    assert [line.event.index for line in lines] == [
        line.event.index for line in whole.lines if line.event.index >= cut
    ]


def test_cursors_are_values() -> None:
    state = load_game(ONE).new_initial_state(0)
    assert state.cursor == EventCursor(state.event_count, 0)
    with pytest.raises(TypeError, match="since"):
        state.events(since=1.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_undo_after_a_branch_keeps_its_snapshots_on_the_new_line(name: str) -> None:
    """An undo rebuilds from the snapshots of the current line of play: one
    left by another line is replaced, so the next undo starts from it."""
    n = _counts(name)[0]
    state = _random_game(name, n, 5, limit=80)
    if len(state.history) < 40:
        pytest.skip(f"{name}: game 5 is short")
    while len(state.history) > 20:
        state.undo()
    rng = random.Random(1)
    while not state.is_terminal and len(state.history) < 60:
        state.apply(rng.choice(state.legal_actions()))
    state.undo()
    history = state.history
    for k, (prefix, _) in state._snapshots.items():  # white box: undo's cache
        if k <= len(history):
            assert prefix == history[:k], k


@pytest.mark.parametrize("name", GAMES)
def test_apply_and_undo_from_two_threads_lose_no_action(name: str) -> None:
    """One state shared by two threads: every accepted action is in the
    history unless an undo took it back (apply and undo are ordered)."""
    import threading

    state = load_game(name, None, _counts(name)[0]).new_initial_state(2)
    applied = [0]
    undone = [0]
    stop = threading.Event()

    def play() -> None:
        rng = random.Random(3)
        for _ in range(1500):
            legal = state.legal_actions()
            if not legal:
                break
            try:
                state.apply(rng.choice(legal))
            except PycardsError:
                continue  # the position moved under us: refused whole
            applied[0] += 1
        stop.set()

    def take_back() -> None:
        while not stop.is_set():
            try:
                state.undo()
            except PycardsError:
                continue
            undone[0] += 1

    threads = [threading.Thread(target=play), threading.Thread(target=take_back)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often: inside an undo too
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        sys.setswitchinterval(interval)
    assert not any(t.is_alive() for t in threads)
    assert len(state.history) == applied[0] - undone[0]
    assert applied[0] > 0


def test_undo_refuses_an_empty_history_and_a_sample() -> None:
    state = load_game(ONE).new_initial_state(0)
    with pytest.raises(PycardsError, match="no action"):
        state.undo()
    state.apply(state.legal_actions()[0])
    with pytest.raises(PycardsError, match="sampled"):
        state.sample_infoset(0, 1).undo()


# ---------------------------------------------------------------------------
# narration


@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_every_score_change_has_its_reason(name: str, n: int) -> None:
    """Each event that gives points is told with its points and why."""
    state = _random_game(name, n, 5)
    lines = narrate(state, REFEREE)
    assert len(lines) == len(state.events(REFEREE))
    for line in lines:
        if line.points:
            assert str(line.points) in line.text
            assert re.search(r" for |: ", line.text), line.text
        assert "{" not in line.text and "(player" not in line.text


#: engine text a person should never read: an index from 0, a side number,
#: a -1, a raw kind name, a third-person "his", "You" with a verb in -s
ENGINE_TEXT = re.compile(
    r"trick 0\b|for side \d|\(side \d|-1\b|version|fallback|_|\bhis (hand|best|crib)|\bhim\b"
    r"|\bYou (is|has|[a-z]+[^s]s)\b|\bdeal 0\b|\bseat \d"
)


@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_the_story_speaks_words_not_engine_text(name: str, n: int) -> None:
    """Every line and summary, for every seat and a spectator, named seats
    (the first named "You"), in words: no engine index or kind."""
    state = _random_game(name, n, 3, limit=1500)
    names = ["You", *(f"Player {k}" for k in range(1, n))]
    for viewer in (*range(n), None):
        told = story(state, viewer, names)
        texts = [line.text for line in told.lines]
        texts += [named(line, names) for s in told.summaries for line in s.lines()]
        for text in texts:
            assert not ENGINE_TEXT.search(text), (viewer, text)
    assert load_game(name).TITLE, "the game's title, as people write it"


# ---------------------------------------------------------------------------
# no hidden card in any transcript


def _deck(game: Any, seed: int) -> list[int]:
    deck = list(range(game.info.deck_size))
    random.Random(seed).shuffle(deck)
    return deck


def _swap_name(name: str, a: str, b: str) -> str:
    swap = {a: b, b: a}
    return " ".join(swap.get(w, w) for w in name.split())


def _transcript(state: State[Any], p: int) -> list[str]:
    """Everything seat p is shown: the narration, the summaries so far, its
    record, the terminal table's lines for each action, and the browser
    table's message."""
    from pycards.ui.terminal import TerminalTable
    from pycards.ui.web.tables import view_message

    game = state.game
    names = [f"seat {k}" for k in range(game.num_players)]
    replay = game.new_initial_state(state.seed, state.deck)
    stream = io.StringIO()
    table = TerminalTable(game, seat=p, seed=state.seed or 0, stdout=stream, state=replay)
    for a in state.history:
        replay.apply(a)
        table._tell()  # every seat's move, as seat p is shown it
    table.show_table()
    msg = view_message(state.view(p), names, names)
    return [
        *(line.text for line in narrate(state, p)),
        *(str(summary) for summary in summaries(state, p)),
        write_record(state, viewer=p, names=names),
        stream.getvalue(),
        repr(msg),
    ]


def _twin_worlds(name: str, n: int, seed: int) -> tuple[State[Any], State[Any], int] | None:
    """A game, and the same game with two cards that seat p never sees
    exchanged in the deck and in the actions' names, as long as seat p's
    observation stays the same at every step (so p cannot tell them apart)."""
    game = load_game(name, None, n)
    rng = random.Random(seed)
    p = rng.randrange(n)
    deck = _deck(game, seed)
    a_state = game.new_initial_state(seed, deck)
    limit = rng.randrange(15, 80)
    while not a_state.is_terminal and len(a_state.history) < limit:
        a_state.apply(rng.choice(a_state.legal_actions()))
    card = game.CARD_TYPE
    # cards that seat p ever sees in the kept events, or in its final view
    seen = {e.value for e in a_state.events(p) if e.card is not None}
    summarizer = type(game).SUMMARIZER
    if a_state.is_terminal and summarizer is not None and summarizer.SHOWN_AT_END:
        seen |= set(deck)  # every hand is laid down at the end: no twin to find
    candidates = [c for c in deck if c not in seen]
    rng.shuffle(candidates)
    # first the hidden cards that the actions name (where a leak would show)
    words = {w for act in a_state.history for w in game.action_name(act).split()}
    named = [c for c in candidates if str(card(c)) in words]
    pairs = [(x, y) for x in named for y in candidates if y != x][:30]
    pairs += list(zip(candidates[::2], candidates[1::2], strict=False))
    fallback = None
    for x, y in pairs:
        sx, sy = str(card(x)), str(card(y))
        b_deck = [y if c == x else x if c == y else c for c in deck]
        a = game.new_initial_state(seed, deck)
        b = game.new_initial_state(seed, b_deck)
        same = a.observation_tensor(p).tobytes() == b.observation_tensor(p).tobytes()
        steps = 0
        for act in a_state.history:
            if not same:
                break
            try:
                other = game.action_from_name(_swap_name(game.action_name(act), sx, sy))
            except ValueError:
                break
            if not b.can_apply(other):
                break
            a_next, b_next = a.clone(), b.clone()
            a_next.apply(act)
            b_next.apply(other)
            if a_next.observation_tensor(p).tobytes() != b_next.observation_tensor(p).tobytes():
                break
            a, b, steps = a_next, b_next, steps + 1
        if steps >= 10 and a.history != b.history:
            return a, b, p
        if steps >= 10 and fallback is None:
            fallback = a, b, p
    return fallback


@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_a_seat_is_shown_nothing_it_cannot_see(name: str, n: int) -> None:
    """Two worlds that differ only in cards seat p cannot see give p the same
    narration, summaries, record, terminal lines and web message."""
    found = 0
    for seed in range(40):
        twins = _twin_worlds(name, n, seed)
        if twins is None:
            continue
        a, b, p = twins
        for got, want in zip(_transcript(b, p), _transcript(a, p), strict=True):
            assert got == want
        found += 1
        if found >= 3:
            break
    assert found, f"{name} with {n}: no twin worlds found"


@pytest.mark.parametrize("name", GAMES)
def test_an_event_kind_without_a_value_prints_none(name: str) -> None:
    """``str(event)`` gives a value only where the kind has one (a go is
    ``seat 0 go``, not ``seat 0 go 0``)."""
    kinds = load_game(name).info.event_kinds
    state = _random_game(name, _counts(name)[0], 2)
    events = state.events(REFEREE)
    for ev in events:
        words = str(ev).split()
        if kinds[ev.kind_id].value == "none":
            assert words[-1] == ev.kind, str(ev)
        else:
            assert words[-1] != ev.kind, str(ev)
    assert {kinds[e.kind_id].value for e in events} >= {"number"}
