"""A stored survival forecast and what the author is told: pure, no Django, no scikit-learn.

:class:`~mlcore.stats.survival.SurvivalForecast` holds plain numbers; :func:`forecast_params` turns
them into JSON-ready data (what a course's stored forecast keeps), :func:`forecast_from_params`
reads them back, and :func:`survival_verdict` says what a draft's author sees: a probability and
"likely" / "unlikely" only when the forecast is *shown* (:func:`forecast_shown`: usable by the
paired test of ``fit_survival`` and its held-out Brier score below the base rate's), else nothing.
The verdict is advice for the author; it is never used for credit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mlcore.stats.survival import FEATURE_NAMES, SurvivalFeatures, SurvivalForecast

__all__ = ["SurvivalVerdict", "forecast_from_params", "forecast_params", "forecast_shown", "survival_verdict"]


@dataclass(frozen=True)
class SurvivalVerdict:
    """What the author is told about a draft: P(survives cross-validation) and its side of 50%."""

    probability: float
    likely: bool

    @property
    def percent(self) -> int:
        """The probability in whole percent, rounded to the nearest 5 (the forecast is not finer)."""
        return int(5 * round(20 * self.probability))


def forecast_params(forecast: SurvivalForecast) -> dict[str, Any]:
    """The fitted model as JSON-ready data (no held-out forecasts: those are per training item)."""
    return {
        "feature_names": list(forecast.feature_names),
        "coefficients": list(forecast.coefficients),
        "intercept": forecast.intercept,
        "means": list(forecast.means),
        "scales": list(forecast.scales),
        "base_rate": forecast.base_rate,
    }


def forecast_from_params(params: Mapping[str, Any], *, n_train: int = 0, usable: bool = False) -> SurvivalForecast:
    """Read back :func:`forecast_params`; refused (``ValueError``) when it was fitted on other features.

    Examples
    --------
    >>> f = forecast_from_params({"feature_names": list(FEATURE_NAMES), "coefficients": [0.0] * 14,
    ...                           "intercept": 0.0, "means": [0.0] * 14, "scales": [1.0] * 14, "base_rate": 0.5})
    >>> f.n_train, f.usable
    (0, False)
    """
    names = tuple(str(name) for name in params.get("feature_names", ()))
    if names != FEATURE_NAMES:
        raise ValueError("the stored forecast was fitted on other features; train it again")
    vectors = [tuple(float(v) for v in params[key]) for key in ("coefficients", "means", "scales")]
    if any(len(v) != len(FEATURE_NAMES) for v in vectors) or not all(
            math.isfinite(v) for vector in vectors for v in vector):
        raise ValueError("the stored forecast's coefficients, means and scales need one finite number per feature")
    coefficients, means, scales = vectors
    return SurvivalForecast(
        FEATURE_NAMES, coefficients, float(params["intercept"]), means, scales, int(n_train),
        float(params.get("base_rate", math.nan)), None, bool(usable), "", (), (),
    )


def forecast_shown(*, usable: bool, brier: float | None, brier_base: float | None) -> bool:
    """Whether a stored forecast may be shown: usable, and its held-out Brier score beats the base rate's."""
    return bool(usable and brier is not None and brier_base is not None and brier < brier_base)


def survival_verdict(forecast: SurvivalForecast, features: SurvivalFeatures) -> SurvivalVerdict:
    """The forecast's verdict on one draft.

    Examples
    --------
    >>> from mlcore.stats.survival import survival_features
    >>> f = forecast_from_params({"feature_names": list(FEATURE_NAMES), "coefficients": [-1.0] + [0.0] * 13,
    ...                           "intercept": 0.0, "means": [0.5] + [0.0] * 13, "scales": [0.25] + [1.0] * 13})
    >>> v = survival_verdict(f, survival_features("So he", ["a", "b", "c", "d"], 0, [0.1, 0.7, 0.1, 0.1]))
    >>> v.likely, v.percent
    (True, 85)
    """
    probability = float(forecast.predict([features])[0])
    return SurvivalVerdict(probability=probability, likely=probability >= 0.5)
