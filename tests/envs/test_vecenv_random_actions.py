"""``VectorEnv.random_actions`` keeps its course whatever the calls around it.

A step that follows ``random_actions`` draws each game's next random action
ahead, on the game's own thread; the draw is used only by the next
``random_actions`` and the generator moves on only then.  So the actions
drawn, and the games, must be those of drawing at the call: the digests
(each game's profile, ``vector_random_digest``) were printed by the engine
that drew every action at the call (before the draw ahead), over a course
that mixes a loop of ``random_actions`` and ``step`` with two draws in a row
and steps with other actions (a draw made ahead and never used)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from _games import GAMES

from pycards.envs.vector import VectorEnv

#: (game, players, digest): each game's course at the smallest of its
#: ``bench_tables``, with the digest its profile gives
CASES = [
    (name, min(case.bench_tables), case.profile.vector_random_digest)
    for name, case in GAMES.items()
    if case.profile.vector_random_digest
]


def course(name: str, players: int, threads: int) -> str:
    """The digest of 30 calls of a fixed mix of draws and steps."""
    venv = VectorEnv(name, 40, players, seed=5, threads=threads)
    h = hashlib.sha256()
    for t in range(30):
        actions = venv.random_actions()
        if t % 5 == 3:  # two draws in a row: the second is a new draw
            h.update(actions.tobytes())
            actions = venv.random_actions()
        if t % 7 == 4:  # another action: the draw made ahead goes unused
            last = venv.num_actions - 1 - np.argmax(venv.action_masks[:, ::-1], axis=1)
            actions = last.astype(np.int32)
        h.update(actions.tobytes())
        obs, masks, rewards, terms = venv.step(actions)
        for part in (obs, masks, rewards, terms):
            h.update(part.tobytes())
    return h.hexdigest()[:32]


def test_every_game_has_a_digest() -> None:
    assert len(CASES) == len(GAMES)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("name", "players", "digest"), CASES)
def test_random_actions_keep_their_course(
    name: str, players: int, digest: str, threads: int
) -> None:
    assert course(name, players, threads) == digest
