"""Celery tasks of the annotation app: thin wrappers that take ids and call idempotent services."""
from celery import shared_task
from celery.signals import worker_ready

from annotation.services.predictions import question_prediction_compute
from annotation.services.qa_models import qa_training_job_run, qa_training_jobs_resume_interrupted


@shared_task(acks_late=True, name="annotation.predict_question_answer")
def question_predict_task(question_id: int) -> None:
    """Store the project's QA model's answer to a question (``question_prediction_compute``)."""
    question_prediction_compute(question_id=question_id)


@shared_task(acks_late=True, name="annotation.qa_training_job_run")
def qa_training_job_run_task(job_id: int) -> None:
    """Train a project's QA model from its page (``qa_training_job_run``)."""
    qa_training_job_run(job_id=job_id)


@worker_ready.connect
def _resume_interrupted_qa_training(**kwargs) -> None:
    """QA training jobs queued while no worker ran start now; ones cut off by a dead worker are failed."""
    qa_training_jobs_resume_interrupted()
