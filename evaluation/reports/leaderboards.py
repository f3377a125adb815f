"""A leaderboard entry's result document, built from predictions without touching the database.

Multiple choice (a round): accuracy overall and per category with Wilson 95% intervals.
Span QA (a project's test split): SQuAD-2.0 EM and F1 overall, HasAns and NoAns (the repo's
``mlcore.stats.squad_metrics``), EM with its Wilson interval. Every document keeps the per-question
predictions, so the JSON download is the whole evidence.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from mlcore.stats.proportions import ProportionResult, grouped_proportions, proportion
from mlcore.stats.squad_metrics import score_question

CONFIDENCE_LEVEL = 0.95


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else round(float(value), 6)


def proportion_json(result: ProportionResult) -> dict:
    """``{k, n, value, low, high}`` (JSON has no NaN: ``None`` without data)."""
    ci = result.confidence_interval(CONFIDENCE_LEVEL)
    return {"k": result.k, "n": result.n, "value": _finite(result.statistic), "low": _finite(ci.low),
            "high": _finite(ci.high)}


def mc_result(*, question_ids: Sequence[int], correct_index: Sequence[int], predicted: Sequence[int],
              categories: Sequence[Sequence[str]], category_order: Sequence[str]) -> dict:
    """Accuracy overall and per category (categories of ``category_order`` first, then any other)."""
    hits = [int(p) == int(c) for p, c in zip(predicted, correct_index, strict=True)]
    grouped = grouped_proportions(hits, [tuple(c) for c in categories])
    names = [c for c in category_order if c in grouped.per_group] + sorted(set(grouped.per_group) - set(category_order))
    return {
        "kind": "multiple_choice",
        "confidence_level": CONFIDENCE_LEVEL,
        "accuracy": proportion_json(grouped.overall),
        "per_category": [{"category": name, **proportion_json(grouped.per_group[name])} for name in names],
        "predictions": [{"question_id": int(q), "predicted_index": int(p), "correct_index": int(c), "correct": h}
                        for q, p, c, h in zip(question_ids, predicted, correct_index, hits)],
    }


def _span_block(ems: list[int], f1s: list[float]) -> dict:
    return {"exact": proportion_json(proportion(sum(ems), len(ems))),
            "f1": _finite(100 * sum(f1s) / len(f1s)) if f1s else None, "n": len(ems)}


def span_result(*, question_ids: Sequence[int], qids: Sequence[str], golds: Sequence[Sequence[str]],
                impossible: Sequence[bool], predictions: Sequence[str], normalizer: str) -> dict:
    """EM/F1 (F1 in percent, as the official script) overall, on answerable and unanswerable questions."""
    scores = [score_question(list(g), p, normalizer=normalizer) for g, p in zip(golds, predictions, strict=True)]
    ems, f1s = [em for em, _ in scores], [f1 for _, f1 in scores]
    has = [i for i, imp in enumerate(impossible) if not imp]
    no = [i for i, imp in enumerate(impossible) if imp]
    return {
        "kind": "question_answering",
        "confidence_level": CONFIDENCE_LEVEL,
        "normalizer": normalizer,
        "overall": _span_block(ems, f1s),
        "has_ans": _span_block([ems[i] for i in has], [f1s[i] for i in has]),
        "no_ans": _span_block([ems[i] for i in no], [f1s[i] for i in no]),
        "predictions": [{"question_id": int(q), "qid": qid, "prediction": p, "exact": em, "f1": round(f1, 6)}
                        for q, qid, p, (em, f1) in zip(question_ids, qids, predictions, scores)],
    }


def headline(result: dict) -> dict | None:
    """The leaderboard's main number: accuracy (multiple choice) or EM (span QA)."""
    if result.get("kind") == "multiple_choice":
        return result.get("accuracy")
    if result.get("kind") == "question_answering":
        return result.get("overall", {}).get("exact")
    return None
