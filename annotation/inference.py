"""Glue between registered QA model versions and :mod:`mlcore.qa`.

``predict_qa`` answers questions synchronously (the Celery task that stores a question's
prediction). ``qa_inference_service`` serves the websocket: one ``DraftBatcher`` per model
version batches concurrent drafts, keeps each connection's newest one and bounds the queue,
and runs the model in a thread so the event loop keeps serving sockets.
"""
import asyncio
import logging
from collections.abc import Hashable, Sequence

from django.conf import settings

from collector.models import ModelVersion
from mlcore.loading import set_torch_threads
from mlcore.qa import QAExample, QAPrediction, QASpec, load_qa_model
from mlcore.serving import DraftBatcher

logger = logging.getLogger(__name__)


def qa_spec_for(version: ModelVersion) -> QASpec:
    return QASpec(path=version.path, name=version.name, revision=version.revision)


def predict_qa(version: ModelVersion, examples: Sequence[QAExample]) -> list[QAPrediction]:
    """Answer questions with a version's model, loading it on first use in this process."""
    if version.kind != ModelVersion.Kind.QUESTION_ANSWERING:
        raise ValueError(f"{version.name} is not an extractive question-answering model")
    set_torch_threads(settings.STUMPER_TORCH_THREADS)
    return load_qa_model(qa_spec_for(version)).predict(list(examples))


class QAInferenceService:
    """Per-process registry of draft batchers, one per QA model version and event loop."""

    def __init__(self) -> None:
        self._batchers: dict[tuple[int, int], DraftBatcher] = {}

    def _batcher(self, version: ModelVersion) -> DraftBatcher:
        key = (version.pk, id(asyncio.get_running_loop()))
        batcher = self._batchers.get(key)
        if batcher is None:
            batcher = DraftBatcher(
                lambda examples: predict_qa(version, examples),
                max_pending=settings.STUMPER_INFERENCE_MAX_PENDING,
                max_batch=settings.STUMPER_INFERENCE_MAX_BATCH,
            )
            self._batchers[key] = batcher
        return batcher

    def warm_up(self, version: ModelVersion) -> None:
        """Start loading the model in the background so the worker's first question is fast."""
        future = asyncio.get_running_loop().run_in_executor(None, lambda: load_qa_model(qa_spec_for(version)))
        # A failed load is reported when a draft needs the model; here it is only logged.
        future.add_done_callback(
            lambda done: done.exception() and logger.warning("Warm-up of %s failed: %s", version.name, done.exception())
        )

    async def predict_draft(self, *, version: ModelVersion, key: Hashable, example: QAExample) -> QAPrediction | None:
        """The prediction for this draft, or None when a newer draft of ``key`` replaced it."""
        return await asyncio.wait_for(
            self._batcher(version).submit(key, example), timeout=settings.STUMPER_INFERENCE_TIMEOUT
        )


qa_inference_service = QAInferenceService()
