"""Reads of a round's training jobs with their access checks.

The round page and its websocket show the newest jobs (``training_jobs_latest``); the API lists
every job and reads one by id, for the course's instructors only.
"""
from django.db.models import QuerySet

from accounts.models import User
from collector.models import Round, TrainingJob
from core.exceptions import AccessError, NotFoundError
from courses.selectors import user_manages_course

_FORBIDDEN = "Only the course's instructors can open this page."


def training_jobs_latest(*, round_: Round, limit: int = 3) -> list[TrainingJob]:
    """The round's newest training jobs (any status), newest first, for its page and socket."""
    return list(TrainingJob.objects.filter(round=round_).select_related("model_version", "make_live_round")[:limit])


def answer_only_job_latest(*, round_: Round) -> TrainingJob | None:
    """The round's newest answer-only training job (any status), for its quality page; None if none."""
    return (TrainingJob.objects.filter(round=round_, kind=TrainingJob.Kind.ANSWER_ONLY)
            .select_related("model_version").first())


def starter_job_latest(*, round_: Round) -> TrainingJob | None:
    """The round's newest starter-model job (``services/starter.py``), for its live-model panel; None if none."""
    return TrainingJob.objects.filter(round=round_, kind=TrainingJob.Kind.STARTER).select_related("model_version").first()


def training_jobs_of_round(*, round_) -> QuerySet[TrainingJob]:
    """Every training job started from the round, newest first."""
    return (TrainingJob.objects.filter(round=round_).select_related("model_version", "make_live_round")
            .order_by("-created_at", "-pk"))


def training_job_for_manager(*, user: User, job_id: int) -> TrainingJob:
    """The job if ``user`` teaches its round's course (or is staff); otherwise a clear AccessError."""
    job = (TrainingJob.objects.select_related("round__course", "model_version", "make_live_round")
           .filter(pk=job_id).first())
    if job is None:
        raise NotFoundError("This training job does not exist.")
    if not user_manages_course(user=user, course=job.round.course):
        raise AccessError(_FORBIDDEN)
    return job
