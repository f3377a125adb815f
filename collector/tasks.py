"""Celery tasks of the collector: thin wrappers that take ids and call idempotent services."""
from celery import shared_task
from celery.signals import worker_ready

from collector.models import Prediction
from collector.services.coach import answer_only_job_run
from collector.services.forecast import forecast_after_scoring, forecast_job_run, forecast_jobs_resume_interrupted
from collector.services.hardware import worker_hardware_report
from collector.services.questions import prediction_compute, predictions_schedule_pending
from collector.services.scoring import scoring_resume_interrupted, scoring_run
from collector.services.scoring_folds import scoring_fold_run
from collector.services.starter import starter_job_run
from collector.services.training import training_job_run, training_jobs_resume_interrupted
from collector.services.training_command import training_command_run
from collector.services.verdicts import submission_verdicts_compute


class PredictionStillPending(Exception):
    """Raised so Celery retries a prediction whose model failed this time."""


@shared_task(bind=True, acks_late=True, max_retries=8, name="collector.prediction_compute")
def prediction_compute_task(self, prediction_id: int) -> None:
    prediction = prediction_compute(prediction_id=prediction_id)
    if prediction.status == Prediction.Status.PENDING:
        # Back off 5 s, 10 s, 20 s ... up to about 20 minutes in all; the start-up sweep retries later.
        raise self.retry(exc=PredictionStillPending(prediction.last_error), countdown=5 * 2**self.request.retries)


@shared_task(acks_late=True, name="collector.submission_verdicts_compute")
def submission_verdicts_compute_task(question_id: int) -> None:
    """Score a question with its round's other panel models (``services/verdicts.py``)."""
    submission_verdicts_compute(question_id=question_id)


@shared_task(acks_late=True, name="collector.scoring_run")
def scoring_run_task(run_id: int) -> None:
    """Dispatch a scoring run: one ``collector.train_scoring_fold`` task per unfinished fold."""
    scoring_run(run_id=run_id)


@shared_task(acks_late=True, name="collector.train_scoring_fold")
def scoring_fold_task(run_id: int, trial: int, fold: int) -> None:
    """Train one fold of a scoring run (skipped if stored or held by a live worker)."""
    scoring_fold_run(run_id=run_id, trial=trial, fold=fold)


@shared_task(acks_late=True, name="collector.training_job_run")
def training_job_run_task(job_id: int) -> None:
    """Train the next round's live model; ``training_job_run`` does the work."""
    training_job_run(job_id=job_id)


@shared_task(acks_late=True, name="collector.answer_only_job_run")
def answer_only_job_run_task(job_id: int) -> None:
    """Train the round's answer-only model for the coach; ``answer_only_job_run`` does the work."""
    answer_only_job_run(job_id=job_id)


@shared_task(acks_late=True, name="collector.training_command_run")
def training_command_run_task(job_id: int) -> None:
    """Train what ``train_mc_model`` asked for; ``training_command_run`` does the work."""
    training_command_run(job_id=job_id)


@shared_task(acks_late=True, name="collector.train_starter_model")
def starter_job_run_task(job_id: int) -> None:
    """Train the starter model on CODAH and put it live in the demo round; ``starter_job_run`` does the work."""
    starter_job_run(job_id=job_id)


@worker_ready.connect
def _resume_interrupted_work(**kwargs) -> None:
    """Work left behind while no worker ran (or the broker was down) is picked up now."""
    # First, while the worker is still idle, so the bfloat16 probe is not timed against a job:
    # what bf16=auto means on this worker, for the round settings page.
    worker_hardware_report()
    predictions_schedule_pending()
    scoring_resume_interrupted()
    training_jobs_resume_interrupted()
    forecast_jobs_resume_interrupted()


@shared_task(acks_late=True, name="collector.forecast_job_run")
def forecast_job_run_task(job_id: int) -> None:
    """Train a course's survival forecast; ``forecast_job_run`` does the work."""
    forecast_job_run(job_id=job_id)


@shared_task(acks_late=True, name="collector.forecast_after_scoring")
def forecast_after_scoring_task(round_id: int) -> None:
    """A round's cross-validation finished: train its course's forecast again."""
    forecast_after_scoring(round_id=round_id)
