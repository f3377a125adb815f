"""Whole lexical-artifact analyses built from the §1-§3 pieces (SPEC-bias §1-3).

* :func:`lexical_bias_analysis` - train split -> z-scores and top-k features, test split and
  one model's predictions -> usual/unusual sets and the exact permutation test
  (``manage.py lexical_bias``).
* :func:`crossfit_membership` - ``U``/``N`` membership of cross-validation predictions, for
  either test: each fold's features and usual labels come from the other folds, the data its
  model trained on, so no instance is judged with statistics it contributed to.
* :func:`reweight_analysis` - the §3 reweighting with Err/Err_marg, ESS, per-feature label
  balance of the selected features (the paper's Figure 2) and the bigram check
  (``manage.py reweight``).

Every result has ``to_dict()`` giving plain JSON (no numpy types, ``None`` for NaN).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from mlcore.bias.label_balance import BigramCheckResult, LabelBalanceResult
from mlcore.bias.lexical import LexicalFeatures, check_label_set, encode_labels, lexical_features
from mlcore.bias.lexical_association import FeatureSelection, LexicalZScores, lexical_zscores, select_top_features
from mlcore.bias.permutation import (
    LexicalBiasTestResult,
    LexicalMembership,
    UsualUnusualSets,
    lexical_membership,
    permutation_test_from_membership,
    usual_labels,
    usual_unusual_sets,
)
from mlcore.bias.reweighting import ReweightResult, bigram_balance_check, label_balance, reweight
from mlcore.bias.stopwords import STOP_WORDS
from mlcore.bias.stratified import (
    GOLD_ACCURACY_ALPHA,
    GoldAccuracyResult,
    StratifiedBiasTestResult,
    accuracy_by_gold,
    stratified_test_from_membership,
)

__all__ = [
    "LexicalBiasAnalysis",
    "ReweightAnalysis",
    "TopFeature",
    "crossfit_membership",
    "gold_accuracy_dict",
    "json_float",
    "lexical_bias_analysis",
    "lexical_tests_dict",
    "reweight_analysis",
    "permutation_test_dict",
    "stratified_test_dict",
    "top_features",
]

P0 = Literal["uniform", "prior"]
Stratify = Literal["none", "gold"]


def json_float(value: float | np.floating | None, digits: int | None = None) -> float | None:
    """A float for JSON: ``None`` for NaN/inf, optionally rounded."""
    if value is None:
        return None
    value = float(value)
    if not math.isfinite(value):
        return None
    return round(value, digits) if digits is not None else value


def _feature_name(feature: str | tuple[str, str]) -> str:
    return feature if isinstance(feature, str) else " ".join(feature)


@dataclass(frozen=True)
class TopFeature:
    """One selected feature of one label: its z-score, count with the label and total count."""

    feature: str
    z: float
    count: int  # c_{w,y}
    n: int  # n_w

    def to_dict(self) -> dict[str, Any]:
        return {"feature": self.feature, "z": json_float(self.z, 6), "count": self.count, "n": self.n}


def top_features(zscores: LexicalZScores, selection: FeatureSelection) -> dict[Hashable, tuple[TopFeature, ...]]:
    """The top-k list of every label, best first, with the numbers a reader needs."""
    out = {}
    for j, label in enumerate(zscores.label_set):
        rows = [zscores.row[w] for w in selection.per_label[label]]
        out[label] = tuple(
            TopFeature(_feature_name(zscores.vocabulary[r]), float(zscores.statistic[r, j]),
                       int(zscores.counts[r, j]), int(zscores.n[r]))
            for r in rows
        )
    return out


def permutation_test_dict(result: LexicalBiasTestResult) -> dict[str, Any]:
    """The permutation test as JSON, with the SPEC §0 display string of the p-value."""
    return {
        "n_U": result.n_U, "n_N": result.n_N, "n_overlap": result.n_overlap, "a": result.a, "b": result.b,
        "acc_U": json_float(result.acc_U), "acc_N": json_float(result.acc_N), "M": result.M, "K": result.K,
        "pvalue": json_float(result.pvalue), "log10_pvalue": json_float(result.log10_pvalue),
        "pvalue_display": result.pvalue_display(), "degenerate": result.degenerate,
        "n_features_selected": result.n_features_selected, "n_features_seen_in_eval": result.n_features_seen_in_eval,
    }


def stratified_test_dict(result: StratifiedBiasTestResult) -> dict[str, Any]:
    """The stratified test as JSON: its p-value, ``E[A]`` and one row per gold label."""
    return {
        "pvalue": json_float(result.pvalue), "log10_pvalue": json_float(result.log10_pvalue),
        "pvalue_display": result.pvalue_display(), "degenerate": result.degenerate,
        "a": result.a, "expected_a": json_float(result.expected_a, 6),
        "strata": [
            {"label": str(s.label), "n_U": s.n_U, "n_N": s.n_N, "a": s.a, "b": s.b, "acc_U": json_float(s.acc_U),
             "acc_N": json_float(s.acc_N), "M": s.M, "K": s.K, "expected_a": json_float(s.expected_a, 6),
             "degenerate": s.degenerate}
            for s in result.strata
        ],
    }


def gold_accuracy_dict(result: GoldAccuracyResult) -> dict[str, Any]:
    """The chi-squared test of correct × gold label as JSON, with each label's accuracy."""
    test = result.test
    return {
        "test": "Pearson chi-squared of correct x gold label, no continuity correction",
        "statistic": json_float(test.statistic), "dof": test.dof, "pvalue": json_float(test.pvalue),
        "log10_pvalue": json_float(test.log10_pvalue), "degenerate": test.degenerate,
        "alpha": GOLD_ACCURACY_ALPHA, "differs": result.differs,
        "per_label": [{"label": str(label), "instances": c + w, "correct": c,
                       "accuracy": json_float(c / (c + w)) if c + w else None}
                      for label, (c, w) in zip(result.labels, test.table)],
    }


