"""log10 p-values that stay finite when the p-value underflows (SPEC-bias §0)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from mlcore.stats.pvalues import binom_log10_sf, chi2_log10_sf, fisher_log10_pvalue, norm_log10_sf


@pytest.fixture(scope="module")
def mp():
    mpmath.mp.dps = 50
    return mpmath


@pytest.mark.parametrize(("statistic", "dof"), [(34.727144, 1), (1410.0, 1), (34_727.144, 1), (5000.0, 3),
                                                (3000.0, 2), (1e5, 7)])
def test_chi2_matches_high_precision_upper_incomplete_gamma(mp, statistic: float, dof: int) -> None:
    reference = mp.log10(mp.gammainc(mp.mpf(dof) / 2, mp.mpf(statistic) / 2, mp.inf, regularized=True))
    assert chi2_log10_sf(statistic, dof) == pytest.approx(float(reference), rel=1e-14, abs=1e-12)


def test_chi2_underflow_against_closed_forms() -> None:
    # dof 2: P = exp(-x/2); dof 1: P = 2 Phi(-sqrt(x)) (scipy's log_ndtr is a log-space routine).
    for x in (1500.0, 20_000.0, 1e6):
        assert stats.chi2.sf(x, 2) == 0.0
        assert chi2_log10_sf(x, 2) == pytest.approx(-x / 2 / math.log(10), rel=1e-13)
        one = (math.log(2) + float(stats.norm.logsf(math.sqrt(x)))) / math.log(10)
        assert stats.chi2.sf(x, 1) == 0.0 and chi2_log10_sf(x, 1) == pytest.approx(one, rel=1e-13)


def test_normal_range_is_log10_of_the_pvalue() -> None:
    for x, dof in ((0.561104, 1), (34.727144, 1), (12.0, 4)):
        p = stats.chi2.sf(x, dof)
        assert chi2_log10_sf(x, dof) == math.log10(p) == chi2_log10_sf(x, dof, pvalue=p)
    assert chi2_log10_sf(0.0, 1) == 0.0 and math.isnan(chi2_log10_sf(math.nan, 1))
    with pytest.raises(ValueError, match="dof"):
        chi2_log10_sf(1.0, 0)


def test_binomial_tail() -> None:
    assert binom_log10_sf(3000, 3000, 0.25) == pytest.approx(3000 * math.log10(0.25), rel=1e-14)
    # 2 900 of 3 000 at chance 1/4, exactly: sum_k C(n, k) 3**(n-k) / 4**n, in Python integers.
    n, k = 3000, 2900
    numerator = sum(math.comb(n, i) * 3 ** (n - i) for i in range(k, n + 1))
    reference = math.log10(numerator) - n * math.log10(4)
    assert stats.binomtest(k, n, 0.25, alternative="greater").pvalue == 0.0
    assert binom_log10_sf(k, n, 0.25) == pytest.approx(reference, rel=1e-13)
    p = stats.binomtest(40, 100, 0.25, alternative="greater").pvalue
    assert binom_log10_sf(40, 100, 0.25) == pytest.approx(math.log10(p), rel=1e-12)
    assert binom_log10_sf(0, 10, 0.25) == 0.0
    with pytest.raises(ValueError):
        binom_log10_sf(5, 3, 0.25)


def test_fisher_two_sided() -> None:
    p = stats.fisher_exact([[8, 2], [1, 5]]).pvalue
    assert fisher_log10_pvalue([[8, 2], [1, 5]]) == math.log10(p)
    # Only the observed extreme table is this unlikely: p = 1 / C(1 000 200, 200).
    table = [[0, 200], [1_000_000, 0]]
    assert stats.fisher_exact(table).pvalue == 0.0
    assert fisher_log10_pvalue(table) == pytest.approx(-math.log10(math.comb(1_000_200, 200)), rel=1e-12)
    # Symmetric margins: both extreme tables are equally unlikely, p = 2 / C(1200, 600).
    assert fisher_log10_pvalue([[0, 600], [600, 0]]) == pytest.approx(
        math.log10(2) - math.log10(math.comb(1200, 600)), rel=1e-12)
    with pytest.raises(ValueError, match="2x2"):
        fisher_log10_pvalue([[1, 2, 3], [4, 5, 6]])


def test_normal_tail(mp) -> None:
    z = np.array([0.0, 1.0, 37.0, 40.0, 200.0, -5.0, np.nan])
    got = norm_log10_sf(z)
    assert stats.norm.sf(40.0) == 0.0 and np.isnan(got[-1])
    for value, log10_p in zip(z[:-1], got[:-1]):
        reference = mp.log10(mp.erfc(mp.mpf(value) / mp.sqrt(2)) / 2)
        assert log10_p == pytest.approx(float(reference), rel=1e-13)
    assert got[1] == math.log10(stats.norm.sf(1.0))
