"""Usual/unusual label sets and the exact permutation test of [SDS23] §3 (SPEC-bias §2).

Given the selected features ``S`` and their usual labels ``Λ(w)`` (argmax of the
training counts, ties all usual), every evaluation instance that contains a
selected feature joins ``U`` (its gold label is usual for one of its features)
and/or ``N`` (unusual for one of them). Under H0 the ``K`` correct predictions
fall on a uniformly random ``K``-subset of the ``M = |U| + |N|`` slots, so the
number ``a`` of correct slots in ``U`` is hypergeometric and the one-sided
p-value is its upper tail ``P(X >= a)``.

Everything is vectorised over instances; the only loop is over the tail's terms.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from mlcore.bias.lexical import LexicalFeatures, encode_labels
from mlcore.bias.lexical_association import FeatureSelection, LexicalZScores
from mlcore.stats.hypergeom import format_pvalue, hypergeom_sf

__all__ = [
    "LexicalBiasTestResult",
    "LexicalMembership",
    "PermutationTestResult",
    "SlotCounts",
    "UsualUnusualSets",
    "lexical_bias_test",
    "lexical_membership",
    "permutation_test_from_counts",
    "permutation_test_from_membership",
    "usual_labels",
    "usual_unusual_sets",
]

def usual_labels(counts: np.ndarray) -> np.ndarray:
    """``Λ(w)`` as a boolean ``(V, |Y|)`` mask: every label with the maximal count (SPEC §2.1).

    Examples
    --------
    >>> usual_labels(np.array([[0, 0, 2], [0, 1, 1]])).tolist()
    [[False, False, True], [False, True, True]]
    """
    counts = np.asarray(counts)
    if counts.ndim != 2:
        raise ValueError("counts must be a (V, |Y|) table")
    usual: np.ndarray = (counts == counts.max(axis=1, keepdims=True)) & (counts > 0)
    return usual


@dataclass(frozen=True)
class UsualUnusualSets:
    """Membership of every evaluation instance in ``U`` and ``N`` (both may hold)."""

    in_usual: np.ndarray  # (n_eval,) bool
    in_unusual: np.ndarray  # (n_eval,) bool
    n_features_seen: int  # selected features present in the evaluation split

    @property
    def n_U(self) -> int:
        """``|U|``."""
        return int(self.in_usual.sum())

    @property
    def n_N(self) -> int:
        """``|N|``."""
        return int(self.in_unusual.sum())

    @property
    def n_overlap(self) -> int:
        """``|U ∩ N|``."""
        return int((self.in_usual & self.in_unusual).sum())


def usual_unusual_sets(eval_matrix: sp.spmatrix, gold: np.ndarray, usual: np.ndarray) -> UsualUnusualSets:
    """``U`` and ``N`` on an evaluation split (SPEC-bias §2.2).

    Parameters
    ----------
    eval_matrix : sparse (n_eval, |S|)
        Presence of each selected feature in each evaluation instance (non-zero = present).
    gold : ndarray of int, shape (n_eval,)
        Gold label indices into the label set.
    usual : ndarray of bool, shape (|S|, |Y|)
        ``Λ(w)`` of every selected feature, from :func:`usual_labels`.

    Returns
    -------
    UsualUnusualSets

    Examples
    --------
    >>> present = sp.csr_matrix(np.array([[1, 1], [1, 0], [0, 0]]))
    >>> sets = usual_unusual_sets(present, np.array([0, 1, 0]), np.array([[True, False], [False, True]]))
    >>> sets.in_usual.tolist(), sets.in_unusual.tolist()
    ([True, False, False], [True, True, False])
    """
    present = sp.csr_matrix(eval_matrix, dtype=np.int64)
    present.data = (present.data != 0).astype(np.int64)
    present.eliminate_zeros()
    gold = np.asarray(gold, dtype=np.int64)
    if present.shape[0] != len(gold) or present.shape[1] != usual.shape[0]:
        raise ValueError(f"shapes disagree: matrix {present.shape}, gold {gold.shape}, usual {usual.shape}")
    # per_label[i, y] = how many of instance i's features have y among their usual labels
    per_label = np.asarray(present @ usual.astype(np.int64))
    n_usual_features = per_label[np.arange(len(gold)), gold] if len(gold) else np.zeros(0, np.int64)
    n_features = np.diff(present.indptr)
    return UsualUnusualSets(
        in_usual=n_usual_features > 0,
        in_unusual=(n_features - n_usual_features) > 0,
        n_features_seen=int((np.diff(present.tocsc().indptr) > 0).sum()),
    )


class SlotCounts:
    """``M``, ``K``, the accuracies and ``E[a]`` from ``n_U, n_N, a, b`` (of one stratum or of a whole test).

    Names are the SPEC's, so reports match it. The base of both tests' results and of one
    stratum of the stratified test (:mod:`mlcore.bias.stratified`), which provide the four counts.
    """

    if TYPE_CHECKING:  # fields of a result or a stratum, sums over the strata in a stratified result
        @property
        def n_U(self) -> int: ...
        @property
        def n_N(self) -> int: ...
        @property
        def a(self) -> int: ...
        @property
        def b(self) -> int: ...

    @property
    def M(self) -> int:
        """Slots, ``n_U + n_N``."""
        return self.n_U + self.n_N

    @property
    def K(self) -> int:
        """Correct slots, ``a + b``."""
        return self.a + self.b

    @property
    def acc_U(self) -> float:
        """``a / n_U`` (``nan`` when ``U`` has no slot)."""
        return self.a / self.n_U if self.n_U else math.nan

    @property
    def acc_N(self) -> float:
        """``b / n_N`` (``nan`` when ``N`` has no slot)."""
        return self.b / self.n_N if self.n_N else math.nan

    @property
    def expected_a(self) -> float:
        """``E[a] = n_U·K/M`` under H0 (0 without slots)."""
        return self.n_U * self.K / self.M if self.M else 0.0


class PermutationTestResult(SlotCounts):
    """What both usual/unusual tests report besides the counts: the statistic and the p-value's display."""

    if TYPE_CHECKING:
        @property
        def log10_pvalue(self) -> float: ...

    @property
    def statistic(self) -> int:
        """The test statistic ``a``: correct slots in ``U`` (of all strata in the stratified test)."""
        return self.a

    def pvalue_display(self) -> str:
        """The p-value printed by the SPEC §0 rule, e.g. ``3.8e-2475``."""
        return format_pvalue(self.log10_pvalue)


