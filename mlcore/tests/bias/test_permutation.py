"""Usual/unusual sets and the exact permutation test (SPEC-bias §2; reference values R8-R12 of §7)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats

from mlcore.bias.lexical import lexical_features
from mlcore.bias.lexical_analysis import lexical_bias_analysis
from mlcore.bias.lexical_association import lexical_zscores, select_top_features
from mlcore.bias.permutation import (
    lexical_bias_test,
    permutation_test_from_counts,
    usual_labels,
    usual_unusual_sets,
)
from mlcore.stats import hypergeom
from mlcore.stats.hypergeom import format_pvalue, hypergeom_log10_sf
from mlcore.tests.bias.test_lexical import LABELS, TOY_HYPOTHESES, TOY_LABELS, TOY_PREMISES

# SPEC §2.4 evaluation split (segment 2 empty).
EVAL_TEXTS = [
    "Nobody is outside.",
    "A man is outdoors.",
    "Nobody sings.",
    "Two dogs sleep outside.",
    "The friends are outdoors.",
    "Nobody is home.",
    "A woman reads.",
    "Nobody is outdoors.",
]
EVAL_GOLD = ["C", "E", "N", "E", "N", "C", "E", "E"]
EVAL_PRED = ["C", "E", "C", "E", "E", "C", "E", "C"]


@pytest.fixture(scope="module")
def toy_training():
    features = lexical_features(TOY_PREMISES, TOY_HYPOTHESES)
    zscores = lexical_zscores(features, TOY_LABELS, label_set=LABELS)
    return zscores, select_top_features(zscores, k=2)


def counts_test(n_u: int, a: int, n_n: int, b: int):
    return permutation_test_from_counts(n_usual=n_u, correct_usual=a, n_unusual=n_n, correct_unusual=b)


class TestUsualUnusualSets:
    def test_usual_labels_keep_ties(self, toy_training):
        zscores, _ = toy_training
        usual = usual_labels(zscores.counts)
        assert usual[zscores.row["sleeping"]].tolist() == [False, True, True]  # Λ = {N, C}
        assert usual[zscores.row["nobody"]].tolist() == [False, False, True]

    def test_usual_labels_come_from_counts_even_with_prior_null(self):
        # §2.1: with p0="prior" argmax z can differ from argmax count; Λ always uses the counts.
        # "w": 6 A, 4 B; the prior is 0.9 A, so z_B(w) > 0 > z_A(w) and "w" is selected for B.
        r = lexical_bias_analysis(["w"] * 10 + ["x"] * 30, ["A"] * 6 + ["B"] * 4 + ["A"] * 30,
                                  ["w", "w"], ["A", "B"], ["A", "A"], label_set=("A", "B"), k=1, p0="prior")
        zscores, row = r.zscores, r.zscores.row["w"]
        assert zscores.zscore("w", "B") > 0 > zscores.zscore("w", "A")
        assert r.selection.selected_for["w"] == ("B",)
        assert usual_labels(zscores.counts)[row].tolist() == [True, False]  # Λ(w) = {A}
        # Instance 1 (gold A, right) is usual, instance 2 (gold B, wrong) unusual; argmax z would swap them.
        assert (r.test.n_U, r.test.n_N, r.test.a, r.test.b, r.test.pvalue) == (1, 1, 1, 0, 0.5)

    def test_section_2_4_membership(self, toy_training):
        zscores, selection = toy_training
        test = lexical_features(EVAL_TEXTS, [""] * len(EVAL_TEXTS))
        columns = [test.column.get(w, None) for w in selection.features]
        present = np.zeros((len(EVAL_TEXTS), len(columns)), dtype=int)
        dense = test.matrix.toarray()
        for j, c in enumerate(columns):
            if c is not None:
                present[:, j] = dense[:, c]
        usual = usual_labels(zscores.counts[[zscores.row[w] for w in selection.features]])
        gold = np.array([LABELS.index(g) for g in EVAL_GOLD])
        sets = usual_unusual_sets(sp.csr_matrix(present), gold, usual)
        assert (np.flatnonzero(sets.in_usual) + 1).tolist() == [1, 2, 3, 4, 5, 6, 8]
        assert (np.flatnonzero(sets.in_unusual) + 1).tolist() == [1, 3, 4, 5, 8]
        assert (sets.n_U, sets.n_N, sets.n_overlap) == (7, 5, 5)


class TestReferenceValues:
    def test_r8_section_2_4_toy(self, toy_training):
        zscores, selection = toy_training
        test = lexical_features(EVAL_TEXTS, [""] * len(EVAL_TEXTS), vocabulary=selection.features)
        r = lexical_bias_test(test, EVAL_GOLD, EVAL_PRED, zscores=zscores, selection=selection)
        assert (r.n_U, r.n_N, r.n_overlap, r.a, r.b, r.M, r.K) == (7, 5, 5, 4, 2, 12, 6)
        assert r.pvalue == 0.5
        assert r.statistic == 4
        assert r.acc_U == pytest.approx(4 / 7) and r.acc_N == pytest.approx(2 / 5)
        assert r.log10_pvalue == pytest.approx(math.log10(0.5), abs=1e-12)
        assert not r.degenerate
        assert (r.n_features_selected, r.n_features_seen_in_eval) == (6, 6)

    def test_r8_overlap_must_count_in_both_sets(self):
        # The bugs SPEC §2.4 warns about give p = 1 on the same data.
        assert counts_test(7, 4, 5, 2).pvalue == 0.5
        assert counts_test(7, 4, 0, 0).pvalue == 1.0  # overlaps only in U
        assert counts_test(2, 2, 0, 0).pvalue == 1.0  # overlaps dropped

    def test_r8_evaluation_vocabulary_need_not_be_restricted(self, toy_training):
        zscores, selection = toy_training
        test = lexical_features(EVAL_TEXTS)  # full vocabulary, different column order
        r = lexical_bias_test(test, EVAL_GOLD, EVAL_PRED, zscores=zscores, selection=selection)
        assert (r.n_U, r.n_N, r.a, r.b, r.pvalue) == (7, 5, 4, 2, 0.5)

    def test_r9_small_hypergeometric_tail(self):
        r = counts_test(10, 8, 6, 2)
        assert (r.M, r.K) == (16, 10)
        assert r.pvalue == 92 / 1001
        assert r.pvalue == pytest.approx(0.0919081, abs=1e-6)
        assert r.log10_pvalue == pytest.approx(-1.036646, abs=1e-6)
        assert r.pvalue == pytest.approx(stats.hypergeom.sf(7, 16, 10, 10), rel=1e-12)

    def test_r10_moderate_tail(self):
        r = counts_test(1000, 900, 500, 300)
        assert r.pvalue == pytest.approx(1.5614e-40, rel=1e-4)
        assert r.log10_pvalue == pytest.approx(-39.806486, abs=1e-6)

    def test_r11_underflowing_tail(self):
        r = counts_test(20_000, 19_000, 20_000, 10_000)
        assert r.pvalue == 0.0
        assert r.log10_pvalue == pytest.approx(-2474.419903, abs=1e-6)
        assert r.log10_pvalue == pytest.approx(-2474.4199025919, abs=1e-9)  # exact rational value
        assert r.pvalue_display() == "3.8e-2475"
        assert math.isfinite(r.log10_pvalue)

    @pytest.mark.parametrize("n_u, a, n_n, b", [(5, 3, 0, 0), (0, 0, 4, 2), (5, 0, 4, 0), (5, 5, 4, 4), (0, 0, 0, 0)])
    def test_r12_degenerate_cases(self, n_u, a, n_n, b):
        r = counts_test(n_u, a, n_n, b)
        assert (r.pvalue, r.log10_pvalue, r.degenerate) == (1.0, 0.0, True)
        assert math.isnan(r.acc_N) == (n_n == 0) and math.isnan(r.acc_U) == (n_u == 0)

    def test_empty_evaluation_set_is_degenerate(self, toy_training):
        zscores, selection = toy_training
        test = lexical_features([], vocabulary=selection.features)
        r = lexical_bias_test(test, [], [], zscores=zscores, selection=selection)
        assert (r.pvalue, r.log10_pvalue, r.degenerate, r.n_features_seen_in_eval) == (1.0, 0.0, True, 0)

    def test_display_rule(self):
        assert format_pvalue(-2474.4199) == "3.8e-2475"
        assert format_pvalue(math.log10(0.5)) == "5.0e-1"
        assert format_pvalue(math.log10(1.5614e-40)) == "1.6e-40"
        assert format_pvalue(-0.001) == "1.0e0"  # 9.977 rounds up: exponent carried
        with pytest.raises(ValueError):
            format_pvalue(-math.inf)


class TestPredictionsAndValidation:
    def test_prediction_outside_label_set_is_wrong(self, toy_training):
        zscores, selection = toy_training
        test = lexical_features(EVAL_TEXTS, vocabulary=selection.features)
        pred = ["C", "E", "C", "E", "E", "C", "E", "contradiction"]  # id 8 unchanged: already wrong
        r = lexical_bias_test(test, EVAL_GOLD, pred, zscores=zscores, selection=selection)
        assert (r.a, r.b) == (4, 2)
        pred = ["banana"] + EVAL_PRED[1:]  # id 1 was correct (in U and N)
        r = lexical_bias_test(test, EVAL_GOLD, pred, zscores=zscores, selection=selection)
        assert (r.a, r.b) == (3, 1)

    def test_gold_outside_label_set_raises(self, toy_training):
        zscores, selection = toy_training
        test = lexical_features(EVAL_TEXTS, vocabulary=selection.features)
        with pytest.raises(ValueError, match="outside the label set"):
            lexical_bias_test(test, ["X"] + EVAL_GOLD[1:], EVAL_PRED, zscores=zscores, selection=selection)
        with pytest.raises(ValueError):
            lexical_bias_test(test, EVAL_GOLD[:-1], EVAL_PRED, zscores=zscores, selection=selection)

    @pytest.mark.parametrize("n_u, a, n_n, b", [(3, 4, 2, 0), (3, 1, 2, 3), (-1, 0, 2, 0), (2.5, 1, 2, 1)])
    def test_invalid_counts(self, n_u, a, n_n, b):
        with pytest.raises(ValueError):
            counts_test(n_u, a, n_n, b)


class TestTailProperties:
    def test_exact_and_log_space_paths_agree_with_scipy(self, monkeypatch):
        rng = np.random.default_rng(1)
        cases = []
        for _ in range(200):
            n_u, n_n = (int(v) for v in rng.integers(1, 400, size=2))
            a, b = int(rng.integers(0, n_u + 1)), int(rng.integers(0, n_n + 1))
            cases.append((a, n_u + n_n, a + b, n_u))
        exact = [hypergeom_log10_sf(*c) for c in cases]
        monkeypatch.setattr(hypergeom, "EXACT_MAX_POPULATION", 0)
        logspace = [hypergeom_log10_sf(*c) for c in cases]
        reference = [stats.hypergeom.logsf(a - 1, m, k, n) / math.log(10) for a, m, k, n in cases]
        assert logspace == pytest.approx(exact, rel=1e-9, abs=1e-12)
        assert reference == pytest.approx(exact, rel=1e-8, abs=1e-12)

    def test_exact_path_is_the_rational_tail(self):
        a, m, k, n = 30, 200, 90, 50
        tail = sum(Fraction(math.comb(k, x) * math.comb(m - k, n - x), math.comb(m, n)) for x in range(a, min(k, n) + 1))
        r = counts_test(n, a, m - n, k - a)
        assert r.pvalue == float(tail)

    def test_pvalue_in_unit_interval_and_monotone_in_correct_usual(self):
        # Sizes straddle the exact (M <= 1000) and log-space paths.
        rng = np.random.default_rng(2)
        for _ in range(16):
            n_u, n_n = (int(v) for v in rng.integers(1, 1200, size=2))
            b = int(rng.integers(0, n_n + 1))
            results = [counts_test(n_u, a, n_n, b) for a in range(n_u + 1)]
            p = np.array([r.pvalue for r in results])
            log_p = np.array([r.log10_pvalue for r in results])
            assert np.isfinite(log_p).all() and (log_p <= 0).all()
            assert ((p > 0) | (log_p < -307)).all() and (p <= 1).all()
            # more correct usual-label instances (same sets, same b): never a larger p-value
            assert (np.diff(log_p) <= 1e-12).all()
            assert (np.diff(p) <= 1e-12 * p[:-1]).all()
            assert (p[1:] < p[:-1]).sum() > 0

    def test_tail_is_positive_when_nondegenerate(self):
        r = counts_test(50, 50, 50, 0)  # the most extreme table of this size
        assert 0 < r.pvalue < 1e-28 and r.pvalue == pytest.approx(1 / math.comb(100, 50))
