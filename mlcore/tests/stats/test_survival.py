"""The survival forecast (mlcore/stats/survival.py).

Simulation: a known logistic truth over the features is recovered (signs, size) and the
cross-fitted forecasts are calibrated (slope 0.9-1.1 over 20 seeds); on pure noise the forecast
is declared usable no more often than the test's nominal rate. References: scikit-learn's
pipeline for the stored coefficients, scikit-learn's metrics for the held-out quality, and
features worked out by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special, stats
from sklearn import metrics
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from mlcore.stats.survival import FEATURE_NAMES, SurvivalConfig, SurvivalFeatures, fit_survival, survival_features

#: Planted effects per standard deviation of the column; every other column has none.
TRUTH = {"prob_right": -1.0, "fooled": 0.8, "answer_only_right": -0.6, "coach_warnings": -0.5, "max_similarity": -0.7}
INTERCEPT = -0.3


def random_features(rng: np.random.Generator, n: int) -> list[SurvivalFeatures]:
    """Features drawn independently (their consistency does not matter to the regression)."""
    known = rng.random(n) < 0.7
    similar = rng.random(n) < 0.8
    return [
        SurvivalFeatures(
            prob_right=float(rng.uniform(0, 1)), margin=float(rng.normal(0, 0.2)), fooled=bool(rng.random() < 0.5),
            entropy=float(rng.uniform(0.5, 1)), answer_only_right=bool(rng.random() < 0.4) if known[i] else None,
            coach_warnings=int(rng.poisson(0.5)), length_ratio=float(rng.normal(0, 0.3)),
            completion_words=float(rng.uniform(1, 12)), prompt_words=int(rng.integers(5, 30)),
            distractor_overlap=float(rng.uniform(0, 0.5)), prompt_overlap=float(rng.uniform(0, 0.3)),
            max_similarity=float(rng.uniform(0, 0.9)) if similar[i] else None,
        )
        for i in range(n)
    ]


def design(features: list[SurvivalFeatures]) -> np.ndarray:
    return np.array([f.vector() for f in features])


def simulate(seed: int, n: int = 1000) -> tuple[list[SurvivalFeatures], np.ndarray, np.ndarray]:
    """Features, outcomes drawn from the planted logistic truth, and the true probabilities."""
    rng = np.random.default_rng(seed)
    features = random_features(rng, n)
    x = design(features)
    z = (x - x.mean(axis=0)) / x.std(axis=0)
    beta = np.array([TRUTH.get(name, 0.0) for name in FEATURE_NAMES])
    p = special.expit(INTERCEPT + z @ beta)
    return features, rng.random(n) < p, p


def test_planted_truth_is_recovered_and_calibrated_over_20_seeds() -> None:
    slopes, fitted = [], []
    for seed in range(20):
        features, survived, _ = simulate(seed)
        forecast = fit_survival(features, survived, seed=seed)
        assert forecast.usable and forecast.n_train == 1000
        coefficients = dict(zip(forecast.feature_names, forecast.coefficients))
        for name, effect in TRUTH.items():
            assert np.sign(coefficients[name]) == np.sign(effect), (seed, name, coefficients[name])
        slopes.append(forecast.quality.calibration_slope)
        fitted.append(forecast.coefficients)
    assert 0.9 <= np.mean(slopes) <= 1.1, slopes
    mean = dict(zip(FEATURE_NAMES, np.mean(fitted, axis=0)))
    for name in FEATURE_NAMES:  # L2 shrinks a little; every column lands near its planted value
        assert mean[name] == pytest.approx(TRUTH.get(name, 0.0), abs=0.12), name


def test_pure_noise_is_not_usable_more_often_than_the_nominal_rate() -> None:
    alpha, runs, usable, pvalues = 0.05, 50, 0, []
    for seed in range(runs):
        rng = np.random.default_rng(1000 + seed)
        features = random_features(rng, 200)
        forecast = fit_survival(features, rng.random(200) < 0.4, config=SurvivalConfig(alpha=alpha), seed=seed)
        usable += forecast.usable
        pvalues.append(forecast.quality.pvalue)
    # More than this many usable runs has probability < 1% if the true rate were alpha.
    assert usable <= stats.binom.ppf(0.99, runs, alpha), usable
    assert np.mean(np.asarray(pvalues) < alpha) <= alpha + 0.06


def test_held_out_forecasts_never_see_their_own_outcome() -> None:
    features, survived, _ = simulate(3, 400)
    folds = np.arange(400) % 4
    first = fit_survival(features, survived, folds=folds)
    flipped = survived.copy()
    flipped[folds == 0] = ~flipped[folds == 0]
    second = fit_survival(features, flipped, folds=folds)
    same = folds == 0
    assert np.allclose(np.array(first.held_out)[same], np.array(second.held_out)[same])
    assert np.allclose(np.array(first.held_out_base)[same], np.array(second.held_out_base)[same])
    assert not np.allclose(first.held_out, second.held_out)  # the other folds trained on the flip
    for k in range(4):  # the base rate is the other folds' survival rate
        assert np.allclose(np.array(first.held_out_base)[folds == k], survived[folds != k].mean())


def test_stored_numbers_reproduce_scikit_learn_and_its_metrics() -> None:
    features, survived, _ = simulate(5, 600)
    forecast = fit_survival(features, survived, config=SurvivalConfig(c=0.5))
    pipeline = make_pipeline(StandardScaler(), LogisticRegression(C=0.5, tol=1e-10, max_iter=10_000)).fit(design(features), survived)
    fresh = random_features(np.random.default_rng(99), 50)
    # another solver (lbfgs) reaches the same optimum
    assert np.allclose(forecast.predict(fresh), pipeline.predict_proba(design(fresh))[:, 1], atol=1e-6)
    held_out, base, y = np.array(forecast.held_out), np.array(forecast.held_out_base), survived.astype(int)
    q = forecast.quality
    assert q.brier == pytest.approx(metrics.brier_score_loss(y, held_out))
    assert q.brier_base == pytest.approx(metrics.brier_score_loss(y, base))
    assert q.log_loss == pytest.approx(metrics.log_loss(y, held_out))
    assert q.auc == pytest.approx(metrics.roc_auc_score(y, held_out))
    assert q.brier_improvement == pytest.approx(q.brier_base - q.brier)
    assert q.improvement_ci[0] < q.brier_improvement < q.improvement_ci[1]


def test_too_few_scored_questions_give_no_forecast() -> None:
    features, survived, _ = simulate(1, 30)
    forecast = fit_survival(features, survived)
    assert not forecast.usable and forecast.quality is None and "not enough" in forecast.reason
    assert forecast.predict(features[:3]) == pytest.approx([survived.mean()] * 3, abs=1e-6)
    one_sided = fit_survival(*simulate(1, 200)[:1], survived=[True] * 195 + [False] * 5)
    assert not one_sided.usable and one_sided.quality is None


def test_features_of_a_draft_by_hand() -> None:
    f = survival_features(
        "Tom was hungry, so he", ["ate a big sandwich.", "ate a nap.", "slept.", "sang."], 0, [0.1, 0.6, 0.2, 0.1],
        answer_only_pick=0, coach_warnings=2, max_similarity=0.4,
    )
    assert f.prob_right == 0.1 and f.margin == pytest.approx(-0.5) and f.fooled
    assert f.entropy == pytest.approx(-(2 * 0.1 * math.log(0.1) + 0.6 * math.log(0.6) + 0.2 * math.log(0.2)) / math.log(4))
    assert f.answer_only_right is True and f.coach_warnings == 2 and f.max_similarity == 0.4
    assert f.length_ratio == pytest.approx(math.log(5 / ((3 + 1 + 1) / 3 + 1)))
    assert f.completion_words == pytest.approx((4 + 3 + 1 + 1) / 4) and f.prompt_words == 5
    # {ate, a, big, sandwich} vs {ate, a, nap}: 2/5; vs {slept}, {sang}: 0
    assert f.distractor_overlap == pytest.approx((2 / 5) / 3)
    assert f.prompt_overlap == 0.0
    unknown = survival_features("x", ["a", "b"], 1, [0.3, 0.7])
    assert unknown.vector()[FEATURE_NAMES.index("answer_only_known")] == 0.0
    assert unknown.vector()[FEATURE_NAMES.index("similarity_known")] == 0.0
    assert len(unknown.vector()) == len(FEATURE_NAMES)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        survival_features("x", ["a", "b"], 2, [0.5, 0.5])
    with pytest.raises(ValueError):
        survival_features("x", ["a", "b"], 0, [0.5, 0.6])
    features, survived, _ = simulate(0, 100)
    with pytest.raises(ValueError):
        fit_survival(features, survived[:99])
    with pytest.raises(ValueError):
        fit_survival(features, survived, folds=[0] * 100)
