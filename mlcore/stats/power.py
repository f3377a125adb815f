"""Statistical power of comparing two proportions: could a test have seen an effect of a given size?

A test that finds nothing says little when it had little chance of finding the effect it looked
for. :func:`two_proportion_power` gives that chance for the two-sided test of two independent
proportions at level ``alpha`` (Pearson's χ² on the 2×2 table without Yates correction is the
same test as the pooled two-proportion z test), for an effect given as two proportions ``p1`` and
``p2``, with ``n1`` and ``n2`` observations.

Method: Cohen's (1988, §6) normal approximation on the arcsine scale. The effect size is
``h = 2·asin(√p1) − 2·asin(√p2)``, which depends much less on where the proportions lie than
their difference does, and

    power = Φ(|h|·√(n1·n2 / (n1 + n2)) − z_{1−α/2}) + Φ(−|h|·√(n1·n2 / (n1 + n2)) − z_{1−α/2})

as in ``statsmodels.stats.power.NormalIndPower`` with ``proportion_effectsize`` (the tests check
both, and the power against a simulation of the χ² test itself). ``n_for_power`` is the size of
each of two equal groups that reaches a target power: ``2·((z_{1−α/2} + z_{power}) / h)²``.
Pure functions, no Django.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

__all__ = ["ProportionPowerResult", "cohens_h", "two_proportion_power"]

_NORMAL = NormalDist()


def cohens_h(p1: float, p2: float) -> float:
    """Cohen's effect size of two proportions, ``2·asin(√p1) − 2·asin(√p2)``.

    Examples
    --------
    >>> round(cohens_h(0.694, 0.643), 4)
    0.1084
    """
    for p in (p1, p2):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"a proportion must be in [0, 1], got {p!r}")
    return 2 * math.asin(math.sqrt(p1)) - 2 * math.asin(math.sqrt(p2))


@dataclass(frozen=True)
class ProportionPowerResult:
    """The power of the two-sided two-proportion test for effect size ``effect_size`` (Cohen's h)."""

    power: float
    effect_size: float
    n1: int
    n2: int
    alpha: float

    def n_for_power(self, power: float = 0.8) -> int | None:
        """Observations per group (two equal groups) that reach ``power``; None for a zero effect."""
        if not 0.0 < power < 1.0:
            raise ValueError(f"power must be in (0, 1), got {power!r}")
        if self.effect_size == 0:
            return None
        z = _NORMAL.inv_cdf(1 - self.alpha / 2) + _NORMAL.inv_cdf(power)
        return math.ceil(2 * (z / abs(self.effect_size)) ** 2)


def two_proportion_power(p1: float, p2: float, n1: int, n2: int, *, alpha: float = 0.05) -> ProportionPowerResult:
    """Power of the two-sided test of ``p1 = p2`` at level ``alpha`` when the truth is ``p1``, ``p2``.

    Parameters
    ----------
    p1, p2 : float
        The proportions of the effect to detect (e.g. the recalls a paper reports).
    n1, n2 : int
        Observations in each group.
    alpha : float
        The test's level.

    Returns
    -------
    ProportionPowerResult

    Examples
    --------
    >>> result = two_proportion_power(0.694, 0.643, 100, 100)
    >>> round(result.power, 3), result.n_for_power(0.8)
    (0.12, 1336)
    >>> round(two_proportion_power(0.3, 0.3, 50, 80).power, 3)  # no effect: the test's level
    0.05
    """
    if int(n1) != n1 or int(n2) != n2 or n1 < 1 or n2 < 1:
        raise ValueError(f"group sizes must be positive integers, got {n1!r} and {n2!r}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    h = cohens_h(p1, p2)
    shift = abs(h) * math.sqrt(n1 * n2 / (n1 + n2))
    z = _NORMAL.inv_cdf(1 - alpha / 2)
    power = _NORMAL.cdf(shift - z) + _NORMAL.cdf(-shift - z)
    return ProportionPowerResult(power=float(power), effect_size=float(h), n1=int(n1), n2=int(n2), alpha=float(alpha))
