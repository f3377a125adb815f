"""Accuracy of human answers against the answer key, overall and per group (CODAH §3 human performance).

Wilson score intervals and a one-sided binomial test against chance, shaped like scipy's
``BinomTestResult``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from mlcore.stats.proportions import ConfidenceInterval

__all__ = ["AccuracyResult", "HumanAccuracy", "human_accuracy"]


@dataclass(frozen=True)
class AccuracyResult:
    """``k`` correct answers out of ``n``; ``pvalue`` of a one-sided binomial test vs ``chance``."""

    statistic: float
    k: int
    n: int
    chance: float
    pvalue: float

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Wilson score interval (``nan`` bounds without answers)."""
        if self.n == 0:
            return ConfidenceInterval(math.nan, math.nan)
        ci = stats.binomtest(self.k, self.n).proportion_ci(confidence_level=confidence_level, method="wilson")
        return ConfidenceInterval(float(ci.low), float(ci.high))


@dataclass(frozen=True)
class HumanAccuracy:
    overall: AccuracyResult
    per_group: Mapping[Hashable, AccuracyResult]


def _accuracy(flags: np.ndarray, chance: float) -> AccuracyResult:
    n, k = int(flags.size), int(flags.sum())
    if n == 0:
        return AccuracyResult(math.nan, 0, 0, chance, math.nan)
    pvalue = float(stats.binomtest(k, n, chance, alternative="greater").pvalue)
    return AccuracyResult(k / n, k, n, chance, pvalue)


def human_accuracy(
    correct: ArrayLike,
    groups: Sequence[Sequence[Hashable]] | None = None,
    *,
    chance: float = 0.25,
) -> HumanAccuracy:
    """Accuracy of human answers, overall and per group (an answer may be in several groups).

    Parameters
    ----------
    correct : array_like of bool
        Whether each answer matched the answer key.
    groups : sequence of sequences, optional
        The groups (e.g. question categories) of each answer.
    chance : float
        Accuracy of guessing, the null of the binomial test (1/4 for CODAH).

    Examples
    --------
    >>> r = human_accuracy([True, True, False, True], [["negation"], [], ["negation"], ["idioms"]])
    >>> r.overall.statistic, r.per_group["negation"].statistic, r.per_group["idioms"].n
    (0.75, 0.5, 1)
    """
    flags = np.asarray(correct, dtype=bool).ravel()
    if not 0.0 < chance < 1.0:
        raise ValueError(f"chance must be in (0, 1), got {chance!r}")
    per_group: dict[Hashable, AccuracyResult] = {}
    if groups is not None:
        if len(groups) != flags.size:
            raise ValueError(f"{len(groups)} group lists for {flags.size} answers")
        members: dict[Hashable, list[int]] = {}
        for index, names in enumerate(groups):
            for name in dict.fromkeys(names):
                members.setdefault(name, []).append(index)
        per_group = {name: _accuracy(flags[index], chance) for name, index in sorted(members.items(), key=repr)}
    return HumanAccuracy(_accuracy(flags, chance), MappingProxyType(per_group))
