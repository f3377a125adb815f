"""Celery tasks of the annotation app: thin wrappers that take ids and call idempotent services."""
from celery import shared_task

from annotation.inference import qa_inference_service
from annotation.services.predictions import question_prediction_compute


@shared_task(acks_late=True, name="annotation.predict_question_answer")
def question_predict_task(question_id: int) -> None:
    """Store the project's QA model's answer to a question (``question_prediction_compute``)."""
    question_prediction_compute(question_id=question_id)


# Like collector.predict_drafts (see there): drafts are not stored, so the questions and their
# paragraph travel as JSON and the answers come back through the result backend.
@shared_task(ignore_result=False, acks_late=False, name="annotation.predict_drafts")
def predict_drafts_task(version_id: int, examples: list[dict]) -> list[dict]:
    """Answer a batch of span-annotation drafts (``InferenceService.predict_json``)."""
    return qa_inference_service.predict_json(version_id=version_id, examples=examples)
