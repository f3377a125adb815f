"""Statistics of a span-annotation project: human performance and simple distributions.

Human performance follows PQuAD §4 and SQuAD: a second worker's answer is scored against
the first (original) answer with the SQuAD EM/F1 of :mod:`mlcore.stats.squad_metrics`; an
unanswerable question has the gold ``""``, so answering "unanswerable" scores 1 on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from mlcore.stats.squad_metrics import Normalizer, score_question

__all__ = ["HumanPerformance", "binned_counts", "human_performance"]


@dataclass(frozen=True)
class HumanPerformance:
    """EM and F1 in percent over all pairs and split by whether the first answer exists.

    ``None`` marks an empty subset; ``n`` counts (gold, answer) pairs.
    """

    exact: float | None
    f1: float | None
    n: int
    has_ans_exact: float | None
    has_ans_f1: float | None
    has_ans_n: int
    no_ans_exact: float | None
    no_ans_f1: float | None
    no_ans_n: int
    normalizer: str


def _mean(values: Sequence[float]) -> float | None:
    return 100.0 * sum(values) / len(values) if values else None


def human_performance(pairs: Sequence[tuple[Sequence[str], str]], *,
                      normalizer: Literal["en", "fa"] | Normalizer = "en") -> HumanPerformance:
    """Score each second answer (``""`` = unanswerable) against its gold texts.

    Parameters
    ----------
    pairs : sequence of (gold texts, answer)
        Gold texts are the first worker's answer(s); empty for an unanswerable question.
    normalizer : {"en", "fa"} or callable
        As in :func:`mlcore.stats.squad_metrics.score_question`.

    Examples
    --------
    >>> r = human_performance([(["Denver Broncos"], "Broncos"), ([], ""), (["1066"], "")])
    >>> round(r.f1, 6), r.exact, r.no_ans_exact
    (55.555556, 33.333333333333336, 100.0)
    """
    scored: list[tuple[float, float]] = []
    has: list[tuple[float, float]] = []
    no: list[tuple[float, float]] = []
    for golds, answer in pairs:
        em, f1 = score_question(list(golds), answer, normalizer=normalizer)
        scored.append((em, f1))
        (has if any(g.strip() for g in golds) else no).append((em, f1))
    name = normalizer if isinstance(normalizer, str) else getattr(normalizer, "__name__", "custom")
    return HumanPerformance(
        exact=_mean([e for e, _ in scored]), f1=_mean([f for _, f in scored]), n=len(scored),
        has_ans_exact=_mean([e for e, _ in has]), has_ans_f1=_mean([f for _, f in has]), has_ans_n=len(has),
        no_ans_exact=_mean([e for e, _ in no]), no_ans_f1=_mean([f for _, f in no]), no_ans_n=len(no),
        normalizer=name,
    )


def binned_counts(values: Sequence[int], edges: Sequence[int]) -> tuple[tuple[str, int], ...]:
    """Count integers into bins ``[edges[i], edges[i+1])`` plus a last open bin ``>= edges[-1]``.

    Labels are ``"3"`` for one-value bins, ``"6-10"`` for wider ones and ``"21+"`` for the last.

    Examples
    --------
    >>> binned_counts([1, 1, 2, 7, 30], [1, 2, 3, 6, 11])
    (('1', 2), ('2', 1), ('3-5', 0), ('6-10', 1), ('11+', 1))
    """
    if not edges or list(edges) != sorted(set(edges)):
        raise ValueError("edges must be a non-empty increasing sequence")
    bins = []
    for low, high in zip(edges, [*edges[1:], None]):
        if high is None:
            label, count = f"{low}+", sum(v >= low for v in values)
        else:
            label = str(low) if high == low + 1 else f"{low}-{high - 1}"
            count = sum(low <= v < high for v in values)
        bins.append((label, count))
    return tuple(bins)
