"""The inference service and its two instances: live multiple-choice scoring and extractive QA.

One process-wide ``InferenceService`` per model family serves websocket drafts: a
``DraftBatcher`` per model version batches concurrent drafts, keeps only each connection's newest
one and bounds the queue. ``STUMPER_INFERENCE_MODE`` says where a batch runs: in a thread of the
web process (``"local"``, the embedded default) or as one Celery task on the ``inference`` queue
(``"worker"``, scaled out: the web processes then load no model for drafts; ``modelhub.tasks``).

Multiple choice (``inference_service``): submissions call ``predict_examples`` directly; the
worker calls it for anything left pending. Both score through ``live_scorer``: each (prompt,
choice) pair or text computed alone, on ``STUMPER_INFERENCE_ENGINE``, kept in a per-process LRU
of ``STUMPER_INFERENCE_CACHE_SIZE`` entries that drafts and submissions share (mlcore.models.incremental).

Extractive QA (``qa_inference_service``): ``predict_qa`` answers questions synchronously (the
Celery task that stores a span question's prediction) and serves the annotation socket's drafts.
"""
import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from celery import Task
from django.conf import settings

from core.jobs import task_get
from mlcore.configs import MCExample, MCPrediction, ScorerKind, ScorerSpec
from mlcore.models.inference_cache import shared_cache
from mlcore.models.loading import set_torch_threads
from mlcore.models.qa import QAExample, QAPrediction, QASpec, load_qa_model, qa_model_loaded
from mlcore.models.scorer_cache import load_scorer, scorer_loaded  # torch only with the first model
from mlcore.models.serving import DraftBatcher
from modelhub.models import ModelVersion
from modelhub.selectors import model_version_get

logger = logging.getLogger(__name__)

Record = TypeVar("Record")


def scorer_spec_for(version: ModelVersion) -> ScorerSpec:
    return ScorerSpec(kind=ScorerKind(version.kind), path=version.path, name=version.name, revision=version.revision)


def live_scorer(version: ModelVersion) -> Any:
    """A version's model as drafts and submissions use it (``mlcore.models.incremental.IncrementalScorer``)."""
    from mlcore.models.incremental import load_incremental  # imports torch: only where a model runs

    set_torch_threads(settings.STUMPER_TORCH_THREADS)
    shared_cache.resize(settings.STUMPER_INFERENCE_CACHE_SIZE)
    return load_incremental(load_scorer(scorer_spec_for(version)), engine=settings.STUMPER_INFERENCE_ENGINE)


def live_scorer_loaded(version: ModelVersion) -> bool:
    """True when :func:`live_scorer` would answer at once: weights loaded and engine built."""
    spec = scorer_spec_for(version)
    if not scorer_loaded(spec):
        return False
    from mlcore.models.incremental import (
        incremental_loaded,  # imports torch, which the loaded model has imported anyway
    )

    return incremental_loaded(load_scorer(spec), engine=settings.STUMPER_INFERENCE_ENGINE)


def predict_examples(version: ModelVersion, examples: Sequence[MCExample]) -> list[MCPrediction]:
    """Score examples with a version's model, loading it on first use in this process."""
    return live_scorer(version).predict(list(examples))


def record_to_json(record: Any) -> dict[str, Any]:
    """An example or prediction (a flat frozen dataclass of ``mlcore``) as a JSON object."""
    return {name: list(value) if isinstance(value, tuple) else value for name, value in dataclasses.asdict(record).items()}


def record_from_json(cls: type[Record], data: dict[str, Any]) -> Record:
    """The inverse of :func:`record_to_json`; unknown or missing fields raise ``TypeError``."""
    # JSON has no tuples, and every list-valued field of these records is a tuple.
    return cls(**{name: tuple(value) if isinstance(value, list) else value for name, value in data.items()})


