"""The rule-based heuristic of each game (each docs page, "The heuristic bot").

(a) Over random positions of every game, player count and preset, the
heuristic returns a legal action, and refuses a finished game.  (b) It reads
only what the player to act may know: on an information-set sample of the
position (same own cards and public facts, other hidden cards) it chooses the
same action.  (c) It beats uniformly random players by a wide margin (seats
rotated; a one-sided binomial test on the win rate, ties split).  (d) In
hand-built positions where the right move is plain, it makes it.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from cardcore import _core
from pycards import IllegalActionError
from pycards.game import Game, Rules, State
from pycards.nancy import NancyCard, NancyGame, NancyRules
from pycards.nodde import NoddeGame, NoddeRules
from pycards.notakers import NoTakersGame, NoTakersRules

GAMES: dict[str, tuple[type[Game[Any, Any]], type[Rules]]] = {
    "nodde": (NoddeGame, NoddeRules),
    "notakers": (NoTakersGame, NoTakersRules),
    "nancy": (NancyGame, NancyRules),
}


def _cases() -> list[tuple[str, str, Rules, int]]:
    out = []
    for name, (_, rules_cls) in GAMES.items():
        info = _core.game_info(name)
        presets: dict[str, Rules] = dict(rules_cls.presets())
        if name == "nodde":
            presets["no_reshuffle"] = NoddeRules(reshuffle_each_deal=False)
        for label, rules in presets.items():
            for n in range(info["min_players"], info["max_players"] + 1):
                if name == "nodde" and label == "no_reshuffle" and n != 2:
                    continue
                out.append((name, label, rules, n))
    return out


CASES = _cases()
IDS = [f"{name}-{label}-{n}p" for name, label, _, n in CASES]


def _positions(game: Game[Any, Any], seed: int, max_steps: int, every: int = 1) -> list[State[Any]]:
    """States along a game where each move is the heuristic's or a random
    one (a coin decides), so that the positions are varied."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    out = []
    for step in range(max_steps):
        if state.is_terminal:
            break
        if step % every == 0:
            out.append(state.clone())
        if rng.random() < 0.5:
            action = state._s.heuristic_action(rng.getrandbits(64))
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
    return out


@pytest.mark.parametrize(("name", "label", "rules", "players"), CASES, ids=IDS)
def test_heuristic_action_is_legal(name: str, label: str, rules: Rules, players: int) -> None:
    game_cls, _ = GAMES[name]
    game = game_cls(rules, num_players=players)
    for seed in range(2):
        for state in _positions(game, seed, max_steps=250):
            legal = set(state.legal_actions())
            for k in range(2):
                assert state._s.heuristic_action(k) in legal


@pytest.mark.parametrize("name", list(GAMES))
def test_a_finished_game_is_refused(name: str) -> None:
    game_cls, rules_cls = GAMES[name]
    game = game_cls(rules_cls(), num_players=2)
    state = game.new_initial_state(3)
    rng = random.Random(3)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(IllegalActionError):
        state._s.heuristic_action(0)


@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.0, None])
def test_a_bad_seed_is_refused(seed: Any) -> None:
    state = NoddeGame(NoddeRules(), num_players=2).new_initial_state(0)
    with pytest.raises((TypeError, ValueError, OverflowError)):
        state._s.heuristic_action(seed)


@pytest.mark.parametrize(("name", "label", "rules", "players"), CASES, ids=IDS)
def test_heuristic_reads_only_what_the_player_knows(
    name: str, label: str, rules: Rules, players: int
) -> None:
    # The same action on the real state and on states drawn among those the
    # player cannot tell from it (other hidden cards): a heuristic that
    # peeked at another hand or the stock would tell them apart.
    game_cls, _ = GAMES[name]
    game = game_cls(rules, num_players=players)
    checked = 0
    for seed in range(2):
        for state in _positions(game, 100 + seed, max_steps=200, every=9):
            p = state.current_player
            for k in range(3):
                sample = state._s.sample_infoset(p, 1000 * seed + k)
                assert sample.current_player() == p
                for tie_seed in (0, 7):
                    assert sample.heuristic_action(tie_seed) == state._s.heuristic_action(
                        tie_seed
                    ), (name, label, players, seed, k)
            checked += 1
    assert checked > 0


