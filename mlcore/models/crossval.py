"""CODAH-style cross-validation: folds, "fooled in CV", rewards, answer-only baseline.

Implements SPEC-bias §5 (after Chen et al., CODAH, RepEval 2019). Model training is
elsewhere; these functions take ids, category codes, labels and out-of-fold
predictions as plain data.

* :func:`stratified_folds` — the deterministic §5.2 assignment used for rewards;
* :func:`author_grouped_folds` — §5.6 diagnostic folds (an author's questions stay
  together); never mix numbers from the two schemes in one table;
* :func:`cv_summary`, :func:`question_rewards`, :func:`answer_only_summary`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from mlcore.configs import CATEGORY_CODES, NUM_CHOICES
from mlcore.stats.pvalues import binom_log10_sf

__all__ = [
    "AnswerOnlyResult", "AuthorReward", "CVResult", "FoldAssignment", "RewardResult",
    "answer_only_summary", "author_artifact_gap", "author_grouped_folds", "cv_summary", "fooled_cv", "question_rewards",
    "stratified_folds", "stratum_code",
]


@dataclass(frozen=True)
class FoldAssignment:
    """Fold of every item, in the caller's item order.

    ``strata`` holds the stratum code (``"stratified"``) or the group key
    (``"author_grouped"``) of each item; ``seed`` is the int seed if one was given.
    """

    ids: tuple[Hashable, ...]
    strata: tuple[str, ...]
    folds: tuple[int, ...]
    k: int
    scheme: str
    seed: int | None = None

    def test_ids(self, fold: int) -> tuple[Hashable, ...]:
        """Ids held out in ``fold`` (predicted by the model trained on the others)."""
        self._check(fold)
        return tuple(i for i, f in zip(self.ids, self.folds) if f == fold)

    def train_ids(self, fold: int) -> tuple[Hashable, ...]:
        """Ids of every other fold."""
        self._check(fold)
        return tuple(i for i, f in zip(self.ids, self.folds) if f != fold)

    def fold_sizes(self) -> tuple[int, ...]:
        c = Counter(self.folds)
        return tuple(c[f] for f in range(self.k))

    def stratum_counts(self) -> dict[str, tuple[int, ...]]:
        """Per stratum (or group), the number of its items in each fold."""
        out: dict[str, list[int]] = defaultdict(lambda: [0] * self.k)
        for s, f in zip(self.strata, self.folds):
            out[s][f] += 1
        return {s: tuple(v) for s, v in sorted(out.items())}

    def _check(self, fold: int) -> None:
        if not 0 <= fold < self.k:
            raise ValueError(f"fold must be in 0..{self.k - 1}, got {fold}")


def stratum_code(code: str) -> str:
    """Stratum of a CODAH category code (§5.1): empty → ``"o"``, else the sorted letters.

    Examples
    --------
    >>> stratum_code(""), stratum_code("N"), stratum_code("pi")
    ('o', 'n', 'ip')
    """
    letters = code.strip().lower()
    bad = sorted(set(letters) - set(CATEGORY_CODES))
    if bad or len(set(letters)) != len(letters):
        raise ValueError(f"invalid category code {code!r} (letters {' '.join(CATEGORY_CODES)}, each once)")
    return "".join(sorted(letters)) or "o"


def _check_ids(ids: Sequence[Hashable], n_other: int, k: int) -> list[Hashable]:
    ids = list(ids)
    if len(ids) != n_other:
        raise ValueError(f"got {len(ids)} ids but {n_other} codes/authors")
    if len(set(ids)) != len(ids):
        raise ValueError("ids must be unique")
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 2:
        raise ValueError(f"k must be an int >= 2, got {k!r}")
    if len(ids) < k:
        raise ValueError(f"need at least k={k} items, got {len(ids)}")
    return ids


def stratified_folds(ids: Sequence[Hashable], codes: Sequence[str], *, k: int = 5,
                     rng: int | np.random.Generator) -> FoldAssignment:
    """Deterministic stratified k-fold assignment (SPEC-bias §5.2).

    Strata are visited in code order; inside a stratum items are sorted by id and
    permuted with ``rng.permutation`` — one generator (``numpy.random.default_rng(rng)``
    for an int) used stratum after stratum. The concatenated item at global position
    ``p`` gets fold ``p mod k``, so fold sizes and each stratum's per-fold counts
    differ by at most one.

    Parameters
    ----------
    ids : sequence of hashable
        Unique, mutually comparable item ids (ints sort numerically, strings by code point).
    codes : sequence of str
        CODAH category code per item (see :func:`stratum_code`).
    k : int
        Number of folds, >= 2 and <= number of items.
    rng : int or numpy.random.Generator
        Seed (recorded in the result) or generator.

    Returns
    -------
    FoldAssignment

    Examples
    --------
    >>> fa = stratified_folds(range(10), ["o"] * 6 + ["i"] * 2 + ["n"] * 2, k=2, rng=0)
    >>> fa.stratum_counts()
    {'i': (1, 1), 'n': (1, 1), 'o': (3, 3)}
    """
    ids_list: list[Any] = _check_ids(ids, len(codes), k)  # sortable: checked below
    strata = [stratum_code(c) for c in codes]
    generator = np.random.default_rng(rng)
    members: dict[str, list[int]] = defaultdict(list)
    for index, s in enumerate(strata):
        members[s].append(index)
    order: list[int] = []
    for s in sorted(members):
        try:
            by_id = sorted(members[s], key=lambda i: ids_list[i])
        except TypeError:
            raise ValueError("ids must be mutually comparable (all ints or all strings)") from None
        order.extend(by_id[j] for j in generator.permutation(len(by_id)))
    folds = [0] * len(ids_list)
    for position, index in enumerate(order):
        folds[index] = position % k
    seed = int(rng) if isinstance(rng, int | np.integer) else None
    return FoldAssignment(tuple(ids_list), tuple(strata), tuple(folds), k, "stratified", seed)


def author_grouped_folds(ids: Sequence[Hashable], authors: Sequence[str | None], *, k: int = 5) -> FoldAssignment:
    """GroupKFold-style folds with the author as group (SPEC-bias §5.6 diagnostic).

    Anonymous questions (``None`` or ``""``) are singleton groups. Groups are taken
    largest first (ties: named before anonymous, then by key) and each goes to the
    fold with the fewest items (ties: lowest fold). Deterministic; no randomness.

    Examples
    --------
    >>> fa = author_grouped_folds(range(5), ["ann", "ann", "bob", None, "cy"], k=2)
    >>> fa.folds, fa.fold_sizes()
    ((0, 0, 1, 0, 1), (3, 2))
    """
    ids_list = _check_ids(ids, len(authors), k)
    groups: dict[tuple[int, str], list[int]] = defaultdict(list)
    for index, author in enumerate(authors):
        key = (0, str(author)) if author else (1, f"anonymous:{ids_list[index]!r}")
        groups[key].append(index)
    if len(groups) < k:
        raise ValueError(f"need at least k={k} groups, got {len(groups)}")
    folds = [0] * len(ids_list)
    sizes = [0] * k
    strata = [""] * len(ids_list)
    for key in sorted(groups, key=lambda g: (-len(groups[g]), g)):
        target = sizes.index(min(sizes))
        for index in groups[key]:
            folds[index], strata[index] = target, key[1]
        sizes[target] += len(groups[key])
    return FoldAssignment(tuple(ids_list), tuple(strata), tuple(folds), k, "author_grouped")


# --------------------------------------------------------------------------- CV results
def _labels(gold: ArrayLike, n_choices: int) -> np.ndarray:
    y = np.asarray(gold)
    if y.ndim != 1 or y.size == 0 or not np.issubdtype(y.dtype, np.integer):
        raise ValueError("gold must be a non-empty 1-D integer array")
    if y.min() < 0 or y.max() >= n_choices:
        raise ValueError(f"gold labels must be in 0..{n_choices - 1}")
    return y


def _trials(predictions: ArrayLike, n: int) -> np.ndarray:
    p = np.asarray(predictions)
    p = p[None, :] if p.ndim == 1 else p
    if p.ndim != 2 or p.shape[1] != n or p.shape[0] == 0:
        raise ValueError(f"predictions must have shape (n_items,) or (n_trials, n_items) with n_items={n}")
    return p


def fooled_cv(gold: ArrayLike, oof_predictions: ArrayLike) -> np.ndarray:
    """Per question, the fraction of trials whose out-of-fold prediction is wrong (§5.3).

    Examples
    --------
    >>> fooled_cv([0, 1, 2], [[0, 1, 3], [1, 1, 3], [0, 1, 3]]).round(6).tolist()
    [0.333333, 0.0, 1.0]
    """
    y = _labels(gold, NUM_CHOICES)
    share: np.ndarray = (_trials(oof_predictions, y.size) != y).mean(axis=0)
    return share


@dataclass(frozen=True)
class CVResult:
    """Out-of-fold accuracy: pooled, and CODAH's mean/sample-std over trials.

    ``fold_accuracy[t][f]`` is trial ``t``'s accuracy on fold ``f``;
    ``trial_accuracy`` averages the folds (unweighted, as ``run_cv.py``);
    ``std`` uses ``ddof=1`` and is ``nan`` for a single trial.
    """

    statistic: float  # pooled accuracy, 1 - mean fooled_cv
    fooled_cv: tuple[float, ...]
    fold_accuracy: tuple[tuple[float, ...], ...]
    trial_accuracy: tuple[float, ...]
    mean: float
    std: float
    n_trials: int
    scheme: str

    @property
    def pooled_accuracy(self) -> float:
        return self.statistic


def cv_summary(gold: ArrayLike, oof_predictions: ArrayLike, folds: FoldAssignment) -> CVResult:
    """Summarize out-of-fold predictions of one or more trials (§5.3).

    Parameters
    ----------
    gold : array_like of int, shape (n_items,)
        Correct choice per item, in ``folds.ids`` order.
    oof_predictions : array_like of int, shape (n_items,) or (n_trials, n_items)
        Each trial's single out-of-fold prediction per item.
    folds : FoldAssignment
        The folds the predictions came from.

    Examples
    --------
    >>> fa = stratified_folds(range(4), ["o"] * 4, k=2, rng=0)
    >>> r = cv_summary([0, 1, 2, 3], [[0, 1, 2, 0], [0, 0, 2, 3]], fa)
    >>> r.statistic, r.mean, round(r.std, 6)
    (0.75, 0.75, 0.0)
    """
    y = _labels(gold, NUM_CHOICES)
    if y.size != len(folds.folds):
        raise ValueError(f"gold has {y.size} items but folds has {len(folds.folds)}")
    correct = _trials(oof_predictions, y.size) == y  # (n_trials, n_items)
    fold_of = np.asarray(folds.folds)
    per_fold = np.stack([correct[:, fold_of == f].mean(axis=1) for f in range(folds.k)], axis=1)
    per_trial = per_fold.mean(axis=1)
    std = float(np.std(per_trial, ddof=1)) if per_trial.size > 1 else float("nan")
    fooled = 1.0 - correct.mean(axis=0)
    return CVResult(float(correct.mean()), tuple(fooled.tolist()), tuple(map(tuple, per_fold.tolist())),
                    tuple(per_trial.tolist()), float(per_trial.mean()), std, correct.shape[0], folds.scheme)


def author_artifact_gap(random_cv: CVResult, author_grouped_cv: CVResult) -> float:
    """``acc_random_cv − acc_author_grouped_cv`` (pooled), the §5.6 author-artifact diagnostic.

    A large positive gap means models learn author-specific templates. Raises if the
    two results do not come from the two different schemes (never mix them).
    """
    if (random_cv.scheme, author_grouped_cv.scheme) != ("stratified", "author_grouped"):
        raise ValueError(f"need (stratified, author_grouped) results, got "
                         f"({random_cv.scheme}, {author_grouped_cv.scheme})")
    return random_cv.statistic - author_grouped_cv.statistic


# --------------------------------------------------------------------------- rewards
@dataclass(frozen=True)
class AuthorReward:
    """One author's total reward and fool rates over their kept questions."""

    author: str
    n_questions: int
    reward: float
    fooled_pre_rate: float
    fooled_cv_rate: float


