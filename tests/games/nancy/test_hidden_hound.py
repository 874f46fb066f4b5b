"""A Hound nobody else saw (``reveal_hound=False``) stays hidden in samples.

Two stacked decks that differ only by one card swapped between the Taker's
face-down deal and the Hound give the same Taker's cards after the take, so
the same actions replay on both and no other seat can tell them apart.  A
non-Taker seat's samples of the two states, with the same seed, must then be
the same in every output: every seat's observation, tensor, events and view,
and the raw bytes of the sampled state.  A sampler that copied the real Hound
(or the real split of the Taker's cards between his deal and the Hound) into
the sample fails here as soon as the Taker has played a swapped card.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from _brute import deals
from _stats import Z_1E6, chi2, chi2_limit

from pycards.errors import IllegalActionError
from pycards.game import State
from pycards.games.nancy import NancyGame, NancyRules


def _public(state: State[Any], seat: int) -> tuple[Any, ...]:
    view = state.view(seat)
    return (
        view.observation,
        view.observation_tensor().tobytes(),
        [(e.kind, e.player, e.target, e.value, e.extra) for e in view.events()],
        view.legal_actions(),
        view.table(),
        repr(view),
    )


def _everything(state: State[Any]) -> tuple[Any, ...]:
    n = state.num_players
    return (
        tuple(_public(state, q) for q in range(n)),
        [(e.kind, e.player, e.target, e.value, e.extra) for e in state.events()],
        state.engine_state.raw(),
    )


def _redealt(state: State[Any]) -> bool:
    return sum(e.kind == "dealer" for e in state.events()) > 1


def _swapped_pair(game: NancyGame, seed: int) -> tuple[list[int], list[int], list[int]] | None:
    """A deck, the same deck with a card of the Taker's face-down deal swapped
    with one of the Hound (neither a face card, so the call ladder is the
    same, nor the called card), and the actions of one random deal."""
    rng = random.Random(seed)
    deck = list(range(78))
    rng.shuffle(deck)
    state = game.new_initial_state(seed, deck=deck)
    dealt: dict[int, list[int]] = {
        q: sorted(state.observation(q).hand) for q in range(game.num_players)
    }
    while not state.is_terminal and state.observation(0).phase_name != "over":
        state.apply(rng.choice(state.legal_actions()))
        obs = state.observation(0)
        if obs.taker is not None and obs.phase_name == "play" and obs.trick_index == 0:
            break
    obs = state.observation(0)
    if obs.taker is None or obs.phase_name != "play" or obs.rounds_done or _redealt(state):
        return None
    taker = obs.taker
    hound = sorted(state.observation(taker).hound)
    called = obs.called

    def plain(c: int) -> bool:
        return not (c < 56 and c % 14 >= 10) and (called is None or c != int(called))

    xs = [c for c in dealt[taker] if plain(c)]
    ys = [c for c in hound if plain(c)]
    if not xs or not ys:
        return None
    x, y = rng.choice(xs), rng.choice(ys)
    other = list(deck)
    i, j = other.index(x), other.index(y)
    other[i], other[j] = other[j], other[i]
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return deck, other, list(state.history)


CASES = [
    (4, NancyRules(reveal_hound=False, match_rounds=1, first_dealer=0)),
    (
        5,
        NancyRules(
            reveal_hound=False,
            face_up_count=0,
            self_call_allowed=False,
            match_rounds=1,
            first_dealer=0,
        ),
    ),
    (6, NancyRules(reveal_hound=False, face_up_count=0, match_rounds=1, first_dealer=0)),
    (3, NancyRules(reveal_hound=False, match_rounds=1, first_dealer=0)),
    (2, NancyRules(reveal_hound=False, match_rounds=1, first_dealer=0)),
]


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_a_hidden_hound_does_not_show_through_a_sample(players: int, rules: NancyRules) -> None:
    game = NancyGame(rules, players)
    checked = 0
    for seed in range(40):
        pair = _swapped_pair(game, seed)
        if pair is None:
            continue
        deck, other, history = pair
        a = game.new_initial_state(seed, deck=deck)
        b = game.new_initial_state(seed, deck=other)
        for action in history:
            a.apply(action)
            b.apply(action)
            taker = a.observation(0).taker
            if taker is None or a.is_terminal or a.observation(0).phase_name in ("bidding", "call"):
                continue
            for p in range(players):
                if p == taker:
                    continue
                assert a.observation(p) == b.observation(p)
                for k in (len(a.history) % 5,):
                    sa, sb = a.sample_infoset(p, k), b.sample_infoset(p, k)
                    assert _everything(sa) == _everything(sb), (seed, p, k, len(a.history))
                    checked += 1
        if checked > 60:
            break
    assert checked > 20


def _cards(tensor: Any, seg: dict[str, Any]) -> frozenset[int]:
    part = tensor[seg.offset : seg.offset + seg.length]
    return frozenset(int(c) for c in np.flatnonzero(part))


def _late_hidden_hound(seed: int) -> Any:
    """5 players, a Queen called (no self call), a Hound nobody but the Taker
    saw, one trick left; the viewer is an opponent of the Taker.  Returns the
    state, deck, actions, viewer, the Taker's face-down deal and the Hound."""
    rules = NancyRules(reveal_hound=False, self_call_allowed=False, match_rounds=1, first_dealer=0)
    game = NancyGame(rules, 5)
    rng = random.Random(seed)
    deck = list(range(78))
    rng.shuffle(deck)
    state = game.new_initial_state(seed, deck=deck)
    dealt = {q: frozenset(int(c) for c in state.observation(q).hand) for q in range(5)}
    hound: frozenset[int] = frozenset()
    while not state.is_terminal:
        obs = state.observation(0)
        if obs.taker is not None and not hound and obs.phase_name == "discard":
            hound = frozenset(int(c) for c in state.observation(obs.taker).hound)
        if obs.phase_name == "play" and obs.trick_index == 14 and not obs.trick_cards:
            if _redealt(state) or obs.taker is None:
                return None
            viewer = next(q for q in range(5) if q not in (obs.taker, obs.partner))
            return state, deck, list(state.history), viewer, dealt[obs.taker], hound
        state.apply(rng.choice(state.legal_actions()))
    return None


