"""Feature-label association: z-scores and the top-k evaluation features (SPEC-bias §1.3-1.5).

* :func:`lexical_zscores` - ``p̂(y|w)`` and the [G21] z-score of every feature and label.
* :func:`bonferroni_z_threshold` - the one-sided Bonferroni cut-off ``z*``.
* :func:`select_top_features` - the set ``S``: for each label, the ``k`` non-stop-word
  features with the largest positive z-score, ties broken by larger ``n_w``, then
  code-point order of the feature (SPEC §0).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

import numpy as np
from scipy import stats

from mlcore.bias.lexical import Feature, LexicalFeatures, check_label_set, encode_labels, feature_label_counts
from mlcore.bias.stopwords import STOP_WORDS
from mlcore.stats.pvalues import norm_log10_sf

__all__ = [
    "FeatureSelection",
    "LexicalZScores",
    "bonferroni_z_threshold",
    "lexical_zscores",
    "select_top_features",
    "zscores_from_counts",
]


def zscores_from_counts(counts: np.ndarray, p0: float | np.ndarray) -> np.ndarray:
    """[G21] Eq. 1: ``(p̂(y|w) - p0) / sqrt(p0 (1 - p0) / n_w)`` for a ``(V, |Y|)`` count table.

    Rows with ``n_w = 0`` and labels with ``p0`` in {0, 1} give ``nan``.

    Examples
    --------
    >>> zscores_from_counts(np.array([[0, 0, 2], [2, 2, 1]]), 1 / 3).round(6).tolist()
    [[-1.0, -1.0, 2.0], [0.316228, 0.316228, -0.632456]]
    """
    counts = np.asarray(counts, dtype=np.float64)
    if counts.ndim != 2 or (counts < 0).any():
        raise ValueError("counts must be a non-negative (V, |Y|) table")
    p0 = np.broadcast_to(np.asarray(p0, dtype=np.float64), (counts.shape[1],))
    n = counts.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (counts / n - p0) / np.sqrt(p0 * (1.0 - p0) / n)
    z[~np.isfinite(z)] = np.nan
    out: np.ndarray = z
    return out


@dataclass(frozen=True)
class LexicalZScores:
    """z-scores of every (feature, label) pair of a training split (SPEC-bias §1.3-1.4).

    Arrays are ``(V, |Y|)`` with rows in ``vocabulary`` order and columns in ``label_set``
    order. ``pvalue`` is the one-sided, uncorrected normal tail ``P(Z > z)``; it underflows to
    0.0 beyond ``z`` ≈ 38, ``log10_pvalue`` stays finite (SPEC §0; ``nan`` where ``z`` is).
    """

    statistic: np.ndarray  # (V, |Y|) z
    pvalue: np.ndarray  # (V, |Y|)
    log10_pvalue: np.ndarray  # (V, |Y|)
    counts: np.ndarray  # (V, |Y|) c_{w,y}
    n: np.ndarray  # (V,) n_w
    p_label: np.ndarray  # (V, |Y|) p̂(y|w)
    prior: np.ndarray  # (|Y|,) p̂(y) over instances
    p0: np.ndarray  # (|Y|,) null probability used
    vocabulary: tuple[Feature, ...]
    label_set: tuple[Hashable, ...]
    count: str

    @functools.cached_property
    def row(self) -> dict[Feature, int]:
        """Map feature -> row index."""
        return {feature: i for i, feature in enumerate(self.vocabulary)}

    def zscore(self, feature: Feature, label: Hashable) -> float:
        """The z-score of one feature and label."""
        return float(self.statistic[self.row[feature], self.label_set.index(label)])

    def significant(self, alpha: float = 0.01) -> np.ndarray:
        """``z > z*`` with the Bonferroni threshold over all ``V`` features, shape ``(V, |Y|)``."""
        return self.statistic > bonferroni_z_threshold(alpha, len(self.vocabulary))


def lexical_zscores(
    features: LexicalFeatures,
    labels: Sequence[Hashable],
    *,
    label_set: Sequence[Hashable],
    p0: Literal["uniform", "prior"] = "uniform",
) -> LexicalZScores:
    """Label distributions and z-scores of all features (SPEC-bias §1.3-1.4).

    Parameters
    ----------
    features : LexicalFeatures
        Training-split features; their counting mode defines ``n_w`` and ``c_{w,y}``.
    labels : sequence
        Gold label of every training instance; each must belong to ``label_set``.
    label_set : sequence
        The declared, ordered label set ``Y`` (``|Y| >= 2``).
    p0 : {"uniform", "prior"}
        Null probability: ``1/|Y|`` (default, [G21]) or the instance prior ``p̂(y)``.
        A label with prior 0 or 1 then has ``nan`` z-scores.

    Returns
    -------
    LexicalZScores

    Examples
    --------
    >>> from mlcore.bias.lexical import lexical_features
    >>> f = lexical_features(["Nobody sleeps.", "Nobody runs.", "A dog runs."])
    >>> z = lexical_zscores(f, ["C", "C", "E"], label_set=("E", "N", "C"))
    >>> round(z.zscore("nobody", "C"), 6), round(z.zscore("nobody", "E"), 6)
    (2.0, -1.0)
    """
    label_set = check_label_set(label_set)
    y = encode_labels(labels, label_set)
    counts = feature_label_counts(features, y, len(label_set))
    n_instances = max(len(y), 1)
    prior = np.bincount(y, minlength=len(label_set)) / n_instances
    if p0 == "uniform":
        null = np.full(len(label_set), 1.0 / len(label_set))
    elif p0 == "prior":
        null = prior.copy()
    else:
        raise ValueError(f"p0 must be 'uniform' or 'prior', got {p0!r}")
    z = zscores_from_counts(counts, null)
    pvalue = stats.norm.sf(z)
    n = counts.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_label = counts / n[:, None]
    return LexicalZScores(
        statistic=z,
        pvalue=pvalue,
        log10_pvalue=norm_log10_sf(z, pvalue=pvalue),
        counts=counts,
        n=n,
        p_label=p_label,
        prior=prior,
        p0=null,
        vocabulary=features.vocabulary,
        label_set=label_set,
        count=features.count,
    )


def bonferroni_z_threshold(alpha: float, n_tests: int) -> float:
    """One-sided Bonferroni threshold ``z* = Φ⁻¹(1 - alpha / n_tests)`` ([G21] §4.1).

    Computed as the normal inverse survival function, which keeps full precision
    for tiny ``alpha / n_tests``.

    Examples
    --------
    >>> round(bonferroni_z_threshold(0.01, 28_000), 6)
    4.957439
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    if int(n_tests) != n_tests or n_tests < 1:
        raise ValueError(f"n_tests must be a positive integer, got {n_tests!r}")
    return float(stats.norm.isf(alpha / n_tests))


