"""Item response theory: a two-parameter logistic (2PL) model and an adversarial item quality score.

Pure functions (no Django, no torch): a response matrix in, frozen dataclasses out.

* :func:`fit_2pl` -- difficulty and discrimination per question, ability per respondent, by
  joint maximum a posteriori estimation (Gaussian priors on ability, difficulty and
  log-discrimination, so rounds of a few respondents and all-correct questions stay finite).
* :func:`adversarial_quality` -- per question, the chance that a human answers it correctly while a
  model misses it, each group's accuracy adjusted for its members' fitted abilities; after AdvScore
  (Sung et al. 2024, arXiv 2406.16342). The definition is in ``docs/item-quality.md``.

The response matrix has one row per question (item) and one column per respondent (a model or
a person): 1 = answered correctly, 0 = wrong, ``nan`` = did not answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt
from scipy import optimize, special

__all__ = ["IrtFit", "QualityScores", "adversarial_quality", "fit_2pl"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

# Box for L-BFGS-B: far outside any sensible estimate (the priors keep estimates near 0), but it
# keeps exp() and the logits finite while the line search probes wild steps.
_BOUND = 12.0
_LOG_A_BOUNDS = (-6.0, 4.0)


_T = TypeVar("_T", bound=np.generic)


def _frozen(array: npt.NDArray[_T]) -> npt.NDArray[_T]:
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class IrtFit:
    """Result of :func:`fit_2pl`; the arrays are read-only.

    ``P(item i answered correctly by respondent j) = expit(discrimination[i] * (ability[j] -
    difficulty[i]))``, on the scale where the abilities of the respondents who answered anything
    have mean 0 and standard deviation 1.
    """

    difficulty: FloatArray  # (n_items,)
    discrimination: FloatArray  # (n_items,), > 0
    ability: FloatArray  # (n_respondents,)
    converged: bool
    n_iter: int
    log_likelihood: float  # of the observed responses at the estimate
    log_posterior: float  # maximised penalised log-likelihood (log prior up to constants), on the fitting scale
    message: str

    def probabilities(self) -> FloatArray:
        """Fitted probability of a correct answer for every (item, respondent) pair."""
        logits = self.discrimination[:, None] * (self.ability[None, :] - self.difficulty[:, None])
        return np.asarray(special.expit(logits), dtype=np.float64)


@dataclass(frozen=True)
class QualityScores:
    """Result of :func:`adversarial_quality`; one entry per question, arrays read-only."""

    score: FloatArray  # human_accuracy * (1 - model_accuracy), in [0, 1]
    human_accuracy: FloatArray  # shrunk share of people answering correctly
    model_accuracy: FloatArray  # shrunk share of models answering correctly
    margin: FloatArray  # human_accuracy - model_accuracy, in [-1, 1]
    n_human: IntArray  # human answers observed per question
    n_model: IntArray  # model answers observed per question

    def ranking(self) -> IntArray:
        """Question indices, best first (higher score, then lower index)."""
        return np.asarray(np.lexsort((np.arange(self.score.size), -self.score)), dtype=np.int64)


def _check_responses(responses: npt.ArrayLike) -> FloatArray:
    array = np.asarray(responses)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"responses must be numeric (0, 1 or nan), got dtype {array.dtype}")
    y = array.astype(np.float64)
    if y.ndim != 2 or y.shape[0] < 1 or y.shape[1] < 1:
        raise ValueError(f"responses must be a 2-D (items, respondents) array with at least one of each, got shape {y.shape}")
    observed = ~np.isnan(y)
    bad = observed & (y != 0.0) & (y != 1.0)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(f"responses must be 0, 1 or nan; found {float(y[i, j])!r} at item {i}, respondent {j}")
    if not observed.any():
        raise ValueError("responses has no observed answer (every entry is nan)")
    return y


def _check_positive(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return float(value)


def _start(y: FloatArray, observed: npt.NDArray[np.bool_]) -> FloatArray:
    """Deterministic start: logits of smoothed item and respondent accuracies."""
    wins = np.where(observed, y, 0.0)
    item_p = (wins.sum(axis=1) + 0.5) / (observed.sum(axis=1) + 1.0)
    resp_p = (wins.sum(axis=0) + 0.5) / (observed.sum(axis=0) + 1.0)
    theta = special.logit(resp_p)
    theta = theta - theta.mean()
    b = -special.logit(item_p)
    return np.concatenate([b, np.zeros(y.shape[0]), theta]).astype(np.float64)


def _standardise(
    b: FloatArray, a: FloatArray, theta: FloatArray, answered: npt.NDArray[np.bool_]
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Map to abilities of mean 0, sd 1 over respondents who answered: ``a * (theta - b)`` is kept."""
    centre = float(theta[answered].mean())
    spread = float(theta[answered].std())
    if spread < 1e-8:  # one respondent, or all alike: only centre
        spread = 1.0
    theta = np.where(answered, (theta - centre) / spread, 0.0)
    return (b - centre) / spread, a * spread, theta