class _Position:
    """A late position of `_late_hidden_hound` and the worlds its viewer
    cannot rule out, by brute force."""

    def __init__(self, late: Any) -> None:
        state, deck, history, p, deal_t, hound = late
        self.state, self.deck, self.history, self.p, self.hound = state, deck, history, p, hound
        self.game = state.game
        obs = state.observation(0)
        self.taker = taker = obs.taker
        self.called = int(obs.called)
        self.seg = {s.name: s for s in self.game.segments}
        obs_t = state.observation_tensor(taker)
        hand_t = _cards(obs_t, self.seg["hand"])
        self.disc_public = frozenset(int(c) for c in state.observation(p).discards)
        hidden_disc = _cards(obs_t, self.seg["discards"]) - self.disc_public
        self.took = deal_t | hound
        self.public_took = self.took - hand_t - hidden_disc
        self.others = [q for q in range(5) if q not in (p, taker)]
        hands = [_cards(state.observation_tensor(q), self.seg["hand"]) for q in self.others]
        self.places = [*hands, hand_t, hidden_disc]
        # the deck positions that dealt each unknown place's cards
        self.hand_pos = [[deck.index(c) for c in h] for h in hands]
        self.took_pos = sorted(deck.index(c) for c in deal_t)
        self.hound_pos = sorted(deck.index(c) for c in hound)
        self.disc_at = [i for i, a in enumerate(history) if 88 <= a < 166 and a - 88 in hidden_disc]
        self.call_at = next(i for i, a in enumerate(history) if 10 <= a < 88)

    def trial_deck(self, parts: tuple[frozenset[int], ...], h: frozenset[int]) -> list[int]:
        trial = list(self.deck)
        for pos, part in zip(self.hand_pos, parts[: len(self.others)], strict=True):
            for at, c in zip(pos, sorted(part), strict=True):
                trial[at] = c
        took_w = self.public_took | parts[-2] | parts[-1]
        for at, c in zip(self.took_pos, sorted(took_w - h), strict=True):
            trial[at] = c
        for at, c in zip(self.hound_pos, sorted(h), strict=True):
            trial[at] = c
        return trial

    def replays(self, trial: list[int], actions: list[int]) -> Any:
        replay = self.game.new_initial_state(self.state.seed or 0, deck=trial)
        try:
            for a in actions:
                replay.apply(a)
        except IllegalActionError:
            return None
        return replay

    def worlds(self) -> list[tuple[tuple[frozenset[int], ...], frozenset[int]]]:
        target = self.state.observation_tensor(self.p).tobytes()
        unknown = sorted(c for x in self.places for c in x)
        sizes = [len(x) for x in self.places]
        out = []
        for key in deals(unknown, sizes):
            took_w = self.public_took | key[-2] | key[-1]
            actions = list(self.history)
            for i, c in zip(self.disc_at, sorted(key[-1]), strict=True):
                actions[i] = 88 + c
            # the splits that replay up to the call (those holding the called
            # card first: just quicker to find one)
            ordered = sorted(took_w, key=lambda c: (c != self.called, c))
            hounds = (
                h
                for (h,) in deals(ordered, [len(self.hound)], whole=False)
                if self.replays(self.trial_deck(key, frozenset(h)), actions[: self.call_at + 1])
                is not None
            )
            first = next(hounds, None)
            if first is None:
                continue
            full = self.replays(self.trial_deck(key, first), actions)
            if full is None or full.observation_tensor(self.p).tobytes() != target:
                continue
            out.append((key, first))
            out.extend((key, h) for h in hounds)
        return out

    def sampled_world(self, k: int) -> tuple[tuple[frozenset[int], ...], frozenset[int]]:
        s = self.state.engine_state.sample_infoset(self.p, k)
        t = np.asarray(s.observe_tensor(self.taker))
        hand = self.seg["hand"]
        got = (
            *(_cards(np.asarray(s.observe_tensor(q)), hand) for q in self.others),
            _cards(t, hand),
            _cards(t, self.seg["discards"]) - self.disc_public,
        )
        return got, _cards(t, self.seg["hound"])


