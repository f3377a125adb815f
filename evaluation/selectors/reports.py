"""Read-only queries of the evaluation app; views, APIs, consumers and the report builders
read through these."""
from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import User
from annotation.models import Project, SpanQuestion
from annotation.selectors.stats import blind_answers_of_questions
from collector.models import CVPrediction, Prediction, Question, Round, ScoringRun
from collector.selectors.rounds import round_get
from collector.selectors.scoring import latest_scoring_run
from collector.selectors.validation import validation_answers
from core.exceptions import AccessError, NotFoundError
from courses.selectors import user_manages_course
from evaluation.models import EvaluationRun
from evaluation.reports.projects import ProjectReportInputs, SpanQuestionRecord
from evaluation.reports.rounds import OutOfFoldPrediction, QuestionRecord, RoundReportInputs, ScoringRunInfo
from modelhub.models import ModelVersion

PROJECT_FORBIDDEN = "Only the project's owner can run or see its evaluation reports."


def evaluation_run_get(*, run_id: int) -> EvaluationRun:
    """A run with its target and model, or an AccessError that says it does not exist."""
    try:
        return EvaluationRun.objects.select_related(
            "round", "round__course", "project", "model_version", "created_by"
        ).get(pk=run_id)
    except (EvaluationRun.DoesNotExist, ValueError, TypeError):
        raise NotFoundError("This evaluation report does not exist.") from None


def user_may_see_run(*, user: User, run: EvaluationRun) -> bool:
    """Instructors of the round's course see a round's reports, the owner a project's (and staff
    both); students and crowdworkers never."""
    if run.target == EvaluationRun.Target.ROUND and run.round_id:
        return user_manages_course(user=user, course=run.round.course)
    if run.target == EvaluationRun.Target.PROJECT and run.project_id:
        return _manages_project(user, run.project)
    return bool(user.is_authenticated and (user.is_staff or user.is_superuser))


def _manages_project(user: User, project: Project) -> bool:
    return bool(user.is_authenticated and (project.owner_id == user.pk or user.is_staff or user.is_superuser))


def evaluation_run_for_user(*, user: User, run_id: int) -> EvaluationRun:
    """The run if ``user`` may see it; otherwise a clear AccessError (403)."""
    run = evaluation_run_get(run_id=run_id)
    if not user_may_see_run(user=user, run=run):
        if run.target == EvaluationRun.Target.PROJECT:
            raise AccessError(PROJECT_FORBIDDEN)
        raise AccessError("Only the instructors of this round's course can see its evaluation reports.")
    return run


def evaluation_run_table(*, run: EvaluationRun, section: str, table: str) -> dict | None:
    """Table ``table`` of section ``section`` of a report (``{"columns", "rows", ...}``), or None."""
    item = ((run.result or {}).get(section) or {}).get("tables", {}).get(table)
    return item if isinstance(item, dict) else None


def round_for_evaluation(*, user: User, round_id: int) -> Round:
    """The round if ``user`` may run and read its reports (its course's instructors, staff)."""
    round_ = round_get(round_id=round_id)
    if not user_manages_course(user=user, course=round_.course):
        raise AccessError("Only the instructors of this round's course can run or see its evaluation reports.")
    return round_


def project_for_evaluation(*, user: User, project_id: int) -> Project:
    """The project if ``user`` owns it (or is staff); otherwise a clear AccessError."""
    project = Project.objects.select_related("owner", "qa_model").filter(pk=project_id).first()
    if project is None:
        raise NotFoundError("There is no such annotation project.")
    if not _manages_project(user, project):
        raise AccessError(PROJECT_FORBIDDEN)
    return project


def evaluation_target(*, user: User, round_id: int | None = None, project_id: int | None = None) -> dict:
    """The round (``round_id``) or project of a URL as the keyword argument the services and
    selectors take, ``{"round_": round}`` or ``{"project": project}``, if ``user`` may run and read
    its reports (else the AccessError of :func:`round_for_evaluation` / :func:`project_for_evaluation`)."""
    if round_id is not None:
        return {"round_": round_for_evaluation(user=user, round_id=round_id)}
    return {"project": project_for_evaluation(user=user, project_id=project_id)}


def target_kind(target: dict) -> str:
    """``"round"`` or ``"project"``: the prefix of the target's URL names."""
    return "round" if "round_" in target else "project"


def evaluation_runs(*, round_: Round | None = None, project: Project | None = None) -> QuerySet[EvaluationRun]:
    """Every report of the round (or project), newest first."""
    runs = EvaluationRun.objects.filter(round=round_) if round_ is not None else EvaluationRun.objects.filter(
        project=project)
    return runs.select_related("model_version", "created_by").order_by("-created_at", "-pk")


def latest_evaluation_run(*, round_: Round | None = None, project: Project | None = None,
                          finished: bool = False) -> EvaluationRun | None:
    runs = evaluation_runs(round_=round_, project=project)
    if finished:
        runs = runs.filter(status=EvaluationRun.Status.DONE)
    return runs.first()


def active_evaluation_run(*, round_: Round | None = None, project: Project | None = None) -> EvaluationRun | None:
    return evaluation_runs(round_=round_, project=project).filter(status__in=EvaluationRun.ACTIVE).first()


