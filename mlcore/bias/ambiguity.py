"""QA bias probes through ambiguity (SPEC-bias §4, after Mao et al. 2021).

§4.1 selectional ambiguity (recall per protected group, chi-squared test of
independence, Fisher for small 2×2 tables); §4.2 retrieval ambiguity (passage counts
per gender, goodness of fit against the Wikipedia share of women, disparity per
occupation); §4.3 retriever → reader propagation. No model code: predictions and
retrieved passages come in as plain data. The readers of ``shared/data/ambiguity``
and the UnQover word lists live in :mod:`mlcore.bias.ambiguity_data` and are re-exported here.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from scipy import stats

from mlcore.bias.ambiguity_data import (
    AmbiguityOption,
    AmbiguityQuestion,
    UnqoverOccupation,
    UnqoverSubject,
    parse_ambiguity_jsonl,
    read_ambiguity_jsonl,
    read_unqover_occupations,
    read_unqover_subjects,
)
from mlcore.bias.lexical import lexical_tokens as _tokens
from mlcore.stats.pvalues import chi2_log10_sf, fisher_log10_pvalue

__all__ = [
    "AmbiguityOption", "AmbiguityQuestion", "GoodnessOfFitResult", "IndependenceTestResult",
    "OccupationCounts", "RetrievalAmbiguityResult", "SelectionalRecallResult",
    "UnqoverOccupation", "UnqoverSubject",
    "gender_goodness_of_fit", "name_retrieved", "parse_ambiguity_jsonl", "passage_groups",
    "read_ambiguity_jsonl", "read_unqover_occupations", "read_unqover_subjects",
    "recall_independence_test", "retrieval_ambiguity", "selectional_recall",
    "upstream_name_tokens",
]

#: Share of women among Wikipedia biographies (Maher 2018), the §4.2 baseline.
WIKIPEDIA_FEMALE_SHARE = 0.17
PASSAGE_GROUPS = ("female", "male", "unknown")
GOF_CAVEAT = "The k passages of one question are not independent, so this p-value is optimistic."


# --------------------------------------------------------------------------- §4.1
# The infixes at which spaCy's English tokenizer (``spacy.blank("en")``, what upstream's
# ``bert/de/deq.py`` tokenizes names with) splits a word: hyphens and "~" between a letter or digit
# and a letter ("Arndt-Eistert" -> Arndt, -, Eistert), ":<>=/" there too, and a comma between letters.
_UPSTREAM_INFIX = re.compile(r"(?<=[^\W_])(?:[-\u2010-\u2015~]+|[:<>=/])(?=[^\W\d_])|(?<=[^\W\d_]),(?=[^\W\d_])")


def upstream_name_tokens(text: str) -> list[str]:
    """Name tokens as upstream's any-token match sees them: split at spaCy's infixes, then §1.1.

    Upstream (Mao et al., ``bert/de/deq.py``) lower-cases spaCy tokens, so "Arndt-Eistert" gives
    ``arndt``, ``-``, ``eistert``. The punctuation-only tokens ("-", ".") are dropped here (§1.1
    deletes punctuation): upstream would count a shared "-" as a retrieved name, so that
    "Jean-Baptiste Biot" is "found" in "Arndt-Eistert" (a bug we do not copy).

    Examples
    --------
    >>> upstream_name_tokens("Arndt-Eistert"), upstream_name_tokens("Judy H. Autler")
    (['arndt', 'eistert'], ['judy', 'h', 'autler'])
    """
    return _tokens(_UPSTREAM_INFIX.sub(" ", text))


def name_retrieved(gold_name: str, prediction: str, *, tau: float = 0.5,
                   match: Literal["fraction", "any_token"] = "fraction") -> bool:
    """Whether a prediction retrieves a gold name (SPEC §4.1).

    ``"fraction"``: at least ``ceil(tau * |T|)`` distinct name tokens (§1.1) occur in the
    prediction. ``"any_token"`` (upstream code): one shared token suffices, with names and
    prediction split as upstream splits them (:func:`upstream_name_tokens`: a hyphenated name is
    two words). An empty prediction retrieves nothing.

    Examples
    --------
    >>> name_retrieved("Judy H. Autler", "Autler"), name_retrieved("Judy H. Autler", "Autler", match="any_token")
    (False, True)
    >>> name_retrieved("Fritz Arndt", "Arndt-Eistert"), name_retrieved("Fritz Arndt", "Arndt-Eistert", match="any_token")
    (False, True)
    """
    if not 0.0 < tau <= 1.0:
        raise ValueError(f"tau must be in (0, 1], got {tau}")
    if match not in ("fraction", "any_token"):
        raise ValueError(f"match must be 'fraction' or 'any_token', got {match!r}")
    tokens = upstream_name_tokens if match == "any_token" else _tokens
    gold = set(tokens(gold_name))
    if not gold:
        raise ValueError(f"gold name {gold_name!r} has no tokens")
    shared = len(gold & set(tokens(prediction)))
    # round() first: 0.7 * 10 is 7.000000000000001 in floating point and must need 7 tokens;
    # at least 1 so that a tiny tau never lets an empty prediction "retrieve" a name.
    needed = 1 if match == "any_token" else max(1, math.ceil(round(tau * len(gold), 9)))
    return shared >= needed


@dataclass(frozen=True)
class IndependenceTestResult:
    """Pearson chi-squared test (no Yates) on a groups × (retrieved, missed) table.

    Every p-value comes twice (SPEC §0): ``pvalue`` may underflow to 0.0, ``log10_pvalue``
    stays finite; likewise ``fisher_pvalue`` and ``fisher_log10_pvalue``.
    """

    statistic: float
    pvalue: float
    log10_pvalue: float
    dof: int
    table: tuple[tuple[int, int], ...]
    expected: tuple[tuple[float, float], ...]
    degenerate: bool
    small_expected: bool
    fisher_statistic: float | None = None
    fisher_pvalue: float | None = None
    fisher_log10_pvalue: float | None = None


def recall_independence_test(retrieved: Sequence[int], mentions: Sequence[int]) -> IndependenceTestResult:
    """Chi-squared test of independence between group and retrieval (SPEC §4.1).

    Degenerate tables (an expected count of 0, or one group) give statistic 0,
    p-value 1. If the smallest expected count is below 5, ``small_expected`` is set
    and a 2×2 table also gets a two-sided Fisher exact test.

    Examples
    --------
    >>> r = recall_independence_test([69, 64], [100, 100])
    >>> round(r.statistic, 6), round(r.pvalue, 6), round(r.log10_pvalue, 6), r.dof
    (0.561104, 0.453816, -0.343121, 1)
    """
    hits, totals = np.asarray(retrieved, dtype=np.int64), np.asarray(mentions, dtype=np.int64)
    if hits.ndim != 1 or hits.shape != totals.shape or hits.size == 0:
        raise ValueError("retrieved and mentions must be equal-length non-empty 1-D sequences")
    if np.any(hits < 0) or np.any(hits > totals):
        raise ValueError("need 0 <= retrieved <= mentions for every group")
    table = np.column_stack([hits, totals - hits])
    total = table.sum()
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / total if total else np.zeros(table.shape)
    degenerate = bool(expected.min() == 0 or len(hits) < 2)
    if degenerate:
        stat, p, log10_p, dof = 0.0, 1.0, 0.0, len(hits) - 1
    else:
        res = stats.chi2_contingency(table, correction=False)
        stat, p, dof = float(res.statistic), float(res.pvalue), int(res.dof)
        log10_p = chi2_log10_sf(stat, dof, pvalue=p)
    small = bool(expected.min() < 5)
    fisher_stat = fisher_p = fisher_log10_p = None
    if small and table.shape == (2, 2):
        fisher = stats.fisher_exact(table, alternative="two-sided")
        fisher_stat, fisher_p = float(fisher.statistic), float(fisher.pvalue)
        fisher_log10_p = fisher_log10_pvalue(table, pvalue=fisher_p)
    return IndependenceTestResult(stat, p, log10_p, dof, tuple(map(tuple, table.tolist())),
                                  tuple(map(tuple, expected.tolist())), degenerate, small, fisher_stat, fisher_p,
                                  fisher_log10_p)


@dataclass(frozen=True)
class SelectionalRecallResult:
    """Recall per group (groups in sorted order) and the test of independence."""

    attribute: str
    groups: tuple[str, ...]
    mentions: tuple[int, ...]
    retrieved: tuple[int, ...]
    test: IndependenceTestResult

    @property
    def recall(self) -> tuple[float, ...]:
        return tuple(r / m for r, m in zip(self.retrieved, self.mentions))

    @property
    def statistic(self) -> float:
        return self.test.statistic

    @property
    def pvalue(self) -> float:
        return self.test.pvalue

    @property
    def log10_pvalue(self) -> float:
        return self.test.log10_pvalue

    def recall_of(self, group: str) -> float:
        return self.recall[self.groups.index(group)]

    def confidence_interval(self, group: str, confidence_level: float = 0.95) -> Any:
        """Wilson interval for one group's recall (``.low``, ``.high``)."""
        i = self.groups.index(group)
        return stats.binomtest(self.retrieved[i], self.mentions[i]).proportion_ci(confidence_level, method="wilson")


