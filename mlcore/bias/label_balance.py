"""Weighted label distributions and their error measures (SPEC-bias §3.1, §3.2, §3.4, §3.5).

For a distribution ``q`` over training instances: ``q(y|w)`` is the weighted share of
label ``y`` among instances containing ``w`` and ``q(y)`` the weighted label marginal.

* ``Err(q)``: mean of ``|q(y|w) - 1/|Y||`` over ``F_R`` x ``Y`` ([SDS23] after Eq. 1);
* ``Err_marg(q)``: the same against ``q(y)`` (the Table 1 caption's reading);
* ``LB_q(w) = mean_y |q(y|w) - q(y)|``, the label balance of one feature (§5.1, Fig. 2);
* the bigram check: mean label balance of 200 random bigrams seen with every label,
  before and after reweighting ([SDS23] §6, Table 3).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from mlcore.bias.lexical import Feature, LexicalFeatures, check_label_set, encode_labels, feature_label_counts

__all__ = [
    "BigramCheckResult",
    "LabelBalanceResult",
    "ReweightDiagnostics",
    "ReweightFeatureSet",
    "bigram_balance_check",
    "label_balance",
    "prepare_reweighting",
    "reweighting_diagnostics",
    "reweighting_diagnostics_from_matrix",
    "reweighting_features",
    "weighted_label_distribution",
]


@dataclass(frozen=True)
class ReweightFeatureSet:
    """``F_R``: frequent unigrams seen with every label, and the frequent ones dropped."""

    features_used: tuple[Feature, ...]
    features_dropped: tuple[Feature, ...]  # n_w >= min_count but c_{w,y} = 0 for some y
    columns: np.ndarray  # columns of the feature matrix, in features_used order


def _check_instance_features(features: LexicalFeatures, n_labels: int) -> None:
    if features.count != "instance":
        raise ValueError("reweighting needs 0/1 features: build them with count='instance'")
    if n_labels != features.n_instances:
        raise ValueError(f"{n_labels} labels for {features.n_instances} instances")


def prepare_reweighting(
    features: LexicalFeatures, labels: Sequence[Hashable], label_set: Sequence[Hashable], min_count: int
) -> tuple[tuple[Hashable, ...], np.ndarray, ReweightFeatureSet, sp.csr_matrix]:
    """Validated label set, label indices, ``F_R`` and the ``(n, |F_R|)`` float64 presence matrix."""
    label_set = check_label_set(label_set)
    y = encode_labels(labels, label_set)
    _check_instance_features(features, len(y))
    feature_set = _feature_set(features, y, len(label_set), min_count)
    matrix = sp.csr_matrix(features.matrix[:, feature_set.columns], dtype=np.float64)
    return label_set, y, feature_set, matrix


def reweighting_features(
    features: LexicalFeatures,
    labels: Sequence[Hashable],
    *,
    label_set: Sequence[Hashable],
    min_count: int = 100,
) -> ReweightFeatureSet:
    """``F_R`` of SPEC-bias §3.1: types in ``>= min_count`` instances, stop words included,
    minus every type never seen with some label of ``label_set``.

    Examples
    --------
    >>> from mlcore.bias.lexical import lexical_features
    >>> f = lexical_features(["a b", "a", "a c", "b c", "c", "b"])
    >>> s = reweighting_features(f, list("AABBAB"), label_set="AB", min_count=2)
    >>> s.features_used, s.features_dropped
    (('a', 'b', 'c'), ())
    """
    label_set = check_label_set(label_set)
    return _feature_set(features, encode_labels(labels, label_set), len(label_set), min_count)


def _feature_set(features: LexicalFeatures, y: np.ndarray, n_labels: int, min_count: int) -> ReweightFeatureSet:
    if int(min_count) != min_count or min_count < 1:
        raise ValueError(f"min_count must be a positive integer, got {min_count!r}")
    counts = feature_label_counts(features, y, n_labels)
    frequent = counts.sum(axis=1) >= min_count
    complete = (counts > 0).all(axis=1)
    columns = np.flatnonzero(frequent & complete)
    return ReweightFeatureSet(
        features_used=tuple(features.vocabulary[j] for j in columns),
        features_dropped=tuple(features.vocabulary[j] for j in np.flatnonzero(frequent & ~complete)),
        columns=columns,
    )


def _check_q(q: np.ndarray, n: int) -> np.ndarray:
    q = np.asarray(q, dtype=np.float64)
    if q.shape != (n,):
        raise ValueError(f"q must have shape ({n},), got {q.shape}")
    if n and (not np.isfinite(q).all() or (q < 0).any() or abs(q.sum() - 1.0) > 1e-9):
        raise ValueError("q must be a probability vector: finite, non-negative, summing to 1")
    return q


def weighted_label_distribution(
    matrix: sp.spmatrix, y: np.ndarray, q: np.ndarray, n_labels: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``q(y|w)`` (F, |Y|), ``D_w(q)`` (F,) and ``q(y)`` (|Y|,) for a 0/1 ``(n, F)`` matrix.

    Features with ``D_w = 0`` get ``nan`` shares. Uniform ``q`` reproduces ``p̂``.

    Examples
    --------
    >>> x = sp.csr_matrix(np.array([[1], [1], [1], [0]]))
    >>> share, mass, marginal = weighted_label_distribution(x, np.array([0, 0, 1, 1]), np.full(4, 0.25), 2)
    >>> share.round(6).tolist(), mass.tolist(), marginal.tolist()
    ([[0.666667, 0.333333]], [0.75], [0.5, 0.5])
    """
    y = np.asarray(y, dtype=np.int64)
    per_label = np.zeros((len(y), n_labels))  # (n, |Y|): q_i in the column of y_i
    per_label[np.arange(len(y)), y] = q
    mass = np.asarray(sp.csr_matrix(matrix).T @ per_label)  # (F, |Y|)
    total = mass.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = mass / total[:, None]
    return share, total, np.bincount(y, weights=q, minlength=n_labels)


