"""Agreement between annotators: Cohen's and Fleiss' kappa (human accuracy: :mod:`mlcore.stats.human_accuracy`).

Pure functions, no Django: label arrays in, frozen dataclasses shaped like scipy's results out.

* :func:`cohen_kappa` - two raters, nominal labels; asymptotic standard errors of
  Fleiss, Cohen & Everitt (1969), as SAS ``PROC FREQ`` and statsmodels report them.
* :func:`pairwise_cohen_kappa` - every pair of raters over the items both rated, and the
  pairwise average CODAH reports (0.89 for its answers).
* :func:`fleiss_kappa` - ``m`` raters per item; z-test of Fleiss, Nee & Landis (1979), as
  R's ``irr::kappam.fleiss``; a bootstrap interval over items.
* :func:`rating_counts` - an (items, raters) array of labels -> the (items, categories) table.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from mlcore.stats.proportions import ConfidenceInterval

__all__ = [
    "CohenKappaResult",
    "ConfidenceInterval",
    "FleissKappaResult",
    "PairKappa",
    "PairwiseKappa",
    "cohen_kappa",
    "fleiss_kappa",
    "pairwise_cohen_kappa",
    "rating_counts",
]

Alternative = Literal["two-sided", "greater", "less"]


def _pvalue(z: float, alternative: Alternative) -> float:
    if math.isnan(z):
        return math.nan
    if alternative == "two-sided":
        return float(2 * stats.norm.sf(abs(z)))
    if alternative == "greater":
        return float(stats.norm.sf(z))
    if alternative == "less":
        return float(stats.norm.cdf(z))
    raise ValueError(f"alternative must be 'two-sided', 'greater' or 'less', got {alternative!r}")


def _check_level(confidence_level: float) -> float:
    if not 0.0 < confidence_level < 1.0:
        raise ValueError(f"confidence_level must be in (0, 1), got {confidence_level!r}")
    return float(stats.norm.isf((1 - confidence_level) / 2))


@dataclass(frozen=True)
class CohenKappaResult:
    """Cohen's kappa of two raters.

    ``statistic`` is kappa; ``pvalue`` tests kappa = 0 with ``null_standard_error``;
    ``standard_error`` (asymptotic, not under the null) gives the confidence interval.
    Kappa is ``nan`` when both raters used one and the same label throughout.
    """

    statistic: float
    pvalue: float
    standard_error: float
    null_standard_error: float
    observed_agreement: float
    expected_agreement: float
    n: int

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Wald interval ``kappa ± z * standard_error``, clipped to [-1, 1]."""
        z = _check_level(confidence_level)
        half = z * self.standard_error
        return ConfidenceInterval(max(-1.0, self.statistic - half), min(1.0, self.statistic + half))


def _encode_pair(a: ArrayLike, b: ArrayLike, labels: Sequence[Hashable] | None) -> tuple[np.ndarray, np.ndarray, int]:
    a_list, b_list = list(np.asarray(a, dtype=object).ravel()), list(np.asarray(b, dtype=object).ravel())
    if len(a_list) != len(b_list):
        raise ValueError(f"the raters rated different numbers of items ({len(a_list)} != {len(b_list)})")
    if not a_list:
        raise ValueError("need at least one item rated by both raters")
    if labels is None:
        labels = sorted(set(a_list) | set(b_list), key=repr)
    position = {label: i for i, label in enumerate(labels)}
    outside = sorted({repr(x) for x in a_list + b_list if x not in position})
    if outside:
        raise ValueError(f"labels outside `labels`: {', '.join(outside[:5])}")
    codes_a = np.fromiter((position[x] for x in a_list), np.int64, count=len(a_list))
    codes_b = np.fromiter((position[x] for x in b_list), np.int64, count=len(b_list))
    return codes_a, codes_b, len(labels)