def lexical_tests_dict(unstratified: LexicalBiasTestResult, stratified: StratifiedBiasTestResult, *,
                       stratify: Stratify) -> dict[str, Any]:
    """Both tests as JSON: the top-level ``pvalue``/``log10_pvalue``/``degenerate`` are those of the
    test ``stratify`` chose; the counts are the same for both; ``strata`` always per gold label."""
    plain, strat = permutation_test_dict(unstratified), stratified_test_dict(stratified)
    chosen = strat if stratify == "gold" else plain
    keys = ("pvalue", "log10_pvalue", "pvalue_display", "degenerate")
    return {
        **plain, **{key: chosen[key] for key in keys}, "stratified": stratify == "gold",
        "expected_a": strat["expected_a"] if stratify == "gold" else json_float(unstratified.expected_a, 6),
        "strata": strat["strata"],
        "unstratified_test": {**{key: plain[key] for key in keys}, "expected_a": json_float(unstratified.expected_a, 6)},
        "stratified_test": {**{key: strat[key] for key in keys}, "expected_a": strat["expected_a"]},
    }


@dataclass(frozen=True)
class LexicalBiasAnalysis:
    """Top features of a training split and both permutation tests of one model on a test split.

    ``test`` is the unstratified §2.3 test, ``stratified`` the §2.5 one; ``stratify`` says which
    one the report leads with; ``gold_accuracy`` tests whether accuracy depends on the gold label.
    """

    label_set: tuple[Hashable, ...]
    k: int
    p0: str
    n_train: int
    n_test: int
    zscores: LexicalZScores
    selection: FeatureSelection
    test: LexicalBiasTestResult
    stratified: StratifiedBiasTestResult
    gold_accuracy: GoldAccuracyResult
    stratify: Stratify = "none"

    def to_dict(self) -> dict[str, Any]:
        tops = top_features(self.zscores, self.selection)
        return {
            "label_set": list(self.label_set), "k": self.k, "p0": self.p0,
            "n_train": self.n_train, "n_test": self.n_test, "vocabulary_size": len(self.zscores.vocabulary),
            "top_features": {str(label): [f.to_dict() for f in tops[label]] for label in self.label_set},
            **lexical_tests_dict(self.test, self.stratified, stratify=self.stratify),
            "accuracy_by_gold": gold_accuracy_dict(self.gold_accuracy),
        }


