"""A small two-headed network in numpy: forward, backward and Adam (float32).

The trunk is a stack of dense layers with the clipped ReLU ``clamp(x, 0, 1)``
(the activation of Stockfish's NNUE, the one the engine evaluates); two
linear heads sit on it: the policy head (one output per action id: the
action values ``Q(s, a)``) and the value head (one output per seat, in seat
order from the player to move).  Weights are stored ``[in, out]`` here (the
file format of :mod:`pycards.nets` stores ``[out, in]``).

Every operation is a float32 numpy call whose result does not depend on the
order of the rows it is given beyond what BLAS does for one thread count:
the same parameters, inputs and thread count give the same bits.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["Adam", "Grads", "Mlp", "masked_argmax"]

F32 = npt.NDArray[np.float32]


@dataclass
class Mlp:
    """The parameters: ``layers`` (the trunk's ``(W [in, out], b [out])``),
    ``policy`` and ``value`` (the heads' ``(W, b)``)."""

    layers: list[tuple[F32, F32]]
    policy: tuple[F32, F32]
    value: tuple[F32, F32]

    @classmethod
    def init(
        cls,
        input_size: int,
        hidden: Sequence[int],
        num_actions: int,
        num_players: int,
        rng: np.random.Generator,
    ) -> Mlp:
        """Random parameters: each weight normal with variance ``1 / fan_in``,
        the trunk's biases 0.25 (inside the clamp's slope), the heads' 0."""

        def dense(n_in: int, n_out: int, bias: float) -> tuple[F32, F32]:
            w = (rng.standard_normal((n_in, n_out)) / np.sqrt(n_in)).astype(np.float32)
            return w, np.full(n_out, bias, dtype=np.float32)

        sizes = [input_size, *hidden]
        layers = [dense(a, b, 0.25) for a, b in itertools.pairwise(sizes)]
        return cls(layers, dense(sizes[-1], num_actions, 0.0), dense(sizes[-1], num_players, 0.0))

    def arrays(self) -> list[F32]:
        """Every parameter array, in a fixed order (trunk, policy, value)."""
        out: list[F32] = []
        for w, b in [*self.layers, self.policy, self.value]:
            out += [w, b]
        return out

    @classmethod
    def from_arrays(cls, arrays: Sequence[F32]) -> Mlp:
        """The inverse of :meth:`arrays`."""
        pairs = [(arrays[i], arrays[i + 1]) for i in range(0, len(arrays), 2)]
        return cls(pairs[:-2], pairs[-2], pairs[-1])

    def copy(self) -> Mlp:
        """A deep copy."""
        return Mlp.from_arrays([a.copy() for a in self.arrays()])

    def trunk(self, x: F32) -> tuple[F32, list[F32]]:
        """The trunk's output for inputs ``x`` ``[n, in]``, and each layer's
        pre-activation (for :meth:`backward`)."""
        h = x
        pre: list[F32] = []
        for w, b in self.layers:
            z = h @ w
            z += b
            pre.append(z)
            h = np.clip(z, 0.0, 1.0)
        return h, pre

    def forward(self, x: F32) -> tuple[F32, F32]:
        """The policy head's ``[n, num_actions]`` and the value head's
        ``[n, num_players]`` outputs."""
        h, _ = self.trunk(x)
        return self.heads(h)

    def heads(self, h: F32) -> tuple[F32, F32]:
        """Both heads on the trunk's output ``h``."""
        q = h @ self.policy[0]
        q += self.policy[1]
        v = h @ self.value[0]
        v += self.value[1]
        return q, v

    def loss_and_grads(
        self,
        x: F32,
        actions: npt.NDArray[np.int32],
        q_target: F32,
        v_target: F32,
        value_weight: float,
    ) -> tuple[float, float, Grads]:
        """The losses and gradients of a batch: ``mean((Q(x, a) - q_target)^2)``
        (the policy head at the action taken only) and ``value_weight`` times
        ``mean((V(x) - v_target)^2)`` over the batch and the seats.  Returns
        the policy loss, the value loss and the gradients of their sum."""
        n = x.shape[0]
        h, pre = self.trunk(x)
        q, v = self.heads(h)
        rows = np.arange(n)
        dq_taken = q[rows, actions] - q_target
        dv = v - v_target
        q_loss = float(np.mean(dq_taken * dq_taken))
        v_loss = float(np.mean(dv * dv))
        dq = np.zeros_like(q)
        dq[rows, actions] = dq_taken * np.float32(2.0 / n)
        dv = dv * np.float32(2.0 * value_weight / dv.size)
        grads: list[F32] = []
        g_policy = (h.T @ dq, dq.sum(axis=0))
        g_value = (h.T @ dv, dv.sum(axis=0))
        dh = dq @ self.policy[0].T
        dh += dv @ self.value[0].T
        trunk_grads: list[tuple[F32, F32]] = []
        for i in range(len(self.layers) - 1, -1, -1):
            z = pre[i]
            dz = dh * ((z > 0.0) & (z < 1.0))
            below = x if i == 0 else np.clip(pre[i - 1], 0.0, 1.0)
            trunk_grads.append((below.T @ dz, dz.sum(axis=0)))
            if i > 0:
                dh = dz @ self.layers[i][0].T
        for gw, gb in [*reversed(trunk_grads), g_policy, g_value]:
            grads += [gw.astype(np.float32, copy=False), gb.astype(np.float32, copy=False)]
        return q_loss, value_weight * v_loss, Grads(grads)


@dataclass
class Grads:
    """Gradients, in the order of :meth:`Mlp.arrays`."""

    arrays: list[F32]


@dataclass
class Adam:
    """Adam (Kingma and Ba 2015) over the arrays of an :class:`Mlp`, float32."""

    lr: float
    m: list[F32]
    v: list[F32]
    t: int = 0
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8

    @classmethod
    def like(cls, net: Mlp, lr: float) -> Adam:
        """Zero moments for ``net``."""
        zeros = [np.zeros_like(a) for a in net.arrays()]
        return cls(lr, zeros, [z.copy() for z in zeros])

    def step(self, net: Mlp, grads: Grads) -> None:
        """One update of ``net``'s arrays in place."""
        self.t += 1
        b1, b2 = np.float32(self.beta1), np.float32(self.beta2)
        c1 = 1.0 - self.beta1**self.t
        c2 = 1.0 - self.beta2**self.t
        step = np.float32(self.lr * np.sqrt(c2) / c1)
        eps = np.float32(self.eps * np.sqrt(c2))
        for p, g, m, v in zip(net.arrays(), grads.arrays, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * (g * g)
            p -= step * m / (np.sqrt(v) + eps)


def masked_argmax(scores: F32, masks: npt.NDArray[np.int8]) -> npt.NDArray[np.int32]:
    """The best legal action of each row: the first index of the largest score
    among those whose mask is 1 (an illegal action is never chosen, whatever
    its score; a row with no legal action raises ``ValueError``)."""
    legal = masks != 0
    if not legal.any(axis=1).all():
        raise ValueError("masks: a row has no legal action")
    masked = np.where(legal, scores, -np.inf)
    out: npt.NDArray[np.int32] = masked.argmax(axis=1).astype(np.int32)
    return out
