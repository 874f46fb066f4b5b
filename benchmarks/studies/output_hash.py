"""One hash of what the engine computes, for checking that a change which
should alter nothing (a move of files, a refactor) alters nothing.

For every registered game and player count it plays seeded random games and
hashes every action, legal-action list, event, observation tensor of every
seat, the returns, information-set samples and the built-in bots' choices;
then the scoring functions over seeded random hands.  Prints one hash per
part and a total::

    python benchmarks/studies/output_hash.py
"""

from __future__ import annotations

import hashlib
import random
import sys

import numpy as np

from pycards import batch
from pycards.bots import make_bot
from pycards.cards import CardSet
from pycards.game import game_names, load_game


def _built_in() -> list[str]:
    # the hand-written games (a game defined from a description carries it;
    # their outputs are checked against the oracle in tests/games/define)
    return [name for name in game_names() if not hasattr(load_game(name), "DESCRIPTION")]


def _games(h: hashlib._Hash, quick: bool) -> None:
    for name in _built_in():
        game0 = load_game(name)
        info = game0.info
        for n in range(info.min_players, info.max_players + 1):
            game = load_game(name, num_players=n)
            for seed in range(2 if quick else 6):
                rng = random.Random(seed * 1000 + n)
                state = game.new_initial_state(seed=seed)
                steps = 0
                while not state.is_terminal and steps < 400:
                    legal = state.legal_actions()
                    h.update(repr(legal).encode())
                    for p in range(n):
                        h.update(state.observation_tensor(p).tobytes())
                    if steps % 37 == 0:
                        p = state.current_player
                        sample = state.sample_infoset(p, seed=steps)
                        h.update(sample.observation_tensor(p).tobytes())
                        h.update(repr(sample.legal_actions()).encode())
                    state.apply(rng.choice(legal))
                    steps += 1
                h.update(repr(state.history).encode())
                h.update(repr([(e.kind, e.player, e.value) for e in state.events()]).encode())
                h.update(repr(state.returns()).encode())


def _bots(h: hashlib._Hash, quick: bool) -> None:
    specs = ["heuristic", "pimc:samples=8", "ismcts:simulations=64"]
    for name in _built_in():
        for spec in specs:
            game = load_game(name, num_players=2)
            state = game.new_initial_state(seed=11)
            bots = [make_bot(spec, seed=3), make_bot(spec, seed=4)]
            moves = 0
            while not state.is_terminal and moves < (40 if quick else 150):
                seat = state.current_player
                a = bots[seat].act(state.view(seat))
                h.update(f"{name}:{spec}:{a};".encode())
                state.apply(a)
                moves += 1


def _scoring(h: hashlib._Hash) -> None:
    from pycards.games import cribbage, nodde, notakers

    for k in (4, 5, 6, 8):
        hands = batch.random_hands(20000, k, seed=k)
        for arr in (
            batch.count_fifteens(hands),
            batch.count_pairs(hands),
            batch.runs(hands),
            batch.suit_counts(hands),
            batch.longest_suit_run(hands),
        ):
            h.update(np.ascontiguousarray(arr).tobytes())
    hands = batch.random_hands(5000, 8, seed=99)
    h.update(np.ascontiguousarray(notakers.batch_split_points(hands)).tobytes())
    five = batch.random_hands(5000, 5, seed=5)
    for hand in five[:500]:
        ids = list(CardSet(int(hand)))
        h.update(repr(nodde.score_hand(ids[:3], ids[4]).total).encode())
        h.update(repr(cribbage.score_show(ids[:4], ids[4]).total).encode())
    h.update(nodde.hand_score_distribution().tobytes())


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    total = hashlib.sha256()
    for label, fn in (
        ("games", lambda h: _games(h, quick)),
        ("bots", lambda h: _bots(h, quick)),
        ("scoring", _scoring),
    ):
        h = hashlib.sha256()
        fn(h)
        print(f"{label:8s} {h.hexdigest()[:32]}")
        total.update(h.digest())
    print(f"{'total':8s} {total.hexdigest()[:32]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