def cohen_kappa(
    a: ArrayLike,
    b: ArrayLike,
    *,
    labels: Sequence[Hashable] | None = None,
    alternative: Alternative = "two-sided",
) -> CohenKappaResult:
    """Cohen's (unweighted) kappa of two raters' nominal labels for the same items.

    Parameters
    ----------
    a, b : array_like
        Labels of rater A and rater B, item by item (any hashable values).
    labels : sequence, optional
        The label set; default: every label either rater used.
    alternative : {"two-sided", "greater", "less"}
        Alternative of the z-test of kappa = 0.

    Returns
    -------
    CohenKappaResult

    Notes
    -----
    With the joint proportions ``p_ij``, marginals ``p_i.`` and ``p_.j``,
    ``p_o = sum_i p_ii``, ``p_e = sum_i p_i. p_.i`` and ``kappa = (p_o - p_e) / (1 - p_e)``.
    The variances are those of Fleiss, Cohen & Everitt (1969).

    Examples
    --------
    >>> r = cohen_kappa([0, 0, 1, 1, 2, 2], [0, 0, 1, 2, 2, 2])
    >>> round(r.statistic, 4), r.n
    (0.75, 6)
    """
    codes_a, codes_b, k = _encode_pair(a, b, labels)
    n = len(codes_a)
    table = np.zeros((k, k), dtype=np.float64)
    np.add.at(table, (codes_a, codes_b), 1.0)
    p = table / n
    row, col = p.sum(axis=1), p.sum(axis=0)
    p_o, p_e = float(np.trace(p)), float(row @ col)
    if math.isclose(p_e, 1.0):
        nan = math.nan
        return CohenKappaResult(nan, nan, nan, nan, p_o, p_e, n)
    kappa = (p_o - p_e) / (1 - p_e)
    # Non-null variance: diagonal and off-diagonal terms of Fleiss, Cohen & Everitt (1969).
    diagonal = float(np.sum(np.diag(p) * (1 - (row + col) * (1 - kappa)) ** 2))
    off = p * (col[:, None] + row[None, :]) ** 2
    np.fill_diagonal(off, 0.0)
    variance = (diagonal + (1 - kappa) ** 2 * float(off.sum()) - (kappa - p_e * (1 - kappa)) ** 2) / (n * (1 - p_e) ** 2)
    null_variance = (p_e + p_e**2 - float(np.sum(row * col * (row + col)))) / (n * (1 - p_e) ** 2)
    null_se = math.sqrt(max(null_variance, 0.0))
    z = kappa / null_se if null_se > 0 else math.copysign(math.inf, kappa) if kappa else math.nan
    return CohenKappaResult(
        statistic=float(kappa),
        pvalue=_pvalue(z, alternative),
        standard_error=math.sqrt(max(variance, 0.0)),
        null_standard_error=null_se,
        observed_agreement=p_o,
        expected_agreement=p_e,
        n=n,
    )


@dataclass(frozen=True)
class PairKappa:
    """Cohen's kappa of one pair of raters over the items both rated."""

    rater_a: Hashable
    rater_b: Hashable
    result: CohenKappaResult


@dataclass(frozen=True)
class PairwiseKappa:
    """Cohen's kappa of every pair of raters with enough shared items, and their mean.

    ``statistic`` is the unweighted mean over pairs with a defined kappa (``nan`` if none).
    """

    statistic: float
    pairs: tuple[PairKappa, ...]
    min_shared: int


def pairwise_cohen_kappa(
    ratings: Mapping[Hashable, Mapping[Hashable, Hashable]],
    *,
    labels: Sequence[Hashable] | None = None,
    min_shared: int = 2,
) -> PairwiseKappa:
    """Cohen's kappa of each pair of raters over the items both rated.

    Parameters
    ----------
    ratings : mapping
        ``ratings[rater][item] = label``.
    labels : sequence, optional
        The label set shared by all pairs (default: every label used by anyone).
    min_shared : int
        Pairs with fewer shared items are left out.

    Examples
    --------
    >>> r = pairwise_cohen_kappa({"ann": {1: "a", 2: "b", 3: "a"}, "bob": {1: "a", 2: "b", 3: "b"},
    ...                           "cy": {9: "a"}})
    >>> [(p.rater_a, p.rater_b) for p in r.pairs], round(r.statistic, 4)
    ([('ann', 'bob')], 0.4)
    """
    if int(min_shared) != min_shared or min_shared < 1:
        raise ValueError(f"min_shared must be a positive integer, got {min_shared!r}")
    if labels is None:
        labels = sorted({label for items in ratings.values() for label in items.values()}, key=repr)
    pairs = []
    for rater_a, rater_b in combinations(sorted(ratings, key=repr), 2):
        shared = sorted(set(ratings[rater_a]) & set(ratings[rater_b]), key=repr)
        if len(shared) < min_shared:
            continue
        labels_a: list[Any] = [ratings[rater_a][i] for i in shared]
        labels_b: list[Any] = [ratings[rater_b][i] for i in shared]
        result = cohen_kappa(labels_a, labels_b, labels=labels)
        pairs.append(PairKappa(rater_a, rater_b, result))
    defined = [p.result.statistic for p in pairs if not math.isnan(p.result.statistic)]
    return PairwiseKappa(float(np.mean(defined)) if defined else math.nan, tuple(pairs), int(min_shared))