class InferenceService:
    """Per-process registry of draft batchers, one per model version and event loop.

    ``predict(version, examples)`` answers a batch and ``load(version)`` loads a version's model
    (both synchronous; they run in an executor thread); ``loaded(version)`` says whether this
    process has it already (a fresh process loads for half a minute: authors are told so). The multiple-choice service and the
    span annotation's QA service below are two instances of this class.

    With ``STUMPER_INFERENCE_MODE = "worker"`` the batcher stays here, but each batch is sent as
    JSON (``example_type`` records in, ``prediction_type`` records out) to the Celery task that
    ``task()`` returns, a thin wrapper of :meth:`predict_json` that runs on an inference worker.
    """

    def __init__(self, predict: Callable[[ModelVersion, Sequence[Any]], list[Any]],
                 load: Callable[[ModelVersion], Any], *, loaded: Callable[[ModelVersion], bool], example_type: type,
                 prediction_type: type, task: Callable[[], Task]) -> None:
        self._predict, self._load, self._loaded, self._task = predict, load, loaded, task
        self.example_type, self.prediction_type = example_type, prediction_type
        self._batchers: dict[tuple[int, int], DraftBatcher] = {}
        self._loads: dict[tuple[int, int], asyncio.Future] = {}
        self._failed: set[int] = set()

    def reset(self) -> None:
        """Forget every batcher and load (a forked process cannot use its parent's event loops)."""
        self._batchers, self._loads, self._failed = {}, {}, set()

    def _batcher(self, version: ModelVersion) -> DraftBatcher:
        # Keyed by the running loop too: test clients and servers may each run their own loop.
        key = (version.pk, id(asyncio.get_running_loop()))
        batcher = self._batchers.get(key)
        if batcher is None:
            batcher = DraftBatcher(
                lambda examples: self.predict_batch(version, examples),
                max_pending=settings.STUMPER_INFERENCE_MAX_PENDING,
                max_batch=settings.STUMPER_INFERENCE_MAX_BATCH,
            )
            self._batchers[key] = batcher
        return batcher

    def predict_batch(self, version: ModelVersion, examples: Sequence[Any]) -> list[Any]:
        """Answer one batch here or on an inference worker, as ``STUMPER_INFERENCE_MODE`` says (blocking)."""
        if settings.STUMPER_INFERENCE_MODE == "worker":
            return self._predict_on_worker(version, examples)
        return self._predict(version, examples)

    def _predict_on_worker(self, version: ModelVersion, examples: Sequence[Any]) -> list[Any]:
        timeout = settings.STUMPER_INFERENCE_TIMEOUT
        task = self._task()
        # No publish retries: a draft that cannot be sent now is stale once the broker is back. A
        # batch that no worker took within the timeout expires: the author has already been told
        # "unavailable", so the worker that finally receives it drops it instead of computing it.
        result = task.apply_async((version.pk, [record_to_json(e) for e in examples]), expires=timeout, retry=False)
        try:
            answers = result.get(timeout=timeout)  # this runs in the batcher's executor thread
        finally:
            # Asked once: drop the stored result and the subscription to it (kept on a timeout otherwise).
            with contextlib.suppress(Exception):
                result.forget()
        return [record_from_json(self.prediction_type, answer) for answer in answers]

    def predict_json(self, *, version_id: int, examples: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The inference worker's side of a batch: JSON examples in, JSON predictions out."""
        version = model_version_get(model_id=version_id)
        predictions = self._predict(version, [record_from_json(self.example_type, e) for e in examples])
        return [record_to_json(prediction) for prediction in predictions]

    def model_ready(self, version: ModelVersion) -> bool:
        """True when a draft for ``version`` will not wait for a model load in this process.

        Always true in worker mode: the web process loads no model, and it cannot see whether the
        inference workers have theirs (they load every live model when they start).
        """
        return settings.STUMPER_INFERENCE_MODE == "worker" or self._loaded(version)

    def _load_future(self, version: ModelVersion) -> asyncio.Future:
        # One load at a time per version and loop, shared by every socket that waits for it (the load
        # itself is once per process anyway: mlcore.models.loading.LoadOnceCache). A finished one says
        # nothing about now (failed, or the model was evicted since), so it is started again.
        loop = asyncio.get_running_loop()
        key = (version.pk, id(loop))
        future = self._loads.get(key)
        if future is None or future.done():
            future = loop.run_in_executor(None, self._load, version)
            future.add_done_callback(lambda done: self._note_outcome(version.pk, done))
            self._loads[key] = future
        return future

    def _note_outcome(self, version_id: int, done: asyncio.Future) -> None:
        if not done.cancelled() and done.exception() is not None:
            self._failed.add(version_id)
        else:
            self._failed.discard(version_id)

    def load_failed(self, version: ModelVersion) -> bool:
        """True when the last load of this version in this process failed (then it is not "loading")."""
        return version.pk in self._failed

    async def wait_until_loaded(self, version: ModelVersion) -> None:
        """Return once this process has the version's model (raises what the load raised)."""
        if not self.model_ready(version):
            await asyncio.shield(self._load_future(version))

    def load_now(self, version: ModelVersion) -> None:
        """Load a version's model in this process, in this thread (start-up preloading)."""
        set_torch_threads(settings.STUMPER_TORCH_THREADS)
        self._load(version)

    def warm_up(self, version: ModelVersion) -> None:
        """Start loading a version's model in the background so the first draft is fast."""
        if self.model_ready(version):
            # Loaded already, or worker mode: the web process never loads a model then, and the
            # inference workers load the live models when they start (config.preload).
            return
        future = self._load_future(version)
        # A failed load is reported when a draft needs the model; here it is only logged, once.
        future.add_done_callback(lambda done: not done.cancelled() and done.exception() and logger.warning(
            "Warm-up of %s failed: %s", version.name, done.exception()))

    async def predict_draft(self, *, version: ModelVersion, key: Hashable, example: Any) -> Any | None:
        """The prediction for this draft, or None when a newer draft of ``key`` replaced it."""
        return await asyncio.wait_for(
            self._batcher(version).submit(key, example), timeout=settings.STUMPER_INFERENCE_TIMEOUT
        )


inference_service = InferenceService(
    lambda version, examples: predict_examples(version, examples), lambda version: live_scorer(version),
    loaded=lambda version: live_scorer_loaded(version),
    example_type=MCExample, prediction_type=MCPrediction, task=lambda: task_get("collector.predict_drafts"),
)


def qa_spec_for(version: ModelVersion) -> QASpec:
    return QASpec(path=version.path, name=version.name, revision=version.revision)


def predict_qa(version: ModelVersion, examples: Sequence[QAExample]) -> list[QAPrediction]:
    """Answer questions with a version's model, loading it on first use in this process."""
    if version.kind != ModelVersion.Kind.QUESTION_ANSWERING:
        raise ValueError(f"{version.name} is not an extractive question-answering model")
    set_torch_threads(settings.STUMPER_TORCH_THREADS)
    return load_qa_model(qa_spec_for(version)).predict(list(examples))


# The same batching service as the authoring page's, answering with extractive QA models (looked up
# at call time, so the functions can be replaced, e.g. by tests).
qa_inference_service = InferenceService(
    lambda version, examples: predict_qa(version, examples), lambda version: load_qa_model(qa_spec_for(version)),
    loaded=lambda version: qa_model_loaded(qa_spec_for(version)),
    example_type=QAExample, prediction_type=QAPrediction, task=lambda: task_get("annotation.predict_drafts"),
)
