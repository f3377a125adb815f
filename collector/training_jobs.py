"""Training jobs: "train the next round's live model" as a visible, restartable background job.

``training_job_start`` checks the request and queues a ``TrainingJob``; a worker runs
``training_job_run``, which reports progress on the job (the round page shows it live) and
records the error if training fails. A job is run at most once: a second delivery of the task
finds it running or finished and returns. A job whose worker died is marked failed when a worker
starts (its partial weights are never registered), so the instructor can start it again.
"""
import logging
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from collector.models import Question, Round, TrainingJob
from collector.training import model_version_name_check, round_train_next_model
from collector.worker_hardware import worker_hardware_report
from core.jobs import ProgressWriter, job_claim, job_done, job_enqueue, job_fail, jobs_resume
from mlcore.configs import TrainProgress
from modelhub.models import ModelVersion

logger = logging.getLogger(__name__)
TASK_NAME = "collector.training_job_run"


def training_job_start(*, round_: Round, name: str, make_live_round: Round | None = None,
                       user=None) -> TrainingJob:
    """Check the name and data now, store a queued job and enqueue it once the transaction commits.

    A name already registered or being trained is refused (the page must not silently retrain
    a model that other rounds may serve); ``train_mc_model`` remains the way to retrain one.
    """
    model_version_name_check(name=name)
    if ModelVersion.objects.filter(name=name).exists():
        raise ValidationError({"name": f"A model named {name!r} already exists; choose a new name."})
    if make_live_round is not None and make_live_round.course_id != round_.course_id:
        raise ValidationError({"make_live_round": "The new model can only go live in a round of the same course."})
    if not Question.objects.filter(round__course_id=round_.course_id, round__created_at__lte=round_.created_at).exists():
        raise ValidationError(f"Round {round_.name} has no questions to train on yet.")
    try:
        with transaction.atomic():
            job = TrainingJob.objects.create(round=round_, name=name, make_live_round=make_live_round,
                                             created_by=user, progress={"stage": "queued"})
    except IntegrityError:
        raise ValidationError({"name": f"A model named {name!r} is already being trained."}) from None
    transaction.on_commit(lambda: job_enqueue(TASK_NAME, job.pk))
    return job


def _claim(job_id: int) -> TrainingJob | None:
    # Only a queued job: never train twice (a job whose worker died is failed, not resumed).
    return job_claim(TrainingJob, job_id, resumable=False, stale_after=_stale_after(),
                     progress=lambda stored: {"stage": "loading"})


def _stale_after() -> timedelta:
    return timedelta(seconds=settings.STUMPER_SCORING_STALE_SECONDS)


class _ProgressWriter(ProgressWriter):
    """Stores step, loss and time left on the job at most once a second."""

    def __call__(self, step: TrainProgress) -> None:
        per_step = step.elapsed_seconds / max(step.step, 1)
        self.save(final=step.step >= step.total_steps, stage="training", step=step.step,
                  total_steps=step.total_steps, epoch=step.epoch, loss=round(step.loss, 4),
                  eta_seconds=round(per_step * (step.total_steps - step.step)))


def training_job_run(*, job_id: int) -> TrainingJob:
    """Train the job's model unless it already ran; any failure is stored on the job."""
    job = _claim(job_id)
    if job is None:
        return TrainingJob.objects.get(pk=job_id)
    worker_hardware_report()  # the settings page shows what bf16=auto means on this worker
    try:
        version = round_train_next_model(round_=job.round, name=job.name, make_live_round=job.make_live_round,
                                         progress=_ProgressWriter(job))
    except Exception as error:
        logger.exception("Training job %s failed", job_id)
        job_fail(job, error, progress={**job.progress, "stage": "failed"})
    else:
        job_done(job, model_version=version, progress={**job.progress, "stage": "done", "eta_seconds": 0})
    return TrainingJob.objects.get(pk=job_id)


def training_jobs_resume_interrupted() -> int:
    """Re-enqueue queued jobs and fail the running ones whose worker went silent.

    Called when a worker starts. Training is not resumable mid-way (unlike scoring folds), so a
    job interrupted by a dead worker is failed with a message saying to start it again.
    """
    return jobs_resume(TrainingJob, enqueue=lambda pk: job_enqueue(TASK_NAME, pk), resumable=False, stale_after=_stale_after(),
                       stale_error="The worker stopped during training; nothing was registered. Start the training again.")