def _match(name: str, players: int, games: int, partners: bool = False) -> tuple[float, float]:
    """Win share (ties split) of the heuristic seats against random seats,
    the seats rotated game by game, and the binomial z of that share.  One
    heuristic seat, or with ``partners`` (Nodde, four players) a heuristic
    partnership."""
    game_cls, rules_cls = GAMES[name]
    game = game_cls(rules_cls(), num_players=players)
    rng = random.Random(12345)
    won = 0.0
    for g in range(games):
        state = game.new_initial_state(10_000 + g)
        seats = {g % players, (g % players + 2) % players} if partners else {g % players}
        step = 0
        while not state.is_terminal:
            if state.current_player in seats:
                action = state._s.heuristic_action(g * 100_000 + step)
            else:
                action = rng.choice(state.legal_actions())
            state.apply(action)
            step += 1
        returns = state.returns()
        best = max(returns)
        winners = [q for q in range(players) if returns[q] == best]
        won += len(seats.intersection(winners)) / len(winners)
    p = len(seats) / players
    z = (won - games * p) / math.sqrt(games * p * (1 - p))
    return won / games, z


@pytest.mark.parametrize(
    ("name", "players", "games"), [("nodde", 2, 400), ("notakers", 4, 60), ("nancy", 4, 60)]
)
def test_heuristic_beats_random(name: str, players: int, games: int) -> None:
    share, z = _match(name, players, games)
    assert z > 4, (name, share, z)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "players"),
    [(name, n) for name in GAMES for n in (2, 3, 4)]
    + [("notakers", 6), ("notakers", 8), ("nancy", 5), ("nancy", 6)],
)
def test_heuristic_beats_random_at_every_table(name: str, players: int) -> None:
    # Nodde with four players plays in partnerships: a heuristic pair
    # against a random pair.
    partners = name == "nodde" and players == 4
    share, z = _match(name, players, 1000 if partners else 400, partners=partners)
    assert z > 4, (name, players, share, z)


# ---- hand-built positions ---------------------------------------------------


def _nodde_play(hands: list[str], turnup: str, plays: list[str]) -> State[Any]:
    game = NoddeGame(NoddeRules(first_dealer=1, game_target=121), num_players=2)
    state = game.new_initial_state(0, deck=game.stacked_deck(hands, turnup=turnup))
    for card in plays:
        state.apply(f"play {card}")
    return state


def test_nodde_makes_fifteen() -> None:
    state = _nodde_play(["8S 2C KD", "7H 4C 3S"], "AD", ["8S"])
    assert state.current_player == 1
    for seed in range(5):
        assert state.game.action_name(state._s.heuristic_action(seed)) == "play 7H"


def test_nodde_makes_thirty_one() -> None:
    state = _nodde_play(["KS QS 2C", "AH 9D TD"], "4C", ["KS", "AH", "QS"])
    assert state.current_player == 1
    for seed in range(5):
        assert state.game.action_name(state._s.heuristic_action(seed)) == "play TD"


def test_nodde_does_not_lead_a_five() -> None:
    # A five led gives the next player a fifteen with any ten-card.
    state = _nodde_play(["5S 2C 9D", "KH KC QS"], "4C", [])
    assert state.current_player == 0
    assert state.game.action_name(state._s.heuristic_action(0)) != "play 5S"


