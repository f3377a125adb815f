"""Reweighting training instances so unigrams stop predicting labels ([SDS23] §5.1, SPEC-bias §3).

A distribution ``q`` over training instances is learned so that, for every frequent
unigram ``w`` and label ``y``, the weighted label share ``q(y|w)`` is ``1/|Y|``:
``q = softmax(θ)`` minimises ``L(θ) = Σ_w Σ_y (q(y|w) - 1/|Y|)²`` by full-batch Adam
(SPEC CHOICE: lr 0.05, θ = 0, at most 3000 steps, keep the best θ). Each step is
two sparse matrix-vector products over the instances sorted by label, so one step
touches every non-zero of the instance x feature matrix twice.

Error measures, label balance and the bigram check live in :mod:`mlcore.bias.label_balance` and
are re-exported here, so ``from mlcore.bias.reweighting import ...`` covers all of §3.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy.sparse as sp
from scipy import optimize

from mlcore.bias.label_balance import (
    BigramCheckResult,
    LabelBalanceResult,
    ReweightDiagnostics,
    ReweightFeatureSet,
    bigram_balance_check,
    label_balance,
    prepare_reweighting,
    reweighting_diagnostics,
    reweighting_diagnostics_from_matrix,
    reweighting_features,
    weighted_label_distribution,
)
from mlcore.bias.lexical import Feature, LexicalFeatures

# The §3 diagnostics are re-exported so callers need only this module.
__all__ = [
    "BigramCheckResult",
    "LabelBalanceResult",
    "ReweightDiagnostics",
    "ReweightFeatureSet",
    "ReweightResult",
    "bigram_balance_check",
    "label_balance",
    "reweight",
    "reweighting_diagnostics",
    "reweighting_features",
    "reweighting_loss_and_gradient",
    "weighted_label_distribution",
]

Objective = Literal["squared", "scaled"]
# Adam steps between two progress callbacks: a report's progress bar moves about once a second
# at SNLI size without the callback costing anything measurable.
_PROGRESS_EVERY = 10


@dataclass(frozen=True)
class ReweightResult:
    """Learned instance distribution and its diagnostics (SPEC-bias §3.3 ``ReweightResult``).

    ``q`` is in the original instance order; ``weights = n * q`` (mean 1) multiply each
    instance's training loss. ``converged`` is ``loss_final < tol``.
    """

    q: np.ndarray  # (n,)
    weights: np.ndarray  # (n,)
    loss_initial: float
    loss_final: float
    err_initial: float
    err_final: float
    err_marg_initial: float
    err_marg_final: float
    n_steps: int
    features_used: tuple[Feature, ...]
    features_dropped: tuple[Feature, ...]
    ess: float
    max_weight: float
    converged: bool
    method: str
    objective: str


class _LabelBlocks:
    """The feature matrix with rows grouped by label.

    ``mass(q)[w, y] = Σ_{i: y_i = y} q_i f_{w,i}`` and ``pull(H)[i] = Σ_w f_{w,i} H[w, y_i]``
    are then one sparse mat-vec per label each, with no per-step indexing or copies.
    Vectors passed in and out are in this grouped order (``order`` maps back).
    """

    def __init__(self, matrix: sp.csr_matrix, y: np.ndarray, n_labels: int) -> None:
        self.order = np.argsort(y, kind="stable")
        self.bounds = np.searchsorted(y[self.order], np.arange(n_labels + 1))
        grouped = sp.csr_matrix(matrix[self.order], dtype=np.float64)
        self.rows = [grouped[lo:hi] for lo, hi in zip(self.bounds[:-1], self.bounds[1:])]
        # CSC views, no copies: scattering into the small (F,) output is as fast as a CSR product.
        self.cols = [block.T for block in self.rows]  # (F, n_y) each

    def mass(self, q_grouped: np.ndarray) -> np.ndarray:
        return np.column_stack(
            [c @ q_grouped[lo:hi] for c, lo, hi in zip(self.cols, self.bounds[:-1], self.bounds[1:])]
        )

    def pull(self, h: np.ndarray) -> np.ndarray:
        return np.concatenate([block @ h[:, j] for j, block in enumerate(self.rows)])


def _residual_loss(mass: np.ndarray, target: np.ndarray, objective: Objective) -> tuple[float, np.ndarray]:
    """Loss and ``H[w, y] = ∂L/∂mass[w, y]`` collapsed so that ``∂L/∂q_i = pull(H)[i]``."""
    total = mass.sum(axis=1, keepdims=True)  # D_w
    if objective == "squared":
        share = mass / total  # q(y|w)
        residual = share - target
        g = 2.0 * residual
        h = (g - (g * share).sum(axis=1, keepdims=True)) / total
    else:  # "scaled" ([SDS23] fn. 5): residual multiplied by D_w
        residual = mass - target * total
        g = 2.0 * residual
        h = g - (g @ target)[:, None]
    return float(np.square(residual).sum()), h


def reweighting_loss_and_gradient(
    theta: np.ndarray,
    matrix: sp.spmatrix,
    y: np.ndarray,
    n_labels: int,
    *,
    objective: Objective = "squared",
) -> tuple[float, np.ndarray]:
    """``L(θ)`` and ``∂L/∂θ`` for ``q = softmax(θ)`` (SPEC-bias §3.3), for checking and small data.

    Parameters
    ----------
    theta : ndarray, shape (n,)
        Unnormalised log-weights.
    matrix : sparse (n, F)
        0/1 presence of the reweighting features.
    y : ndarray of int, shape (n,)
        Label indices.
    n_labels : int
        ``|Y|``; the target is ``1/|Y|`` for every label.
    objective : {"squared", "scaled"}
        Squared residuals of ``q(y|w)``, or of ``D_w(q)·q(y|w)`` ([SDS23] fn. 5).

    Returns
    -------
    loss : float
    gradient : ndarray, shape (n,)

    Examples
    --------
    >>> x = sp.csr_matrix(np.array([[1, 1, 0], [1, 0, 0], [1, 0, 1], [0, 1, 1], [0, 0, 1], [0, 1, 0]]))
    >>> loss, grad = reweighting_loss_and_gradient(np.zeros(6), x, np.array([0, 0, 1, 1, 0, 1]), 2)
    >>> round(loss, 6), grad.shape
    (0.166667, (6,))
    """
    blocks = _LabelBlocks(sp.csr_matrix(matrix), np.asarray(y), n_labels)
    value_and_grad = _softmax_objective(blocks, n_labels, objective)
    loss, grad_grouped, _ = value_and_grad(np.asarray(theta, dtype=np.float64)[blocks.order])
    grad = np.empty_like(grad_grouped)
    grad[blocks.order] = grad_grouped
    return loss, grad


def _softmax_objective(
    blocks: _LabelBlocks, n_labels: int, objective: Objective
) -> Callable[[np.ndarray], tuple[float, np.ndarray, np.ndarray]]:
    """``θ -> (L, ∂L/∂θ, q)`` with every vector in label-grouped order."""
    target = np.full(n_labels, 1.0 / n_labels)

    def value_and_grad(theta: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        q = np.exp(theta - theta.max())
        q /= q.sum()
        loss, h = _residual_loss(blocks.mass(q), target, objective)
        grad_q = blocks.pull(h)
        # softmax chain rule: ∂L/∂θ_i = q_i (∂L/∂q_i - Σ_k q_k ∂L/∂q_k)
        return loss, q * (grad_q - q @ grad_q), q

    return value_and_grad


def _adam(
    value_and_grad: Callable[[np.ndarray], tuple[float, np.ndarray, np.ndarray]],
    n: int,
    *,
    learning_rate: float,
    max_steps: int,
    tol: float,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, float, int]:
    """Full-batch Adam from θ = 0; returns the best q seen, its loss and the number of updates."""
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    theta, m, v = np.zeros(n), np.zeros(n), np.zeros(n)
    best_q: np.ndarray | None = None
    best_loss, steps = np.inf, 0
    for step in range(max_steps + 1):
        loss, grad, q = value_and_grad(theta)
        if best_q is None or loss < best_loss:  # Adam's loss is not monotone; keep the best iterate
            best_q, best_loss = q, loss
        if loss < tol or step == max_steps:
            break
        if progress is not None and step % _PROGRESS_EVERY == 0:
            progress(step, max_steps)
        m *= beta1
        m += (1.0 - beta1) * grad
        v *= beta2
        v += (1.0 - beta2) * np.square(grad)
        m_hat_scale = learning_rate / (1.0 - beta1 ** (step + 1))
        v_hat = v / (1.0 - beta2 ** (step + 1))
        theta -= m_hat_scale * m / (np.sqrt(v_hat) + eps)
        steps = step + 1
    assert best_q is not None  # the loop runs at least once
    return best_q, float(best_loss), steps


def _lbfgs(
    value_and_grad: Callable[[np.ndarray], tuple[float, np.ndarray, np.ndarray]],
    n: int,
    *,
    max_steps: int,
    tol: float,
) -> tuple[np.ndarray, float, int]:
    best_loss = np.inf
    best_q: np.ndarray | None = None

    def fun(theta: np.ndarray) -> tuple[float, np.ndarray]:
        nonlocal best_loss, best_q
        loss, grad, q = value_and_grad(theta)
        if best_q is None or loss < best_loss:
            best_loss, best_q = loss, q
        return loss, grad

    def stop_below_tol(intermediate_result: optimize.OptimizeResult) -> None:
        if intermediate_result.fun < tol:  # same stopping rule as Adam
            raise StopIteration

    result = optimize.minimize(
        fun, np.zeros(n), jac=True, method="L-BFGS-B", callback=stop_below_tol,
        options={"maxiter": max_steps, "ftol": 0.0, "gtol": 1e-14},
    )
    assert best_q is not None  # L-BFGS-B evaluates the start point first
    return best_q, float(best_loss), int(result.nit)


def reweight(
    features: LexicalFeatures,
    labels: Sequence[Hashable],
    *,
    label_set: Sequence[Hashable],
    min_count: int = 100,
    objective: Objective = "squared",
    method: Literal["adam", "L-BFGS-B"] = "adam",
    learning_rate: float = 0.05,
    max_steps: int = 3000,
    tol: float = 1e-12,
    progress: Callable[[int, int], None] | None = None,
) -> ReweightResult:
    """Learn instance weights that balance every frequent unigram's labels (SPEC-bias §3).

    Deterministic: no randomness is involved.

    Parameters
    ----------
    features : LexicalFeatures
        Training unigrams with ``count="instance"``.
    labels : sequence
        Gold label of every training instance.
    label_set : sequence
        The declared, ordered label set ``Y``.
    min_count : int
        ``F_R`` = unigrams in at least this many instances (100 in the paper), minus
        those missing a label (reported in ``features_dropped``).
    objective : {"squared", "scaled"}
        See :func:`reweighting_loss_and_gradient`.
    method : {"adam", "L-BFGS-B"}
        Full-batch Adam (default, SPEC CHOICE) or scipy's L-BFGS-B (fine for small data).
    learning_rate, max_steps, tol : float, int, float
        Adam step size (unused by L-BFGS-B), iteration budget, and the loss below which
        optimisation stops.
    progress : callable, optional
        ``progress(step, max_steps)``, called every few Adam steps (not by L-BFGS-B), e.g. to
        move a progress bar. It must not raise; it cannot change the result.

    Returns
    -------
    ReweightResult

    Examples
    --------
    >>> from mlcore.bias.lexical import lexical_features
    >>> f = lexical_features(["a b", "a", "a c", "b c", "c", "b"])
    >>> r = reweight(f, list("AABBAB"), label_set="AB", min_count=1)
    >>> round(r.err_initial, 6), r.err_final < 1e-6, bool(np.isclose(r.q.sum(), 1.0)), bool((r.q > 0).all())
    (0.166667, True, True, True)
    """
    if method not in ("adam", "L-BFGS-B"):
        raise ValueError(f"method must be 'adam' or 'L-BFGS-B', got {method!r}")
    if objective not in ("squared", "scaled"):
        raise ValueError(f"objective must be 'squared' or 'scaled', got {objective!r}")
    if int(max_steps) != max_steps or max_steps < 0 or not learning_rate > 0 or not tol >= 0:
        raise ValueError("need an integer max_steps >= 0, learning_rate > 0 and tol >= 0")
    label_set, y, feature_set, matrix = prepare_reweighting(features, labels, label_set, min_count)
    n = len(y)
    uniform = np.full(n, 1.0 / n) if n else np.zeros(0)
    before = reweighting_diagnostics_from_matrix(matrix, y, uniform, len(label_set), feature_set)
    if not feature_set.features_used:  # F_R = ∅: nothing to balance, Err is nan
        return _result(uniform, before, before, np.nan, np.nan, 0, False, method, objective)
    blocks = _LabelBlocks(matrix, y, len(label_set))
    value_and_grad = _softmax_objective(blocks, len(label_set), objective)
    loss_initial = value_and_grad(np.zeros(n))[0]
    if method == "adam":
        q_grouped, loss, steps = _adam(
            value_and_grad, n, learning_rate=learning_rate, max_steps=max_steps, tol=tol, progress=progress
        )
    else:
        q_grouped, loss, steps = _lbfgs(value_and_grad, n, max_steps=max_steps, tol=tol)
    q = np.empty(n)
    q[blocks.order] = q_grouped
    after = reweighting_diagnostics_from_matrix(matrix, y, q, len(label_set), feature_set)
    return _result(q, before, after, loss_initial, loss, steps, loss < tol, method, objective)


def _result(
    q: np.ndarray,
    before: ReweightDiagnostics,
    after: ReweightDiagnostics,
    loss_initial: float,
    loss_final: float,
    steps: int,
    converged: bool,
    method: str,
    objective: str,
) -> ReweightResult:
    return ReweightResult(
        q=q,
        weights=after.weights,
        loss_initial=float(loss_initial),
        loss_final=float(loss_final),
        err_initial=before.err,
        err_final=after.err,
        err_marg_initial=before.err_marg,
        err_marg_final=after.err_marg,
        n_steps=int(steps),
        features_used=after.features_used,
        features_dropped=after.features_dropped,
        ess=after.ess,
        max_weight=after.max_weight,
        converged=bool(converged),
        method=method,
        objective=objective,
    )