def test_a_hidden_hound_is_sampled_uniformly_by_brute_force() -> None:
    """Exactness with a hidden Hound whose cards the Taker played: every world
    an opponent of the Taker cannot rule out is tried, a world being where the
    unknown cards are (the other face-down hands and the Taker's hidden
    discards) and which of the Taker's face-down cards after the take were the
    Hound.  A world is consistent when the game's actions replay on a deck that
    deals it (with its discards in place of the real ones) and the viewer's
    observation comes out the same.  Bids never depend on the cards and the
    Taker's hand after the take is his deal and the Hound together, so each
    placement of the unknown cards is replayed in full once, and each split
    of the Taker's cards up to the call (where the ladder and the no-self-call
    rule read his deal).  The samples (their hands, discards and Hound) must
    hit every consistent world, no other, with equal frequencies."""
    for seed in range(400):
        late = _late_hidden_hound(seed)
        if late is None:
            continue
        pos = _Position(late)
        if pos.called not in pos.took or not pos.hound & pos.public_took:
            continue  # want: the called card came from the Hound; Hound cards played
        worlds = pos.worlds()
        assert (tuple(pos.places), pos.hound) in worlds
        if 20 <= len(worlds) <= 300 and len({w[0] for w in worlds}) >= 2:
            break
    else:
        raise AssertionError("no position with a suitable number of worlds")
    draws = 150 * len(worlds)
    counts = dict.fromkeys(worlds, 0)
    for k in range(draws):
        world = pos.sampled_world(k)
        assert world in counts, "an inconsistent world was sampled"
        counts[world] += 1
    observed = list(counts.values())
    assert min(observed) > 0
    assert chi2(observed, [draws / len(worlds)] * len(worlds)) < chi2_limit(len(worlds) - 1, Z_1E6)
