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
from _games import GAMES, game_params
from _play import mixed_positions

from cardcore import _core
from pycards import IllegalActionError
from pycards.game import Rules


def _cases() -> list[tuple[str, str, Rules, int]]:
    out = []
    for name, case in GAMES.items():
        presets: dict[str, Rules] = dict(case.rules_type.presets())
        for label, rules in presets.items():
            for n in case.players:
                out.append((name, label, rules, n))
        # every boolean rule flipped from its default, at the usual table
        for param in case.rules_type.parameters():
            if param.kind == "bool":
                flipped = case.rules_type(**{param.name: not param.default})
                out.append((name, f"not_{param.name}", flipped, case.tables[0]))
    return out


CASES = _cases()
IDS = [f"{name}-{label}-{n}p" for name, label, _, n in CASES]


@pytest.mark.parametrize(("name", "label", "rules", "players"), CASES, ids=IDS)
def test_heuristic_action_is_legal(name: str, label: str, rules: Rules, players: int) -> None:
    game = GAMES[name].game_type(rules, num_players=players)
    for seed in range(2):
        for state in mixed_positions(game, seed, max_steps=250):
            legal = set(state.legal_actions())
            for k in range(2):
                assert state.engine_state.heuristic_action(k) in legal


@pytest.mark.parametrize("name", game_params("none"))
def test_a_finished_game_is_refused(name: str) -> None:
    game = GAMES[name].game(GAMES[name].min_players, quick=False)
    state = game.new_initial_state(3)
    rng = random.Random(3)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(IllegalActionError):
        state.engine_state.heuristic_action(0)


@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.0, None])
def test_a_bad_seed_is_refused(seed: Any) -> None:
    state = next(iter(GAMES.values())).game().new_initial_state(0)
    with pytest.raises((TypeError, ValueError, OverflowError)):
        state.engine_state.heuristic_action(seed)


@pytest.mark.parametrize(("name", "label", "rules", "players"), CASES, ids=IDS)
def test_heuristic_reads_only_what_the_player_knows(
    name: str, label: str, rules: Rules, players: int
) -> None:
    # The same action on the real state and on states drawn among those the
    # player cannot tell from it (other hidden cards): a heuristic that
    # peeked at another hand or the stock would tell them apart.
    game = GAMES[name].game_type(rules, num_players=players)
    checked = 0
    for seed in range(2):
        for state in mixed_positions(game, 100 + seed, max_steps=200, every=9):
            p = state.current_player
            for k in range(3):
                sample = state.engine_state.sample_infoset(p, 1000 * seed + k)
                assert sample.current_player() == p
                for tie_seed in (0, 7):
                    assert sample.heuristic_action(tie_seed) == state.engine_state.heuristic_action(
                        tie_seed
                    ), (name, label, players, seed, k)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize(("name", "label", "rules", "players"), CASES, ids=IDS)
def test_games_between_heuristics_end(name: str, label: str, rules: Rules, players: int) -> None:
    # The heuristic is also the rollout policy of the search bots: a game it
    # plays against itself must end (No Takers: it draws in the end).
    game = GAMES[name].game_type(rules, num_players=players)
    for seed in range(2):
        state = game.new_initial_state(seed).engine_state
        steps = 0
        while state.current_player() >= 0:
            state.apply(state.heuristic_action(steps))
            steps += 1
            assert steps < 5000, (name, label, players, seed)


def _match(name: str, players: int, games: int, partners: bool = False) -> tuple[float, float]:
    """Win share (ties split) of the heuristic seats against random seats,
    the seats rotated game by game, and the binomial z of that share.  One
    heuristic seat, or with ``partners`` (a table of two partnerships) a
    heuristic partnership."""
    game = GAMES[name].game(players, quick=False)
    rng = random.Random(12345)
    won = 0.0
    for g in range(games):
        state = game.new_initial_state(10_000 + g)
        seats = {g % players, (g % players + 2) % players} if partners else {g % players}
        step = 0
        while not state.is_terminal:
            if state.current_player in seats:
                action = state.engine_state.heuristic_action(g * 100_000 + step)
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


@pytest.mark.parametrize("name", game_params("none"))
def test_heuristic_beats_random(name: str) -> None:
    match = GAMES[name].profile.heuristic_match
    assert match is not None, f"{name}: tests/profiles/{name}.py sets no heuristic_match"
    players, games = match
    share, z = _match(name, players, games)
    assert z > 4, (name, share, z)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), game_params("all"))
def test_heuristic_beats_random_at_every_table(name: str, players: int) -> None:
    # A table of partnerships (the game's profile says which): a heuristic
    # pair against a random pair.
    partners = players in GAMES[name].profile.partnerships
    share, z = _match(name, players, 1000 if partners else 400, partners=partners)
    assert z > 4, (name, players, share, z)


@pytest.mark.parametrize("name", game_params("none"))
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
