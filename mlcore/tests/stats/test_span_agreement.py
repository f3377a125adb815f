"""mlcore.stats.span_agreement: SQuAD F1 agreement, and Krippendorff's alpha against the ``krippendorff`` package.

References: the ``krippendorff`` package 0.9.0 (test-only; Castro's implementation of the same
2011 paper), Krippendorff's (2011) worked example (alpha 0.743), hand-worked small cases, and
simulations: independent labels (alpha 0, interval coverage) and raters copying a truth with
noise (alpha equal to its population value, derived below independently of the estimator).
"""
import math

import numpy as np
import pytest

from mlcore.stats.span_agreement import krippendorff_alpha, span_agreement
from mlcore.stats.squad_metrics import f1_score

krippendorff = pytest.importorskip("krippendorff")
NAN = math.nan


def _with_missing(rng: np.random.Generator, raters: int, units: int, categories: int, missing: float) -> np.ndarray:
    data = rng.integers(0, categories, size=(raters, units)).astype(float)
    data[rng.random((raters, units)) < missing] = np.nan
    return data


class SpanAgreementTests:
    def test_pairs_questions_and_project_follow_the_squad_f1(self):
        answers = {
            "ann": {"q1": "Denver Broncos", "q2": "", "q3": "in 1066"},
            "bob": {"q1": "Broncos", "q2": "Normans", "q3": "1066"},
            "cy": {"q1": "Carolina Panthers", "q3": "1066."},
        }
        r = span_agreement(answers)
        pairs = {(p.worker_a, p.worker_b): p for p in r.pairs}
        # ann-bob: q1 2/3, q2 0 (unanswerable vs a span), q3 2/3 ("in" is an extra token).
        assert pairs["ann", "bob"].f1 == pytest.approx((2 / 3 + 0 + 2 / 3) / 3)
        assert pairs["ann", "bob"].n_shared == 3
        assert pairs["ann", "cy"].f1 == pytest.approx((0 + 2 / 3) / 2)
        assert pairs["bob", "cy"].f1 == pytest.approx((0 + 1) / 2)
        by_q = {q.question: q for q in r.questions}
        assert by_q["q1"].mean_f1 == pytest.approx(2 / 9) and by_q["q1"].n_answers == 3
        assert by_q["q2"].disagreement == 1.0
        assert by_q["q3"].mean_f1 == pytest.approx((2 / 3 + 2 / 3 + 1) / 3)
        assert [q.question for q in r.questions] == ["q2", "q1", "q3"]  # most disputed first
        assert r.statistic == pytest.approx(np.mean([2 / 9, 0, 7 / 9]))

    def test_persian_normalisation_is_used(self):
        # Arabic yeh and kaf, Persian digits and a ZWNJ against their normalised spellings.
        a = "\u0643\u062a\u0627\u0628\u200c\u0647\u0627\u064a \u06f1\u06f3"
        b = "\u06a9\u062a\u0627\u0628 \u0647\u0627\u06cc 13"
        fa = span_agreement({"w1": {"q": a}, "w2": {"q": b}}, normalizer="fa")
        en = span_agreement({"w1": {"q": a}, "w2": {"q": b}}, normalizer="en")
        assert fa.statistic == 1.0
        assert en.statistic == pytest.approx(f1_score(a, b, normalizer="en")) and en.statistic < 1.0

    def test_min_shared_and_single_answers(self):
        r = span_agreement({"a": {"q1": "x", "q2": "y"}, "b": {"q1": "x"}, "c": {"q9": "z"}}, min_shared=2)
        assert r.pairs == () and [q.question for q in r.questions] == ["q1"]
        empty = span_agreement({"a": {"q1": "x"}})
        assert math.isnan(empty.statistic) and empty.questions == ()
        with pytest.raises(ValueError):
            span_agreement({"a": {"q": "x"}}, min_shared=0)
        with pytest.raises(ValueError):
            span_agreement({"a": {"q": None}})  # type: ignore[dict-item]


