"""Agreement between span answers of crowdworkers (issue 31 §4); kappas: :mod:`mlcore.stats.agreement`.

Pure functions, no Django: answers in, frozen dataclasses out.

* :func:`span_agreement` - SQuAD token-level F1 between workers who answered the same questions:
  per worker pair, per question (and its disagreement score) and for the project.
* :func:`krippendorff_alpha` - Krippendorff's alpha for nominal labels with missing data (used for
  the answerable/unanswerable decision), with a bootstrap interval over units.

An answer is its text; ``""`` means "unanswerable", and two unanswerable answers agree fully
(F1 1), as in the official SQuAD 2.0 script's no-answer rule (:func:`~mlcore.stats.squad_metrics.f1_score`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from mlcore.stats.proportions import ConfidenceInterval
from mlcore.stats.squad_metrics import Normalizer, f1_score

__all__ = [
    "ConfidenceInterval",
    "KrippendorffAlphaResult",
    "PairF1",
    "QuestionAgreement",
    "SpanAgreement",
    "krippendorff_alpha",
    "span_agreement",
]


@dataclass(frozen=True)
class PairF1:
    """Mean token F1 of two workers over the ``n_shared`` questions both answered."""

    worker_a: Hashable
    worker_b: Hashable
    f1: float
    n_shared: int


@dataclass(frozen=True)
class QuestionAgreement:
    """One question's answers: mean pairwise F1 among them, and ``disagreement = 1 - mean_f1``."""

    question: Hashable
    n_answers: int
    mean_f1: float
    disagreement: float


@dataclass(frozen=True)
class SpanAgreement:
    """Span agreement of a project.

    ``statistic`` is the project's F1: the mean of ``mean_f1`` over questions with at least two
    answers (each question weighs the same; ``nan`` if none). ``pairs`` holds every worker pair
    sharing at least ``min_shared`` questions; ``questions`` every question with two or more answers,
    most disputed first.
    """

    statistic: float
    pairs: tuple[PairF1, ...]
    questions: tuple[QuestionAgreement, ...]
    min_shared: int


def span_agreement(
    answers: Mapping[Hashable, Mapping[Hashable, str]],
    *,
    normalizer: Literal["en", "fa"] | Normalizer = "en",
    min_shared: int = 1,
) -> SpanAgreement:
    """Token-level F1 agreement between workers' answers to the same questions.

    Parameters
    ----------
    answers : mapping
        ``answers[worker][question] = text`` (``""`` for "unanswerable").
    normalizer : {"en", "fa"} or callable
        The SQuAD normalizer (``"fa"``: Persian, :func:`~mlcore.stats.squad_normalization.normalize_fa`).
    min_shared : int
        Worker pairs with fewer shared questions are left out of ``pairs``.

    Returns
    -------
    SpanAgreement

    Notes
    -----
    F1 is the bag-of-tokens F1 of the official SQuAD script, symmetric in its two arguments. A
    question's ``mean_f1`` averages F1 over all pairs of its answers; its disagreement score is
    ``1 - mean_f1`` (0: all answers agree token for token; 1: no two share a token).

    Examples
    --------
    >>> r = span_agreement({"ann": {"q1": "Denver Broncos", "q2": ""},
    ...                     "bob": {"q1": "Broncos", "q2": ""}, "cy": {"q1": "the Broncos"}})
    >>> [(p.worker_a, p.worker_b, round(p.f1, 4), p.n_shared) for p in r.pairs]
    [('ann', 'bob', 0.8333, 2), ('ann', 'cy', 0.6667, 1), ('bob', 'cy', 1.0, 1)]
    >>> [(q.question, round(q.disagreement, 4)) for q in r.questions], round(r.statistic, 4)
    ([('q1', 0.2222), ('q2', 0.0)], 0.8889)
    """
    if int(min_shared) != min_shared or min_shared < 1:
        raise ValueError(f"min_shared must be a positive integer, got {min_shared!r}")
    by_question: dict[Hashable, dict[Hashable, str]] = {}
    for worker, items in answers.items():
        for question, text in items.items():
            if not isinstance(text, str):
                raise ValueError(f"answers must be strings ('' for unanswerable), got {text!r}")
            by_question.setdefault(question, {})[worker] = text
    # One F1 per (question, worker pair), shared by the pair and the question views.
    pair_scores: dict[tuple[Hashable, Hashable], list[float]] = {}
    questions = []
    for question in sorted(by_question, key=repr):
        given = by_question[question]
        if len(given) < 2:
            continue
        scores = []
        for a, b in combinations(sorted(given, key=repr), 2):
            score = f1_score(given[a], given[b], normalizer=normalizer)
            scores.append(score)
            pair_scores.setdefault((a, b), []).append(score)
        mean = float(np.mean(scores))
        questions.append(QuestionAgreement(question, len(given), mean, 1.0 - mean))
    pairs = tuple(PairF1(a, b, float(np.mean(s)), len(s))
                  for (a, b), s in sorted(pair_scores.items(), key=repr) if len(s) >= min_shared)
    statistic = float(np.mean([q.mean_f1 for q in questions])) if questions else math.nan
    questions.sort(key=lambda q: -q.disagreement)  # stable: ties keep the question order
    return SpanAgreement(statistic, pairs, tuple(questions), int(min_shared))


