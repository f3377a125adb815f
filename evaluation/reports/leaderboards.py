"""Leaderboard entries as documents: the result of one evaluation, built from predictions, and what
the leaderboard page, its API, its downloads and its socket show of the entries (no queries).

Multiple choice (a round): accuracy overall and per category with Wilson 95% intervals.
Span QA (a project's test split): SQuAD-2.0 EM and F1 overall, HasAns and NoAns (the repo's
``mlcore.stats.squad_metrics``), EM with its Wilson interval. Every document keeps the per-question
predictions, so the JSON download is the whole evidence. The reads (entries, snapshots, vMER) are
``evaluation/selectors/leaderboards.py``'s.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.i18n import digits
from core.jobs import job_display, job_kind, job_progress_shown
from evaluation.models import ModelEvaluation
from evaluation.reports.sections import table_csv
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


def evaluation_payload(evaluation: ModelEvaluation, *, live_model_id: int | None = None) -> dict:
    """Status, provenance and headline of one evaluation (the list/socket form, no predictions)."""
    version = evaluation.model_version
    result = evaluation.result or {}
    percent = float((evaluation.progress or {}).get("percent", 0.0))
    display = job_display(evaluation, {"status": evaluation.get_status_display(), "percent": percent,
                                       "progress": _progress_text(evaluation)})
    return {
        "id": evaluation.pk,
        "job": job_kind(evaluation),
        "status": evaluation.status,
        "status_display": evaluation.get_status_display(),
        "target": evaluation.target,
        "round_id": evaluation.round_id,
        "project_id": evaluation.project_id,
        "model_version": {"id": version.pk, "name": version.name, "kind": version.kind,
                          "revision": evaluation.model_revision},
        "is_live_model": live_model_id is not None and version.pk == live_model_id,
        "snapshot_id": evaluation.snapshot_id,
        "questions": len(evaluation.question_ids),
        "progress": job_progress_shown(evaluation),
        "error": evaluation.error,
        "stalled": bool(display["stalled"]),
        "headline": headline(result),
        "created_at": evaluation.created_at.isoformat() if evaluation.created_at else None,
        "finished_at": evaluation.finished_at.isoformat() if evaluation.finished_at else None,
        # The shape static/js/job_progress.js renders (templates/includes/job_progress.html).
        "display": display,
        "urls": {
            "report": _page_url(evaluation),
            "api": reverse("evaluation_api:model_evaluation_detail", args=[evaluation.pk]),
            "json": reverse("evaluation:model_evaluation_json", args=[evaluation.pk]),
            "socket": f"/ws/evaluation/model-evaluations/{evaluation.pk}/",
        },
    }


def _page_url(evaluation: ModelEvaluation) -> str:
    if evaluation.round_id:
        return reverse("evaluation:round_leaderboard", args=[evaluation.round_id])
    return reverse("evaluation:project_leaderboard", args=[evaluation.project_id])


def _progress_text(evaluation: ModelEvaluation) -> str:
    progress = evaluation.progress or {}
    name = evaluation.model_version.name
    if evaluation.status == ModelEvaluation.Status.FAILED:
        return _("Evaluation of %(name)s failed; nothing was stored.") % {"name": name}
    if evaluation.status == ModelEvaluation.Status.DONE:
        return _("%(name)s: done.") % {"name": name}
    text = _("%(name)s: %(stage)s (%(percent)s%%).") % {
        # The stored stage is an English msgid (evaluation/services/leaderboards.py), worded here.
        "name": name, "stage": _(progress.get("stage") or "Waiting for a worker"),
        "percent": digits(f"{float(progress.get('percent', 0.0)):.0f}")}
    return f"{text} {progress['note']}" if progress.get("note") else text


def evaluation_json(evaluation: ModelEvaluation, *, live_model_id: int | None = None) -> dict:
    """The whole stored evaluation: payload, question ids and result with every prediction."""
    return {**evaluation_payload(evaluation, live_model_id=live_model_id),
            "question_ids": list(evaluation.question_ids), "result": evaluation.result or {}}


def leaderboard_table(board: dict) -> dict:
    """The leaderboard as one table (``{"columns", "rows"}``) for CSV and the accessible HTML table."""
    span = board["target"] == "project"
    categories: list[str] = []
    for entry in board["entries"]:
        for row in entry["result"].get("per_category", []):
            if row["category"] not in categories:
                categories.append(row["category"])
    columns = ["model", "kind", "revision", "live_model", "questions", "snapshot_id", "on_current_data"]
    columns += (["em", "em_low", "em_high", "f1", "has_ans_em", "has_ans_f1", "no_ans_em", "no_ans_f1"] if span
                else ["accuracy", "accuracy_low", "accuracy_high"] + [f"accuracy_{c}" for c in categories])
    rows = []
    for entry in board["entries"]:
        result, top = entry["result"], entry["headline"] or {}
        row = [entry["model_version"]["name"], entry["model_version"]["kind"], entry["model_version"]["revision"],
               entry["is_live_model"], entry["questions"], entry["snapshot_id"], entry["on_current_data"],
               top.get("value"), top.get("low"), top.get("high")]
        if span:
            row += [result["overall"]["f1"], result["has_ans"]["exact"]["value"], result["has_ans"]["f1"],
                    result["no_ans"]["exact"]["value"], result["no_ans"]["f1"]]
        else:
            per = {r["category"]: r["value"] for r in result.get("per_category", [])}
            row += [per.get(c) for c in categories]
        rows.append(row)
    return {"columns": columns, "rows": rows}


def leaderboard_filename(*, round_=None, project=None, ext: str) -> str:
    """The download's file name: ``stumper-leaderboard-round-<name>.<ext>`` or ``...-project-<id>.<ext>``."""
    return f"stumper-leaderboard-{f'round-{round_.name}' if round_ is not None else f'project-{project.pk}'}.{ext}"