def _notakers_state(hands: list[str], rules: NoTakersRules | None = None) -> State[Any]:
    """Two players; hands[seat] of 13 cards, the rest the draw pile."""
    from pycards.cards import Card

    game = NoTakersGame(rules or NoTakersRules(), num_players=2)
    cards = [[int(Card.parse(c)) for c in h.split()] for h in hands]
    assert all(len(h) == 13 for h in cards)
    dealt = {c for h in cards for c in h}
    deck = [cards[i % 2][i // 2] for i in range(26)] + [c for c in range(52) if c not in dealt]
    return game.new_initial_state(0, deck=deck)


def test_notakers_saves_the_sets_it_holds() -> None:
    state = _notakers_state(
        [
            "7H 7S 7D 3C 4C 5C 9H JS KD 2D QH 8S AS",
            "2H 3H 4H 5H 6H 8H TH 2S 3S 4S 5S 6S 9S",
        ]
    )
    for step in range(10):
        if state.current_player != 0:
            break
        state.apply(state._s.heuristic_action(step))
    obs = state.observation(0)
    assert str(obs.save) == str(type(obs.save)("7H 7S 7D 3C 4C 5C"))


def test_notakers_asks_for_the_card_that_makes_a_run() -> None:
    # No set to save; AD 2D 4D wait for the 3D (a run of four).
    state = _notakers_state(
        [
            "7H 9S JD 3C 5C KH 2D QS AD 6S 8H TC 4D",
            "2H 3H 4H 5H 6H TH 2S 3S 4S 5S 9C KS KC",
        ]
    )
    for seed in range(3):
        assert state.game.action_name(state._s.heuristic_action(seed)) == "ask +1 card 3D"


@pytest.mark.parametrize("players", [2, 4])
def test_notakers_asks_only_for_what_it_can_use(players: int) -> None:
    # A rank it holds (in hand or save pile), or a card next to its suit.
    game = NoTakersGame(NoTakersRules(), num_players=players)
    asks = 0
    for seed in range(3):
        for state in _positions(game, 200 + seed, max_steps=150):
            if state.observation(state.current_player).phase != 0:
                continue
            name = state.game.action_name(state._s.heuristic_action(seed))
            if not name.startswith("ask"):
                continue
            asks += 1
            obs = state.observation(state.current_player)
            mine = set(str(obs.hand).split()) | set(str(obs.save).split())
            kind, what = name.split()[2:]
            if kind == "rank":
                assert any(card[:-1] == what for card in mine), (name, mine)
            else:
                assert kind == "card", name
                suit = what[-1]
                order = "A23456789TJQKA"
                i = order.index(what[:-1])
                near = {order[j] + suit for j in (i - 2, i - 1, i + 1, i + 2) if 0 <= j < 14}
                assert len(near & mine) >= 2, (name, mine)
    assert asks > 0


def _nancy_play_state() -> State[Any]:
    """Four players, seat 3 deals, seat 0 bids 1 and takes, the others pass;
    seat 0 discards six and leads 8R, seat 1 plays 2R: seat 2 to play."""
    names = {
        0: "8R 4S 5S 6S 7S 8S 9S 10S 4X 5X 6X 7X 8X 9X 10X 4P 5P 6P",
        1: "2R 1S 2S 3S JS CS QS KS 1X 2X 3X JX CX QX KX 1P 2P 3P",
        2: "3R 9R JR KR 7P 8P 9P 10P JP CP QP KP I II III IV V VI",
        3: "1R 4R 5R 6R 7R 10R CR QR VII VIII IX X XI XII XIII XIV XV XVI",
    }
    hound = "XVII XVIII XIX XX XXI OUT"
    rules = NancyRules(first_dealer=3)
    game = NancyGame(rules, num_players=4)
    held = {seat: s.split() for seat, s in names.items()}
    deck = game.stacked_deck(
        [held[s][6:] for s in range(4)], hound.split(), face_up=[held[s][:6] for s in range(4)]
    )
    state = game.new_initial_state(0, deck=deck)
    for action in ["bid 1", "pass", "pass", "pass"]:
        state.apply(action)
    for card in ["4S", "5S", "6S", "7S", "8S", "9S"]:
        state.apply(f"discard {card}")
    state.apply("play 8R")
    state.apply("play 2R")
    assert int(NancyCard.parse("8R")) == 7
    return state


def test_nancy_wins_with_the_lowest_winning_card() -> None:
    state = _nancy_play_state()
    assert state.current_player == 2
    for seed in range(5):
        # 9R, JR and KR all beat the Taker's 8R: the 9R is the cheapest
        assert state.game.action_name(state._s.heuristic_action(seed)) == "play 9R"


def test_nancy_throws_its_least_valuable_card() -> None:
    state = _nancy_play_state()
    state.apply("play 9R")
    # seat 3 holds Rats 1R 4R 5R 6R 7R 10R CR QR: it cannot beat the 9R of
    # its own side (an opponent of the Taker) with... it can (TR, CR, QR),
    # but its side already holds the trick: it keeps its cards and, being
    # last, banks a face card into the opponents' pile.
    assert state.current_player == 3
    assert state.game.action_name(state._s.heuristic_action(0)) in ("play CR", "play QR")


@pytest.mark.parametrize("name", list(GAMES))
def test_the_c_slot_refuses_null_arguments(name: str) -> None:
    # cardcore.h: CC_E_ARG for a NULL state, generator or output.
    cffi_mod = pytest.importorskip("cardcore._cffi")
    ffi, lib = cffi_mod.ffi, cffi_mod.lib
    game = lib.cc_game_by_name(name.encode())
    assert game.heuristic != ffi.NULL
    state = ffi.new("char[]", game.state_size)
    params = ffi.new("int32_t[]", [p["default"] for p in _core.game_info(name)["params"]])
    assert game.init(state, params, 2, 5) == lib.CC_OK
    rng = ffi.new("cc_rng *")
    lib.cc_rng_seed(rng, 1)
    action = ffi.new("int32_t *", -1)
    assert game.heuristic(ffi.NULL, rng, action) == lib.CC_E_ARG
    assert game.heuristic(state, ffi.NULL, action) == lib.CC_E_ARG
    assert game.heuristic(state, rng, ffi.NULL) == lib.CC_E_ARG
    assert action[0] == -1
    assert game.heuristic(state, rng, action) == lib.CC_OK
    mask = ffi.new("uint64_t[]", 16)
    game.legal_actions(state, mask)
    assert mask[action[0] >> 6] >> (action[0] & 63) & 1
