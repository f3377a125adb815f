"""Celery tasks of the model hub: a batch of live drafts, scored on an inference worker.

Drafts are never stored, so unlike the other tasks these cannot take ids: the batch's examples
travel in the message as JSON, and the predictions come back the same way through the result
backend (the only tasks that keep a result; see STUMPER_INFERENCE_MODE). Not acks_late: the web
process stops waiting after STUMPER_INFERENCE_TIMEOUT, so a batch redelivered after a lost worker
would answer nobody. Routed to the inference queue (``*.predict*``); the names are the ones the
workers have always known.
"""
from celery import shared_task

from modelhub.inference import inference_service, qa_inference_service


@shared_task(ignore_result=False, acks_late=False, name="collector.predict_drafts")
def predict_drafts_task(version_id: int, examples: list[dict]) -> list[dict]:
    """Score a batch of authors' drafts (``InferenceService.predict_json``)."""
    return inference_service.predict_json(version_id=version_id, examples=examples)


@shared_task(ignore_result=False, acks_late=False, name="annotation.predict_drafts")
def qa_predict_drafts_task(version_id: int, examples: list[dict]) -> list[dict]:
    """Answer a batch of span-annotation drafts (``InferenceService.predict_json``)."""
    return qa_inference_service.predict_json(version_id=version_id, examples=examples)
