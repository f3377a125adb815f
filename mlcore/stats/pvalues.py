"""``log10`` of p-values that stays finite when the p-value itself underflows (SPEC-bias §0).

SPEC §0 returns every p-value twice: ``pvalue`` (float64, may underflow to 0.0) and
``log10_pvalue`` (always finite). scipy's ``logsf`` methods do not all work in log space
(``chi2.logsf`` and ``binom.logsf`` are ``log(sf)``, hence ``-inf`` below ~1e-308), so:

* a p-value that is a normal float64 (``>= 2.2e-308``) gives ``log10(pvalue)`` exactly, so the
  two fields always agree where both are meaningful;
* below that, the tail is recomputed in log space: a continued fraction for the chi-squared
  (upper incomplete gamma) tail, a log-sum-exp over the binomial or hypergeometric terms,
  ``log_ndtr`` for the normal tail.

The hypergeometric upper tail of the permutation test lives in :mod:`mlcore.bias.permutation`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats
from scipy.special import gammaln, logsumexp

__all__ = ["binom_log10_sf", "chi2_log10_sf", "fisher_log10_pvalue", "norm_log10_sf"]

_LN10 = math.log(10.0)
_TINY = float(np.finfo(np.float64).tiny)  # smallest normal float64; below it precision is lost
# Two tables whose probabilities differ by less than this (relative) count as equally extreme in
# Fisher's two-sided test: log-space probabilities carry ~1e-12 of rounding, so scipy's 1e-14 is
# too tight there; 1e-7 is the tolerance older scipy releases used.
_FISHER_TIE = 1e-7


def _log10(pvalue: float, log_tail: Callable[[], float]) -> float:
    """``log10(pvalue)`` while it is a normal float, else ``log_tail() / ln 10`` (natural log in)."""
    if math.isnan(pvalue):
        return math.nan
    if pvalue >= _TINY:
        return math.log10(min(pvalue, 1.0))
    return min(float(log_tail()) / _LN10, 0.0)


def _log_gamma_q(a: float, x: float) -> float:
    """``ln Q(a, x)``, the regularised upper incomplete gamma function, for ``x > a + 1``.

    Lentz's continued fraction (Numerical Recipes §6.2, ``gcf``) times the prefactor
    ``exp(-x) x**a / Gamma(a)``, all in log space; it converges quickly when ``x >> a``,
    which is where ``Q`` underflows.
    """
    tiny = 1e-300
    b = x + 1.0 - a
    c, d = 1.0 / tiny, 1.0 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return -x + a * math.log(x) - float(gammaln(a)) + math.log(h)


def chi2_log10_sf(statistic: float, dof: int, *, pvalue: float | None = None) -> float:
    """``log10 P(chi2_dof >= statistic)``, finite where ``scipy.stats.chi2.sf`` gives 0.0.

    ``pvalue`` is the p-value already computed by scipy (recomputed if omitted); while it is a
    normal float the result is exactly ``log10(pvalue)``. ``nan`` in, ``nan`` out.

    Examples
    --------
    >>> round(chi2_log10_sf(34.727144, 1), 6)  # SPEC R17: p = 3.7931e-09
    -8.42101
    >>> float(stats.chi2.sf(34_727.144, 1)), round(chi2_log10_sf(34_727.144, 1), 4)
    (0.0, -7543.2719)
    """
    if dof < 1:
        raise ValueError(f"dof must be >= 1, got {dof}")
    if math.isnan(statistic):
        return math.nan
    p = float(stats.chi2.sf(statistic, dof)) if pvalue is None else float(pvalue)
    a, x = dof / 2.0, statistic / 2.0
    # Q(a, x) >= ~0.3 for x <= a + 1, so a p-value that underflows always has x > a + 1.
    return _log10(p, lambda: _log_gamma_q(a, x) if x > a + 1.0 else math.log(max(p, _TINY)))


def binom_log10_sf(k: int, n: int, p: float, *, pvalue: float | None = None) -> float:
    """``log10 P(X >= k)`` for ``X ~ Binomial(n, p)``: the one-sided ``binomtest`` "greater".

    Examples
    --------
    >>> binom_log10_sf(3, 3, 0.5) == math.log10(1 / 8)
    True
    >>> round(binom_log10_sf(3000, 3000, 0.25), 6)  # 0.25**3000 underflows
    -1806.179974
    """
    if not 0 <= k <= n or not 0.0 <= p <= 1.0:
        raise ValueError(f"need 0 <= k <= n and 0 <= p <= 1, got k={k}, n={n}, p={p}")
    pval = float(stats.binom.sf(k - 1, n, p)) if pvalue is None else float(pvalue)
    return _log10(pval, lambda: logsumexp(stats.binom.logpmf(np.arange(k, n + 1), n, p)))


def fisher_log10_pvalue(table: ArrayLike, *, pvalue: float | None = None) -> float:
    """``log10`` of the two-sided Fisher exact p-value of a 2×2 table.

    When the p-value underflows it is recomputed as the log-sum-exp of the hypergeometric
    log-probabilities of every table (same margins) no more likely than the observed one,
    the definition ``scipy.stats.fisher_exact`` uses.

    Examples
    --------
    >>> round(fisher_log10_pvalue([[8, 2], [1, 5]]), 6)  # p = 0.034965
    -1.456366
    """
    c = np.asarray(table, dtype=np.int64)
    if c.shape != (2, 2) or (c < 0).any():
        raise ValueError("table must be a 2x2 table of non-negative counts")
    p = float(stats.fisher_exact(c).pvalue) if pvalue is None else float(pvalue)

    def log_tail() -> float:
        row0, row1, col0 = int(c[0].sum()), int(c[1].sum()), int(c[:, 0].sum())
        x = np.arange(max(0, col0 - row1), min(col0, row0) + 1)
        log_pmf = stats.hypergeom.logpmf(x, row0 + row1, row0, col0)
        observed = log_pmf[int(c[0, 0]) - x[0]]
        return float(logsumexp(log_pmf[log_pmf <= observed + _FISHER_TIE]))

    return _log10(p, log_tail)


def norm_log10_sf(z: ArrayLike, *, pvalue: ArrayLike | None = None) -> np.ndarray:
    """``log10 P(Z > z)`` elementwise for a standard normal ``Z`` (``nan`` stays ``nan``).

    ``pvalue`` is ``scipy.stats.norm.sf(z)`` if already computed.

    Examples
    --------
    >>> norm_log10_sf([0.0, 40.0]).round(4).tolist()  # sf(40) = 3.7e-350 underflows
    [-0.301, -349.437]
    """
    z = np.asarray(z, dtype=np.float64)
    sf = stats.norm.sf(z) if pvalue is None else np.asarray(pvalue, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        # Same rule as the scalar functions: log10(sf) while sf is a normal float.
        out: np.ndarray = np.where(sf >= _TINY, np.log10(sf), stats.norm.logsf(z) / _LN10)
    return out