@dataclass(frozen=True)
class KrippendorffAlphaResult:
    """Krippendorff's alpha (nominal) with missing data.

    ``statistic = 1 - observed_disagreement / expected_disagreement``; ``n_pairable`` is the number
    of values in units with at least two values (the ``n..`` of Krippendorff 2011), ``n_units`` the
    number of those units. ``nan`` when only one category was used (no expected disagreement).
    """

    statistic: float
    observed_disagreement: float
    expected_disagreement: float
    n_units: int
    n_pairable: int
    categories: tuple[Hashable, ...]
    coincidences: np.ndarray = field(repr=False)  # (categories, categories) o_ck
    table: np.ndarray = field(repr=False)  # (pairable units, categories) counts n_uc

    def confidence_interval(
        self, confidence_level: float = 0.95, *, n_resamples: int = 2000, rng: int | np.random.Generator = 0
    ) -> ConfidenceInterval:
        """Percentile bootstrap interval, resampling units (rows of ``table``) with replacement.

        This is the ordinary nonparametric bootstrap over units, not Krippendorff's own
        resampling of pairable values; resamples with a single category (alpha undefined) are dropped.
        """
        if not 0.0 < confidence_level < 1.0:
            raise ValueError(f"confidence_level must be in (0, 1), got {confidence_level!r}")
        if int(n_resamples) != n_resamples or n_resamples < 1:
            raise ValueError(f"n_resamples must be a positive integer, got {n_resamples!r}")
        generator = np.random.default_rng(rng)
        n_units = self.table.shape[0]
        # Every resample as a vector of unit multiplicities, so alpha is computed for all at once.
        draws = generator.integers(0, n_units, size=(int(n_resamples), n_units))
        weights = np.zeros((int(n_resamples), n_units))
        np.add.at(weights, (np.arange(int(n_resamples))[:, None], draws), 1.0)
        values = _alpha_weighted(self.table, weights)
        values = values[~np.isnan(values)]
        if values.size == 0:
            return ConfidenceInterval(math.nan, math.nan)
        tail = 100 * (1 - confidence_level) / 2
        low, high = np.percentile(values, [tail, 100 - tail])
        return ConfidenceInterval(float(low), float(high))


def _alpha_weighted(table: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Nominal alpha of each row of ``weights`` (unit multiplicities) over the pairable ``table``."""
    m = table.sum(axis=1)
    # A unit's matching pairs, sum_c n_uc (n_uc - 1) / (m_u - 1): its share of sum_c o_cc.
    matches = np.sum(table * (table - 1), axis=1) / (m - 1)
    n_c = weights @ table  # (resamples, categories)
    n = n_c.sum(axis=1)
    chance = np.sum(n_c * (n_c - 1), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = ((n - 1) * (weights @ matches) - chance) / (n * (n - 1) - chance)
    return np.where(n * (n - 1) - chance > 0, alpha, np.nan)


def _is_missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def krippendorff_alpha(reliability_data: ArrayLike) -> KrippendorffAlphaResult:
    """Krippendorff's alpha for nominal data, any number of raters, missing values allowed.

    Parameters
    ----------
    reliability_data : array_like, shape (n_raters, n_units)
        ``reliability_data[i, u]``: rater ``i``'s label of unit ``u`` (any hashable), ``None`` or
        ``nan`` where missing (the layout of the ``krippendorff`` package).

    Returns
    -------
    KrippendorffAlphaResult

    Notes
    -----
    Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C (nominal data, any
    number of observers, missing values). Units with fewer than two values are not pairable and are
    dropped. With ``n_uc`` the number of values ``c`` in unit ``u`` and ``m_u = sum_c n_uc``, the
    coincidences are ``o_ck = sum_u (n_uc n_uk - [c = k] n_uc) / (m_u - 1)``, ``n_c = sum_k o_ck`` and
    ``n = sum_c n_c``; then

    ``alpha = 1 - D_o / D_e = 1 - (n - 1) * sum_{c != k} o_ck / sum_{c != k} n_c n_k``,

    computed as ``((n - 1) sum_c o_cc - sum_c n_c (n_c - 1)) / (n (n - 1) - sum_c n_c (n_c - 1))``.

    Examples
    --------
    Krippendorff's (2011) worked example (section C): 4 observers, 12 units, missing values.

    >>> nan = float("nan")
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> r = krippendorff_alpha(data)
    >>> round(r.statistic, 3), r.n_units, r.n_pairable
    (0.743, 11, 40)
    """
    grid = np.asarray(reliability_data, dtype=object)
    if grid.ndim != 2:
        raise ValueError("reliability_data must be a 2-d (raters, units) array")
    present = [[v for v in grid[:, u] if not _is_missing(v)] for u in range(grid.shape[1])]
    present = [values for values in present if len(values) >= 2]
    if not present:
        raise ValueError("need at least one unit with two or more values")
    categories = tuple(sorted({v for values in present for v in values}, key=repr))
    position = {c: j for j, c in enumerate(categories)}
    table = np.zeros((len(present), len(categories)))
    for u, values in enumerate(present):
        for v in values:
            table[u, position[v]] += 1
    m = table.sum(axis=1)
    coincidences = (table.T / (m - 1)) @ table - np.diag(np.sum(table.T / (m - 1), axis=1))
    n_c = coincidences.sum(axis=1)
    n = float(n_c.sum())
    off = ~np.eye(len(categories), dtype=bool)
    observed = float(coincidences[off].sum()) / n
    expected = float(np.outer(n_c, n_c)[off].sum()) / (n * (n - 1))
    statistic = float(_alpha_weighted(table, np.ones((1, len(present))))[0])
    return KrippendorffAlphaResult(statistic, observed, expected, len(present), int(round(n)), categories,
                                   coincidences, table)