@dataclass(frozen=True)
class RewardResult:
    """Per-question rewards (0 for questions dropped in cleaning) and per-author totals.

    ``authors`` is ranked by reward, then question count, then name (SPEC §0).
    """

    rewards: tuple[float, ...]
    authors: tuple[AuthorReward, ...]
    w_pre: float
    w_cv: float

    def author(self, name: str) -> AuthorReward:
        for a in self.authors:
            if a.author == name:
                return a
        raise KeyError(name)


def question_rewards(fooled_pre: ArrayLike, fooled_cv: ArrayLike, authors: Sequence[str | None], *,
                     w_pre: float = 1.0, w_cv: float = 1.0, kept: ArrayLike | None = None) -> RewardResult:
    """``reward = w_pre·fooled_pre + w_cv·fooled_cv`` per question, summed per author (§5.4).

    ``fooled_cv`` may be a fraction of trials. Only ``kept`` questions (default
    all) earn reward; anonymous questions (``None``/``""``) earn it but have no total.

    Examples
    --------
    >>> r = question_rewards([1, 1, 0], [1, 0, 1], ["ann"] * 3)
    >>> r.rewards, r.author("ann").reward, round(r.author("ann").fooled_cv_rate, 6)
    ((2.0, 1.0, 1.0), 4.0, 0.666667)
    """
    pre, cv = np.asarray(fooled_pre, dtype=float), np.asarray(fooled_cv, dtype=float)
    n = len(authors)
    if pre.shape != (n,) or cv.shape != (n,):
        raise ValueError("fooled_pre, fooled_cv and authors must have the same length")
    if np.any((pre < 0) | (pre > 1)) or np.any((cv < 0) | (cv > 1)):
        raise ValueError("fooled_pre and fooled_cv must lie in [0, 1]")
    if not (np.isfinite(w_pre) and np.isfinite(w_cv) and w_pre >= 0 and w_cv >= 0):
        raise ValueError("w_pre and w_cv must be finite and non-negative")
    keep = np.ones(n, dtype=bool) if kept is None else np.asarray(kept, dtype=bool)
    if keep.shape != (n,):
        raise ValueError("kept must have one flag per question")
    rewards = np.where(keep, w_pre * pre + w_cv * cv, 0.0)
    by_author: dict[str, list[int]] = defaultdict(list)
    for i, author in enumerate(authors):
        if author and keep[i]:
            by_author[str(author)].append(i)
    table = [AuthorReward(a, len(ix), float(rewards[ix].sum()), float(pre[ix].mean()), float(cv[ix].mean()))
             for a, ix in by_author.items()]
    table.sort(key=lambda a: (-a.reward, -a.n_questions, a.author))
    return RewardResult(tuple(rewards.tolist()), tuple(table), float(w_pre), float(w_cv))


