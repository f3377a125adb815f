"""Reads of a round's long jobs (scoring runs and training jobs) with their access checks.

The round page and its websocket show the newest job of each kind (``selectors``); the API
lists every job and reads one by id, for the course's instructors only.
"""
from django.db.models import QuerySet

from accounts.models import User
from collector.models import ScoringRun, TrainingJob
from core.exceptions import AccessError
from courses.selectors import user_manages_course

_FORBIDDEN = "Only the course's instructors can open this page."


def scoring_runs_of_round(*, round_) -> QuerySet[ScoringRun]:
    """Every scoring run of the round, newest first."""
    return ScoringRun.objects.filter(round=round_).select_related("round").order_by("-created_at", "-pk")


def scoring_run_for_manager(*, user: User, run_id: int) -> ScoringRun:
    """The run if ``user`` teaches its round's course (or is staff); otherwise a clear AccessError."""
    run = ScoringRun.objects.select_related("round__course").filter(pk=run_id).first()
    if run is None:
        raise AccessError("This scoring run does not exist.")
    if not user_manages_course(user=user, course=run.round.course):
        raise AccessError(_FORBIDDEN)
    return run


def training_jobs_of_round(*, round_) -> QuerySet[TrainingJob]:
    """Every training job started from the round, newest first."""
    return (TrainingJob.objects.filter(round=round_).select_related("model_version", "make_live_round")
            .order_by("-created_at", "-pk"))


def training_job_for_manager(*, user: User, job_id: int) -> TrainingJob:
    """The job if ``user`` teaches its round's course (or is staff); otherwise a clear AccessError."""
    job = (TrainingJob.objects.select_related("round__course", "model_version", "make_live_round")
           .filter(pk=job_id).first())
    if job is None:
        raise AccessError("This training job does not exist.")
    if not user_manages_course(user=user, course=job.round.course):
        raise AccessError(_FORBIDDEN)
    return job
