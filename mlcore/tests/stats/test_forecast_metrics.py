"""Forecast metrics (mlcore/stats/forecast_metrics.py).

References: scikit-learn's ``brier_score_loss``, ``log_loss`` and ``roc_auc_score`` (other code,
written by others), exact values worked by hand on small cases, and statsmodels' ``Logit`` of
``y`` on ``[1, logit(p)]`` for the calibration slope and intercept.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import special
from sklearn import metrics

from mlcore.stats.forecast_metrics import auc, brier_score, calibration, log_loss, reliability_table


def sample(seed: int, n: int = 300) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.02, 0.98, n)
    y = (rng.random(n) < special.expit(1.5 * special.logit(p) + 0.3)).astype(int)
    return y, p


def test_small_cases_by_hand() -> None:
    assert brier_score([1, 0], [0.75, 0.5]) == pytest.approx((0.0625 + 0.25) / 2)
    assert log_loss([1, 0], [0.75, 0.5]) == pytest.approx(-(math.log(0.75) + math.log(0.5)) / 2)
    # pairs (positive, negative): (0.35 vs 0.1) win, (0.35 vs 0.4) loss, (0.8 vs both) wins: 3 of 4
    assert auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == 0.75
    assert auc([0, 1, 1], [0.5, 0.5, 0.9]) == 0.75  # one tie counts one half
    assert math.isnan(auc([1, 1], [0.2, 0.3]))


@pytest.mark.parametrize("seed", range(5))
def test_agree_with_scikit_learn(seed: int) -> None:
    y, p = sample(seed)
    p[:10] = np.round(p[:10], 1)  # some ties
    assert brier_score(y, p) == pytest.approx(metrics.brier_score_loss(y, p), rel=1e-12)
    assert log_loss(y, p) == pytest.approx(metrics.log_loss(y, p), rel=1e-12)
    assert auc(y, p) == pytest.approx(metrics.roc_auc_score(y, p), rel=1e-12)


def test_log_loss_clips_certain_misses() -> None:
    assert log_loss([1], [0.0]) == pytest.approx(-math.log(1e-12))
    assert math.isfinite(log_loss([0, 1], [1.0, 0.0]))


@pytest.mark.parametrize("seed", range(5))
def test_calibration_matches_statsmodels_logit(seed: int) -> None:
    y, p = sample(seed)
    reference = sm.Logit(y, sm.add_constant(special.logit(p))).fit(disp=0)
    ours = calibration(y, p)
    assert ours.converged
    assert ours.intercept == pytest.approx(reference.params[0], abs=1e-7)
    assert ours.slope == pytest.approx(reference.params[1], abs=1e-7)


def test_calibration_recovers_a_planted_miscalibration() -> None:
    rng = np.random.default_rng(7)
    p = rng.uniform(0.05, 0.95, 40_000)
    y = rng.random(p.size) < special.expit(0.5 * special.logit(p) - 0.4)  # forecasts twice too extreme
    fit = calibration(y, p)
    assert fit.slope == pytest.approx(0.5, abs=0.03) and fit.intercept == pytest.approx(-0.4, abs=0.03)


def test_calibration_degenerate_cases_are_nan() -> None:
    assert not calibration([1, 1, 1], [0.2, 0.5, 0.7]).converged
    assert math.isnan(calibration([0, 1, 0], [0.4, 0.4, 0.4]).slope)
    assert math.isnan(calibration([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9]).slope)  # perfectly separated


def test_reliability_table_counts_every_forecast_once() -> None:
    y, p = sample(3, 1000)
    table = reliability_table(y, p, bins=10)
    assert [b.lower for b in table] == pytest.approx([k / 10 for k in range(10)])
    assert sum(b.n for b in table) == 1000
    for b in table:
        members = (p >= b.lower) & ((p < b.upper) if b.upper < 1 else (p <= 1))
        assert b.n == members.sum()
        assert b.observed_rate == pytest.approx(y[members].mean())
        assert b.mean_forecast == pytest.approx(p[members].mean())
    assert reliability_table([1], [1.0], bins=4)[-1].n == 1
    assert math.isnan(reliability_table([1], [1.0], bins=4)[0].mean_forecast)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        brier_score([1, 2], [0.5, 0.5])
    with pytest.raises(ValueError):
        log_loss([1, 0], [0.5, 1.5])
    with pytest.raises(ValueError):
        auc([1, 0, 1], [0.5, 0.5])
    with pytest.raises(ValueError):
        reliability_table([1], [0.5], bins=0)