@dataclass(frozen=True)
class FleissKappaResult:
    """Fleiss' kappa of ``n_raters`` raters per item.

    ``pvalue`` tests kappa = 0 with ``null_standard_error`` (Fleiss, Nee & Landis 1979);
    :meth:`confidence_interval` bootstraps over items.
    """

    statistic: float
    pvalue: float
    null_standard_error: float
    observed_agreement: float
    expected_agreement: float
    n_items: int
    n_raters: int
    table: np.ndarray = field(repr=False)  # (items, categories) counts

    def confidence_interval(
        self, confidence_level: float = 0.95, *, n_resamples: int = 2000, rng: int | np.random.Generator = 0
    ) -> ConfidenceInterval:
        """Percentile bootstrap interval over items (the table's rows are resampled)."""
        _check_level(confidence_level)
        generator = np.random.default_rng(rng)
        rows = generator.integers(0, self.n_items, size=(n_resamples, self.n_items))
        values = np.array([_fleiss_statistic(self.table[index])[0] for index in rows])
        values = values[~np.isnan(values)]
        if values.size == 0:
            return ConfidenceInterval(math.nan, math.nan)
        tail = 100 * (1 - confidence_level) / 2
        low, high = np.percentile(values, [tail, 100 - tail])
        return ConfidenceInterval(float(low), float(high))


def _fleiss_statistic(table: np.ndarray) -> tuple[float, float, float]:
    n_items, m = table.shape[0], table[0].sum()
    p_j = table.sum(axis=0) / (n_items * m)
    p_i = (np.sum(table * table, axis=1) - m) / (m * (m - 1))
    p_bar, p_e = float(p_i.mean()), float(np.sum(p_j**2))
    kappa = math.nan if math.isclose(p_e, 1.0) else (p_bar - p_e) / (1 - p_e)
    return kappa, p_bar, p_e


def fleiss_kappa(table: ArrayLike, *, alternative: Alternative = "two-sided") -> FleissKappaResult:
    """Fleiss' kappa from an (items, categories) table of counts.

    Parameters
    ----------
    table : array_like of int, shape (n_items, n_categories)
        ``table[i, j]``: raters who put item ``i`` in category ``j``. Every row must sum
        to the same number of raters ``m >= 2`` (see :func:`rating_counts`).
    alternative : {"two-sided", "greater", "less"}
        Alternative of the z-test of kappa = 0 (Fleiss, Nee & Landis 1979; R's ``irr::kappam.fleiss``
        reports the two-sided one).

    Returns
    -------
    FleissKappaResult

    Examples
    --------
    >>> r = fleiss_kappa([[3, 0], [0, 3], [2, 1], [3, 0]])
    >>> round(r.statistic, 4), r.n_items, r.n_raters
    (0.625, 4, 3)
    """
    counts = np.asarray(table, dtype=np.float64)
    if counts.ndim != 2 or counts.shape[0] < 1 or counts.shape[1] < 2:
        raise ValueError("table must be (n_items >= 1, n_categories >= 2)")
    if (counts < 0).any() or not np.allclose(counts, np.round(counts)):
        raise ValueError("table must hold non-negative integer counts")
    raters = counts.sum(axis=1)
    if not np.all(raters == raters[0]) or raters[0] < 2:
        raise ValueError("every item needs the same number of raters, at least 2")
    n_items, m = counts.shape[0], int(raters[0])
    kappa, p_bar, p_e = _fleiss_statistic(counts)
    p_j = counts.sum(axis=0) / (n_items * m)
    pq = p_j * (1 - p_j)
    total = float(pq.sum())
    if total == 0 or math.isnan(kappa):
        null_se, z = math.nan, math.nan
    else:
        null_variance = 2 / (n_items * m * (m - 1)) * (total**2 - float(np.sum(pq * (1 - 2 * p_j)))) / total**2
        null_se = math.sqrt(max(null_variance, 0.0))
        z = kappa / null_se if null_se > 0 else math.nan
    return FleissKappaResult(
        statistic=float(kappa),
        pvalue=_pvalue(z, alternative),
        null_standard_error=null_se,
        observed_agreement=p_bar,
        expected_agreement=p_e,
        n_items=n_items,
        n_raters=m,
        table=counts,
    )


def rating_counts(ratings: ArrayLike, labels: Sequence[Hashable]) -> np.ndarray:
    """An (items, raters) array of labels -> the (items, categories) count table.

    Examples
    --------
    >>> rating_counts([["x", "y", "x"], ["y", "y", "y"]], labels=("x", "y")).tolist()
    [[2, 1], [0, 3]]
    """
    grid = np.asarray(ratings, dtype=object)
    if grid.ndim != 2:
        raise ValueError("ratings must be a 2-d (items, raters) array")
    position = {label: j for j, label in enumerate(labels)}
    out = np.zeros((grid.shape[0], len(labels)), dtype=np.int64)
    for i, row in enumerate(grid):
        for value in row:
            if value not in position:
                raise ValueError(f"label {value!r} is not in labels")
            out[i, position[value]] += 1
    return out
