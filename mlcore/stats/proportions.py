"""Proportions with Wilson score intervals: model accuracy on a leaderboard and Dynabench's vMER.

Pure functions (no Django, no torch): counts or boolean arrays in, frozen dataclasses out,
shaped like scipy's ``BinomTestResult`` (``statistic`` and a ``confidence_interval()`` method).

* :func:`proportion` -- ``k`` successes of ``n`` with its Wilson (1927) score interval.
* :func:`grouped_proportions` -- the same overall and per group (a question may be in several
  categories, or in none).
* :func:`proportion_difference` -- ``p1 - p2`` of two independent samples with Newcombe's (1998)
  hybrid score interval (method 10), built from the two Wilson intervals: a difference is
  detected when the interval excludes 0.
* :func:`validated_model_error_rate` -- Dynabench's vMER (Kiela et al. 2021): the share of
  validated examples whose author's label was confirmed *and* which fooled the model in the loop.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

__all__ = [
    "ConfidenceInterval", "DifferenceResult", "GroupedProportions", "ProportionResult",
    "grouped_proportions", "proportion", "proportion_difference", "validated_model_error_rate", "wilson_interval",
]


@dataclass(frozen=True)
class ConfidenceInterval:
    """Bounds of an interval (``nan`` when there is no data)."""

    low: float
    high: float

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high


def _z(confidence_level: float) -> float:
    if not 0.0 < confidence_level < 1.0:
        raise ValueError(f"confidence_level must be strictly between 0 and 1, got {confidence_level!r}")
    return NormalDist().inv_cdf(0.5 + confidence_level / 2.0)


def _check_counts(k: int, n: int) -> None:
    for name, value in (("k", k), ("n", n)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be an integer, got {value!r}")
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")


def wilson_interval(k: int, n: int, *, confidence_level: float = 0.95) -> ConfidenceInterval:
    """Wilson score interval of a binomial proportion ``k / n``.

    Parameters
    ----------
    k, n : int
        Successes and trials, ``0 <= k <= n``.
    confidence_level : float
        Coverage the interval aims for, in (0, 1).

    Returns
    -------
    ConfidenceInterval
        ``(nan, nan)`` when ``n == 0``; otherwise bounds within [0, 1].

    Examples
    --------
    >>> ci = wilson_interval(0, 1)
    >>> (ci.low, round(ci.high, 4))
    (0.0, 0.7935)
    """
    _check_counts(k, n)
    z = _z(confidence_level)
    if n == 0:
        return ConfidenceInterval(math.nan, math.nan)
    p = k / n
    denominator = 1.0 + z * z / n
    center = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # Exact bounds at the edges (floating point would leave 1e-17 below 0 or above 1).
    low = 0.0 if k == 0 else max(0.0, center - half)
    high = 1.0 if k == n else min(1.0, center + half)
    return ConfidenceInterval(low, high)


@dataclass(frozen=True)
class ProportionResult:
    """``k`` successes out of ``n`` (shaped like scipy's ``BinomTestResult``).

    Attributes
    ----------
    k : int
        Successes, e.g. questions a model answered correctly.
    n : int
        Trials, ``0 <= k <= n``.
    statistic : float
        The proportion ``k / n`` (``nan`` without trials).
    """

    k: int
    n: int

    @property
    def statistic(self) -> float:
        return self.k / self.n if self.n else math.nan

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The Wilson score interval (see :func:`wilson_interval`)."""
        return wilson_interval(self.k, self.n, confidence_level=confidence_level)


def proportion(k: int, n: int) -> ProportionResult:
    """``k`` of ``n`` as a :class:`ProportionResult` (validated).

    Examples
    --------
    >>> result = proportion(18, 20)
    >>> result.statistic
    0.9
    >>> round(result.confidence_interval().low, 4)
    0.699
    """
    _check_counts(k, n)
    return ProportionResult(int(k), int(n))


@dataclass(frozen=True)
class GroupedProportions:
    """A proportion overall and per group, groups in first-seen order."""

    overall: ProportionResult
    per_group: dict[str, ProportionResult]


def _as_bool_array(values: np.ndarray | Sequence[bool], name: str) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    if array.size and array.dtype != bool:
        if not np.isin(array, (0, 1)).all():
            raise ValueError(f"{name} must hold booleans (or 0/1)")
        array = array.astype(bool)
    return array.astype(bool)


def grouped_proportions(successes: np.ndarray | Sequence[bool], groups: Sequence[Sequence[str]]) -> GroupedProportions:
    """Share of successes overall and within each group (an item counts in each of its groups).

    Examples
    --------
    >>> result = grouped_proportions([True, False, True], [("idioms",), ("idioms", "negation"), ()])
    >>> result.overall.k, result.overall.n
    (2, 3)
    >>> {name: (r.k, r.n) for name, r in result.per_group.items()}
    {'idioms': (1, 2), 'negation': (0, 1)}
    """
    array = _as_bool_array(successes, "successes")
    if len(groups) != array.size:
        raise ValueError(f"need one group list per item: {array.size} items, {len(groups)} group lists")
    counts: dict[str, list[int]] = {}
    for hit, names in zip(array, groups):
        if isinstance(names, str):
            raise TypeError("each item's groups must be a sequence of names, not a single string")
        for name in dict.fromkeys(names):
            tally = counts.setdefault(name, [0, 0])
            tally[0] += int(hit)
            tally[1] += 1
    return GroupedProportions(
        overall=ProportionResult(int(array.sum()), int(array.size)),
        per_group={name: ProportionResult(k, n) for name, (k, n) in counts.items()},
    )


@dataclass(frozen=True)
class DifferenceResult:
    """``first - second`` of two independent proportions.

    Attributes
    ----------
    first, second : ProportionResult
        The two samples, e.g. the accuracy of two models or the vMER of two rounds.
    statistic : float
        ``first.statistic - second.statistic`` (``nan`` when a sample has no trials).
    """

    first: ProportionResult
    second: ProportionResult

    @property
    def statistic(self) -> float:
        return self.first.statistic - self.second.statistic

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Newcombe's hybrid score interval (his method 10): no difference is plausible when it holds 0."""
        if not (self.first.n and self.second.n):
            return ConfidenceInterval(math.nan, math.nan)
        p1, p2 = self.first.statistic, self.second.statistic
        ci1 = self.first.confidence_interval(confidence_level)
        ci2 = self.second.confidence_interval(confidence_level)
        d = p1 - p2
        low = d - math.sqrt((p1 - ci1.low) ** 2 + (ci2.high - p2) ** 2)
        high = d + math.sqrt((ci1.high - p1) ** 2 + (p2 - ci2.low) ** 2)
        return ConfidenceInterval(max(-1.0, low), min(1.0, high))


def proportion_difference(first: ProportionResult, second: ProportionResult) -> DifferenceResult:
    """Compare two proportions (e.g. the vMER of two rounds, the accuracy of two models).

    Examples
    --------
    >>> ci = proportion_difference(proportion(56, 70), proportion(48, 80)).confidence_interval()
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.0524, 0.3339)
    """
    return DifferenceResult(first, second)


def validated_model_error_rate(confirmed: np.ndarray | Sequence[bool],
                               fooled: np.ndarray | Sequence[bool]) -> ProportionResult:
    """Dynabench's vMER over validated examples.

    Parameters
    ----------
    confirmed : array of bool, shape (n,)
        Per validated example: validation confirmed the author's label.
    fooled : array of bool, shape (n,)
        Per validated example: the model in the loop got it wrong when it was submitted.

    Returns
    -------
    ProportionResult
        ``k`` = confirmed and fooled, ``n`` = validated examples.

    Examples
    --------
    >>> r = validated_model_error_rate([True, True, False, True], [True, False, True, True])
    >>> r.k, r.n, r.statistic
    (2, 4, 0.5)
    """
    confirmed_array = _as_bool_array(confirmed, "confirmed")
    fooled_array = _as_bool_array(fooled, "fooled")
    if confirmed_array.size != fooled_array.size:
        raise ValueError(f"confirmed and fooled differ in length ({confirmed_array.size} vs {fooled_array.size})")
    return ProportionResult(int((confirmed_array & fooled_array).sum()), int(confirmed_array.size))
