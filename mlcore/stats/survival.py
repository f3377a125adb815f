"""Will a question survive cross-validation? A forecast from what is known while the author types.

Pure functions (no Django, no torch). A question *survives* when the model trained on the other
questions in cross-validation still misses it. :func:`survival_features` turns a draft and the
signals shown beside it into :class:`SurvivalFeatures`; :func:`fit_survival` fits an L2-regularised
logistic regression (scikit-learn) on questions whose outcome is known and measures it honestly:
every item's held-out forecast comes from a model that never saw it (cross-fitting, by the
caller's folds or by stratified folds), and is scored against the base rate, which is
cross-fitted the same way. The result stores plain numbers, so it can be saved and used without
scikit-learn; :meth:`SurvivalForecast.predict` is a dot product.

**Usable.** A forecast is shown only when it beats the base rate by more than chance: over the
items, the paired Brier improvement ``d_i = (y_i - b_i)^2 - (y_i - f_i)^2`` (``b`` the held-out
base rate, ``f`` the held-out forecast) has a mean greater than 0 by a one-sided paired t-test at
``alpha`` (default 0.05). Items are few enough and ``d`` bounded, so the t-test's normal
approximation holds from the minimum size on; below ``min_items`` items, or with fewer than
``min_per_class`` of either outcome, nothing is fitted and the result is not usable. The test
treats the held-out items as independent although their models share training data, which is
the usual small optimism of cross-validated comparisons; the null simulation in
``mlcore/tests/stats/test_survival.py`` measures how often pure noise passes (well under ``alpha``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import special, stats
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from mlcore.bias.lexical import lexical_tokens
from mlcore.stats.forecast_metrics import auc, brier_score, calibration, log_loss

__all__ = [
    "FEATURE_NAMES",
    "HeldOutQuality",
    "SurvivalConfig",
    "SurvivalFeatures",
    "SurvivalForecast",
    "fit_survival",
    "survival_features",
]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class SurvivalFeatures:
    """What is known about a question while it is written; see ``docs/item-quality.md``.

    ``answer_only_right`` and ``max_similarity`` are ``None`` when unknown (no answer-only model,
    no comparison made); the design matrix then holds 0 and a "known" indicator of 0.
    """

    prob_right: float  # the shown model's probability of the author's right completion
    margin: float  # prob_right minus the highest other probability; < 0 when the model is fooled
    fooled: bool  # the shown model picks a wrong completion
    entropy: float  # of the shown model's probabilities, divided by log(choices): 0 sure .. 1 uniform
    answer_only_right: bool | None  # the answer-only model picks the right completion
    coach_warnings: int  # warnings the artifact coach shows (mlcore.bias.coach; collector's checks)
    length_ratio: float  # log((words of the right completion + 1) / (mean words of the others + 1))
    completion_words: float  # mean words per completion
    prompt_words: int
    distractor_overlap: float  # mean Jaccard of the right completion's words with each other completion's
    prompt_overlap: float  # Jaccard of the right completion's words with the prompt's
    max_similarity: float | None  # Jaccard similarity to the most similar existing question

    def vector(self) -> tuple[float, ...]:
        """The row of the design matrix, in the order of :data:`FEATURE_NAMES`."""
        return (
            self.prob_right, self.margin, float(self.fooled), self.entropy,
            float(bool(self.answer_only_right)), float(self.answer_only_right is not None),
            float(self.coach_warnings), self.length_ratio, math.log1p(self.completion_words),
            math.log1p(self.prompt_words), self.distractor_overlap, self.prompt_overlap,
            self.max_similarity or 0.0, float(self.max_similarity is not None),
        )


#: Columns of the design matrix (:meth:`SurvivalFeatures.vector`).
FEATURE_NAMES: tuple[str, ...] = (
    "prob_right", "margin", "fooled", "entropy", "answer_only_right", "answer_only_known", "coach_warnings",
    "length_ratio", "log1p_completion_words", "log1p_prompt_words", "distractor_overlap", "prompt_overlap",
    "max_similarity", "similarity_known",
)


def _jaccard(a: set[str], b: set[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def survival_features(
    prompt: str,
    choices: Sequence[str],
    answer: int,
    probs: Sequence[float],
    *,
    answer_only_pick: int | None = None,
    coach_warnings: int = 0,
    max_similarity: float | None = None,
) -> SurvivalFeatures:
    """The features of one question from its text and the signals shown beside it.

    Examples
    --------
    >>> f = survival_features("He was hungry, so he", ["ate.", "slept.", "ran.", "sang."], 0, [0.2, 0.5, 0.2, 0.1])
    >>> f.fooled, round(f.margin, 2), f.answer_only_right
    (True, -0.3, None)
    """
    n = len(choices)
    if n < 2 or len(probs) != n or not 0 <= answer < n:
        raise ValueError("need two or more choices, one probability per choice and a valid answer index")
    p = np.asarray(probs, dtype=np.float64)
    if not (np.isfinite(p).all() and (p >= 0).all() and abs(p.sum() - 1) < 1e-4):
        raise ValueError("probs must be probabilities summing to 1")
    others = np.delete(p, answer)
    words = [set(lexical_tokens(choice)) for choice in choices]
    lengths = [len(choice.split()) for choice in choices]
    other_lengths = lengths[:answer] + lengths[answer + 1:]
    nonzero = p[p > 0]
    return SurvivalFeatures(
        prob_right=float(p[answer]),
        margin=float(p[answer] - others.max()),
        fooled=int(np.argmax(p)) != answer,
        entropy=float(-(nonzero * np.log(nonzero)).sum() / math.log(n)),
        answer_only_right=None if answer_only_pick is None else answer_only_pick == answer,
        coach_warnings=int(coach_warnings),
        length_ratio=math.log((lengths[answer] + 1) / (sum(other_lengths) / len(other_lengths) + 1)),
        completion_words=sum(lengths) / n,
        prompt_words=len(prompt.split()),
        distractor_overlap=float(np.mean([_jaccard(words[answer], w) for i, w in enumerate(words) if i != answer])),
        prompt_overlap=_jaccard(words[answer], set(lexical_tokens(prompt))),
        max_similarity=None if max_similarity is None else float(max_similarity),
    )


@dataclass(frozen=True)
class SurvivalConfig:
    """Settings of :func:`fit_survival`: ``c`` is scikit-learn's inverse L2 strength (standardised features)."""

    c: float = 1.0
    n_splits: int = 5
    alpha: float = 0.05
    min_items: int = 40
    min_per_class: int = 10


