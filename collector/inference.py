"""Glue between registered model versions and the Django-free scorers in ``mlcore``.

One process-wide ``InferenceService`` serves websocket drafts: a ``DraftBatcher`` per model
version batches concurrent drafts, keeps only each connection's newest one and bounds the queue.
Submissions call ``predict_questions`` directly; the worker calls it for anything left pending.
"""
import asyncio
import logging
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from django.conf import settings

from collector.models import ModelVersion
from mlcore.configs import MCExample, MCPrediction, ScorerKind, ScorerSpec
from mlcore.loading import load_scorer, set_torch_threads
from mlcore.serving import DraftBatcher

logger = logging.getLogger(__name__)


def scorer_spec_for(version: ModelVersion) -> ScorerSpec:
    return ScorerSpec(kind=ScorerKind(version.kind), path=version.path, name=version.name, revision=version.revision)


def predict_examples(version: ModelVersion, examples: Sequence[MCExample]) -> list[MCPrediction]:
    """Score examples with a version's model, loading it on first use in this process."""
    set_torch_threads(settings.STUMPER_TORCH_THREADS)
    return load_scorer(scorer_spec_for(version)).predict(list(examples))


class InferenceService:
    """Per-process registry of draft batchers, one per model version and event loop.

    ``predict(version, examples)`` answers a batch and ``load(version)`` loads a version's model
    (both synchronous; they run in an executor thread). The multiple-choice service below and the
    span annotation's QA service (``annotation.inference``) are two instances of this class.
    """

    def __init__(self, predict: Callable[[ModelVersion, Sequence[Any]], list[Any]],
                 load: Callable[[ModelVersion], Any]) -> None:
        self._predict, self._load = predict, load
        self._batchers: dict[tuple[int, int], DraftBatcher] = {}

    def reset(self) -> None:
        """Forget every batcher (a forked process cannot use its parent's event loops)."""
        self._batchers = {}

    def _batcher(self, version: ModelVersion) -> DraftBatcher:
        # Keyed by the running loop too: test clients and servers may each run their own loop.
        key = (version.pk, id(asyncio.get_running_loop()))
        batcher = self._batchers.get(key)
        if batcher is None:
            batcher = DraftBatcher(
                lambda examples: self._predict(version, examples),
                max_pending=settings.STUMPER_INFERENCE_MAX_PENDING,
                max_batch=settings.STUMPER_INFERENCE_MAX_BATCH,
            )
            self._batchers[key] = batcher
        return batcher

    def warm_up(self, version: ModelVersion) -> None:
        """Start loading a version's model in the background so the first draft is fast."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(None, lambda: self._load(version))
        # A failed load is reported when a draft needs the model; here it is only logged.
        future.add_done_callback(lambda done: done.exception() and logger.warning("Warm-up of %s failed: %s", version.name, done.exception()))

    async def predict_draft(self, *, version: ModelVersion, key: Hashable, example: Any) -> Any | None:
        """The prediction for this draft, or None when a newer draft of ``key`` replaced it."""
        return await asyncio.wait_for(
            self._batcher(version).submit(key, example), timeout=settings.STUMPER_INFERENCE_TIMEOUT
        )


inference_service = InferenceService(
    lambda version, examples: predict_examples(version, examples), lambda version: load_scorer(scorer_spec_for(version))
)