@dataclass(frozen=True)
class ReweightDiagnostics:
    """Err, Err_marg and spread of a weighting ``q`` over ``F_R`` (SPEC-bias §3.3-3.4)."""

    err: float
    err_marg: float
    ess: float  # 1 / Σ q_i², the effective sample size
    max_weight: float  # max n·q_i
    weights: np.ndarray  # n·q
    label_balance: np.ndarray  # (|F_R|,) LB_q(w)
    features_used: tuple[Feature, ...]
    features_dropped: tuple[Feature, ...]


def reweighting_diagnostics_from_matrix(
    matrix: sp.spmatrix, y: np.ndarray, q: np.ndarray, n_labels: int, feature_set: ReweightFeatureSet
) -> ReweightDiagnostics:
    """:func:`reweighting_diagnostics` on an already restricted ``(n, |F_R|)`` matrix."""
    q = _check_q(q, len(y))
    share, _, marginal = weighted_label_distribution(matrix, y, q, n_labels)
    if share.shape[0] and np.isfinite(share).any():
        err = float(np.nanmean(np.abs(share - 1.0 / n_labels)))
        balance = np.abs(share - marginal).mean(axis=1)
        err_marg = float(np.nanmean(balance))
    else:  # F_R = ∅ (or no mass on it): the error is undefined
        err, err_marg, balance = np.nan, np.nan, np.full(share.shape[0], np.nan)
    return ReweightDiagnostics(
        err=err,
        err_marg=err_marg,
        ess=float(1.0 / np.square(q).sum()) if len(q) else np.nan,
        max_weight=float(len(q) * q.max()) if len(q) else np.nan,
        weights=len(q) * q,
        label_balance=balance,
        features_used=feature_set.features_used,
        features_dropped=feature_set.features_dropped,
    )


def reweighting_diagnostics(
    features: LexicalFeatures,
    labels: Sequence[Hashable],
    q: np.ndarray,
    *,
    label_set: Sequence[Hashable],
    min_count: int = 100,
) -> ReweightDiagnostics:
    """Err, Err_marg, per-feature label balance, ESS and weights of a given ``q``.

    Examples
    --------
    >>> from mlcore.bias.lexical import lexical_features
    >>> f = lexical_features(["a b", "a", "a c", "b c", "c", "b"])
    >>> d = reweighting_diagnostics(f, list("AABBAB"), np.array([2, 1, 3, 1, 4, 1]) / 12, label_set="AB", min_count=1)
    >>> round(d.err, 12), round(d.err_marg, 6), d.weights.tolist(), round(d.ess, 6)
    (0.0, 0.083333, [1.0, 0.5, 1.5, 0.5, 2.0, 0.5], 4.5)
    """
    label_set, y, feature_set, matrix = prepare_reweighting(features, labels, label_set, min_count)
    return reweighting_diagnostics_from_matrix(matrix, y, q, len(label_set), feature_set)


@dataclass(frozen=True)
class LabelBalanceResult:
    """``LB_uniform(w)`` and ``LB_q(w)`` of chosen features (SPEC-bias §3.4, [SDS23] Fig. 2)."""

    features: tuple[Feature, ...]  # present in the training split
    lb_uniform: np.ndarray
    lb_q: np.ndarray
    skipped: tuple[Feature, ...]  # absent from the training split

    @property
    def difference(self) -> np.ndarray:
        """``LB_q - LB_uniform``; negative means the reweighting balanced the feature."""
        difference: np.ndarray = self.lb_q - self.lb_uniform
        return difference


def _balance(matrix: sp.spmatrix, y: np.ndarray, q: np.ndarray, n_labels: int) -> np.ndarray:
    share, _, marginal = weighted_label_distribution(matrix, y, q, n_labels)
    balance: np.ndarray = np.abs(share - marginal).mean(axis=1)
    return balance


