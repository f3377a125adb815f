"""What the leaderboard page, its API and its downloads show: plain dicts built from the stored
evaluations and the vMER selectors (no queries beyond what the selectors return)."""
from __future__ import annotations

from django.urls import reverse

from annotation.models import Project
from collector.models import Round
from courses.models import Course
from evaluation.models.leaderboards import ModelEvaluation
from evaluation.reports.leaderboards import headline, proportion_json
from evaluation.reports.sections import table_csv
from evaluation.selectors import leaderboards as selectors


def evaluation_payload(evaluation: ModelEvaluation, *, live_model_id: int | None = None) -> dict:
    """Status, provenance and headline of one evaluation (the list/socket form, no predictions)."""
    version = evaluation.model_version
    result = evaluation.result or {}
    percent = float((evaluation.progress or {}).get("percent", 0.0))
    return {
        "id": evaluation.pk,
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
        "progress": {k: v for k, v in (evaluation.progress or {}).items() if k != "owner"},
        "error": evaluation.error,
        "headline": headline(result),
        "created_at": evaluation.created_at.isoformat() if evaluation.created_at else None,
        "finished_at": evaluation.finished_at.isoformat() if evaluation.finished_at else None,
        # The shape static/js/evaluation.js renders (the reports' progress card is reused as is).
        "display": {"status": evaluation.get_status_display(), "percent": percent, "progress": _progress_text(evaluation)},
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
        return f"Evaluation of {name} failed; nothing was stored."
    if evaluation.status == ModelEvaluation.Status.DONE:
        return f"{name}: done."
    text = f"{name}: {progress.get('stage', 'Waiting for a worker')} ({float(progress.get('percent', 0.0)):.0f}%)."
    return f"{text} {progress['note']}" if progress.get("note") else text


def evaluation_json(evaluation: ModelEvaluation, *, live_model_id: int | None = None) -> dict:
    """The whole stored evaluation: payload, question ids and result with every prediction."""
    return {**evaluation_payload(evaluation, live_model_id=live_model_id),
            "question_ids": list(evaluation.question_ids), "result": evaluation.result or {}}


def _current_snapshot(round_: Round | None, project: Project | None) -> str | None:
    rows = (selectors.round_accepted_questions(round_=round_) if round_ is not None
            else selectors.project_test_questions(project=project))
    return selectors.snapshot_id(rows) if rows else None


def leaderboard(*, round_: Round | None = None, project: Project | None = None) -> dict:
    """Every evaluated model (its newest finished evaluation), best headline first."""
    live_id = round_.live_model_id if round_ is not None else None
    current = _current_snapshot(round_, project)
    entries = [
        {**evaluation_payload(evaluation, live_model_id=live_id), "on_current_data": evaluation.snapshot_id == current,
         "result": {k: v for k, v in (evaluation.result or {}).items() if k != "predictions"}}
        for evaluation in selectors.leaderboard_entries(round_=round_, project=project)
    ]
    entries.sort(key=lambda e: -((e["headline"] or {}).get("value") or 0.0))
    return {
        "target": "round" if round_ is not None else "project",
        "name": round_.name if round_ is not None else project.name,
        "metric": "accuracy" if round_ is not None else "exact match (EM)",
        "current_snapshot_id": current,
        "live_model": round_.live_model.name if round_ is not None and round_.live_model_id else None,
        "entries": entries,
    }


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


def leaderboard_csv(board: dict) -> str:
    return table_csv(leaderboard_table(board))


def leaderboard_chart(board: dict) -> dict:
    """A bar per model (the chart helper's ``bar`` kind), the live model named as such."""
    items = [{"label": e["model_version"]["name"] + (" (live)" if e["is_live_model"] else ""),
              "value": (e["headline"] or {}).get("value")} for e in board["entries"]]
    chance = {"value": 0.25, "label": "chance (1 in 4)"} if board["target"] == "round" else None
    return {"kind": "bar", "title": f"{board['metric'].capitalize()} of each model on {board['name']}",
            "items": items, "max": 1.0, "format": "percent", **({"reference": chance} if chance else {})}


def vmer_point(point: selectors.RoundVmer) -> dict:
    return {
        "round_id": point.round_id, "round": point.round_name, "title": point.round_title,
        "live_model": point.live_model, "models_in_loop": list(point.models_in_loop),
        "vmer": proportion_json(point.result), "validated": point.validated, "confirmed": point.confirmed,
        "fooled": point.fooled, "without_live_prediction": point.without_live_prediction,
    }


def vmer_curve(*, course: Course) -> dict:
    """vMER per round of the course, oldest first, and its chart."""
    points = [vmer_point(p) for p in selectors.course_vmer_curve(course=course)]
    chart = {"kind": "bar", "title": f"Validated model error rate per round of {course}", "max": 1.0,
             "format": "percent",
             "items": [{"label": p["round"], "value": p["vmer"]["value"]} for p in points]}
    return {"course_id": course.pk, "course": str(course), "rounds": points, "chart": chart,
            "definition": "Of each round's validated questions, the share whose answer key validation confirmed "
                          "and which fooled the round's live model when submitted (Dynabench's vMER)."}


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
            "name": name, "label": name.replace("_", " "), "query": f"?sort={name}&dir={next_direction}",
            "aria_sort": ("descending" if descending else "ascending") if current else "none",
        })
    return {"columns": columns, "headers": headers, "rows": rows,
            "display_rows": [[_cell_text(cell) for cell in row] for row in rows]}


def _cell_text(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
