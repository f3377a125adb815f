"""Glue between registered QA model versions and :mod:`mlcore.models.qa`.

``predict_qa`` answers questions synchronously (the Celery task that stores a question's
prediction). ``qa_inference_service`` serves the websocket: one ``DraftBatcher`` per model
version batches concurrent drafts, keeps each connection's newest one and bounds the queue,
and runs the model in a thread so the event loop keeps serving sockets, or, with
``STUMPER_INFERENCE_MODE = "worker"``, on an inference worker (``annotation.predict_drafts``).
"""
from collections.abc import Sequence

from celery import Task
from django.conf import settings

from collector.inference import InferenceService
from collector.models import ModelVersion
from mlcore.models.loading import set_torch_threads
from mlcore.models.qa import QAExample, QAPrediction, QASpec, load_qa_model, qa_model_loaded


def qa_spec_for(version: ModelVersion) -> QASpec:
    return QASpec(path=version.path, name=version.name, revision=version.revision)


def predict_qa(version: ModelVersion, examples: Sequence[QAExample]) -> list[QAPrediction]:
    """Answer questions with a version's model, loading it on first use in this process."""
    if version.kind != ModelVersion.Kind.QUESTION_ANSWERING:
        raise ValueError(f"{version.name} is not an extractive question-answering model")
    set_torch_threads(settings.STUMPER_TORCH_THREADS)
    return load_qa_model(qa_spec_for(version)).predict(list(examples))


def _predict_drafts_task() -> Task:
    from annotation.tasks import predict_drafts_task  # annotation.tasks imports this module

    return predict_drafts_task


# The same batching service as the authoring page's, answering with extractive QA models (looked up
# at call time, so the functions can be replaced, e.g. by tests).
qa_inference_service = InferenceService(
    lambda version, examples: predict_qa(version, examples), lambda version: load_qa_model(qa_spec_for(version)),
    loaded=lambda version: qa_model_loaded(qa_spec_for(version)),
    example_type=QAExample, prediction_type=QAPrediction, task=_predict_drafts_task,
)