# --------------------------------------------------------------------------- answer-only
@dataclass(frozen=True)
class AnswerOnlyResult:
    """Answer-only accuracy (``statistic``) with a one-sided binomial test against chance.

    ``pvalue`` is ``binomtest(correct, n, chance, alternative="greater")`` (may underflow to 0.0;
    ``log10_pvalue`` stays finite, SPEC §0);
    ``gap`` = full CV accuracy − answer-only accuracy (``nan`` if not given);
    ``correct_flags`` marks questions solvable without the prompt (artifact suspects).
    """

    statistic: float
    pvalue: float
    log10_pvalue: float
    correct: int
    n: int
    chance: float
    gap: float
    correct_flags: tuple[bool, ...]

    def confidence_interval(self, confidence_level: float = 0.95) -> Any:
        """Clopper–Pearson bound matching the test: one-sided, ``(low, 1.0)``."""
        test = stats.binomtest(self.correct, self.n, self.chance, alternative="greater")
        return test.proportion_ci(confidence_level=confidence_level, method="exact")


def answer_only_summary(gold: ArrayLike, predictions: ArrayLike, *, full_cv_accuracy: float | None = None,
                        n_choices: int = NUM_CHOICES) -> AnswerOnlyResult:
    """Summarize one trial of the prompt-blanked baseline (§5.5).

    Examples
    --------
    >>> r = answer_only_summary([0, 1, 2, 3] * 25, [0, 1, 2, 0] * 25, full_cv_accuracy=0.9)
    >>> r.statistic, r.correct, round(r.gap, 6), r.pvalue < 1e-20
    (0.75, 75, 0.15, True)
    """
    if n_choices < 2:
        raise ValueError(f"n_choices must be >= 2, got {n_choices}")
    y = _labels(gold, n_choices)
    pred = np.asarray(predictions)
    if pred.shape != y.shape:
        raise ValueError("answer-only predictions must be one trial with one prediction per question")
    flags = pred == y
    correct, n, chance = int(flags.sum()), int(y.size), 1.0 / n_choices
    p = float(stats.binomtest(correct, n, chance, alternative="greater").pvalue)
    accuracy = correct / n
    gap = float("nan") if full_cv_accuracy is None else float(full_cv_accuracy) - accuracy
    return AnswerOnlyResult(accuracy, p, binom_log10_sf(correct, n, chance, pvalue=p), correct, n, chance, gap,
                            tuple(flags.tolist()))