def fit_2pl(
    responses: npt.ArrayLike,
    *,
    prior_sd_ability: float = 1.0,
    prior_sd_difficulty: float = 2.0,
    prior_sd_log_discrimination: float = 0.5,
    max_iter: int = 2000,
    tol: float = 1e-12,
) -> IrtFit:
    """Fit a 2PL item response model by penalised (joint MAP) maximum likelihood.

    Maximises ``sum over observed (i, j) of log P(y_ij) - theta_j**2 / (2 s_theta**2)
    - b_i**2 / (2 s_b**2) - log(a_i)**2 / (2 s_a**2)`` over abilities ``theta``, difficulties
    ``b`` and discriminations ``a = exp(log a) > 0`` with L-BFGS-B and the analytic gradient.
    Missing answers (``nan``) simply drop out of the likelihood; a question or respondent with
    none keeps its prior mean (``b = 0``, ``a = 1`` before the rescaling below; ``theta = 0``). The priors make every
    estimate finite (an all-correct question gets a low but finite difficulty). The scale is then
    fixed by standardising the abilities of the respondents who answered anything to mean 0 and
    (population) standard deviation 1, moving difficulties and discriminations with them so that
    every fitted probability and the likelihood are unchanged; this is the N(0, 1) convention of
    marginal ML programs, and it does not drift with the number of respondents as the raw joint
    MAP scale does (the ability prior's pull grows with the number of respondents).

    Parameters
    ----------
    responses : array_like, shape (n_items, n_respondents)
        1 = correct, 0 = wrong, ``nan`` = not answered; at least one observed entry.
    prior_sd_ability, prior_sd_difficulty, prior_sd_log_discrimination : float
        Standard deviations of the zero-mean Gaussian priors; larger is closer to plain maximum
        likelihood, which diverges on perfect rows and columns.
    max_iter : int
        Iteration limit of L-BFGS-B.
    tol : float
        ``ftol`` of L-BFGS-B (relative change of the objective).

    Returns
    -------
    IrtFit
        Estimates with ``converged``, ``n_iter``, ``log_likelihood`` and ``log_posterior``.

    Raises
    ------
    ValueError
        If ``responses`` is not 2-D, is empty, holds values other than 0, 1 and ``nan``, or has
        no observed entry; or if a prior scale, ``max_iter`` or ``tol`` is not positive.

    Examples
    --------
    >>> y = np.array([[1, 1, 1, 1], [1, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, np.nan]])
    >>> fit = fit_2pl(y)
    >>> fit.converged, fit.difficulty.shape, fit.ability.shape
    (True, (4,), (4,))
    >>> bool(np.all(np.diff(fit.difficulty) > 0))  # fewer correct answers: harder
    True
    >>> bool(fit.ability[0] > fit.ability[3])
    True
    """
    y = _check_responses(responses)
    s_theta = _check_positive("prior_sd_ability", prior_sd_ability)
    s_b = _check_positive("prior_sd_difficulty", prior_sd_difficulty)
    s_a = _check_positive("prior_sd_log_discrimination", prior_sd_log_discrimination)
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 1:
        raise ValueError(f"max_iter must be a positive integer, got {max_iter!r}")
    _check_positive("tol", tol)

    n_items, n_resp = y.shape
    observed = ~np.isnan(y)
    mask = observed.astype(np.float64)
    y0 = np.where(observed, y, 0.0)

    def split(x: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        return x[:n_items], x[n_items : 2 * n_items], x[2 * n_items :]

    def log_lik(b: FloatArray, log_a: FloatArray, theta: FloatArray) -> tuple[float, FloatArray, FloatArray]:
        a = np.exp(log_a)
        diff = theta[None, :] - b[:, None]  # (items, respondents)
        z = a[:, None] * diff
        ll = float(np.sum(mask * (y0 * z - np.logaddexp(0.0, z))))
        return ll, z, diff

    def objective(x: FloatArray) -> tuple[float, FloatArray]:
        b, log_a, theta = split(x)
        a = np.exp(log_a)
        ll, z, diff = log_lik(b, log_a, theta)
        resid = mask * (y0 - special.expit(z))  # d loglik / d z
        penalty = 0.5 * (np.sum(theta**2) / s_theta**2 + np.sum(b**2) / s_b**2 + np.sum(log_a**2) / s_a**2)
        grad_b = a * resid.sum(axis=1) + b / s_b**2
        grad_log_a = -a * np.sum(resid * diff, axis=1) + log_a / s_a**2
        grad_theta = -(resid * a[:, None]).sum(axis=0) + theta / s_theta**2
        return -ll + penalty, np.concatenate([grad_b, grad_log_a, grad_theta])

    bounds = [(-_BOUND, _BOUND)] * n_items + [_LOG_A_BOUNDS] * n_items + [(-_BOUND, _BOUND)] * n_resp
    result = optimize.minimize(
        objective, _start(y, observed), jac=True, method="L-BFGS-B", bounds=bounds,
        options={"maxiter": int(max_iter), "ftol": float(tol), "gtol": 1e-6},
    )
    b, log_a, theta = split(np.asarray(result.x, dtype=np.float64))
    ll = log_lik(b, log_a, theta)[0]
    b, a, theta = _standardise(b, np.exp(log_a), theta, np.asarray(observed.any(axis=0)))
    return IrtFit(
        difficulty=_frozen(b),
        discrimination=_frozen(a),
        ability=_frozen(theta),
        converged=bool(result.success),
        n_iter=int(result.nit),
        log_likelihood=ll,
        log_posterior=-float(result.fun),
        message=str(result.message),
    )


def _check_columns(name: str, columns: Sequence[int] | npt.ArrayLike, n_resp: int) -> IntArray:
    array = np.asarray(columns)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D list of column indices, got {columns!r}")
    if array.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer column indices, got dtype {array.dtype}")
    if array.min() < 0 or array.max() >= n_resp:
        raise ValueError(f"{name} must index columns 0..{n_resp - 1}, got {array.tolist()}")
    if np.unique(array).size != array.size:
        raise ValueError(f"{name} lists a column twice: {array.tolist()}")
    return array.astype(np.int64)


def _group_accuracy(y: FloatArray, fit: IrtFit, columns: IntArray, prior_sd: float) -> tuple[FloatArray, IntArray]:
    """Per item, the group's IRT accuracy with a group-specific intercept (see adversarial_quality).

    Maximises the concave ``sum_j [y log s + (1 - y) log(1 - s)] - c**2 / (2 prior_sd**2)`` with
    ``s = expit(a_i theta_j + c)`` for each item at once by Newton steps inside a bisection
    bracket (the gradient is decreasing in ``c``, so the bracket always holds the root).
    """
    block = y[:, columns]
    observed = ~np.isnan(block)
    wins = np.where(observed, block, 0.0)
    mask = observed.astype(np.float64)
    offset = fit.discrimination[:, None] * fit.ability[None, columns]  # (items, group)
    n = observed.sum(axis=1)
    var = prior_sd**2
    low, high = -var * (n + 1.0), var * (n + 1.0)  # gradient > 0 at low, < 0 at high
    c = np.zeros(y.shape[0])
    for _ in range(100):
        p = special.expit(offset + c[:, None])
        grad = np.sum(mask * (wins - p), axis=1) - c / var
        low = np.where(grad > 0, c, low)
        high = np.where(grad > 0, high, c)
        step = c + grad / (np.sum(mask * p * (1.0 - p), axis=1) + 1.0 / var)
        inside = (step > low) & (step < high)
        new_c = np.where(inside, step, 0.5 * (low + high))
        if np.max(np.abs(new_c - c)) < 1e-12:
            c = new_c
            break
        c = new_c
    accuracy = special.expit(offset + c[:, None]).mean(axis=1)
    return np.asarray(accuracy, dtype=np.float64), n.astype(np.int64)


def adversarial_quality(
    fit: IrtFit,
    responses: npt.ArrayLike,
    *,
    human_columns: Sequence[int] | npt.ArrayLike,
    model_columns: Sequence[int] | npt.ArrayLike,
    prior_sd_logit: float = 2.0,
) -> QualityScores:
    """Adversarial quality of each question: people answer it correctly, models do not.

    For a group ``G`` (the humans or the models) and question ``i``, the group accuracy
    ``p_G(i)`` is the mean over the group's members ``j`` of ``expit(a_i * theta_j + c_G(i))``,
    with discrimination ``a_i`` and abilities ``theta_j`` from ``fit`` and a group-specific
    intercept ``c_G(i)`` fitted to the group's observed answers on question ``i`` by maximum a
    posteriori with a ``N(0, prior_sd_logit**2)`` prior. It is the accuracy the whole group
    would have on the question, adjusted for which members answered (a miss by the weakest
    validator says less than a miss by the strongest); with every member answering it is close to
    the plain share correct, with none it is ``mean_j expit(a_i theta_j)``, about one half. The
    score is ``p_H(i) * (1 - p_M(i))``: the chance that a person answers correctly *and* a model
    misses, treating the two as independent. It is near 1 only when people agree with the key and
    models fail; a split among people (ambiguity) keeps it at or below about one half, and a question the models
    get right scores near 0. Definition and differences from AdvScore: ``docs/item-quality.md``.

    Parameters
    ----------
    fit : IrtFit
        :func:`fit_2pl` of the same ``responses``.
    responses : array_like, shape (n_items, n_respondents)
        1 = correct, 0 = wrong, ``nan`` = not answered.
    human_columns, model_columns : sequence of int
        Disjoint, non-empty lists of column indices; other columns (if any) are ignored here but
        still shaped the fit.
    prior_sd_logit : float
        Prior standard deviation of the group intercepts, in logits; smaller pulls questions with
        few answers harder towards one half.

    Returns
    -------
    QualityScores
        ``score``, ``human_accuracy``, ``model_accuracy``, ``margin``, answer counts and
        :meth:`QualityScores.ranking`.

    Raises
    ------
    ValueError
        On a shape mismatch between ``fit`` and ``responses``, column lists that are empty, out of
        range, repeated or overlapping, or a non-positive ``prior_sd_logit``.

    Examples
    --------
    >>> y = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 1, 0, 0], [1, 1, 1, 1, 0]])
    >>> q = adversarial_quality(fit_2pl(y), y, human_columns=[0, 1, 2], model_columns=[3, 4])
    >>> q.ranking().tolist()[0]  # people right, both models wrong
    0
    >>> bool(q.score[0] > q.score[1])  # question 1: everybody right
    True
    """
    y = _check_responses(responses)
    if y.shape != (fit.difficulty.size, fit.ability.size):
        raise ValueError(
            f"responses has shape {y.shape} but fit has {fit.difficulty.size} items and {fit.ability.size} respondents"
        )
    humans = _check_columns("human_columns", human_columns, y.shape[1])
    models = _check_columns("model_columns", model_columns, y.shape[1])
    overlap = np.intersect1d(humans, models)
    if overlap.size:
        raise ValueError(f"a column cannot be both human and model: {overlap.tolist()}")
    prior_sd = _check_positive("prior_sd_logit", prior_sd_logit)
    p_h, n_h = _group_accuracy(y, fit, humans, prior_sd)
    p_m, n_m = _group_accuracy(y, fit, models, prior_sd)
    return QualityScores(
        score=_frozen(p_h * (1.0 - p_m)),
        human_accuracy=_frozen(p_h),
        model_accuracy=_frozen(p_m),
        margin=_frozen(p_h - p_m),
        n_human=_frozen(n_h),
        n_model=_frozen(n_m),
    )
