"""Celery tasks of the annotation app: thin wrappers that take ids and call idempotent services."""
from celery import shared_task

from annotation.services.predictions import question_prediction_compute


@shared_task(acks_late=True, name="annotation.predict_question_answer")
def question_predict_task(question_id: int) -> None:
    """Store the project's QA model's answer to a question (``question_prediction_compute``)."""
    question_prediction_compute(question_id=question_id)
