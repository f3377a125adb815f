"""Tests for mlcore.models.crossval: SPEC-bias §5 and reference values R21–R22."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from mlcore.models.crossval import (
    FoldAssignment,
    answer_only_summary,
    author_artifact_gap,
    author_grouped_folds,
    cv_summary,
    fooled_cv,
    question_rewards,
    stratified_folds,
    stratum_code,
)
from mlcore.tests.shared_data import TOL, shared_data


def _reference_folds(ids: list, codes: list[str], k: int, seed: int) -> dict:
    """SPEC §5.2 written out literally and independently (list shuffle instead of permutation)."""
    rng = np.random.default_rng(seed)
    strata = ["".join(sorted(c.lower())) or "o" for c in codes]
    concatenated = []
    for s in sorted(set(strata)):
        items = sorted(i for i, t in zip(ids, strata) if t == s)
        rng.shuffle(items)
        concatenated += items
    return {item: p % k for p, item in enumerate(concatenated)}


def _random_case(rng: np.random.Generator) -> tuple[list[int], list[str], int]:
    n = int(rng.integers(5, 120))
    k = int(rng.integers(2, min(8, n) + 1))
    letters = ["i", "r", "p", "n", "q", "o", "", "ip"]
    codes = [str(c) for c in rng.choice(letters, size=n, p=[.1, .05, .05, .1, .05, .55, .05, .05])]
    ids = [int(x) for x in rng.choice(10_000, size=n, replace=False)]
    return ids, codes, k


# --------------------------------------------------------------------------- R21
@pytest.mark.parametrize("seed", range(10))
def test_r21_toy_strata(seed: int) -> None:
    fa = stratified_folds(range(10), ["o"] * 6 + ["i"] * 2 + ["n"] * 2, k=2, rng=seed)
    assert fa.stratum_counts() == {"i": (1, 1), "n": (1, 1), "o": (3, 3)}
    assert fa.fold_sizes() == (5, 5) and fa.seed == seed and fa.scheme == "stratified"


# --------------------------------------------------------------------------- properties
def test_fold_properties_on_random_inputs() -> None:
    rng = np.random.default_rng(2024)
    for case in range(60):
        ids, codes, k = _random_case(rng)
        fa = stratified_folds(ids, codes, k=k, rng=case)
        sizes = fa.fold_sizes()
        assert max(sizes) - min(sizes) <= 1 and sum(sizes) == len(ids)
        for counts in fa.stratum_counts().values():
            assert max(counts) - min(counts) <= 1
        held_out = [i for f in range(k) for i in fa.test_ids(f)]
        assert sorted(held_out) == sorted(ids)  # every item in exactly one fold
        for f in range(k):
            assert set(fa.train_ids(f)) == set(ids) - set(fa.test_ids(f))
        assert dict(zip(fa.ids, fa.folds)) == _reference_folds(ids, codes, k, case)


def test_determinism_and_input_order_independence() -> None:
    ids, codes, k = _random_case(np.random.default_rng(5))
    a = stratified_folds(ids, codes, k=k, rng=11)
    assert a == stratified_folds(ids, codes, k=k, rng=11)
    assert a.folds == stratified_folds(ids, codes, k=k, rng=np.random.default_rng(11)).folds
    perm = np.random.default_rng(0).permutation(len(ids))
    b = stratified_folds([ids[i] for i in perm], [codes[i] for i in perm], k=k, rng=11)
    assert dict(zip(b.ids, b.folds)) == dict(zip(a.ids, a.folds))
    assert a.folds != stratified_folds(ids, codes, k=k, rng=12).folds


def test_string_ids_sort_by_code_point() -> None:
    fa = stratified_folds(["b", "a", "c"], ["o", "o", "o"], k=3, rng=0)
    assert dict(zip(fa.ids, fa.folds)) == _reference_folds(["b", "a", "c"], ["o"] * 3, 3, 0)


def test_codah_full_data_is_balanced() -> None:
    path = shared_data("codah", "full_data.tsv")
    codes = [line.split("\t")[0] for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(codes) == 2776
    fa = stratified_folds(range(1, len(codes) + 1), codes, k=5, rng=0)
    assert sorted(fa.fold_sizes()) == [555, 555, 555, 555, 556]
    counts = fa.stratum_counts()
    assert counts["n"] == (23, 23, 23, 23, 23)  # the released cv_split has 33, 18, 28, 14, 22
    assert sum(counts["o"]) == 2090  # 2080 "o" + 10 empty codes
    assert all(max(c) - min(c) <= 1 for c in counts.values())


def test_stratum_code_and_argument_validation() -> None:
    assert [stratum_code(c) for c in ["", " ", "O", "pi", "n"]] == ["o", "o", "o", "ip", "n"]
    for bad in ("x", "ii"):
        with pytest.raises(ValueError, match="invalid category code"):
            stratum_code(bad)
    with pytest.raises(ValueError, match="k must"):
        stratified_folds([1, 2], ["o", "o"], k=1, rng=0)
    with pytest.raises(ValueError, match="at least k=5"):
        stratified_folds([1, 2], ["o", "o"], rng=0)
    with pytest.raises(ValueError, match="unique"):
        stratified_folds([1, 1, 2], ["o"] * 3, k=2, rng=0)
    with pytest.raises(ValueError, match="3 ids but 2"):
        stratified_folds([1, 2, 3], ["o"] * 2, k=2, rng=0)
    with pytest.raises(ValueError, match="comparable"):
        stratified_folds([1, "2", 3], ["o"] * 3, k=2, rng=0)
    fa = stratified_folds([1, 2], ["o", "o"], k=2, rng=0)
    with pytest.raises(ValueError, match="fold must be"):
        fa.test_ids(2)


# --------------------------------------------------------------------------- author-grouped folds
def test_author_grouped_folds_keep_authors_together() -> None:
    rng = np.random.default_rng(3)
    authors = [str(a) if a < 12 else None for a in rng.integers(0, 16, size=200)]
    fa = author_grouped_folds(range(200), authors, k=5)
    assert fa.scheme == "author_grouped" and fa.seed is None
    folds_of_author: dict[str, set[int]] = {}
    for author, fold in zip(authors, fa.folds):
        if author is not None:
            folds_of_author.setdefault(author, set()).add(fold)
    assert all(len(f) == 1 for f in folds_of_author.values())
    assert sum(fa.fold_sizes()) == 200 and min(fa.fold_sizes()) > 0
    assert fa == author_grouped_folds(range(200), authors, k=5)
    anonymous = [s for s, a in zip(fa.strata, authors) if a is None]
    assert len(set(anonymous)) == len(anonymous)  # singleton groups
    with pytest.raises(ValueError, match="groups"):
        author_grouped_folds(range(4), ["a", "a", "b", "b"], k=3)


def test_author_artifact_gap_needs_both_schemes() -> None:
    gold = np.array([0, 1, 2, 3] * 5)
    authors = [f"a{i % 5}" for i in range(20)]
    random_folds = stratified_folds(range(20), ["o"] * 20, k=5, rng=0)
    grouped_folds = author_grouped_folds(range(20), authors, k=5)
    wrong = gold.copy()
    wrong[:6] = (gold[:6] + 1) % 4
    random_cv, grouped_cv = cv_summary(gold, gold, random_folds), cv_summary(gold, wrong, grouped_folds)
    assert author_artifact_gap(random_cv, grouped_cv) == pytest.approx(6 / 20)
    with pytest.raises(ValueError, match="stratified, author_grouped"):
        author_artifact_gap(grouped_cv, random_cv)


# --------------------------------------------------------------------------- §5.3 CV summary
def test_fooled_cv_and_summary_match_codah_formula() -> None:
    gold = np.array([0, 1, 2, 3, 0, 1, 2, 3, 0, 1])
    fa = stratified_folds(range(10), ["o"] * 10, k=5, rng=1)
    preds = np.array([gold, gold, gold])
    preds[0, :4] = (gold[:4] + 1) % 4
    preds[1, 2] = (gold[2] + 1) % 4
    r = cv_summary(gold, preds, fa)
    correct = preds == gold
    assert r.fooled_cv == pytest.approx((1 - correct.mean(axis=0)).tolist())
    assert r.fooled_cv == pytest.approx(fooled_cv(gold, preds).tolist())
    assert r.pooled_accuracy == r.statistic == pytest.approx(1 - 5 / 30)
    # run_cv.py: accuracy per (fold, trial) -> mean over folds -> mean/std(ddof=1) over trials.
    per_fold = [[correct[t, np.array(fa.folds) == f].mean() for f in range(5)] for t in range(3)]
    assert np.allclose(r.fold_accuracy, per_fold, rtol=0, atol=1e-12)
    per_trial = np.mean(per_fold, axis=1)
    assert r.mean == pytest.approx(per_trial.mean()) and r.std == pytest.approx(np.std(per_trial, ddof=1))
    assert r.n_trials == 3 and r.scheme == "stratified"
    single = cv_summary(gold, gold, fa)
    assert single.statistic == 1.0 and np.isnan(single.std)
    with pytest.raises(ValueError, match="shape"):
        cv_summary(gold, preds[:, :5], fa)
    with pytest.raises(ValueError, match="gold labels"):
        fooled_cv([4], [0])


# --------------------------------------------------------------------------- R22 rewards
def test_r22_rewards() -> None:
    r = question_rewards([1, 1, 0], [1, 0, 1], ["ann", "ann", "ann"])
    assert r.rewards == (2.0, 1.0, 1.0)
    ann = r.author("ann")
    assert ann.reward == 4.0 and ann.n_questions == 3
    assert ann.fooled_cv_rate == pytest.approx(2 / 3, abs=TOL)


def test_rewards_weights_cleaning_and_ranking() -> None:
    r = question_rewards([1, 0, 1, 1, 0], [0.5, 1, 0, 1, 1], ["bo", "al", "al", None, "cy"],
                         w_cv=2.0, kept=[True, True, True, True, False])
    assert r.rewards == (2.0, 2.0, 1.0, 3.0, 0.0)
    assert [(a.author, a.reward, a.n_questions) for a in r.authors] == [("al", 3.0, 2), ("bo", 2.0, 1)]
    with pytest.raises(KeyError):
        r.author("cy")  # all of cy's questions were dropped in cleaning
    with pytest.raises(ValueError, match="non-negative"):
        question_rewards([1], [1], ["a"], w_pre=-1)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        question_rewards([2], [1], ["a"])
    with pytest.raises(ValueError, match="same length"):
        question_rewards([1, 0], [1], ["a"])


# --------------------------------------------------------------------------- §5.5 answer-only
def test_answer_only_summary_uses_one_sided_binomial_test() -> None:
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 4, size=200)
    pred = np.where(rng.random(200) < 0.35, gold, (gold + 1) % 4)
    r = answer_only_summary(gold, pred, full_cv_accuracy=0.65)
    correct = int((pred == gold).sum())
    reference = stats.binomtest(correct, 200, 0.25, alternative="greater")
    assert (r.correct, r.n, r.chance) == (correct, 200, 0.25)
    assert r.statistic == pytest.approx(correct / 200) and r.pvalue == pytest.approx(reference.pvalue, rel=1e-12)
    assert r.log10_pvalue == math.log10(r.pvalue)
    assert r.gap == pytest.approx(0.65 - correct / 200)
    assert r.correct_flags == tuple((pred == gold).tolist())
    ci = r.confidence_interval()
    assert ci.high == 1.0 and ci.low == pytest.approx(reference.proportion_ci().low)
    assert np.isnan(answer_only_summary(gold, pred).gap)
    with pytest.raises(ValueError, match="one trial"):
        answer_only_summary(gold, np.stack([pred, pred]))


def test_answer_only_pvalue_underflows_but_log10_does_not() -> None:
    # 2 900 of 3 000 right at chance 1/4: p = sum_k C(n, k) 3**(n-k) / 4**n ~ 1e-1665.
    n, correct = 3000, 2900
    gold = np.arange(n) % 4
    r = answer_only_summary(gold, np.where(np.arange(n) < correct, gold, (gold + 1) % 4))
    exact = math.log10(sum(math.comb(n, k) * 3 ** (n - k) for k in range(correct, n + 1))) - n * math.log10(4)
    assert r.correct == correct and r.pvalue == 0.0
    assert r.log10_pvalue == pytest.approx(exact, rel=1e-13)
    everything = answer_only_summary(gold, gold)
    assert everything.pvalue == 0.0 and everything.log10_pvalue == pytest.approx(n * math.log10(0.25), rel=1e-14)


def test_fold_assignment_is_frozen() -> None:
    fa = stratified_folds(range(4), ["o"] * 4, k=2, rng=0)
    assert isinstance(fa, FoldAssignment)
    with pytest.raises(AttributeError):
        fa.k = 3  # type: ignore[misc]
    assert Counter(fa.folds) == {0: 2, 1: 2}
