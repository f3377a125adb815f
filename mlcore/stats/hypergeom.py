"""Hypergeometric upper tails, exact for small populations and in log space beyond, and the p-value display rule.

Shared by the usual/unusual permutation test (:mod:`mlcore.bias.permutation`, SPEC-bias §2.3) and its
stratified form (:mod:`mlcore.bias.stratified`, §2.5); the display rule is SPEC-bias §0.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from scipy.special import gammaln, logsumexp

__all__ = [
    "EXACT_MAX_POPULATION",
    "LN10",
    "LN2",
    "format_pvalue",
    "hypergeom_log10_sf",
    "hypergeom_sf",
    "log_comb",
]

# Up to this population the tail is summed in exact integer arithmetic and rounded
# once (C(1000, 500) has 300 digits, so it costs microseconds); above it, log space.
EXACT_MAX_POPULATION = 1000
LN10 = math.log(10.0)
LN2 = math.log(2.0)


def log_comb(n: float | np.ndarray, k: float | np.ndarray) -> np.ndarray:
    """``ln C(n, k)`` through ``gammaln``, elementwise."""
    out: np.ndarray = gammaln(np.add(n, 1)) - gammaln(np.add(k, 1)) - gammaln(np.subtract(n, k) + 1)
    return out


def hypergeom_log10_sf(a: int, M: int, K: int, n_draws: int) -> float:
    """``log10 P(X >= a)`` for ``X ~ Hypergeometric(M, K, n_draws)``, finite even below 1e-308.

    Log space follows SPEC §2.3, ``ln p = logsumexp_x [lnC(K, x) + lnC(M - K, n - x)] - lnC(M, n)``,
    with ``lnC(M, n)`` taken as the logsumexp over the whole support (the same number, with
    less rounding; ~1e-12 absolute on SPEC R11 against ~2e-11). For ``M <= 1000`` the tail is
    summed in exact integer arithmetic instead.

    Examples
    --------
    >>> round(hypergeom_log10_sf(8, 16, 10, 10), 6)
    -1.036646
    >>> round(hypergeom_log10_sf(19_000, 40_000, 29_000, 20_000), 6)
    -2474.419903
    """
    return hypergeom_sf(a, M, K, n_draws)[1]


def hypergeom_sf(a: int, M: int, K: int, n_draws: int) -> tuple[float, float]:
    """``(P(X >= a), log10 P(X >= a))``."""
    if not (0 <= K <= M and 0 <= n_draws <= M):
        raise ValueError(f"need 0 <= K <= M and 0 <= n <= M, got M={M}, K={K}, n={n_draws}")
    support_low, high = max(0, n_draws - (M - K)), min(K, n_draws)
    low = max(int(a), support_low)
    if low > high:
        return 0.0, -math.inf
    if low == support_low:
        return 1.0, 0.0  # the tail is the whole support
    if M <= EXACT_MAX_POPULATION:
        # Exact rational, rounded once: small tables get the correctly rounded p (SPEC R8: 1/2).
        numerator, denominator = _exact_tail_numerator(low, high, M, K, n_draws), math.comb(M, n_draws)
        return float(Fraction(numerator, denominator)), math.log10(numerator) - math.log10(denominator)
    # Log-space reference formula of SPEC §2.3, over the whole support so that (i) the sum
    # normalises itself (no separate lnC(M, n)) and (ii) a tail above 1/2 is taken as one minus
    # the other tail, keeping p near 1 accurate to ~1e-16 instead of ~1e-13.
    x = np.arange(support_low, high + 1)
    terms = log_comb(K, x) + log_comb(M - K, n_draws - x)
    log_total = logsumexp(terms)
    log_p = float(logsumexp(terms[low - support_low :]) - log_total)
    if log_p > -LN2:
        log_p = float(np.log1p(-np.exp(logsumexp(terms[: low - support_low]) - log_total)))
    log_p = min(log_p, 0.0)
    return math.exp(log_p), log_p / LN10  # exp underflows to 0.0 below ~1e-308, as SPEC §0 allows


def _exact_tail_numerator(low: int, high: int, M: int, K: int, n_draws: int) -> int:
    """``Σ_{x=low..high} C(K, x) C(M-K, n-x)`` with each term's binomials updated exactly in O(digits)."""
    successes, failures = math.comb(K, low), math.comb(M - K, n_draws - low)
    total = 0
    for x in range(low, high + 1):
        total += successes * failures
        if x < high:  # C(K, x+1) = C(K, x)(K-x)/(x+1); C(F, r-1) = C(F, r) r/(F-r+1); both exact
            successes = successes * (K - x) // (x + 1)
            failures = failures * (n_draws - x) // (M - K - n_draws + x + 1)
    return total


def format_pvalue(log10_pvalue: float) -> str:
    """Display rule of SPEC §0: ``f"{m:.1f}e{e}"`` with ``e = floor(L)``, ``m = 10**(L - e)``.

    When ``m`` rounds to 10.0 the exponent is carried (``1.0e-3``, not ``10.0e-4``).

    Examples
    --------
    >>> format_pvalue(-2474.419903)
    '3.8e-2475'
    >>> format_pvalue(0.0)
    '1.0e0'
    """
    if not math.isfinite(log10_pvalue):
        raise ValueError(f"log10_pvalue must be finite, got {log10_pvalue!r}")
    exponent = math.floor(log10_pvalue)
    mantissa = 10.0 ** (log10_pvalue - exponent)
    if round(mantissa, 1) >= 10.0:
        mantissa, exponent = mantissa / 10.0, exponent + 1
    return f"{mantissa:.1f}e{exponent}"