@dataclass(frozen=True)
class HeldOutQuality:
    """How the cross-fitted forecasts did; ``*_base`` is the cross-fitted base rate."""

    brier: float
    brier_base: float
    log_loss: float
    log_loss_base: float
    auc: float
    calibration_slope: float
    calibration_intercept: float
    brier_improvement: float  # mean of d_i = base loss - forecast loss (> 0: the forecast is better)
    improvement_ci: tuple[float, float]  # two-sided (1 - 2 alpha) t interval of that mean
    pvalue: float  # one-sided paired t-test of mean d_i > 0


@dataclass(frozen=True)
class SurvivalForecast:
    """Result of :func:`fit_survival`. Coefficients are per standard deviation of each feature."""

    feature_names: tuple[str, ...]
    coefficients: tuple[float, ...]
    intercept: float
    means: tuple[float, ...]
    scales: tuple[float, ...]
    n_train: int
    base_rate: float
    quality: HeldOutQuality | None  # None when nothing was fitted
    usable: bool
    reason: str  # why it is (not) usable, in words
    held_out: tuple[float, ...]  # cross-fitted forecast of each training item (empty when not fitted)
    held_out_base: tuple[float, ...]  # cross-fitted base rate of each training item

    def predict(self, features: Sequence[SurvivalFeatures]) -> FloatArray:
        """P(survives cross-validation) for each question."""
        x = np.array([f.vector() for f in features], dtype=np.float64).reshape(len(features), len(self.means))
        z = (x - np.asarray(self.means)) / np.asarray(self.scales)
        return np.asarray(special.expit(self.intercept + z @ np.asarray(self.coefficients)), dtype=np.float64)


def _fit_lr(x: FloatArray, y: npt.NDArray[np.int64], c: float) -> tuple[FloatArray, FloatArray, FloatArray, float]:
    """Standardise, fit; returns (means, scales, coefficients, intercept)."""
    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales == 0] = 1.0  # a constant column stays 0 after centring
    # Newton-Cholesky: exact Newton steps suit few features and many questions (5x faster than lbfgs here).
    model = LogisticRegression(C=c, solver="newton-cholesky", tol=1e-8, max_iter=100).fit((x - means) / scales, y)
    return means, scales, np.asarray(model.coef_[0], dtype=np.float64), float(model.intercept_[0])


def _predict(x: FloatArray, fit: tuple[FloatArray, FloatArray, FloatArray, float]) -> FloatArray:
    means, scales, coefficients, intercept = fit
    return np.asarray(special.expit(intercept + ((x - means) / scales) @ coefficients), dtype=np.float64)


def _fold_ids(y: npt.NDArray[np.int64], folds: Sequence[int] | None, n_splits: int, seed: int) -> npt.NDArray[np.int64]:
    if folds is not None:
        ids = np.asarray(folds, dtype=np.int64)
        if ids.shape != y.shape or np.unique(ids).size < 2:
            raise ValueError("folds must give one fold id per item, with at least two folds")
        return ids
    ids = np.empty(y.size, dtype=np.int64)
    splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
    for k, (_, test) in enumerate(splitter.split(np.zeros(y.size), y)):
        ids[test] = k
    return ids