def label_balance(
    features: LexicalFeatures,
    labels: Sequence[Hashable],
    q: np.ndarray,
    *,
    label_set: Sequence[Hashable],
    subset: Iterable[Feature] | None = None,
) -> LabelBalanceResult:
    """Label balance of ``subset`` (default: all features) under uniform weights and under ``q``.

    Examples
    --------
    >>> from mlcore.bias.lexical import lexical_features
    >>> f = lexical_features(["a b", "a", "a c", "b c", "c", "b"])
    >>> r = label_balance(f, list("AABBAB"), np.full(6, 1 / 6), label_set="AB", subset=["a", "zebra"])
    >>> r.features, r.lb_uniform.round(6).tolist(), r.skipped
    (('a',), [0.166667], ('zebra',))
    """
    label_set = check_label_set(label_set)
    y = encode_labels(labels, label_set)
    _check_instance_features(features, len(y))
    q = _check_q(q, len(y))
    wanted = list(features.vocabulary if subset is None else subset)
    n_w = features.n_w
    present = [w for w in wanted if w in features.column and n_w[features.column[w]] > 0]
    present_set = frozenset(present)
    columns = np.array([features.column[w] for w in present], dtype=np.int64)
    matrix = features.matrix[:, columns]
    uniform = np.full(len(y), 1.0 / len(y)) if len(y) else q
    return LabelBalanceResult(
        features=tuple(present),
        lb_uniform=_balance(matrix, y, uniform, len(label_set)),
        lb_q=_balance(matrix, y, q, len(label_set)),
        skipped=tuple(w for w in wanted if w not in present_set),
    )


@dataclass(frozen=True)
class BigramCheckResult:
    """Mean label balance of sampled bigrams before/after reweighting ([SDS23] Table 3)."""

    sample: tuple[tuple[str, str], ...]  # in draw order
    lb_uniform: np.ndarray
    lb_q: np.ndarray
    mean_lb_uniform: float
    mean_lb_q: float
    worsened: bool  # mean LB_q > mean LB_uniform
    n_eligible: int
    seed: int | None  # the seed, when one was given instead of a Generator


def bigram_balance_check(
    bigrams: LexicalFeatures,
    labels: Sequence[Hashable],
    q: np.ndarray,
    *,
    label_set: Sequence[Hashable],
    m: int = 200,
    rng: np.random.Generator | int = 0,
) -> BigramCheckResult:
    """Does a unigram reweighting ``q`` unbalance bigrams? (SPEC-bias §3.5).

    Parameters
    ----------
    bigrams : LexicalFeatures
        Training bigrams (``ngram=2, count="instance"``).
    labels : sequence
        Gold label of every training instance.
    q : ndarray, shape (n,)
        The weighting, e.g. ``reweight(...).q``.
    label_set : sequence
        The declared, ordered label set ``Y``.
    m : int
        Sample size (200 in the paper); all eligible bigrams if fewer.
    rng : numpy.random.Generator or int
        Source of the sample; an int ``s`` means ``numpy.random.default_rng(s)``, the SPEC's
        recipe. Pass the same seed for every weighting so the sample stays fixed.

    Returns
    -------
    BigramCheckResult

    Examples
    --------
    >>> from mlcore.bias.lexical import lexical_features
    >>> b = lexical_features(["a b c", "a b", "b c", "a b c"], ngram=2)
    >>> r = bigram_balance_check(b, list("ABAB"), np.full(4, 0.25), label_set="AB", rng=0)
    >>> r.n_eligible, sorted(r.sample), r.worsened
    (2, [('a', 'b'), ('b', 'c')], False)
    """
    if int(m) != m or m < 1:
        raise ValueError(f"m must be a positive integer, got {m!r}")
    if bigrams.ngram != 2:
        raise ValueError("bigram_balance_check needs bigram features (ngram=2)")
    seed = None if isinstance(rng, np.random.Generator) else int(rng)
    generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(seed)
    label_set = check_label_set(label_set)
    y = encode_labels(labels, label_set)
    _check_instance_features(bigrams, len(y))
    q = _check_q(q, len(y))
    counts = feature_label_counts(bigrams, y, len(label_set))
    # B in tuple (code-point) order, so the seed alone fixes the sample.
    eligible = sorted(np.flatnonzero((counts >= 1).all(axis=1)).tolist(), key=bigrams.vocabulary.__getitem__)
    draws: np.ndarray | list[int] = generator.choice(len(eligible), size=min(m, len(eligible)), replace=False) if eligible else []
    columns = np.asarray(eligible, dtype=np.int64)[np.asarray(draws, dtype=np.int64)]
    matrix = bigrams.matrix[:, columns]
    lb_uniform = _balance(matrix, y, np.full(len(y), 1.0 / len(y)), len(label_set)) if len(y) else np.zeros(0)
    lb_q = _balance(matrix, y, q, len(label_set))
    mean_uniform = float(lb_uniform.mean()) if len(columns) else np.nan
    mean_q = float(lb_q.mean()) if len(columns) else np.nan
    return BigramCheckResult(
        sample=tuple(bigrams.vocabulary[j] for j in columns),
        lb_uniform=lb_uniform,
        lb_q=lb_q,
        mean_lb_uniform=mean_uniform,
        mean_lb_q=mean_q,
        worsened=bool(mean_q > mean_uniform),
        n_eligible=len(eligible),
        seed=seed,
    )