def leaderboard_csv(board: dict) -> str:
    return table_csv(leaderboard_table(board))


def leaderboard_chart(board: dict) -> dict:
    """A bar per model (the chart helper's ``bar`` kind), the live model named as such."""
    items = [{"label": _("%(name)s (live)") % {"name": e["model_version"]["name"]} if e["is_live_model"]
              else e["model_version"]["name"],
              "value": (e["headline"] or {}).get("value")} for e in board["entries"]]
    chance = {"value": 0.25, "label": _("chance (1 in 4)")} if board["target"] == "round" else None
    title = (_("Accuracy of each model on %(name)s") if board["target"] == "round"
             else _("Exact match (EM) of each model on %(name)s")) % {"name": board["name"]}
    return {"kind": "bar", "title": title,
            "items": items, "max": 1.0, "format": "percent", **({"reference": chance} if chance else {})}


@dataclass(frozen=True)
class RoundVmer:
    round_id: int
    round_name: str
    round_title: str
    live_model: str | None  # the round's live model now
    models_in_loop: tuple[str, ...]  # the versions that answered its questions at submission
    result: ProportionResult
    validated: int
    confirmed: int
    fooled: int
    without_live_prediction: int  # validated questions the live model never answered (left out)


def vmer_point(point: RoundVmer) -> dict:
    return {
        "round_id": point.round_id, "round": point.round_name, "title": point.round_title,
        "live_model": point.live_model, "models_in_loop": list(point.models_in_loop),
        "vmer": proportion_json(point.result), "validated": point.validated, "confirmed": point.confirmed,
        "fooled": point.fooled, "without_live_prediction": point.without_live_prediction,
    }


# The leaderboard's column headings as people read them (the CSV keeps the keys).
HEADER_LABELS = {
    "model": gettext_lazy("model"), "kind": gettext_lazy("kind"), "revision": gettext_lazy("revision"),
    "live_model": gettext_lazy("live model"), "questions": gettext_lazy("questions"),
    "snapshot_id": gettext_lazy("snapshot id"), "on_current_data": gettext_lazy("on current data"),
    "em": gettext_lazy("em"), "em_low": gettext_lazy("em low"), "em_high": gettext_lazy("em high"),
    "f1": gettext_lazy("f1"), "has_ans_em": gettext_lazy("has ans em"), "has_ans_f1": gettext_lazy("has ans f1"),
    "no_ans_em": gettext_lazy("no ans em"), "no_ans_f1": gettext_lazy("no ans f1"),
    "accuracy": gettext_lazy("accuracy"), "accuracy_low": gettext_lazy("accuracy low"),
    "accuracy_high": gettext_lazy("accuracy high"),
}


def _header_label(name: str) -> str:
    if name in HEADER_LABELS:
        return str(HEADER_LABELS[name])
    if name.startswith("accuracy_"):
        return _("accuracy %(category)s") % {"category": name.removeprefix("accuracy_")}
    return name.replace("_", " ")


def sorted_table(table: dict, *, sort: str | None, direction: str | None) -> dict:
    """The table sorted by column ``sort`` (``direction`` "asc" or "desc"; empty cells last), with
    each header's sort link and ``aria-sort`` state, so sorting works by keyboard and without JavaScript."""
    columns = table["columns"]
    key = sort if sort in columns else None
    descending = direction != "asc"
    rows = list(table["rows"])
    if key is not None:
        i = columns.index(key)
        present = [r for r in rows if r[i] is not None]
        present.sort(key=lambda r: (isinstance(r[i], str), r[i]), reverse=descending)
        rows = present + [r for r in rows if r[i] is None]
    headers = []
    for name in columns:
        current = name == key
        next_direction = "asc" if current and descending else "desc"
        headers.append({
            "name": name, "label": _header_label(name), "query": f"?sort={name}&dir={next_direction}",
            "aria_sort": ("descending" if descending else "ascending") if current else "none",
        })
    return {"columns": columns, "headers": headers, "rows": rows,
            "display_rows": [[_cell_text(cell) for cell in row] for row in rows]}


def _cell_text(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