def _quality(y: npt.NDArray[np.int64], forecast: FloatArray, base: FloatArray, alpha: float) -> HeldOutQuality:
    d = (y - base) ** 2 - (y - forecast) ** 2
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    if sd > 0:
        test = stats.ttest_1samp(d, 0.0, alternative="greater")
        pvalue = float(test.pvalue)
        half = float(stats.t.ppf(1 - alpha, d.size - 1)) * sd / math.sqrt(d.size)
    else:  # identical losses everywhere: no evidence either way
        pvalue, half = (0.0 if mean > 0 else 1.0), 0.0
    cal = calibration(y, forecast)
    return HeldOutQuality(
        brier=brier_score(y, forecast), brier_base=brier_score(y, base), log_loss=log_loss(y, forecast),
        log_loss_base=log_loss(y, base), auc=auc(y, forecast), calibration_slope=cal.slope,
        calibration_intercept=cal.intercept, brier_improvement=mean, improvement_ci=(mean - half, mean + half),
        pvalue=pvalue,
    )


def fit_survival(
    features: Sequence[SurvivalFeatures],
    survived: Sequence[bool],
    *,
    folds: Sequence[int] | None = None,
    config: SurvivalConfig = SurvivalConfig(),
    seed: int = 0,
) -> SurvivalForecast:
    """Fit the forecast on questions whose cross-validation outcome is known, and measure it.

    Parameters
    ----------
    features : sequence of SurvivalFeatures
        One per scored question.
    survived : sequence of bool
        True when cross-validation missed the question.
    folds : sequence of int, optional
        The cross-validation fold of each question, reused for cross-fitting (so no question's
        forecast comes from a model whose training shared its fold); otherwise stratified
        ``config.n_splits`` folds shuffled with ``seed``.
    config : SurvivalConfig
        Regularisation, folds and the usable criterion (module docstring).
    seed : int
        Only for the shuffled folds.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> probs = rng.dirichlet(np.ones(4), 400)
    >>> feats = [survival_features("It rained, so we", ["a b", "c d", "e f", "g h"], 0, p) for p in probs]
    >>> survived = rng.random(400) < special.expit(-4 * (probs[:, 0] - 0.25))
    >>> forecast = fit_survival(feats, survived)
    >>> forecast.usable, forecast.coefficients[0] < 0
    (True, True)
    """
    y = np.asarray(survived, dtype=bool).astype(np.int64)
    if len(features) != y.size:
        raise ValueError(f"{len(features)} feature rows but {y.size} outcomes")
    x = np.array([f.vector() for f in features], dtype=np.float64).reshape(y.size, len(FEATURE_NAMES))
    base_rate = float(y.mean()) if y.size else float("nan")
    minority = int(min(y.sum(), y.size - y.sum()))
    if y.size < config.min_items or minority < config.min_per_class:
        reason = (f"not enough scored questions: {y.size} with {minority} of the rarer outcome "
                  f"(need {config.min_items} and {config.min_per_class})")
        width = len(FEATURE_NAMES)
        intercept = float(special.logit(np.clip(base_rate, 1e-6, 1 - 1e-6))) if y.size else 0.0
        return SurvivalForecast(FEATURE_NAMES, (0.0,) * width, intercept, (0.0,) * width, (1.0,) * width,
                                int(y.size), base_rate, None, False, reason, (), ())
    fold = _fold_ids(y, folds, config.n_splits, seed)
    forecast, base = np.empty(y.size), np.empty(y.size)
    for k in np.unique(fold):
        test, train = fold == k, fold != k
        if y[train].min() == y[train].max():
            raise ValueError(f"fold {k}: the other folds hold only one outcome; use fewer or stratified folds")
        forecast[test] = _predict(x[test], _fit_lr(x[train], y[train], config.c))
        base[test] = y[train].mean()
    quality = _quality(y, forecast, base, config.alpha)
    usable = quality.pvalue < config.alpha
    reason = (f"held-out Brier {quality.brier:.4f} against the base rate's {quality.brier_base:.4f} "
              f"(one-sided paired t-test p = {quality.pvalue:.3g}, alpha {config.alpha})")
    means, scales, coefficients, intercept = _fit_lr(x, y, config.c)
    return SurvivalForecast(
        FEATURE_NAMES, tuple(float(v) for v in coefficients), intercept, tuple(float(v) for v in means),
        tuple(float(v) for v in scales), int(y.size), base_rate, quality, bool(usable), reason,
        tuple(float(v) for v in forecast), tuple(float(v) for v in base),
    )