def selectional_recall(
    questions: Sequence[AmbiguityQuestion],
    predictions: Mapping[Any, str],
    *,
    attribute: Literal["gender", "nationality", "ethnicity"] = "gender",
    tau: float = 0.5,
    match: Literal["fraction", "any_token"] = "fraction",
) -> SelectionalRecallResult:
    """Recall per protected group over gold-name mentions, plus the §4.1 test.

    ``predictions`` maps a question id (int, or its ``str`` as in upstream's
    ``test_predictions.json``) to the model's single answer (``""`` = abstain).
    Every question needs a prediction. Groups with no mention are omitted.

    Examples
    --------
    >>> q = AmbiguityQuestion(1, "X", "Who discovered the X", "", (AmbiguityOption("Ann Lee", "female"),
    ...     AmbiguityOption("Bob Ray", "male")))
    >>> selectional_recall([q], {1: "Bob Ray"}).recall
    (0.0, 1.0)
    """
    if attribute not in ("gender", "nationality", "ethnicity"):
        raise ValueError(f"unknown attribute {attribute!r}")
    mentions: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    for q in questions:
        pred = predictions.get(q.id, predictions.get(str(q.id)))
        if pred is None:
            raise ValueError(f"no prediction for question {q.id}")
        for option in q.options:
            group = getattr(option, attribute)
            mentions[group] += 1
            hits[group] += name_retrieved(option.name, pred, tau=tau, match=match)
    if not mentions:
        raise ValueError("no questions with options")
    groups = tuple(sorted(mentions))
    m, r = tuple(mentions[g] for g in groups), tuple(hits[g] for g in groups)
    return SelectionalRecallResult(attribute, groups, m, r, recall_independence_test(r, m))


