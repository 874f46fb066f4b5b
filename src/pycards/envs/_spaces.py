"""The action space of the Gymnasium and PettingZoo adapters (needs gymnasium,
which both extras install)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from pycards.envs._common import missing_extra

try:
    from gymnasium import spaces
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "gymnasium", "pycards.envs") from None

__all__ = ["LegalActions"]


class LegalActions(spaces.Discrete):
    """``Discrete(n)`` over a game's action ids whose :meth:`sample` draws a
    legal action by default.

    Every id is in the space (``contains`` is :class:`~gymnasium.spaces.Discrete`'s);
    only sampling differs: without a ``mask`` or ``probability``, ``sample()``
    draws uniformly among the actions ``legal()`` marks (an ``int8`` mask), so
    the random actions that Gymnasium's ``check_env`` and PettingZoo's test kit
    step with are legal.  When ``legal()`` marks nothing (not this agent's turn,
    or the game is over) it draws from the whole space, as ``Discrete`` does.
    """

    def __init__(
        self, n: int, legal: Callable[[], npt.NDArray[np.int8]], seed: int | None = None
    ) -> None:
        super().__init__(n, seed=seed)
        self._legal = legal

    def sample(
        self,
        mask: npt.NDArray[np.int8] | None = None,
        probability: npt.NDArray[np.float64] | None = None,
    ) -> Any:
        """A uniformly random legal action (or ``Discrete.sample`` with an
        explicit ``mask`` or ``probability``)."""
        if mask is None and probability is None:
            legal = self._legal()
            if legal.any():
                mask = legal.astype(np.int8, copy=False)
        return super().sample(mask=mask, probability=probability)

    def __repr__(self) -> str:
        return f"LegalActions({self.n})"
