"""The typed Nancy observation of any backend state (the C engine's or the
reference oracle's), decoded from its observation tensor by the engine's
segment table (docs/nancy.rst, "Observation"); a test helper."""

from __future__ import annotations

from typing import Any

import numpy as np

from pycards.cards import NancyCard, NancyCardSet
from pycards.game import State
from pycards.games.nancy import NancyGame, NancyObservation


def _number(x: float, scale: int) -> int:
    v = float(x) * (scale or 1)
    return int(v + 0.5) if v >= 0 else -int(-v + 0.5)


def observation(game: NancyGame, backend_state: Any, player: int) -> NancyObservation:
    """``player``'s observation of ``backend_state`` (a ``_core`` or reference state)."""
    if hasattr(backend_state, "observation_values"):
        return game.decode_observation(State(game, backend_state, 0, []), player)
    t = np.asarray(backend_state.observe_tensor(player))
    n = game.num_players
    fields: dict[str, Any] = {}
    for seg in game.segments:
        part = t[seg.offset : seg.offset + seg.length]
        hits = [int(c) for c in np.flatnonzero(part)]
        kind = seg.kind
        if kind == "cards":
            fields[seg.name] = NancyCardSet(hits)
        elif kind == "card":
            fields[seg.name] = NancyCard(hits[0]) if hits else None
        elif kind == "one_hot":
            fields[seg.name] = hits[0] if hits else None
        elif kind == "seat":
            fields[seg.name] = (player + hits[0]) % n if hits else None
        elif kind == "number":
            fields[seg.name] = _number(part[0], seg.scale)
        elif kind in ("seat_numbers", "seat_cards"):
            values: list[Any] = [None] * n
            blocks = len(part) if kind == "seat_numbers" else len(part) // 78
            for r in range(blocks):
                seat = (player + seg.seat0 + r) % n
                if kind == "seat_numbers":
                    values[seat] = _number(part[r], seg.scale)
                else:
                    block = part[78 * r : 78 * r + 78]
                    values[seat] = NancyCardSet(int(c) for c in np.flatnonzero(block))
            fields[seg.name] = tuple(values)
        else:
            raise AssertionError(f"unexpected segment kind {kind}")
    return NancyObservation(player=player, **fields)
