"""The chi-square test shared by the statistical tests (samplers, shuffles):
the statistic, and the quantile of its law by the Wilson-Hilferty
approximation, at a one-sided normal quantile ``z`` that sets the false-alarm
rate of a correct sampler (fixed seeds make each test deterministic)."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Z_1E4", "Z_1E6", "Z_999", "chi2", "chi2_limit"]

#: one-sided normal quantiles: false alarms 1e-6, 1e-4 and 1e-3 per test
Z_1E6 = 4.8
Z_1E4 = 3.719
Z_999 = 3.0902


def chi2_limit(dof: int, z: float) -> float:
    """The quantile of chi-square with ``dof`` degrees of freedom at the
    one-sided normal quantile ``z`` (Wilson-Hilferty)."""
    a = 2.0 / (9.0 * dof)
    return dof * (1.0 - a + z * math.sqrt(a)) ** 3


def chi2(observed: Sequence[int], expected: Sequence[float]) -> float:
    """Pearson's statistic of ``observed`` counts against ``expected`` ones."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