@dataclass(frozen=True)
class LexicalBiasTestResult(PermutationTestResult):
    """Result of the usual/unusual permutation test (SPEC-bias §2.3).

    ``statistic`` is ``a``, the number of correct predictions in ``U``; ``pvalue`` is
    ``P(X >= a)`` and may underflow to 0.0, ``log10_pvalue`` is always finite.
    """

    n_U: int
    n_N: int
    n_overlap: int
    a: int
    b: int
    pvalue: float
    log10_pvalue: float
    degenerate: bool
    n_features_selected: int = 0
    n_features_seen_in_eval: int = 0


def permutation_test_from_counts(
    *,
    n_usual: int,
    correct_usual: int,
    n_unusual: int,
    correct_unusual: int,
    n_overlap: int = 0,
    n_features_selected: int = 0,
    n_features_seen_in_eval: int = 0,
) -> LexicalBiasTestResult:
    """Exact one-sided p-value from the four counts ``n_U, a, n_N, b`` (SPEC-bias §2.3).

    Parameters
    ----------
    n_usual, correct_usual : int
        ``|U|`` and ``a``, the number of correct predictions in ``U``.
    n_unusual, correct_unusual : int
        ``|N|`` and ``b``.
    n_overlap, n_features_selected, n_features_seen_in_eval : int
        Carried into the result for reporting only.

    Returns
    -------
    LexicalBiasTestResult
        ``degenerate=True`` with ``pvalue = 1.0`` when a set is empty or ``K`` is 0 or ``M``.

    Examples
    --------
    >>> r = permutation_test_from_counts(n_usual=10, correct_usual=8, n_unusual=6, correct_unusual=2)
    >>> r.pvalue == 92 / 1001, round(r.log10_pvalue, 6)
    (True, -1.036646)
    >>> r = permutation_test_from_counts(n_usual=20_000, correct_usual=19_000, n_unusual=20_000, correct_unusual=10_000)
    >>> r.pvalue, r.pvalue_display()
    (0.0, '3.8e-2475')
    """
    for name, value in [("n_usual", n_usual), ("correct_usual", correct_usual), ("n_unusual", n_unusual),
                        ("correct_unusual", correct_unusual), ("n_overlap", n_overlap)]:
        if int(value) != value or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    if correct_usual > n_usual or correct_unusual > n_unusual:
        raise ValueError("a set cannot have more correct predictions than members")
    n_u, a, n_n, b = int(n_usual), int(correct_usual), int(n_unusual), int(correct_unusual)
    population, correct = n_u + n_n, a + b
    degenerate = n_u == 0 or n_n == 0 or correct == 0 or correct == population
    if degenerate:  # X is constant: no evidence either way
        pvalue, log10_p = 1.0, 0.0
    else:
        pvalue, log10_p = hypergeom_sf(a, population, correct, n_u)
    return LexicalBiasTestResult(
        n_U=n_u,
        n_N=n_n,
        n_overlap=int(n_overlap),
        a=a,
        b=b,
        pvalue=pvalue,
        log10_pvalue=log10_p,
        degenerate=degenerate,
        n_features_selected=int(n_features_selected),
        n_features_seen_in_eval=int(n_features_seen_in_eval),
    )


@dataclass(frozen=True)
class LexicalMembership:
    """Everything both permutation tests need about one model on an evaluation split.

    ``sets`` says which instances are in ``U`` and ``N``; ``gold`` holds label indices into
    ``label_set`` (the strata of the §2.5 test) and ``correct`` whether the prediction was right.
    """

    sets: UsualUnusualSets
    gold: np.ndarray  # (n_eval,) int
    correct: np.ndarray  # (n_eval,) bool
    label_set: tuple[Hashable, ...]
    n_features_selected: int