# --- What a round report reads ---------------------------------------------------------------


def round_question_ids(*, round_: Round) -> list[int]:
    """The round's questions now, oldest first: the data snapshot of a new report."""
    return list(Question.objects.filter(round=round_).order_by("id").values_list("id", flat=True))


def latest_finished_scoring_run(*, round_: Round, kind: str) -> ScoringRun | None:
    return latest_scoring_run(round_=round_, kind=kind, finished=True)


def report_questions(*, question_ids: list[int]) -> list[QuestionRecord]:
    """The snapshot's questions that still exist, in id order."""
    rows = Question.objects.filter(pk__in=question_ids).order_by("id").values(
        "id", "author_id", "prompt", "choices", "correct_index", "categories", "updated_at"
    )
    return [
        QuestionRecord(row["id"], row["author_id"], row["prompt"], tuple(row["choices"]), row["correct_index"],
                       tuple(row["categories"] or ()), row["updated_at"].isoformat())
        for row in rows
    ]


def live_predictions(*, question_ids: list[int]) -> dict[int, tuple[int, int | None]]:
    """``question_id -> (predicted_index, model_version_id)`` of finished live predictions."""
    rows = Prediction.objects.filter(
        question_id__in=question_ids, kind=Prediction.Kind.LIVE, status=Prediction.Status.DONE,
        predicted_index__isnull=False,
    ).values_list("question_id", "predicted_index", "model_version_id")
    return {qid: (index, version) for qid, index, version in rows}


def scoring_run_predictions(*, run_id: int) -> list[OutOfFoldPrediction]:
    """Every out-of-fold prediction of a scoring run, ordered by trial and question."""
    rows = CVPrediction.objects.filter(run_id=run_id).order_by("trial", "question_id").values_list(
        "question_id", "trial", "fold", "predicted_index"
    )
    return [OutOfFoldPrediction(*row) for row in rows]


def scoring_run_by_id(*, run_id: int | None) -> ScoringRun | None:
    if run_id is None:
        return None
    return ScoringRun.objects.filter(pk=run_id, status=ScoringRun.Status.DONE).first()


def model_version_by_id(*, version_id: int | None) -> ModelVersion | None:
    if version_id is None:
        return None
    return ModelVersion.objects.filter(pk=version_id).first()


def round_human_answers(*, question_ids: list[int]) -> list[tuple[int, bool]]:
    """``(question_id, answered correctly)`` per blind validator answer to these questions
    (``collector.selectors.validation.validation_answers``): the report's human accuracy per category."""
    return [(answer.question_id, bool(answer.is_correct)) for answer in validation_answers(question_ids=question_ids)]


def _scoring_info(run_id: int | None) -> ScoringRunInfo | None:
    run = scoring_run_by_id(run_id=run_id)
    if run is None:
        return None
    return ScoringRunInfo(run.pk, run.kind, run.folds, run.trials, run.base_checkpoint,
                          tuple(scoring_run_predictions(run_id=run.pk)))


def round_report_inputs(*, run: EvaluationRun) -> RoundReportInputs:
    """The data named by the run's snapshot (questions that were deleted since drop out)."""
    snapshot = run.snapshot
    question_ids = list(snapshot.get("question_ids", []))
    return RoundReportInputs(
        round_name=run.round.name,
        questions=tuple(report_questions(question_ids=question_ids)),
        live=live_predictions(question_ids=question_ids),
        cv=_scoring_info(snapshot.get("cv_run_id")),
        answer_only=_scoring_info(snapshot.get("answer_only_run_id")),
        human=tuple(round_human_answers(question_ids=question_ids)),
    )


# --- What a project report reads -------------------------------------------------------------


def project_question_ids(*, project: Project) -> list[int]:
    """The project's submitted questions now (drafts and removed ones are not data), by id."""
    return list(SpanQuestion.objects.filter(project=project, status=SpanQuestion.Status.SUBMITTED)
                .order_by("id").values_list("id", flat=True))


def report_span_questions(*, question_ids: list[int]) -> list[SpanQuestionRecord]:
    """The snapshot's questions that are still submitted, with gold answers and the QA model's answer."""
    questions = (SpanQuestion.objects.filter(pk__in=question_ids, status=SpanQuestion.Status.SUBMITTED)
                 .select_related("paragraph__article").prefetch_related("answers").order_by("id"))
    return [
        SpanQuestionRecord(
            id=q.pk, qid=q.qid, question=q.question, context=q.paragraph.context, title=q.paragraph.article.title,
            split=q.paragraph.article.split, is_impossible=q.is_impossible,
            answers=tuple(a.text for a in q.answers.all()), answer_starts=tuple(a.answer_start for a in q.answers.all()),
            prediction=q.qa_prediction_text if q.qa_model_version_id is not None else None,
            model_version_id=q.qa_model_version_id,
        )
        for q in questions
    ]


def project_report_inputs(*, run: EvaluationRun) -> ProjectReportInputs:
    question_ids = list(run.snapshot.get("question_ids", []))
    blind = blind_answers_of_questions(question_ids=question_ids)
    return ProjectReportInputs(run.project.name, run.project.language,
                               tuple(report_span_questions(question_ids=question_ids)),
                               human_pairs=blind.pairs, human_left_out=blind.left_out)
