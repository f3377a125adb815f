"""Celery tasks of the model hub: a batch of live drafts, scored on an inference worker.

Drafts are never stored, so unlike the other tasks these cannot take ids: the batch's examples
travel in the message as JSON, and the predictions come back the same way through the result
backend (the only tasks that keep a result; see STUMPER_INFERENCE_MODE). Not acks_late: the web
process stops waiting after STUMPER_INFERENCE_TIMEOUT, so a batch redelivered after a lost worker
would answer nobody. Routed to the inference queue (``*.predict*``). The names say where the tasks
live (``modelhub.``); the names they had before (``collector.predict_drafts``,
``annotation.predict_drafts``) stay registered for the same functions, so that a web process of the
previous release still gets its batches answered while the workers are upgraded first.
"""
from celery import shared_task

from modelhub.inference import inference_service, qa_inference_service

OPTIONS = {"ignore_result": False, "acks_late": False}


def predict_mc_drafts(version_id: int, examples: list[dict]) -> list[dict]:
    """Score a batch of authors' drafts (``InferenceService.predict_json``)."""
    return inference_service.predict_json(version_id=version_id, examples=examples)


def predict_qa_drafts(version_id: int, examples: list[dict]) -> list[dict]:
    """Answer a batch of span-annotation drafts (``InferenceService.predict_json``)."""
    return qa_inference_service.predict_json(version_id=version_id, examples=examples)


predict_drafts_task = shared_task(**OPTIONS, name="modelhub.predict_mc_drafts")(predict_mc_drafts)
qa_predict_drafts_task = shared_task(**OPTIONS, name="modelhub.predict_qa_drafts")(predict_qa_drafts)
# The previous release's names, for messages its web processes send during an upgrade (drop them once
# no web process of that release runs).
shared_task(**OPTIONS, name="collector.predict_drafts")(predict_mc_drafts)
shared_task(**OPTIONS, name="annotation.predict_drafts")(predict_qa_drafts)
