"""The usual/unusual permutation test stratified by gold label (SPEC-bias §2.5).

The §2.3 test (:mod:`mlcore.bias.permutation`) assumes that, apart from the features, every slot of
``U`` and ``N`` is equally likely to be correct. When accuracy depends on the gold label by
construction, that is false: a forced-choice model that picks at random is right on ~75% of the
``incorrect`` completions and ~25% of the ``correct`` ones, most selected features are usual for
``incorrect``, and §2.3 then reports p ≈ 1e-80 for the random picker. Here ``U`` and ``N`` are
compared only *within* each gold label: in stratum ``s`` the ``K_s`` correct marks fall on a
uniformly random ``K_s``-subset of its ``M_s`` slots, independently across strata, and the
statistic ``A = Σ_s a_s`` is a sum of independent hypergeometrics. Its exact upper tail is the
exact form of the Cochran-Mantel-Haenszel test (R's ``mantelhaen.test(exact = TRUE,
alternative = "greater")``).

The null distribution of ``A`` is the convolution of the per-stratum pmfs: in exact integer
arithmetic for small tables (like :func:`mlcore.bias.permutation.permutation_test_from_counts`), else
in log space with ``logaddexp``, so p-values far below 1e-308 keep a finite ``log10_pvalue``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.special import logsumexp

from mlcore.bias.ambiguity import IndependenceTestResult, recall_independence_test
from mlcore.bias.permutation import LexicalMembership, PermutationTestResult, SlotCounts
from mlcore.stats.hypergeom import EXACT_MAX_POPULATION, LN2, LN10, log_comb

__all__ = [
    "GOLD_ACCURACY_ALPHA",
    "GoldAccuracyResult",
    "StratifiedBiasTestResult",
    "StratumCounts",
    "accuracy_by_gold",
    "stratified_null_distribution",
    "stratified_test_from_counts",
    "stratified_test_from_membership",
]

# Accuracy differing between gold labels at this level makes the reports warn (SPEC §2.5).
GOLD_ACCURACY_ALPHA = 0.01


@dataclass(frozen=True)
class StratumCounts(SlotCounts):
    """The slots of one gold label: ``U`` and ``N`` sizes, correct in each, and ``E[a_s]`` under H0."""

    label: Hashable
    n_U: int
    n_N: int
    a: int
    b: int

    @property
    def degenerate(self) -> bool:
        """``a_s`` cannot vary: a set is empty or all/none of the slots are correct."""
        return self.n_U == 0 or self.n_N == 0 or self.K in (0, self.M)


@dataclass(frozen=True)
class StratifiedBiasTestResult(PermutationTestResult):
    """Result of the stratified test (SPEC-bias §2.5), with the counts and methods of ``LexicalBiasTestResult``.

    ``n_U, n_N, a, b, M, K`` are summed over the strata (they equal the unstratified test's
    counts); ``statistic`` is ``A = a``; ``expected_a`` is ``E[A]`` under H0. ``pvalue`` may
    underflow to 0.0, ``log10_pvalue`` is always finite.
    """

    strata: tuple[StratumCounts, ...]
    n_overlap: int
    pvalue: float
    log10_pvalue: float
    degenerate: bool
    n_features_selected: int = 0
    n_features_seen_in_eval: int = 0

    @property
    def n_U(self) -> int:
        return sum(s.n_U for s in self.strata)

    @property
    def n_N(self) -> int:
        return sum(s.n_N for s in self.strata)

    @property
    def a(self) -> int:
        return sum(s.a for s in self.strata)

    @property
    def b(self) -> int:
        return sum(s.b for s in self.strata)

    @property
    def expected_a(self) -> float:
        """``E[A] = Σ_s n_U,s·K_s/M_s``: how many correct slots in ``U`` chance alone gives."""
        return float(sum(s.expected_a for s in self.strata))


def _check_strata(strata: Sequence[tuple[Hashable, int, int, int, int]]) -> tuple[StratumCounts, ...]:
    out = []
    for row in strata:
        if len(row) != 5:
            raise ValueError(f"a stratum is (label, n_U, n_N, a, b), got {row!r}")
        label, *counts = row
        for name, value in zip(("n_U", "n_N", "a", "b"), counts):
            if isinstance(value, bool) or int(value) != value or value < 0:
                raise ValueError(f"stratum {label!r}: {name} must be a non-negative integer, got {value!r}")
        n_u, n_n, a, b = (int(v) for v in counts)
        if a > n_u or b > n_n:
            raise ValueError(f"stratum {label!r}: a set cannot have more correct slots than members")
        out.append(StratumCounts(label, n_u, n_n, a, b))
    labels = [s.label for s in out]
    if len(set(labels)) != len(labels):
        raise ValueError(f"stratum labels must be distinct, got {labels!r}")
    return tuple(out)


def _support(s: StratumCounts) -> np.ndarray:
    """Values ``a_s`` can take: ``max(0, K - n_N) .. min(K, n_U)``."""
    return np.arange(max(0, s.K - s.n_N), min(s.K, s.n_U) + 1)


def _log_convolve(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``log(exp(first) * exp(second))`` with ``*`` the convolution, never leaving log space."""
    if len(first) < len(second):
        first, second = second, first
    out = np.full(len(first) + len(second) - 1, -np.inf)
    for shift, value in enumerate(second):  # the shorter array sets the number of numpy calls
        window = out[shift:shift + len(first)]
        np.logaddexp(window, first + value, out=window)
    return out


