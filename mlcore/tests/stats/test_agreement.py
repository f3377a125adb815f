"""mlcore.stats.agreement against reference values from maintained libraries and published outputs.

References: scikit-learn's ``cohen_kappa_score`` (statistic), statsmodels' ``cohens_kappa``
(statistic, asymptotic and null standard errors, p-values; its test suite checks them against a
SAS ``PROC FREQ`` printout) and ``fleiss_kappa``, R's ``irr::kappam.fleiss`` output for Fleiss'
1971 diagnoses data (kappa 0.4302445, z 17.65183), scipy's ``binomtest``.
"""
import math

import numpy as np
import pytest
from scipy import stats

from mlcore.stats.agreement import (
    cohen_kappa,
    fleiss_kappa,
    pairwise_cohen_kappa,
    rating_counts,
)
from mlcore.stats.human_accuracy import human_accuracy

sklearn_metrics = pytest.importorskip("sklearn.metrics")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")

# The 3x3 table of statsmodels' SAS comparison (rows: rater A, columns: rater B).
TABLE10 = np.array([[0, 4, 1], [0, 8, 0], [0, 1, 5]])
SAS = {"kappa": 0.4842, "ase": 0.1380, "low": 0.2137, "high": 0.7547, "ase0": 0.1484, "p_two": 0.0011}

# Fleiss (1971): 30 patients, 6 psychiatrists, 5 diagnoses (1-5), as in R's irr package.
DIAGNOSES = np.array([
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5], [2, 2, 2, 4, 4, 4],
    [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4], [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5],
    [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4], [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5],
    [3, 3, 3, 3, 3, 5], [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4], [1, 4, 4, 4, 4, 5],
    [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4], [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
])


def _pairs_from_table(table: np.ndarray) -> tuple[list[int], list[int]]:
    a, b = [], []
    for i, row in enumerate(table):
        for j, count in enumerate(row):
            a += [i] * int(count)
            b += [j] * int(count)
    return a, b


class CohenKappaTests:
    def test_matches_statsmodels_and_sas_on_the_published_table(self):
        a, b = _pairs_from_table(TABLE10)
        result = cohen_kappa(a, b, labels=[0, 1, 2])
        reference = inter_rater.cohens_kappa(TABLE10)
        assert result.statistic == pytest.approx(reference.kappa, abs=1e-12)
        assert result.standard_error == pytest.approx(reference.std_kappa, abs=1e-12)
        assert result.null_standard_error == pytest.approx(reference.std_kappa0, abs=1e-12)
        assert result.pvalue == pytest.approx(reference.pvalue_two_sided, abs=1e-12)
        ci = result.confidence_interval()
        assert (round(result.statistic, 4), round(result.standard_error, 4)) == (SAS["kappa"], SAS["ase"])
        assert (round(ci.low, 4), round(ci.high, 4)) == (SAS["low"], SAS["high"])
        assert round(result.null_standard_error, 4) == SAS["ase0"] and round(result.pvalue, 4) == SAS["p_two"]
        one_sided = cohen_kappa(a, b, alternative="greater")
        assert one_sided.pvalue == pytest.approx(reference.pvalue_one_sided, abs=1e-12)

    @pytest.mark.parametrize("seed", range(5))
    def test_statistic_matches_scikit_learn_on_random_answers(self, seed):
        rng = np.random.default_rng(seed)
        a = rng.integers(0, 4, 200)
        b = np.where(rng.random(200) < 0.7, a, rng.integers(0, 4, 200))  # 70% copied: real agreement
        result = cohen_kappa(a, b)
        assert result.statistic == pytest.approx(sklearn_metrics.cohen_kappa_score(a, b), abs=1e-12)
        assert result.n == 200 and result.pvalue < 1e-10

    def test_labels_may_be_any_hashable_and_unused_labels_do_not_change_kappa(self):
        a, b = ["x", "y", "x", "z"], ["x", "y", "y", "z"]
        assert cohen_kappa(a, b).statistic == pytest.approx(sklearn_metrics.cohen_kappa_score(a, b))
        assert cohen_kappa(a, b, labels=["x", "y", "z", "w"]).statistic == pytest.approx(cohen_kappa(a, b).statistic)

    def test_perfect_and_chance_agreement(self):
        assert cohen_kappa([0, 1, 2, 3], [0, 1, 2, 3]).statistic == pytest.approx(1.0)
        assert cohen_kappa([0, 0, 1, 1], [0, 1, 0, 1]).statistic == pytest.approx(0.0)

    def test_a_single_shared_label_has_no_kappa(self):
        result = cohen_kappa([1, 1, 1], [1, 1, 1])
        assert math.isnan(result.statistic) and math.isnan(result.pvalue)
        assert result.observed_agreement == 1.0

    @pytest.mark.parametrize(
        "a, b, kwargs, message",
        [([0, 1], [0], {}, "different numbers"), ([], [], {}, "at least one"), ([0, 5], [0, 1], {"labels": [0, 1]}, "outside"),
         ([0, 1], [0, 1], {"alternative": "bigger"}, "alternative")],
    )
    def test_bad_arguments_are_explained(self, a, b, kwargs, message):
        with pytest.raises(ValueError, match=message):
            cohen_kappa(a, b, **kwargs)

    def test_confidence_level_must_be_a_fraction(self):
        with pytest.raises(ValueError, match="confidence_level"):
            cohen_kappa([0, 1, 1], [0, 1, 0]).confidence_interval(95)


