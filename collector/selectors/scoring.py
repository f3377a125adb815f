"""Reads of a round's cross-validation scoring runs, their folds and results, with access checks.

The round page and its websocket show the newest run of each kind (``scoring_runs_latest``); the
API lists every run and reads one by id, for the course's instructors only.
"""
from django.db.models import Avg, BooleanField, Case, FloatField, OuterRef, QuerySet, Subquery, Value, When

from accounts.models import User
from collector.models import CVPrediction, Round, ScoringFold, ScoringRun
from collector.presentation.cv_accuracy import small_folds_warning, smallest_fold
from core.exceptions import AccessError, NotFoundError
from courses.selectors import user_manages_course

_FORBIDDEN = "Only the course's instructors can open this page."


def _latest_done_run(kind: str) -> Subquery:
    # Nested in the CV-prediction subquery below, hence the double OuterRef to the question.
    runs = ScoringRun.objects.filter(round=OuterRef(OuterRef("round_id")), kind=kind, status=ScoringRun.Status.DONE)
    return Subquery(runs.order_by("-finished_at", "-pk").values("pk")[:1])


def fooled_cv_fraction() -> Subquery:
    """Share of trials whose out-of-fold model got the question wrong, in the latest finished run."""
    rows = CVPrediction.objects.filter(question=OuterRef("pk"), run=_latest_done_run(ScoringRun.Kind.CROSS_VALIDATION))
    fooled = Avg(Case(When(correct=False, then=Value(1.0)), default=Value(0.0), output_field=FloatField()))
    return Subquery(rows.values("question").annotate(fooled=fooled).values("fooled")[:1], output_field=FloatField())


def answer_only_correct() -> Subquery:
    rows = CVPrediction.objects.filter(question=OuterRef("pk"), run=_latest_done_run(ScoringRun.Kind.ANSWER_ONLY), trial=0)
    return Subquery(rows.values("correct")[:1], output_field=BooleanField())


def latest_scoring_run(*, round_: Round, kind: str, finished: bool = False) -> ScoringRun | None:
    runs = ScoringRun.objects.filter(round=round_, kind=kind)
    if finished:
        runs = runs.filter(status=ScoringRun.Status.DONE)
    return runs.order_by("-created_at", "-pk").first()


def scoring_runs_latest(*, round_: Round) -> list[ScoringRun]:
    """The newest run of each kind (any status), cross-validation first: the round page's
    "Scoring" section and the scoring websocket show these."""
    runs = (latest_scoring_run(round_=round_, kind=kind) for kind in ScoringRun.Kind.values)
    return [run for run in runs if run is not None]


def scoring_run_get(*, run_id: int) -> ScoringRun:
    """A run re-read from the database (``score_round --wait`` follows its progress with it)."""
    return ScoringRun.objects.select_related("round").get(pk=run_id)


def scoring_run_folds(*, run_id: int, after_id: int = 0) -> QuerySet[ScoringFold]:
    """The run's finished (trial, fold) results, in the order they finished; ``after_id`` skips
    those already seen."""
    return ScoringFold.objects.filter(run_id=run_id, pk__gt=after_id).order_by("pk")


def scoring_stats(*, round_: Round) -> dict:
    """``scored_cv``, ``fooled_cv`` (trial-averaged, summed) and the two CV accuracies named as in
    ``collector/presentation/cv_accuracy.py`` (``cv_accuracy_pooled``, the headline; ``cv_accuracy_mean`` and
    ``cv_accuracy_std`` over folds, CODAH-style), with ``cv_smallest_fold`` and ``cv_warning``
    when folds are too small; once run, ``answer_only_accuracy``. From the latest finished runs."""
    stats: dict = {"scored_cv": 0, "fooled_cv": 0.0, "cv_accuracy_pooled": None, "cv_accuracy_mean": None,
                   "cv_accuracy_std": None, "cv_smallest_fold": None, "cv_warning": ""}
    cv = latest_scoring_run(round_=round_, kind=ScoringRun.Kind.CROSS_VALIDATION, finished=True)
    if cv is not None:
        stats.update(
            scored_cv=cv.predictions.values("question").distinct().count(),
            fooled_cv=round(sum(1 - p for p in _correct_fraction_per_question(cv)), 6),
            cv_accuracy_pooled=cv.summary.get("accuracy"),
            cv_accuracy_mean=cv.summary.get("mean"),
            cv_accuracy_std=cv.summary.get("std"),
            cv_smallest_fold=smallest_fold(cv.summary),
            cv_warning=small_folds_warning(cv.summary),
        )
    answer_only = latest_scoring_run(round_=round_, kind=ScoringRun.Kind.ANSWER_ONLY, finished=True)
    if answer_only is not None:
        stats["answer_only_accuracy"] = answer_only.summary.get("accuracy")
    return stats


def _correct_fraction_per_question(run: ScoringRun) -> list[float]:
    rows = run.predictions.values("question").annotate(
        correct=Avg(Case(When(correct=True, then=Value(1.0)), default=Value(0.0), output_field=FloatField()))
    )
    return [row["correct"] for row in rows]


def scoring_runs_of_round(*, round_) -> QuerySet[ScoringRun]:
    """Every scoring run of the round, newest first."""
    return ScoringRun.objects.filter(round=round_).select_related("round").order_by("-created_at", "-pk")


def scoring_run_for_manager(*, user: User, run_id: int) -> ScoringRun:
    """The run if ``user`` teaches its round's course (or is staff); otherwise a clear AccessError."""
    run = ScoringRun.objects.select_related("round__course").filter(pk=run_id).first()
    if run is None:
        raise NotFoundError("This scoring run does not exist.")
    if not user_manages_course(user=user, course=run.round.course):
        raise AccessError(_FORBIDDEN)
    return run