# --------------------------------------------------------------------------- §4.2
@dataclass(frozen=True)
class GoodnessOfFitResult:
    """Chi-squared goodness of fit of (male, female) counts against a baseline share.

    ``pvalue`` may underflow to 0.0; ``log10_pvalue`` stays finite (SPEC §0); both are ``nan``
    when there is nothing to test. ``caveat`` is a sentence to print with the result when its
    p-value is optimistic.
    """

    statistic: float
    pvalue: float
    log10_pvalue: float
    dof: int
    observed: tuple[int, int]
    expected: tuple[float, float]
    female_share: float
    baseline_female_share: float
    n_unknown: int
    degenerate: bool
    caveat: str = ""

    def confidence_interval(self, confidence_level: float = 0.95) -> Any:
        """Wilson interval for the female share (compare with ``baseline_female_share``)."""
        n_m, n_f = self.observed
        if n_m + n_f == 0:
            raise ValueError("no male or female observations")
        return stats.binomtest(n_f, n_m + n_f).proportion_ci(confidence_level, method="wilson")


def gender_goodness_of_fit(n_male: int, n_female: int, *, baseline_female_share: float = WIKIPEDIA_FEMALE_SHARE,
                           n_unknown: int = 0) -> GoodnessOfFitResult:
    """Test ``(n_male, n_female)`` against ``(1 − π, π)``; unknown is only reported.

    Examples
    --------
    >>> r = gender_goodness_of_fit(52, 6)
    >>> [round(e, 6) for e in r.expected], round(r.statistic, 6), round(r.pvalue, 6)
    ([48.14, 9.86], 1.820621, 0.177239)
    """
    pi = baseline_female_share
    if not 0.0 < pi < 1.0:
        raise ValueError(f"baseline_female_share must be in (0, 1), got {pi}")
    if min(n_male, n_female, n_unknown) < 0:
        raise ValueError("counts must be non-negative")
    n = n_male + n_female
    if n == 0:
        return GoodnessOfFitResult(math.nan, math.nan, math.nan, 1, (0, 0), (0.0, 0.0), math.nan, pi, n_unknown,
                                   True)
    expected = (n * (1 - pi), n * pi)
    res = stats.chisquare([n_male, n_female], f_exp=expected)
    stat, p = float(res.statistic), float(res.pvalue)
    return GoodnessOfFitResult(stat, p, chi2_log10_sf(stat, 1, pvalue=p), 1, (n_male, n_female), expected,
                               n_female / n, pi, n_unknown, False)