def lexical_bias_analysis(
    train_texts: Sequence[str],
    train_labels: Sequence[Hashable],
    test_texts: Sequence[str],
    test_gold: Sequence[Hashable],
    predictions: Sequence[Hashable],
    *,
    label_set: Sequence[Hashable],
    train_second: Sequence[str] | None = None,
    test_second: Sequence[str] | None = None,
    k: int = 50,
    p0: P0 = "uniform",
    stop_words: Collection[str] = STOP_WORDS,
    stratify: Stratify = "none",
) -> LexicalBiasAnalysis:
    """SPEC-bias §1-§2 end to end: features, z-scores, top-k, U/N sets, exact p-values.

    Both the unstratified (§2.3) and the stratified (§2.5) test are computed; ``stratify``
    (``"none"``, the paper's test, or ``"gold"``) picks the one ``to_dict`` leads with.

    Examples
    --------
    >>> r = lexical_bias_analysis(["Nobody sleeps.", "Nobody runs.", "A dog runs.", "A cat sleeps."],
    ...                           ["C", "C", "E", "N"], ["Nobody is here.", "Nobody sings.", "The dog eats."],
    ...                           ["C", "E", "E"], ["C", "C", "E"], label_set=("E", "N", "C"), k=1)
    >>> d = r.to_dict()
    >>> d["top_features"]["C"], (d["n_U"], d["n_N"], d["a"], d["b"]), d["stratified"]
    ([{'feature': 'nobody', 'z': 2.0, 'count': 2, 'n': 2}], (2, 1, 2, 0), False)
    """
    label_set = check_label_set(label_set)
    if stratify not in ("none", "gold"):
        raise ValueError(f"stratify must be 'none' or 'gold', got {stratify!r}")
    if len(predictions) != len(test_texts):
        raise ValueError(f"{len(predictions)} predictions for {len(test_texts)} test instances")
    train = lexical_features(train_texts, train_second)
    zscores = lexical_zscores(train, train_labels, label_set=label_set, p0=p0)
    selection = select_top_features(zscores, k=k, stop_words=stop_words)
    test = lexical_features(test_texts, test_second, vocabulary=selection.features)
    membership = lexical_membership(test, test_gold, predictions, zscores=zscores, selection=selection)
    return LexicalBiasAnalysis(label_set, int(k), p0, len(train_labels), len(test_gold), zscores, selection,
                               permutation_test_from_membership(membership), stratified_test_from_membership(membership),
                               accuracy_by_gold(membership), stratify)


def _rows(features: LexicalFeatures, rows: np.ndarray) -> LexicalFeatures:
    return LexicalFeatures(matrix=features.matrix[rows], vocabulary=features.vocabulary,
                           ngram=features.ngram, count=features.count)


def crossfit_membership(
    features: LexicalFeatures,
    gold: Sequence[Hashable],
    predictions: Sequence[Hashable],
    folds: Sequence[int],
    *,
    label_set: Sequence[Hashable],
    k: int = 50,
    p0: P0 = "uniform",
    stop_words: Collection[str] = STOP_WORDS,
) -> LexicalMembership:
    """``U``/``N`` membership of out-of-fold predictions of one cross-validation trial.

    For each fold ``f`` the z-scores, the top-k set ``S_f`` and the usual labels ``Λ_f`` are
    computed on the instances of the other folds; ``U``/``N`` membership of fold ``f``'s
    instances uses ``S_f`` and ``Λ_f``. Memberships of all folds are pooled.
    ``n_features_selected`` is the size of the union of the ``S_f``. The §2.3 test of it is
    :func:`~mlcore.bias.permutation.permutation_test_from_membership`, the §2.5 one
    :func:`~mlcore.bias.stratified.stratified_test_from_membership`.

    Examples
    --------
    >>> f = lexical_features(["nobody x", "nobody y", "a dog", "nobody z", "a dog", "the dog"])
    >>> m = crossfit_membership(f, list("CCECEE"), list("CCECEC"), [0, 1, 0, 1, 0, 1], label_set=("C", "E"), k=1)
    >>> m.sets.in_usual.tolist(), m.correct.tolist()
    ([True, True, True, True, True, True], [True, True, True, True, True, False])
    >>> r = permutation_test_from_membership(m)
    >>> (r.n_U, r.n_N, r.a, r.b)
    (6, 0, 5, 0)
    """
    label_set = check_label_set(label_set)
    gold_idx = encode_labels(gold, label_set)
    pred_idx = encode_labels(predictions, label_set, unknown=-1)
    fold_of = np.asarray(folds, dtype=np.int64)
    n = features.n_instances
    if not (len(gold_idx) == len(pred_idx) == len(fold_of) == n):
        raise ValueError(f"{n} instances, {len(gold_idx)} gold labels, {len(pred_idx)} predictions, {len(fold_of)} folds")
    in_usual, in_unusual = np.zeros(n, bool), np.zeros(n, bool)
    selected: set[Any] = set()
    seen: set[Any] = set()
    for fold in np.unique(fold_of):
        train, held_out = np.flatnonzero(fold_of != fold), np.flatnonzero(fold_of == fold)
        zscores = lexical_zscores(_rows(features, train), [label_set[i] for i in gold_idx[train]],
                                  label_set=label_set, p0=p0)
        selection = select_top_features(zscores, k=k, stop_words=stop_words)
        columns = np.array([features.column[w] for w in selection.features], dtype=np.int64)
        usual = usual_labels(zscores.counts[columns].reshape(len(columns), len(label_set)))
        present = features.matrix[held_out][:, columns]
        sets = usual_unusual_sets(present, gold_idx[held_out], usual)
        in_usual[held_out], in_unusual[held_out] = sets.in_usual, sets.in_unusual
        selected.update(selection.features)
        seen.update(np.asarray(selection.features, dtype=object)[np.diff(present.tocsc().indptr) > 0].tolist())
    pooled = UsualUnusualSets(in_usual, in_unusual, len(seen))
    return LexicalMembership(pooled, gold_idx, pred_idx == gold_idx, tuple(label_set), len(selected))