# Decimals kept when ranking z-scores (|z| <= ~1e3, float error ~1e-13).
_Z_DECIMALS = 9


@dataclass(frozen=True)
class FeatureSelection:
    """The selected features ``S`` and the label(s) each one was selected for."""

    features: tuple[Feature, ...]  # S, code-point order
    per_label: Mapping[Hashable, tuple[Feature, ...]]  # label -> its top-k, best first
    selected_for: Mapping[Feature, tuple[Hashable, ...]]  # feature -> labels, label-set order
    k: int
    min_count: int

    def __len__(self) -> int:
        return len(self.features)


def select_top_features(
    zscores: LexicalZScores,
    *,
    k: int = 50,
    stop_words: Collection[str] = STOP_WORDS,
    min_count: int = 1,
) -> FeatureSelection:
    """Select the ``k`` features most associated with each label ([SDS23] §3.2, §4.2).

    Parameters
    ----------
    zscores : LexicalZScores
        z-scores of the training split (:func:`mlcore.bias.lexical.lexical_zscores`).
    k : int
        Features kept per label (50 in the paper); fewer if fewer are eligible.
    stop_words : collection of str
        Excluded unigrams; default the embedded 204-string list
        (:data:`mlcore.bias.stopwords.STOP_WORDS`). Bigram features are never excluded.
    min_count : int
        Minimum ``n_w`` (default 1: rare features cannot reach the top anyway).

    Returns
    -------
    FeatureSelection

    Examples
    --------
    >>> from mlcore.bias.lexical import lexical_features
    >>> f = lexical_features(["Nobody sleeps.", "Nobody runs.", "A dog runs.", "A cat sleeps."])
    >>> z = lexical_zscores(f, ["C", "C", "E", "N"], label_set=("E", "N", "C"))
    >>> s = select_top_features(z, k=1)
    >>> dict(s.per_label)
    {'E': ('dog',), 'N': ('cat',), 'C': ('nobody',)}
    >>> s.features
    ('cat', 'dog', 'nobody')
    """
    if int(k) != k or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    if int(min_count) != min_count or min_count < 1:
        raise ValueError(f"min_count must be a positive integer, got {min_count!r}")
    vocabulary = zscores.vocabulary
    n_features = len(vocabulary)
    # Rank of each feature in code-point order, the last tie-breaker (SPEC §0).
    rank = np.empty(n_features, dtype=np.int64)
    rank[sorted(range(n_features), key=vocabulary.__getitem__)] = np.arange(n_features)
    not_stop = np.fromiter(
        (not (isinstance(w, str) and w in stop_words) for w in vocabulary), dtype=bool, count=n_features
    )
    base = not_stop & (zscores.n >= min_count)
    per_label: dict[Hashable, tuple[Feature, ...]] = {}
    selected_for: dict[Feature, list[Hashable]] = {}
    for j, label in enumerate(zscores.label_set):
        # Equal z from different counts, e.g. (1 of 1) and (16 of 36), can differ in the last
        # bits; rounding lets them tie so the count decides, as SPEC §0 intends.
        z = np.round(zscores.statistic[:, j], _Z_DECIMALS)
        with np.errstate(invalid="ignore"):
            eligible = np.flatnonzero(base & (z > 0))  # CHOICE: never "associated" when z <= 0
        # lexsort: the last key is the primary one.
        order = eligible[np.lexsort((rank[eligible], -zscores.n[eligible], -z[eligible]))][:k]
        per_label[label] = tuple(vocabulary[i] for i in order)
        for i in order:
            selected_for.setdefault(vocabulary[i], []).append(label)
    return FeatureSelection(
        features=tuple(sorted(selected_for)),
        per_label=MappingProxyType(per_label),
        selected_for=MappingProxyType({w: tuple(labels) for w, labels in sorted(selected_for.items())}),
        k=int(k),
        min_count=int(min_count),
    )