def stratified_null_distribution(strata: Sequence[tuple[Hashable, int, int, int, int]]) -> tuple[int, np.ndarray]:
    """Null distribution of ``A = Σ_s a_s`` as ``(smallest value, natural-log pmf array)``.

    ``strata`` holds ``(label, n_U, n_N, a, b)`` per stratum (only the margins matter here).

    Examples
    --------
    >>> low, log_pmf = stratified_null_distribution([("C", 2, 1, 2, 1), ("E", 3, 2, 2, 1), ("N", 2, 2, 0, 0)])
    >>> low, np.exp(log_pmf).round(12).tolist()
    (3, [0.3, 0.6, 0.1])
    """
    low, log_pmf = 0, np.zeros(1)
    for s in _check_strata(strata):
        x = _support(s)
        low += int(x[0])
        if len(x) > 1:  # a point mass only shifts the sum
            terms = log_comb(s.K, x) + log_comb(s.M - s.K, s.n_U - x)
            log_pmf = _log_convolve(log_pmf, terms - logsumexp(terms))
    return low, log_pmf - logsumexp(log_pmf)


def _exact_tail(strata: tuple[StratumCounts, ...], a: int) -> tuple[float, float]:
    """``(P(A >= a), log10 P(A >= a))`` from the exact integer convolution (rounded once)."""
    numerators, denominator, low = np.array([1], dtype=object), 1, 0
    for s in strata:
        x = _support(s)
        low += int(x[0])
        terms = np.array([math.comb(s.K, int(v)) * math.comb(s.M - s.K, s.n_U - int(v)) for v in x], dtype=object)
        numerators, denominator = np.convolve(numerators, terms), denominator * math.comb(s.M, s.n_U)
    tail = int(sum(numerators[max(a - low, 0):]))
    return float(Fraction(tail, denominator)), math.log10(tail) - math.log10(denominator)


def _log_space_tail(strata: tuple[StratumCounts, ...], a: int) -> tuple[float, float]:
    low, log_pmf = stratified_null_distribution([(s.label, s.n_U, s.n_N, s.a, s.b) for s in strata])
    cut = max(a - low, 0)
    log_p = float(logsumexp(log_pmf[cut:]))
    if log_p > -LN2:  # near 1: one minus the lower tail keeps ~1e-16 instead of ~1e-13
        log_p = float(np.log1p(-np.exp(logsumexp(log_pmf[:cut])))) if cut else 0.0
    log_p = min(log_p, 0.0)
    return math.exp(log_p), log_p / LN10  # exp underflows to 0.0 below ~1e-308, as SPEC §0 allows


def stratified_test_from_counts(
    strata: Sequence[tuple[Hashable, int, int, int, int]],
    *,
    n_overlap: int = 0,
    n_features_selected: int = 0,
    n_features_seen_in_eval: int = 0,
) -> StratifiedBiasTestResult:
    """Exact one-sided stratified test from per-stratum counts (SPEC-bias §2.5).

    Parameters
    ----------
    strata : sequence of ``(label, n_U, n_N, a, b)``
        One row per gold label: ``|U|`` and ``|N|`` restricted to instances of that label, and
        the correct slots in each.
    n_overlap, n_features_selected, n_features_seen_in_eval : int
        Carried into the result for reporting only.

    Returns
    -------
    StratifiedBiasTestResult
        ``p = P(A >= a)``; ``degenerate=True`` with ``pvalue = 1.0`` when every stratum is a
        point mass (or there is none).

    Examples
    --------
    SPEC R30 (§2.4's rows, strata by gold label): 7/10, where the unstratified test gives 1/2.

    >>> r = stratified_test_from_counts([("C", 2, 1, 2, 1), ("E", 3, 2, 2, 1), ("N", 2, 2, 0, 0)])
    >>> r.pvalue, r.statistic, round(r.expected_a, 6), [s.degenerate for s in r.strata]
    (0.7, 4, 3.8, [True, False, True])
    """
    checked = _check_strata(strata)
    a = sum(s.a for s in checked)
    if all(s.degenerate for s in checked):
        pvalue, log10_p, degenerate = 1.0, 0.0, True
    else:
        tail = _exact_tail if sum(s.M for s in checked) <= EXACT_MAX_POPULATION else _log_space_tail
        (pvalue, log10_p), degenerate = tail(checked, a), False
    return StratifiedBiasTestResult(checked, int(n_overlap), pvalue, log10_p, degenerate,
                                    int(n_features_selected), int(n_features_seen_in_eval))


