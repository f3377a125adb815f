"""Read-only queries of the leaderboards: which questions a model is evaluated on, the entries
of a round or project (and the leaderboard document built from them), and each round's validated
model error rate (vMER)."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from annotation.models import Project, SpanQuestion, Split
from collector.models import Prediction, Question, QuestionStatus, Round
from core.exceptions import NotFoundError
from courses.models import Course
from evaluation.models.leaderboards import ModelEvaluation
from evaluation.reports.leaderboards import RoundVmer, evaluation_payload, vmer_point
from evaluation.reports.projects import SpanQuestionRecord
from evaluation.selectors import reports as report_selectors
from mlcore.stats.proportions import validated_model_error_rate
from modelhub.models import ModelVersion
from modelhub.selectors import model_version_for_user, models_usable_by

MC_KINDS = (ModelVersion.Kind.ZERO_SHOT, ModelVersion.Kind.MULTIPLE_CHOICE)
# A question's validation is over once it is accepted or rejected (an appeal may reopen it).
VALIDATED_STATUSES = (QuestionStatus.ACCEPTED, QuestionStatus.REJECTED, QuestionStatus.APPEALED)


def snapshot_id(rows: Iterable[tuple[int, datetime]]) -> str:
    """sha256 of the sorted ``(question id, updated_at)`` pairs: editing or adding a question changes it."""
    payload = json.dumps(sorted((int(pk), stamp.isoformat()) for pk, stamp in rows), separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


def round_accepted_questions(*, round_: Round) -> list[tuple[int, datetime]]:
    """``(id, updated_at)`` of the round's accepted questions, by id."""
    return list(Question.objects.filter(round=round_, status=QuestionStatus.ACCEPTED).order_by("id")
                .values_list("id", "updated_at"))


def project_test_questions(*, project: Project) -> list[tuple[int, datetime]]:
    """``(id, updated_at)`` of the project's submitted questions on test-split articles, by id."""
    return list(SpanQuestion.objects.filter(project=project, status=SpanQuestion.Status.SUBMITTED,
                                            paragraph__article__split=Split.TEST).order_by("id")
                .values_list("id", "updated_at"))


@dataclass(frozen=True)
class MCQuestion:
    id: int
    prompt: str
    choices: tuple[str, ...]
    correct_index: int
    categories: tuple[str, ...]


def mc_questions(*, question_ids: list[int]) -> list[MCQuestion]:
    """The snapshot's questions that still exist, in id order."""
    rows = Question.objects.filter(pk__in=question_ids).order_by("id").values_list(
        "id", "prompt", "choices", "correct_index", "categories")
    return [MCQuestion(pk, prompt, tuple(choices), correct, tuple(categories or ()))
            for pk, prompt, choices, correct, categories in rows]


def span_questions(*, question_ids: list[int]) -> list[SpanQuestionRecord]:
    return report_selectors.report_span_questions(question_ids=question_ids)


def model_version_for_evaluation(*, user: User, version_id: int) -> ModelVersion:
    """The version if ``user`` may use it (``models_usable_by``: not another course's); else AccessError."""
    return model_version_for_user(user=user, model_id=version_id)


def model_evaluation_get(*, evaluation_id: int) -> ModelEvaluation:
    try:
        return ModelEvaluation.objects.select_related("round", "round__course", "project", "model_version").get(
            pk=evaluation_id)
    except (ModelEvaluation.DoesNotExist, ValueError, TypeError):
        raise NotFoundError("This model evaluation does not exist.") from None


def model_evaluation_for_user(*, user: User, evaluation_id: int) -> ModelEvaluation:
    """The evaluation if ``user`` may see its round's (or project's) reports; else AccessError."""
    evaluation = model_evaluation_get(evaluation_id=evaluation_id)
    if evaluation.round_id:
        report_selectors.round_for_evaluation(user=user, round_id=evaluation.round_id)
    else:
        report_selectors.project_for_evaluation(user=user, project_id=evaluation.project_id)
    return evaluation


def model_evaluations(*, round_: Round | None = None, project: Project | None = None) -> QuerySet[ModelEvaluation]:
    """Every evaluation of the target, newest first."""
    evaluations = (ModelEvaluation.objects.filter(round=round_) if round_ is not None
                   else ModelEvaluation.objects.filter(project=project))
    return evaluations.select_related("model_version", "round", "project").order_by("-created_at", "-pk")