def lexical_membership(
    eval_features: LexicalFeatures,
    gold: Sequence[Hashable],
    pred: Sequence[Hashable],
    *,
    zscores: LexicalZScores,
    selection: FeatureSelection,
) -> LexicalMembership:
    """``U``/``N`` membership and correctness of every evaluation instance (SPEC-bias §2.2).

    Arguments as :func:`lexical_bias_test`, which is this followed by
    :func:`permutation_test_from_membership` (its example shows a membership too); the
    stratified test is :func:`mlcore.bias.stratified.stratified_test_from_membership` of it.
    """
    label_set = zscores.label_set
    gold_idx = encode_labels(gold, label_set)
    pred_idx = encode_labels(pred, label_set, unknown=-1)
    if not (len(gold_idx) == len(pred_idx) == eval_features.n_instances):
        raise ValueError(
            f"{eval_features.n_instances} instances, {len(gold_idx)} gold labels, {len(pred_idx)} predictions"
        )
    selected = selection.features
    usual = usual_labels(zscores.counts[[zscores.row[w] for w in selected]].reshape(len(selected), len(label_set)))
    # Re-index evaluation columns to positions in S; selected features the evaluation
    # vocabulary lacks simply have no entries.
    to_selected = np.full(len(eval_features.vocabulary), -1, dtype=np.int64)
    for j, feature in enumerate(selected):
        if feature in eval_features.column:
            to_selected[eval_features.column[feature]] = j
    cells = eval_features.matrix.tocoo()
    keep = (to_selected[cells.col] >= 0) & (cells.data != 0)
    present = sp.csr_matrix(
        (np.ones(int(keep.sum()), np.int64), (cells.row[keep], to_selected[cells.col[keep]])),
        shape=(len(gold_idx), len(selected)),
    )
    sets = usual_unusual_sets(present, gold_idx, usual)
    return LexicalMembership(sets, gold_idx, pred_idx == gold_idx, tuple(label_set), len(selected))


def permutation_test_from_membership(membership: LexicalMembership) -> LexicalBiasTestResult:
    """The unstratified test of SPEC §2.3 on a :class:`LexicalMembership`."""
    sets, correct = membership.sets, membership.correct
    return permutation_test_from_counts(
        n_usual=sets.n_U,
        correct_usual=int((correct & sets.in_usual).sum()),
        n_unusual=sets.n_N,
        correct_unusual=int((correct & sets.in_unusual).sum()),
        n_overlap=sets.n_overlap,
        n_features_selected=membership.n_features_selected,
        n_features_seen_in_eval=sets.n_features_seen,
    )


def lexical_bias_test(
    eval_features: LexicalFeatures,
    gold: Sequence[Hashable],
    pred: Sequence[Hashable],
    *,
    zscores: LexicalZScores,
    selection: FeatureSelection,
) -> LexicalBiasTestResult:
    """Permutation test for lexical bias of one model on an evaluation split ([SDS23] §3).

    Parameters
    ----------
    eval_features : LexicalFeatures
        Features of the evaluation split, built like the training features (e.g. with
        ``vocabulary=selection.features``); selected features it lacks count as absent.
    gold, pred : sequence
        Gold labels (must be in the label set) and predictions (anything outside the
        label set is wrong) of every evaluation instance.
    zscores : LexicalZScores
        Training statistics; their counts define the usual labels ``Λ(w)``.
    selection : FeatureSelection
        The selected features ``S``.

    Returns
    -------
    LexicalBiasTestResult

    See Also
    --------
    lexical_membership : the ``U``/``N`` membership this tests, for both tests.
    mlcore.bias.stratified.stratified_test_from_membership : the same sets, compared within each gold label.

    Examples
    --------
    >>> from mlcore.bias.lexical import lexical_features
    >>> from mlcore.bias.lexical_association import lexical_zscores, select_top_features
    >>> train = lexical_features(["Nobody sleeps.", "Nobody runs.", "A dog runs.", "A cat sleeps."])
    >>> z = lexical_zscores(train, ["C", "C", "E", "N"], label_set=("E", "N", "C"))
    >>> s = select_top_features(z, k=1)
    >>> test = lexical_features(["Nobody is here.", "Nobody sings.", "The dog eats."], vocabulary=s.features)
    >>> r = lexical_bias_test(test, ["C", "E", "E"], ["C", "C", "E"], zscores=z, selection=s)
    >>> (r.n_U, r.n_N, r.a, r.b, r.pvalue)
    (2, 1, 2, 0, 0.3333333333333333)
    >>> m = lexical_membership(test, ["C", "E", "E"], ["C", "C", "E"], zscores=z, selection=s)
    >>> m.sets.in_usual.tolist(), m.sets.in_unusual.tolist(), m.correct.tolist()
    ([True, False, True], [False, True, False], [True, False, True])
    """
    membership = lexical_membership(eval_features, gold, pred, zscores=zscores, selection=selection)
    return permutation_test_from_membership(membership)