class PairwiseCohenKappaTests:
    def test_mean_of_pairs_with_enough_shared_items(self):
        ratings = {
            "ann": {1: 0, 2: 1, 3: 2, 4: 3, 5: 0},
            "bob": {1: 0, 2: 1, 3: 2, 4: 0, 5: 0},
            "cy": {1: 0, 2: 2, 3: 2, 4: 3, 5: 1},
            "dee": {9: 0},  # shares nothing: left out
        }
        result = pairwise_cohen_kappa(ratings, labels=[0, 1, 2, 3], min_shared=3)
        expected = {
            (x, y): sklearn_metrics.cohen_kappa_score([ratings[x][i] for i in range(1, 6)], [ratings[y][i] for i in range(1, 6)],
                                                      labels=[0, 1, 2, 3])
            for x, y in [("ann", "bob"), ("ann", "cy"), ("bob", "cy")]
        }
        assert {(p.rater_a, p.rater_b): p.result.statistic for p in result.pairs} == pytest.approx(expected)
        assert result.statistic == pytest.approx(np.mean(list(expected.values())))

    def test_no_pairs_gives_nan(self):
        assert math.isnan(pairwise_cohen_kappa({"a": {1: 0}, "b": {2: 0}}).statistic)


class FleissKappaTests:
    def test_matches_irr_and_statsmodels_on_fleiss_1971(self):
        table = rating_counts(DIAGNOSES, labels=[1, 2, 3, 4, 5])
        reference_table, _ = inter_rater.aggregate_raters(DIAGNOSES)
        assert (table == reference_table).all()
        result = fleiss_kappa(table)
        assert result.statistic == pytest.approx(0.4302445, abs=1e-7)  # irr::kappam.fleiss
        assert result.statistic == pytest.approx(inter_rater.fleiss_kappa(reference_table), abs=1e-12)
        assert result.statistic / result.null_standard_error == pytest.approx(17.65183, abs=1e-5)  # irr's z
        assert result.pvalue < 1e-60
        assert (result.n_items, result.n_raters) == (30, 6)

    def test_bootstrap_interval_contains_kappa_and_is_reproducible(self):
        result = fleiss_kappa(rating_counts(DIAGNOSES, labels=[1, 2, 3, 4, 5]))
        ci = result.confidence_interval(n_resamples=500, rng=3)
        assert ci.low < result.statistic < ci.high
        assert ci == result.confidence_interval(n_resamples=500, rng=3)

    @pytest.mark.parametrize("seed", range(3))
    def test_matches_statsmodels_on_random_binary_labels(self, seed):
        rng = np.random.default_rng(seed)
        truth = rng.random(60) < 0.3
        labels = np.where(rng.random((60, 4)) < 0.85, truth[:, None], ~truth[:, None])
        table = rating_counts(labels, labels=[True, False])
        assert fleiss_kappa(table).statistic == pytest.approx(inter_rater.fleiss_kappa(table), abs=1e-12)

    @pytest.mark.parametrize(
        "table, message",
        [([[1, 1], [2, 1]], "same number"), ([[1, 0], [1, 0]], "at least 2"), ([[2]], "n_categories"),
         ([[1.5, 0.5]], "integer")],
    )
    def test_bad_tables_are_explained(self, table, message):
        with pytest.raises(ValueError, match=message):
            fleiss_kappa(table)


class HumanAccuracyTests:
    def test_overall_and_per_group_match_binomial_references(self):
        correct = [True] * 18 + [False] * 2
        groups = [["negation"]] * 10 + [["idioms", "negation"]] * 10
        result = human_accuracy(correct, groups)
        assert result.overall.statistic == 0.9 and result.overall.n == 20
        reference = stats.binomtest(18, 20, 0.25, alternative="greater")
        assert result.overall.pvalue == pytest.approx(reference.pvalue)
        ci = result.overall.confidence_interval()
        wilson = stats.binomtest(18, 20).proportion_ci(method="wilson")
        assert (ci.low, ci.high) == pytest.approx((wilson.low, wilson.high))
        assert result.per_group["negation"].n == 20
        assert result.per_group["idioms"].statistic == pytest.approx(0.8)

    def test_no_answers(self):
        result = human_accuracy([])
        assert result.overall.n == 0 and math.isnan(result.overall.statistic)
        assert math.isnan(result.overall.confidence_interval().low)

    def test_groups_must_match_answers(self):
        with pytest.raises(ValueError, match="group lists"):
            human_accuracy([True], [["a"], ["b"]])
