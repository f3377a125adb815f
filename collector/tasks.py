"""Celery tasks of the collector: thin wrappers that take ids and call idempotent services."""
from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings

from collector.models import Prediction, ScoringRun
from collector.services.coach import answer_only_job_run
from collector.services.hardware import worker_hardware_report
from collector.services.questions import prediction_compute, predictions_schedule_pending
from collector.services.scoring import scoring_resume_interrupted, scoring_run
from collector.services.training import training_job_run, training_jobs_resume_interrupted


class PredictionStillPending(Exception):
    """Raised so Celery retries a prediction whose model failed this time."""


@shared_task(bind=True, acks_late=True, max_retries=8, name="collector.prediction_compute")
def prediction_compute_task(self, prediction_id: int) -> None:
    prediction = prediction_compute(prediction_id=prediction_id)
    if prediction.status == Prediction.Status.PENDING:
        # Back off 5 s, 10 s, 20 s ... up to about 20 minutes in all; the start-up sweep retries later.
        raise self.retry(exc=PredictionStillPending(prediction.last_error), countdown=5 * 2**self.request.retries)


@shared_task(bind=True, acks_late=True, max_retries=None, name="collector.scoring_run")
def scoring_run_task(self, run_id: int) -> None:
    run = scoring_run(run_id=run_id)
    if run.status in ScoringRun.ACTIVE:
        # Another live worker holds the run; look again once its heartbeat could have gone stale.
        raise self.retry(countdown=settings.STUMPER_SCORING_STALE_SECONDS)


@shared_task(acks_late=True, name="collector.training_job_run")
def training_job_run_task(job_id: int) -> None:
    """Train the next round's live model; ``training_job_run`` does the work."""
    training_job_run(job_id=job_id)


@shared_task(acks_late=True, name="collector.answer_only_job_run")
def answer_only_job_run_task(job_id: int) -> None:
    """Train the round's answer-only model for the coach; ``answer_only_job_run`` does the work."""
    answer_only_job_run(job_id=job_id)


@worker_ready.connect
def _resume_interrupted_work(**kwargs) -> None:
    """Work left behind while no worker ran (or the broker was down) is picked up now."""
    # First, while the worker is still idle, so the bfloat16 probe is not timed against a job:
    # what bf16=auto means on this worker, for the round settings page.
    worker_hardware_report()
    predictions_schedule_pending()
    scoring_resume_interrupted()
    training_jobs_resume_interrupted()