def _strata_counts(membership: LexicalMembership) -> list[tuple[Hashable, int, int, int, int]]:
    sets, gold, correct = membership.sets, membership.gold, membership.correct
    rows = []
    for index, label in enumerate(membership.label_set):
        mine = gold == index
        usual, unusual = sets.in_usual & mine, sets.in_unusual & mine
        rows.append((label, int(usual.sum()), int(unusual.sum()), int((usual & correct).sum()),
                     int((unusual & correct).sum())))
    return rows


def stratified_test_from_membership(membership: LexicalMembership) -> StratifiedBiasTestResult:
    """The §2.5 test on a :class:`~mlcore.bias.permutation.LexicalMembership`, one stratum per label.

    The membership of an evaluation split is :func:`mlcore.bias.permutation.lexical_membership`,
    that of cross-validation predictions :func:`mlcore.bias.lexical_analysis.crossfit_membership`.

    Examples
    --------
    The membership of :func:`mlcore.bias.permutation.lexical_bias_test`'s example (gold labels
    ``C, E, E`` as indices into the label set ``E, N, C``):

    >>> from mlcore.bias.permutation import UsualUnusualSets
    >>> sets = UsualUnusualSets(np.array([True, False, True]), np.array([False, True, False]), 2)
    >>> m = LexicalMembership(sets, np.array([2, 0, 0]), np.array([True, False, True]), ("E", "N", "C"), 3)
    >>> r = stratified_test_from_membership(m)
    >>> [(t.label, t.n_U, t.n_N, t.a, t.b) for t in r.strata], r.pvalue, r.degenerate
    ([('E', 1, 1, 1, 0), ('N', 0, 0, 0, 0), ('C', 1, 0, 1, 0)], 0.5, False)
    """
    return stratified_test_from_counts(
        _strata_counts(membership), n_overlap=membership.sets.n_overlap,
        n_features_selected=membership.n_features_selected, n_features_seen_in_eval=membership.sets.n_features_seen,
    )


@dataclass(frozen=True)
class GoldAccuracyResult:
    """Whether accuracy depends on the gold label: Pearson chi-squared of correct × gold (no Yates).

    ``test.table`` has one ``(correct, wrong)`` row per entry of ``labels`` (labels with instances).
    """

    labels: tuple[Hashable, ...]
    test: IndependenceTestResult

    @property
    def pvalue(self) -> float:
        return self.test.pvalue

    @property
    def differs(self) -> bool:
        """``p < 0.01``: the unstratified §2.3 test is then miscalibrated (SPEC §2.5)."""
        return not self.test.degenerate and self.test.pvalue < GOLD_ACCURACY_ALPHA


def accuracy_by_gold(membership: LexicalMembership) -> GoldAccuracyResult:
    """Chi-squared test of correct × gold label over every evaluation instance (SPEC §2.5).

    Examples
    --------
    >>> from mlcore.bias.permutation import UsualUnusualSets
    >>> none = np.zeros(200, bool)
    >>> gold = np.repeat([0, 1], 100)
    >>> correct = np.r_[np.arange(100) < 75, np.arange(100) < 25]  # 75% vs 25%
    >>> r = accuracy_by_gold(LexicalMembership(UsualUnusualSets(none, none, 0), gold, correct, ("incorrect", "correct"), 0))
    >>> r.labels, r.test.table, round(r.test.statistic, 6), r.differs
    (('incorrect', 'correct'), ((75, 25), (25, 75)), 50.0, True)
    """
    gold, correct = membership.gold, membership.correct
    # One label (or none) leaves nothing to compare: the helper returns a degenerate p = 1.
    present = [i for i in range(len(membership.label_set)) if (gold == i).any()] or [0]
    totals = [int((gold == i).sum()) for i in present]
    hits = [int((correct & (gold == i)).sum()) for i in present]
    return GoldAccuracyResult(tuple(membership.label_set[i] for i in present), recall_independence_test(hits, totals))
