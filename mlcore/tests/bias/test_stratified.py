"""The stratified usual/unusual test (SPEC-bias §2.5; reference values R30-R32 of §7).

References that share no code with ``mlcore.bias.stratified``: exact ``Fraction`` convolution of the
hypergeometric pmfs, brute-force enumeration of every within-stratum permutation, scipy's
hypergeometric tail for one stratum, and statsmodels' Cochran-Mantel-Haenszel statistic for the
mean and variance of the null distribution.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import StratifiedTable

from mlcore.bias import stratified
from mlcore.bias.lexical import lexical_features
from mlcore.bias.permutation import (
    LexicalMembership,
    UsualUnusualSets,
    lexical_bias_test,
    lexical_membership,
    permutation_test_from_counts,
)
from mlcore.bias.stratified import (
    accuracy_by_gold,
    stratified_null_distribution,
    stratified_test_from_counts,
    stratified_test_from_membership,
)
from mlcore.stats import hypergeom
from mlcore.tests.bias.test_permutation import EVAL_GOLD, EVAL_PRED, EVAL_TEXTS, toy_training  # noqa: F401 (fixture)

R31 = [("s1", 40, 25, 30, 12), ("s2", 120, 200, 30, 40), ("s3", 7, 3, 7, 0)]
R32 = [("s1", 500, 400, 420, 290), ("s2", 300, 600, 100, 120)]


def fraction_tail(strata) -> Fraction:
    """``P(A >= a)`` by exact rational convolution of the per-stratum hypergeometric pmfs."""
    counts, denominator = {0: 1}, 1  # integer numerators over one common denominator: fast and exact
    for _, n_u, n_n, a, b in strata:
        m, k = n_u + n_n, a + b
        ways = {x: math.comb(k, x) * math.comb(m - k, n_u - x) for x in range(max(0, k - n_n), min(k, n_u) + 1)}
        new: dict[int, int] = {}
        for total, c in counts.items():
            for x, w in ways.items():
                new[total + x] = new.get(total + x, 0) + c * w
        counts, denominator = new, denominator * math.comb(m, n_u)
    observed = sum(s[3] for s in strata)
    return Fraction(sum(c for total, c in counts.items() if total >= observed), denominator)


def brute_force_tail(strata) -> Fraction:
    """Share of all within-stratum placements of the correct marks giving ``A >= a``."""
    per_stratum = []
    for _, n_u, n_n, a, b in strata:
        slots = range(n_u + n_n)  # slots < n_u are in U
        per_stratum.append([sum(slot < n_u for slot in marks) for marks in itertools.combinations(slots, a + b)])
    observed = sum(s[3] for s in strata)
    hits = total = 0
    for combo in itertools.product(*per_stratum):
        total += 1
        hits += sum(combo) >= observed
    return Fraction(hits, total)


def log_space_only(monkeypatch) -> None:
    monkeypatch.setattr(stratified, "EXACT_MAX_POPULATION", 0)
    monkeypatch.setattr(hypergeom, "EXACT_MAX_POPULATION", 0)


class TestReferenceValues:
    def test_r30_worked_example_from_counts(self):
        # §2.5: C: U {1, 6}, N {1}, all correct; E: U {2, 4, 8}, N {4, 8}; N: U {3, 5}, N {3, 5}, none correct.
        r = stratified_test_from_counts([("C", 2, 1, 2, 1), ("E", 3, 2, 2, 1), ("N", 2, 2, 0, 0)])
        assert r.pvalue == 0.7 and r.statistic == 4 and not r.degenerate
        assert r.log10_pvalue == pytest.approx(math.log10(0.7), abs=1e-15)
        assert [s.degenerate for s in r.strata] == [True, False, True]
        assert r.expected_a == pytest.approx(2 + 3 * 3 / 5 + 0)

    def test_r30_worked_example_end_to_end(self, toy_training):  # noqa: F811
        zscores, selection = toy_training
        test = lexical_features(EVAL_TEXTS, vocabulary=selection.features)
        r = stratified_test_from_membership(
            lexical_membership(test, EVAL_GOLD, EVAL_PRED, zscores=zscores, selection=selection))
        assert [(s.label, s.n_U, s.n_N, s.a, s.b) for s in r.strata] == [
            ("E", 3, 2, 2, 1), ("N", 2, 2, 0, 0), ("C", 2, 1, 2, 1)]
        assert (r.a, r.pvalue) == (4, 0.7)
        # Pooled counts equal the unstratified test's, whose p-value is R8's 1/2.
        plain = lexical_bias_test(test, EVAL_GOLD, EVAL_PRED, zscores=zscores, selection=selection)
        assert (r.n_U, r.n_N, r.n_overlap, r.a, r.b, r.M, r.K) == (
            plain.n_U, plain.n_N, plain.n_overlap, plain.a, plain.b, plain.M, plain.K)
        assert plain.pvalue == 0.5
        assert (r.n_features_selected, r.n_features_seen_in_eval) == (6, 6)

    def test_r31_three_strata(self, monkeypatch):
        exact = fraction_tail(R31)
        assert float(exact) == pytest.approx(0.0108110722387796, rel=1e-12)
        r = stratified_test_from_counts(R31)
        assert r.pvalue == float(exact)  # small table: the rational tail rounded once
        assert r.pvalue == pytest.approx(0.0108110722387796, rel=1e-12)
        log_space_only(monkeypatch)
        assert stratified_test_from_counts(R31).pvalue == pytest.approx(float(exact), rel=1e-12)

    def test_r32_log10(self, monkeypatch):
        exact = fraction_tail(R32)
        reference = math.log10(exact.numerator) - math.log10(exact.denominator)
        assert reference == pytest.approx(-8.904776431996, abs=1e-9)
        r = stratified_test_from_counts(R32)  # 1800 slots: log space
        assert r.log10_pvalue == pytest.approx(-8.904776431996, abs=1e-9)
        assert r.log10_pvalue == pytest.approx(reference, abs=1e-9)
        assert r.pvalue == pytest.approx(float(exact), rel=1e-9)


class TestDegenerateCases:
    @pytest.mark.parametrize("strata", [
        [],
        [("x", 5, 0, 3, 0)],  # N empty
        [("x", 0, 4, 0, 2)],  # U empty
        [("x", 5, 4, 0, 0), ("y", 3, 3, 3, 3)],  # K = 0 and K = M
        [("x", 0, 0, 0, 0), ("y", 6, 0, 2, 0)],  # an empty stratum
    ])
    def test_every_stratum_a_point_mass(self, strata):
        r = stratified_test_from_counts(strata)
        assert (r.pvalue, r.log10_pvalue, r.degenerate) == (1.0, 0.0, True)
        assert r.pvalue_display() == "1.0e0"

    def test_point_masses_only_shift_the_sum(self):
        varying = [("v", 10, 6, 8, 2)]
        shifted = stratified_test_from_counts([*varying, ("fixed", 4, 0, 3, 0), ("none", 3, 3, 0, 0)])
        alone = stratified_test_from_counts(varying)
        assert shifted.pvalue == alone.pvalue == 92 / 1001  # R9
        assert shifted.a == 11 and not shifted.degenerate

    def test_nan_accuracies_for_empty_sets(self):
        r = stratified_test_from_counts([("x", 0, 4, 0, 2), ("y", 3, 0, 1, 0)])
        assert math.isnan(r.strata[0].acc_U) and math.isnan(r.strata[1].acc_N)
        assert r.strata[0].expected_a == 0.0

    @pytest.mark.parametrize("strata", [
        [("x", 3, 2, 4, 0)], [("x", 3, 2, 1, 3)], [("x", -1, 2, 0, 0)], [("x", 2.5, 2, 1, 1)],
        [("x", True, 2, 1, 1)], [("x", 3, 2, 1)], [("x", 3, 2, 1, 1), ("x", 1, 1, 0, 0)],
    ])
    def test_invalid_counts(self, strata):
        with pytest.raises(ValueError):
            stratified_test_from_counts(strata)


class TestAgainstIndependentReferences:
    def test_one_stratum_is_the_unstratified_test(self, monkeypatch):
        rng = np.random.default_rng(11)
        cases = [(int(n_u), int(n_n)) for n_u, n_n in rng.integers(1, 700, size=(40, 2))]
        cases = [(n_u, int(rng.integers(0, n_u + 1)), n_n, int(rng.integers(0, n_n + 1))) for n_u, n_n in cases]
        for exact_path in (True, False):
            if not exact_path:
                log_space_only(monkeypatch)
            for n_u, a, n_n, b in cases:
                r = stratified_test_from_counts([("only", n_u, n_n, a, b)])
                plain = permutation_test_from_counts(n_usual=n_u, correct_usual=a, n_unusual=n_n, correct_unusual=b)
                scipy_p = stats.hypergeom.sf(a - 1, n_u + n_n, a + b, n_u)
                assert r.degenerate == plain.degenerate
                assert r.log10_pvalue == pytest.approx(plain.log10_pvalue, rel=1e-9, abs=1e-12)
                if not r.degenerate:
                    assert r.pvalue == pytest.approx(scipy_p, rel=1e-9, abs=1e-300)

    def test_small_random_tables_against_brute_force(self, monkeypatch):
        rng = np.random.default_rng(5)
        tables = []
        for _ in range(60):
            strata = []
            for s in range(int(rng.integers(1, 4))):
                n_u, n_n = (int(v) for v in rng.integers(0, 5, size=2))
                strata.append((f"s{s}", n_u, n_n, int(rng.integers(0, n_u + 1)), int(rng.integers(0, n_n + 1))))
            tables.append((strata, brute_force_tail(strata)))
        for strata, expected in tables:
            r = stratified_test_from_counts(strata)
            assert r.pvalue == (1.0 if r.degenerate else float(expected)), strata
            assert r.pvalue == float(fraction_tail(strata))
        log_space_only(monkeypatch)
        for strata, expected in tables:
            assert stratified_test_from_counts(strata).pvalue == pytest.approx(float(expected), rel=1e-12)

    def test_null_moments_match_statsmodels_cmh(self):
        # statsmodels' CMH statistic (no continuity correction) is (A - E[A])^2 / Var[A] with the exact
        # hypergeometric moments: our null distribution must have the same mean and variance.
        rng = np.random.default_rng(8)
        for _ in range(10):
            strata = []
            for s in range(int(rng.integers(2, 5))):
                n_u, n_n = (int(v) for v in rng.integers(20, 400, size=2))
                strata.append((f"s{s}", n_u, n_n, int(rng.integers(1, n_u)), int(rng.integers(1, n_n))))
            low, log_pmf = stratified_null_distribution(strata)
            pmf = np.exp(log_pmf)
            support = low + np.arange(len(pmf))
            mean = float(pmf @ support)
            variance = float(pmf @ (support - mean) ** 2)
            r = stratified_test_from_counts(strata)
            assert pmf.sum() == pytest.approx(1.0, abs=1e-12) and mean == pytest.approx(r.expected_a, rel=1e-10)
            tables = [np.array([[a, n_u - a], [b, n_n - b]]) for _, n_u, n_n, a, b in strata]
            cmh = StratifiedTable(tables).test_null_odds(correction=False).statistic
            assert (r.a - mean) ** 2 / variance == pytest.approx(cmh, rel=1e-8)
            # The tail of that distribution at the observed A is the p-value.
            assert r.log10_pvalue == pytest.approx(
                float(np.log10(pmf[r.a - low:].sum())) if r.a > low else 0.0, rel=1e-6, abs=1e-9)

    def test_pvalue_monotone_and_in_unit_interval(self):
        rng = np.random.default_rng(9)
        for _ in range(8):
            # One stratum fixed, the other's a varied (same margins otherwise): sizes straddle both paths.
            r_u, r_n = (int(v) for v in rng.integers(5, 300, size=2))
            other = ("r", r_u, r_n, int(rng.integers(0, r_u + 1)), int(rng.integers(0, r_n + 1)))
            n_u, n_n = (int(v) for v in rng.integers(1, 600, size=2))
            b = int(rng.integers(0, n_n + 1))
            log_p = np.array([stratified_test_from_counts([("v", n_u, n_n, a, b), other]).log10_pvalue
                              for a in range(0, n_u + 1, max(1, n_u // 40))])
            assert np.isfinite(log_p).all() and (log_p <= 0).all()
            assert (np.diff(log_p) <= 1e-12).all()

    def test_tiny_pvalues_stay_finite(self):
        r = stratified_test_from_counts([("x", 20_000, 20_000, 19_000, 10_000), ("y", 50, 50, 25, 25)])
        assert r.pvalue == 0.0 and math.isfinite(r.log10_pvalue) and r.log10_pvalue < -2000


class TestAccuracyByGold:
    def test_matches_scipy_chi2_contingency(self):
        rng = np.random.default_rng(4)
        gold = rng.integers(0, 3, size=600)
        correct = rng.random(600) < np.array([0.5, 0.6, 0.3])[gold]
        none = np.zeros(600, bool)
        r = accuracy_by_gold(LexicalMembership(UsualUnusualSets(none, none, 0), gold, correct, ("a", "b", "c"), 0))
        table = [[int((correct & (gold == i)).sum()), int((~correct & (gold == i)).sum())] for i in range(3)]
        reference = stats.chi2_contingency(table, correction=False)
        assert r.labels == ("a", "b", "c") and [list(row) for row in r.test.table] == table
        assert r.test.statistic == pytest.approx(reference.statistic, rel=1e-12)
        assert r.pvalue == pytest.approx(reference.pvalue, rel=1e-9) and r.differs

    def test_equal_accuracy_or_one_label_does_not_differ(self):
        none = np.zeros(8, bool)
        same = accuracy_by_gold(LexicalMembership(UsualUnusualSets(none, none, 0), np.array([0, 0, 0, 0, 2, 2, 2, 2]),
                                                  np.array([1, 0, 1, 0, 1, 0, 1, 0], bool), ("a", "b", "c"), 0))
        assert same.labels == ("a", "c") and same.pvalue == pytest.approx(1.0) and not same.differs
        one = accuracy_by_gold(LexicalMembership(UsualUnusualSets(none, none, 0), np.zeros(8, int),
                                                 np.ones(8, bool), ("a", "b"), 0))
        assert one.test.degenerate and not one.differs


def test_calibration_on_a_synthetic_forced_choice_null():
    # Accuracy by gold label is fixed (75% vs 25%) and U/N membership follows the gold label, as with
    # a random picker on CODAH. Stratified: about uniform; unstratified: cries wolf every time.
    rng = np.random.default_rng(2024)
    stratified_p, plain_p = [], []
    for _ in range(200):
        gold = np.repeat([0, 1], [300, 100])
        correct = rng.random(400) < np.where(gold == 0, 0.75, 0.25)
        in_usual = rng.random(400) < np.where(gold == 0, 0.8, 0.3)
        in_unusual = rng.random(400) < np.where(gold == 0, 0.3, 0.8)
        membership = LexicalMembership(UsualUnusualSets(in_usual, in_unusual, 0), gold, correct, ("inc", "cor"), 0)
        stratified_p.append(stratified.stratified_test_from_membership(membership).pvalue)
        plain_p.append(permutation_test_from_counts(
            n_usual=int(in_usual.sum()), correct_usual=int((correct & in_usual).sum()),
            n_unusual=int(in_unusual.sum()), correct_unusual=int((correct & in_unusual).sum())).pvalue)
    assert np.mean(np.array(stratified_p) < 0.05) <= 0.09
    assert np.mean(np.array(plain_p) < 0.05) >= 0.99
    # Planted effect: correct more often when in U, within each label.
    gold = np.repeat([0, 1], [300, 100])
    in_usual = rng.random(400) < 0.5
    correct = rng.random(400) < np.where(in_usual, 0.8, 0.4)
    membership = LexicalMembership(UsualUnusualSets(in_usual, ~in_usual, 0), gold, correct, ("inc", "cor"), 0)
    assert stratified.stratified_test_from_membership(membership).pvalue < 1e-6