@dataclass(frozen=True)
class ReweightAnalysis:
    """The §3 reweighting with its diagnostics, label balance of ``S`` and the bigram check."""

    result: ReweightResult
    balance: LabelBalanceResult | None  # of the selected features, when given
    bigrams: BigramCheckResult
    min_count: int

    def to_dict(self, *, include_weights: bool = False) -> dict[str, Any]:
        r, b = self.result, self.bigrams
        out = {
            "min_count": self.min_count,
            "features_used": len(r.features_used),
            "features_dropped": [_feature_name(w) for w in r.features_dropped],
            "err_initial": json_float(r.err_initial), "err_final": json_float(r.err_final),
            "err_marg_initial": json_float(r.err_marg_initial), "err_marg_final": json_float(r.err_marg_final),
            "loss_initial": json_float(r.loss_initial), "loss_final": json_float(r.loss_final),
            "n_steps": r.n_steps, "converged": r.converged, "method": r.method, "objective": r.objective,
            "ess": json_float(r.ess), "n_instances": len(r.q), "max_weight": json_float(r.max_weight),
            "bigram_lb_uniform": json_float(b.mean_lb_uniform), "bigram_lb_q": json_float(b.mean_lb_q),
            "bigram_worsened": b.worsened, "bigram_sample_size": len(b.sample), "bigram_eligible": b.n_eligible,
            "bigram_seed": b.seed,
        }
        if self.balance is not None:
            out["label_balance"] = [
                {"feature": _feature_name(w), "lb_uniform": json_float(u, 6), "lb_q": json_float(q, 6)}
                for w, u, q in zip(self.balance.features, self.balance.lb_uniform, self.balance.lb_q)
            ]
        if include_weights:
            out["weights"] = [float(w) for w in r.weights]
        return out


def reweight_analysis(
    texts: Sequence[str],
    labels: Sequence[Hashable],
    *,
    label_set: Sequence[Hashable],
    second: Sequence[str] | None = None,
    min_count: int = 100,
    max_steps: int = 3000,
    balance_features: Sequence[str] | None = None,
    bigram_m: int = 200,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> ReweightAnalysis:
    """Reweight a training split (§3.3) and report Err, Err_marg, ESS, label balance and bigrams.

    ``balance_features`` (e.g. the selected ``S``) get ``LB_uniform``/``LB_q`` each, the data
    of the paper's Figure 2. ``progress(step, max_steps)`` is passed to the optimiser.

    Examples
    --------
    >>> r = reweight_analysis(["a b", "a", "a c", "b c", "c", "b"], list("AABBAB"), label_set="AB", min_count=1)
    >>> d = r.to_dict()
    >>> d["features_used"], round(d["err_initial"], 6), d["err_final"] < 1e-6
    (3, 0.166667, True)
    """
    label_set = check_label_set(label_set)
    unigrams = lexical_features(texts, second)
    result = reweight(unigrams, labels, label_set=label_set, min_count=min_count, max_steps=max_steps,
                      progress=progress)
    balance = None
    if balance_features is not None:
        balance = label_balance(unigrams, labels, result.q, label_set=label_set, subset=balance_features)
    bigrams = bigram_balance_check(lexical_features(texts, second, ngram=2), labels, result.q,
                                   label_set=label_set, m=bigram_m, rng=seed)
    return ReweightAnalysis(result, balance, bigrams, int(min_count))