def leaderboard_entries(*, round_: Round | None = None, project: Project | None = None) -> list[ModelEvaluation]:
    """The newest finished evaluation of each model version on the target, newest first."""
    entries: dict[int, ModelEvaluation] = {}
    for evaluation in model_evaluations(round_=round_, project=project).filter(status=ModelEvaluation.Status.DONE):
        entries.setdefault(evaluation.model_version_id, evaluation)
    return list(entries.values())


def active_model_evaluations(*, round_: Round | None = None, project: Project | None = None) -> list[ModelEvaluation]:
    return list(model_evaluations(round_=round_, project=project).filter(status__in=ModelEvaluation.ACTIVE))


def latest_failed_model_evaluations(*, round_: Round | None = None, project: Project | None = None,
                                    limit: int = 3) -> list[ModelEvaluation]:
    return list(model_evaluations(round_=round_, project=project).filter(status=ModelEvaluation.Status.FAILED)[:limit])


def evaluable_model_versions(*, user: User, round_: Round | None = None,
                             project: Project | None = None) -> QuerySet[ModelVersion]:
    """Versions ``user`` may use (``models_usable_by``) that can answer the target's questions
    (multiple choice or span QA)."""
    kinds = MC_KINDS if round_ is not None else (ModelVersion.Kind.QUESTION_ANSWERING,)
    return models_usable_by(user=user, kinds=kinds).order_by("name")


# --- vMER -----------------------------------------------------------------------------------


def round_vmer(*, round_: Round) -> RoundVmer:
    """Dynabench's vMER of a round: of its validated questions, the share whose answer key was
    confirmed (accepted) and which fooled the live model when submitted."""
    questions = list(Question.objects.filter(round=round_, status__in=VALIDATED_STATUSES).values_list("id", "status"))
    live = dict(Prediction.objects.filter(
        question__round=round_, kind=Prediction.Kind.LIVE, status=Prediction.Status.DONE, fooled__isnull=False,
    ).values_list("question_id", "fooled"))
    scored = [(status, live[pk]) for pk, status in questions if pk in live]
    confirmed = [status == QuestionStatus.ACCEPTED for status, _ in scored]
    fooled = [bool(f) for _, f in scored]
    names = sorted(set(ModelVersion.objects.filter(
        pk__in=Prediction.objects.filter(question__round=round_, kind=Prediction.Kind.LIVE,
                                         status=Prediction.Status.DONE).values("model_version_id"),
    ).values_list("name", flat=True)))
    return RoundVmer(
        round_id=round_.pk, round_name=round_.name, round_title=str(round_),
        live_model=round_.live_model.name if round_.live_model_id else None, models_in_loop=tuple(names),
        result=validated_model_error_rate(confirmed, fooled), validated=len(scored), confirmed=sum(confirmed),
        fooled=sum(fooled), without_live_prediction=len(questions) - len(scored),
    )


def course_vmer_curve(*, course: Course) -> list[RoundVmer]:
    """vMER of each of the course's rounds, oldest round first (the "harder to fool" curve)."""
    rounds = Round.objects.filter(course=course).select_related("live_model").order_by("created_at", "pk")
    return [round_vmer(round_=round_) for round_ in rounds]


def vmer_curve(*, course: Course) -> dict:
    """vMER per round of the course, oldest first, and its chart."""
    points = [vmer_point(p) for p in course_vmer_curve(course=course)]
    chart = {"kind": "bar", "title": _("Validated model error rate per round of %(course)s") % {"course": course},
             "max": 1.0,
             "format": "percent",
             "items": [{"label": p["round"], "value": p["vmer"]["value"]} for p in points]}
    return {"course_id": course.pk, "course": str(course), "rounds": points, "chart": chart,
            "definition": _("Of each round's validated questions, the share whose answer key validation confirmed "
                            "and which fooled the round's live model when submitted (Dynabench's vMER).")}


# --- The leaderboard ------------------------------------------------------------------------


def _current_snapshot(round_: Round | None, project: Project | None) -> str | None:
    rows = (round_accepted_questions(round_=round_) if round_ is not None
            else project_test_questions(project=project))
    return snapshot_id(rows) if rows else None


def leaderboard(*, round_: Round | None = None, project: Project | None = None) -> dict:
    """Every evaluated model (its newest finished evaluation), best headline first."""
    live_id = round_.live_model_id if round_ is not None else None
    current = _current_snapshot(round_, project)
    entries = [
        {**evaluation_payload(evaluation, live_model_id=live_id), "on_current_data": evaluation.snapshot_id == current,
         "result": {k: v for k, v in (evaluation.result or {}).items() if k != "predictions"}}
        for evaluation in leaderboard_entries(round_=round_, project=project)
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
