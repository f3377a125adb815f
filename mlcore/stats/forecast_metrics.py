"""How good is a probability forecast of a yes/no outcome? Brier score, log loss, AUC, calibration.

Pure functions over arrays (no Django, no scikit-learn): ``y`` holds the outcomes (0/1),
``p`` the forecast probabilities of 1. Used by the survival forecast (:mod:`mlcore.stats.survival`)
and its benchmark; each is tested against an independent reference (scikit-learn's metrics,
statsmodels' ``Logit``, exact values on small cases).

* :func:`brier_score` - mean squared error of the probabilities (Brier 1950).
* :func:`log_loss` - mean negative log-likelihood, probabilities clipped to ``[eps, 1 - eps]``.
* :func:`auc` - area under the ROC curve, by the Mann-Whitney rank formula (ties count one half).
* :func:`calibration` - Cox's recalibration: the logistic regression of ``y`` on ``logit(p)``;
  slope 1 and intercept 0 for a calibrated forecast, slope < 1 when it is too extreme.
* :func:`reliability_table` - observed rate against mean forecast in equal-width bins.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import special, stats

__all__ = ["Calibration", "ReliabilityBin", "auc", "brier_score", "calibration", "log_loss", "reliability_table"]

FloatArray = npt.NDArray[np.float64]
EPS = 1e-12


def _check(y: npt.ArrayLike, p: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    outcomes = np.asarray(y, dtype=np.float64).ravel()
    probs = np.asarray(p, dtype=np.float64).ravel()
    if outcomes.size == 0 or outcomes.shape != probs.shape:
        raise ValueError(f"y and p must be non-empty and of equal length, got {outcomes.size} and {probs.size}")
    if not np.isin(outcomes, (0.0, 1.0)).all():
        raise ValueError("y must hold only 0 and 1")
    if not (np.isfinite(probs).all() and (probs >= 0).all() and (probs <= 1).all()):
        raise ValueError("p must hold probabilities in [0, 1]")
    return outcomes, probs


def brier_score(y: npt.ArrayLike, p: npt.ArrayLike) -> float:
    """Mean of ``(p - y)**2``: 0 is perfect, 0.25 is a constant 1/2.

    Examples
    --------
    >>> round(brier_score([1, 0, 1], [0.8, 0.4, 1.0]), 6)  # (0.04 + 0.16 + 0) / 3
    0.066667
    """
    outcomes, probs = _check(y, p)
    return float(np.mean((probs - outcomes) ** 2))


def log_loss(y: npt.ArrayLike, p: npt.ArrayLike, *, eps: float = EPS) -> float:
    """Mean of ``-log p`` where ``y = 1`` and ``-log(1 - p)`` where ``y = 0`` (natural log).

    Probabilities are clipped to ``[eps, 1 - eps]`` so a confident miss costs about 27.6, not infinity.

    Examples
    --------
    >>> round(log_loss([1, 0], [0.5, 0.5]), 6)
    0.693147
    """
    outcomes, probs = _check(y, p)
    clipped = np.clip(probs, eps, 1 - eps)
    return float(-np.mean(outcomes * np.log(clipped) + (1 - outcomes) * np.log1p(-clipped)))


def auc(y: npt.ArrayLike, p: npt.ArrayLike) -> float:
    """P(a random positive is forecast higher than a random negative), ties counting one half.

    ``nan`` when ``y`` holds only one class (there is no pair to compare).

    Examples
    --------
    >>> auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    outcomes, probs = _check(y, p)
    positives = int(outcomes.sum())
    negatives = outcomes.size - positives
    if positives == 0 or negatives == 0:
        return float("nan")
    ranks = stats.rankdata(probs)  # average ranks: ties count one half
    u = ranks[outcomes == 1].sum() - positives * (positives + 1) / 2
    return float(u / (positives * negatives))


@dataclass(frozen=True)
class Calibration:
    """Cox's recalibration ``logit P(y = 1) = intercept + slope * logit(p)``, by maximum likelihood."""

    slope: float
    intercept: float
    converged: bool
    n_iter: int


def calibration(y: npt.ArrayLike, p: npt.ArrayLike, *, eps: float = 1e-6, max_iter: int = 100) -> Calibration:
    """Calibration slope and intercept of a forecast (Newton-Raphson on the two-parameter logit).

    A calibrated forecast has slope 1 and intercept 0; forecasts that are too extreme (the usual
    sign of overfitting) have slope < 1, too timid ones slope > 1. Probabilities are clipped to
    ``[eps, 1 - eps]`` before ``logit``. Needs both outcomes and at least two distinct forecasts;
    otherwise (or if the outcomes are perfectly separated) ``converged`` is False and the
    values are ``nan``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(0.05, 0.95, 20000)
    >>> fit = calibration(rng.random(20000) < p, p)
    >>> bool(abs(fit.slope - 1) < 0.05 and abs(fit.intercept) < 0.05)
    True
    """
    outcomes, probs = _check(np.asarray(y, dtype=np.float64), p)
    x = special.logit(np.clip(probs, eps, 1 - eps))
    nan = Calibration(float("nan"), float("nan"), False, 0)
    if outcomes.min() == outcomes.max() or np.ptp(x) == 0:
        return nan
    design = np.column_stack([np.ones_like(x), x])  # (n, 2)
    beta = np.zeros(2)
    for iteration in range(1, max_iter + 1):
        fitted = special.expit(design @ beta)
        weights = fitted * (1 - fitted)
        hessian = design.T @ (design * weights[:, None])
        try:
            step = np.linalg.solve(hessian, design.T @ (outcomes - fitted))
        except np.linalg.LinAlgError:  # separated outcomes: the weights vanish as the slope runs off
            return nan
        beta = beta + step
        if not np.isfinite(beta).all() or np.abs(beta).max() > 1e6:
            return nan
        if np.abs(step).max() < 1e-10:
            return Calibration(float(beta[1]), float(beta[0]), True, iteration)
    return Calibration(float(beta[1]), float(beta[0]), False, max_iter)


@dataclass(frozen=True)
class ReliabilityBin:
    """Forecasts in ``[lower, upper)`` (the last bin includes 1): how many, their mean, what happened."""

    lower: float
    upper: float
    n: int
    mean_forecast: float  # nan when the bin is empty
    observed_rate: float  # nan when the bin is empty


def reliability_table(y: npt.ArrayLike, p: npt.ArrayLike, *, bins: int = 10) -> tuple[ReliabilityBin, ...]:
    """Observed outcome rate against mean forecast, in ``bins`` equal-width bins over [0, 1].

    Examples
    --------
    >>> [(b.n, b.observed_rate) for b in reliability_table([0, 1, 1, 1], [0.1, 0.2, 0.9, 1.0], bins=2)]
    [(2, 0.5), (2, 1.0)]
    """
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise ValueError(f"bins must be a positive integer, got {bins!r}")
    outcomes, probs = _check(y, p)
    index = np.minimum((probs * bins).astype(np.int64), bins - 1)
    table = []
    for b in range(bins):
        members = index == b
        n = int(members.sum())
        mean = float(probs[members].mean()) if n else float("nan")
        rate = float(outcomes[members].mean()) if n else float("nan")
        table.append(ReliabilityBin(b / bins, (b + 1) / bins, n, mean, rate))
    return tuple(table)