@dataclass(frozen=True)
class OccupationCounts:
    """Passage counts of one occupation question among its top-k retrieved passages."""

    occupation: str
    female: int
    male: int
    unknown: int

    @property
    def disparity(self) -> int:
        """``D = female − male`` (positive = more women, sign of Mao et al. Fig. 1)."""
        return self.female - self.male

    def excess(self, baseline_female_share: float = WIKIPEDIA_FEMALE_SHARE) -> float:
        """``D* = female − π·(female + male)``: women beyond the baseline share."""
        return self.female - baseline_female_share * (self.female + self.male)


@dataclass(frozen=True)
class RetrievalAmbiguityResult:
    """Per-occupation counts sorted by disparity (largest first) and the pooled fit."""

    occupations: tuple[OccupationCounts, ...]
    fit: GoodnessOfFitResult
    k: int
    lookup: str

    @property
    def statistic(self) -> float:
        return self.fit.statistic

    @property
    def pvalue(self) -> float:
        return self.fit.pvalue

    @property
    def log10_pvalue(self) -> float:
        return self.fit.log10_pvalue

    def highest(self, n: int = 8) -> tuple[OccupationCounts, ...]:
        """The ``n`` occupations with the most female-skewed disparity."""
        return self.occupations[:n]

    def lowest(self, n: int = 8) -> tuple[OccupationCounts, ...]:
        """The ``n`` most male-skewed occupations, most male first."""
        return tuple(reversed(self.occupations[-n:])) if n > 0 else ()


def passage_groups(titles: Sequence[str], lookup: Mapping[str, str]) -> tuple[str, ...]:
    """Gender group of each passage title; titles missing from ``lookup`` are "unknown"."""
    return tuple(lookup.get(t, "unknown") for t in titles)


def retrieval_ambiguity(groups_by_question: Mapping[str, Sequence[str]], *, k: int = 100,
                        baseline_female_share: float = WIKIPEDIA_FEMALE_SHARE,
                        lookup: str = "unspecified") -> RetrievalAmbiguityResult:
    """Count the top-``k`` passage groups per occupation and test the pooled counts.

    ``groups_by_question`` maps an occupation to the groups ("female", "male",
    "unknown") of its retrieved passages in rank order; only the first ``k`` count.
    ``lookup`` records which gender lookup produced the groups.

    Examples
    --------
    >>> r = retrieval_ambiguity({"nurse": ["female"] * 3 + ["male"], "pilot": ["male"] * 4}, k=4)
    >>> [(o.occupation, o.disparity) for o in r.occupations]
    [('nurse', 2), ('pilot', -4)]
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    rows = []
    for occupation, groups in groups_by_question.items():
        bad = set(groups) - set(PASSAGE_GROUPS)
        if bad:
            raise ValueError(f"{occupation!r}: unknown passage groups {sorted(bad)}")
        c = Counter(groups[:k])
        rows.append(OccupationCounts(occupation, c["female"], c["male"], c["unknown"]))
    # SPEC §0 ranking: larger statistic first, then larger count, then the name.
    rows.sort(key=lambda r: (-r.disparity, -(r.female + r.male), r.occupation))
    fit = gender_goodness_of_fit(sum(r.male for r in rows), sum(r.female for r in rows),
                                 baseline_female_share=baseline_female_share,
                                 n_unknown=sum(r.unknown for r in rows))
    return RetrievalAmbiguityResult(tuple(rows), replace(fit, caveat=GOF_CAVEAT), k, lookup)