class KrippendorffAlphaTests:
    def test_krippendorff_2011_worked_example(self):
        data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
                [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
                [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
                [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN]]
        r = krippendorff_alpha(data)
        # The paper: n.. = 40, alpha = 1 - (40 - 1) * 10 / 1040 ... = 0.743 (unit 12 has one value).
        assert r.n_pairable == 40 and r.n_units == 11
        assert r.coincidences.sum() == pytest.approx(40)
        assert round(r.statistic, 3) == 0.743
        reference = krippendorff.alpha(reliability_data=np.array(data, dtype=float), level_of_measurement="nominal")
        assert r.statistic == pytest.approx(reference, abs=1e-12)

    def test_hand_worked_binary_case(self):
        # Units (a, a), (a, b), (b, b), (a, -): coincidences o_aa = 2, o_ab = o_ba = 1, o_bb = 2.
        # n_a = n_b = 3, n = 6: alpha = 1 - (6 - 1) * 2 / (3 * 3 * 2) = 1 - 10/18 = 4/9.
        r = krippendorff_alpha([["a", "a", "b", "a"], ["a", "b", "b", None]])
        assert r.coincidences.tolist() == [[2.0, 1.0], [1.0, 2.0]]
        assert r.statistic == pytest.approx(4 / 9)
        assert r.observed_disagreement == pytest.approx(2 / 6)
        assert r.expected_disagreement == pytest.approx(18 / 30)

    def test_perfect_agreement_single_category_and_errors(self):
        assert krippendorff_alpha([[1, 0, 1], [1, 0, 1]]).statistic == 1.0
        assert math.isnan(krippendorff_alpha([[1, 1], [1, 1]]).statistic)
        with pytest.raises(ValueError):
            krippendorff_alpha([[1, NAN], [NAN, 2]])  # no unit has two values
        with pytest.raises(ValueError):
            krippendorff_alpha([1, 2, 3])

    @pytest.mark.parametrize("seed", range(12))
    def test_matches_the_package_on_random_matrices_with_missing_values(self, seed):
        rng = np.random.default_rng(seed)
        raters, units, categories = int(rng.integers(2, 7)), int(rng.integers(5, 60)), int(rng.integers(2, 5))
        data = _with_missing(rng, raters, units, categories, missing=float(rng.uniform(0.0, 0.5)))
        # Make the raters agree to a varying degree so alpha is not always near 0.
        truth = rng.integers(0, categories, size=units)
        copy = (rng.random((raters, units)) < rng.uniform(0, 0.9)) & ~np.isnan(data)
        data[copy] = np.broadcast_to(truth, data.shape)[copy]
        if (np.sum(~np.isnan(data), axis=0) >= 2).sum() == 0:
            pytest.skip("no pairable unit in this draw")
        ours = krippendorff_alpha(data)
        reference = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
        assert ours.statistic == pytest.approx(reference, abs=1e-10)

    def test_answerable_labels_as_booleans(self):
        data = [[True, False, True, None], [True, False, False, True], [True, None, True, True]]
        numeric = [[1, 0, 1, NAN], [1, 0, 0, 1], [1, NAN, 1, 1]]
        assert krippendorff_alpha(data).statistic == pytest.approx(
            krippendorff.alpha(reliability_data=np.array(numeric, dtype=float), level_of_measurement="nominal"))


class KrippendorffSimulationTests:
    def test_null_independent_labels_alpha_near_zero_and_interval_covers_zero(self):
        rng = np.random.default_rng(2011)
        alphas, covered, reps = [], 0, 200
        for _ in range(reps):
            r = krippendorff_alpha(_with_missing(rng, 3, 80, 2, missing=0.2))
            alphas.append(r.statistic)
            ci = r.confidence_interval(n_resamples=400, rng=rng)
            covered += ci.low <= 0.0 <= ci.high
        # sd of one alpha here is about 0.08, so of the mean over 200 about 0.006.
        assert abs(np.mean(alphas)) < 0.02
        # 95% nominal; binomial sd at 200 replicates is 0.015.
        assert 0.90 <= covered / reps <= 0.99

    @pytest.mark.parametrize(("prevalence", "copy"), [(0.7, 0.9), (0.5, 0.6), (0.3, 0.8)])
    def test_planted_raters_copying_a_truth_reach_the_implied_alpha(self, prevalence, copy):
        # Each rater gives the truth with probability `copy`, else a uniform label out of 2.
        # Population alpha = 1 - D_o / D_e with D_o = P(two labels of one unit differ) and
        # D_e = P(two labels of different units differ).
        per_truth = np.array([[copy + (1 - copy) / 2, (1 - copy) / 2], [(1 - copy) / 2, copy + (1 - copy) / 2]])
        weights = np.array([prevalence, 1 - prevalence])
        d_o = 1 - float(weights @ np.sum(per_truth**2, axis=1))
        d_e = 1 - float(np.sum((weights @ per_truth) ** 2))
        implied = 1 - d_o / d_e
        rng = np.random.default_rng(7)
        units, raters = 4000, 4
        truth = (rng.random(units) >= prevalence).astype(float)
        data = np.where(rng.random((raters, units)) < copy, truth, rng.integers(0, 2, size=(raters, units)))
        data[rng.random((raters, units)) < 0.25] = np.nan
        r = krippendorff_alpha(data)
        assert r.statistic == pytest.approx(implied, abs=0.03)
        ci = r.confidence_interval(n_resamples=500, rng=1)
        assert ci.low <= implied <= ci.high

    def test_interval_arguments_are_checked_and_reproducible(self):
        r = krippendorff_alpha(_with_missing(np.random.default_rng(3), 3, 30, 3, 0.1))
        assert r.confidence_interval(rng=5) == r.confidence_interval(rng=5)
        with pytest.raises(ValueError):
            r.confidence_interval(1.5)
        with pytest.raises(ValueError):
            r.confidence_interval(n_resamples=0)
