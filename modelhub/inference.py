"""The inference service and its two instances: live multiple-choice scoring and extractive QA.

One process-wide ``InferenceService`` per model family serves websocket drafts: a
``DraftBatcher`` per model version batches concurrent drafts, keeps only each connection's newest
one and bounds the queue. ``STUMPER_INFERENCE_MODE`` says where a batch runs: in a thread of the
web process (``"local"``, the embedded default) or as one Celery task on the ``inference`` queue
(``"worker"``, scaled out: the web processes then load no model for drafts; ``modelhub.tasks``).

Multiple choice (``inference_service``): submissions call ``predict_examples`` directly; the
worker calls it for anything left pending, and leaderboards score through ``live_model_for``.
All of them use a version's ``mlcore.models.live.LiveModel``, one per process, spec, engine
(``STUMPER_INFERENCE_ENGINE``) and device; the encoder kinds compute each (prompt, choice) pair or
text alone and keep it in a per-process LRU of ``STUMPER_INFERENCE_CACHE_SIZE`` entries that
drafts, submissions and leaderboards share (mlcore.models.incremental).

Extractive QA (``qa_inference_service``): ``predict_qa`` answers questions synchronously (the
Celery task that stores a span question's prediction) and serves the annotation socket's drafts.
"""
import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Hashable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from celery import Task
from django.conf import settings

from core.jobs import task_get
from mlcore.configs import MCExample, MCPrediction, ScorerKind, ScorerSpec
from mlcore.models.inference_cache import shared_cache
from mlcore.models.live import LiveModel, live_model, live_model_ready  # torch only with the first model
from mlcore.models.loading import set_torch_threads
from mlcore.models.qa import QAExample, QAPrediction, QASpec, load_qa_model, qa_model_loaded
from mlcore.models.serving import BatcherStats, DraftBatcher
from modelhub.models import ModelVersion
from modelhub.selectors import model_version_get

logger = logging.getLogger(__name__)

Record = TypeVar("Record")
Example = TypeVar("Example")
Prediction = TypeVar("Prediction")

#: Live models of the web and worker processes run on CPU (the encoder kinds' engines do).
LIVE_DEVICE = "cpu"


def scorer_spec_for(version: ModelVersion) -> ScorerSpec:
    options = tuple((str(name), str(value)) for name, value in (version.options or {}).items())
    return ScorerSpec(kind=ScorerKind(version.kind), path=version.path, name=version.name, revision=version.revision,
                      options=options)


def live_model_for(version: ModelVersion) -> LiveModel:
    """A version's warm live model, as drafts, submissions and leaderboards use it (loads on first use)."""
    set_torch_threads(settings.STUMPER_TORCH_THREADS)
    shared_cache.resize(settings.STUMPER_INFERENCE_CACHE_SIZE)
    return live_model(scorer_spec_for(version), engine=settings.STUMPER_INFERENCE_ENGINE, device=LIVE_DEVICE)


def live_model_for_ready(version: ModelVersion) -> bool:
    """True when :func:`live_model_for` would answer at once (weights loaded, engine built); never loads."""
    return live_model_ready(scorer_spec_for(version), engine=settings.STUMPER_INFERENCE_ENGINE, device=LIVE_DEVICE)


def predict_examples(version: ModelVersion, examples: Sequence[MCExample]) -> list[MCPrediction]:
    """Score examples with a version's model, loading it on first use in this process."""
    return live_model_for(version).predict(list(examples))


def record_to_json(record: Any) -> dict[str, Any]:
    """An example or prediction (a flat frozen dataclass of ``mlcore``) as a JSON object."""
    return {name: list(value) if isinstance(value, tuple) else value for name, value in dataclasses.asdict(record).items()}


def record_from_json(cls: type[Record], data: dict[str, Any]) -> Record:
    """The inverse of :func:`record_to_json`; unknown or missing fields raise ``TypeError``."""
    # JSON has no tuples, and every list-valued field of these records is a tuple.
    return cls(**{name: tuple(value) if isinstance(value, list) else value for name, value in data.items()})


class ModelFamily(Protocol[Example, Prediction]):
    """What an :class:`InferenceService` serves: a family of models, its records and its worker task."""

    example_type: type[Example]
    prediction_type: type[Prediction]
    task_name: str  # the Celery task that answers a batch on an inference worker (JSON in and out)

    def predict(self, version: ModelVersion, examples: Sequence[Example]) -> list[Prediction]:
        """Answer a batch with a version's model, loading it first if needed (blocking)."""
        ...

    def load(self, version: ModelVersion) -> None:
        """Load a version's model in this process (blocking)."""
        ...

    def loaded(self, version: ModelVersion) -> bool:
        """True when this process has the version's model ready; never loads."""
        ...


class MultipleChoiceFamily:
    """Multiple-choice and zero-shot versions, through their live models (``mlcore.models.live``)."""

    example_type: type[MCExample] = MCExample
    prediction_type: type[MCPrediction] = MCPrediction
    task_name = "modelhub.predict_mc_drafts"  # modelhub.tasks

    # The module's functions are looked up at call time, so tests can replace them.
    def predict(self, version: ModelVersion, examples: Sequence[MCExample]) -> list[MCPrediction]:
        return predict_examples(version, examples)

    def load(self, version: ModelVersion) -> None:
        live_model_for(version)

    def loaded(self, version: ModelVersion) -> bool:
        return live_model_for_ready(version)


class InferenceService(Generic[Example, Prediction]):
    """Per-process registry of draft batchers, one per model version and event loop.

    The ``family`` answers a batch and loads a version's model (both synchronous; they run in an
    executor thread), and says whether this process has it already (a fresh process loads for
    half a minute: authors are told so). The multiple-choice service and the span annotation's QA
    service below are two instances of this class.

    With ``STUMPER_INFERENCE_MODE = "worker"`` the batcher stays here, but each batch is sent as
    JSON (``example_type`` records in, ``prediction_type`` records out) to the family's Celery
    task, a thin wrapper of :meth:`predict_json` that runs on an inference worker.
    """

    def __init__(self, family: ModelFamily[Example, Prediction]) -> None:
        self.family = family
        self.example_type, self.prediction_type = family.example_type, family.prediction_type
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

    def queues(self) -> list[tuple[int, int, BatcherStats]]:
        """(model version id, drafts waiting, counters) of each batcher of this process, for metrics."""
        return [(version_id, batcher.pending_count, batcher.stats) for (version_id, _), batcher in self._batchers.items()]

    def predict_batch(self, version: ModelVersion, examples: Sequence[Example]) -> list[Prediction]:
        """Answer one batch here or on an inference worker, as ``STUMPER_INFERENCE_MODE`` says (blocking)."""
        if settings.STUMPER_INFERENCE_MODE == "worker":
            return self._predict_on_worker(version, examples)
        return self.family.predict(version, examples)

    def _predict_on_worker(self, version: ModelVersion, examples: Sequence[Example]) -> list[Prediction]:
        timeout = settings.STUMPER_INFERENCE_TIMEOUT
        task: Task = task_get(self.family.task_name)
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
        predictions = self.family.predict(version, [record_from_json(self.example_type, e) for e in examples])
        return [record_to_json(prediction) for prediction in predictions]

    def model_ready(self, version: ModelVersion) -> bool:
        """True when a draft for ``version`` will not wait for a model load in this process.

        Always true in worker mode: the web process loads no model, and it cannot see whether the
        inference workers have theirs (they load every live model when they start).
        """
        return settings.STUMPER_INFERENCE_MODE == "worker" or self.family.loaded(version)

    def _load_future(self, version: ModelVersion) -> asyncio.Future:
        # One load at a time per version and loop, shared by every socket that waits for it (the load
        # itself is once per process anyway: mlcore.models.live). A finished one says
        # nothing about now (failed, or the model was evicted since), so it is started again.
        loop = asyncio.get_running_loop()
        key = (version.pk, id(loop))
        future = self._loads.get(key)
        if future is None or future.done():
            future = loop.run_in_executor(None, self.family.load, version)
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
        self.family.load(version)

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

    async def predict_draft(self, *, version: ModelVersion, key: Hashable, example: Example) -> Prediction | None:
        """The prediction for this draft, or None when a newer draft of ``key`` replaced it."""
        return await asyncio.wait_for(
            self._batcher(version).submit(key, example), timeout=settings.STUMPER_INFERENCE_TIMEOUT
        )


inference_service: InferenceService[MCExample, MCPrediction] = InferenceService(MultipleChoiceFamily())


def qa_spec_for(version: ModelVersion) -> QASpec:
    return QASpec(path=version.path, name=version.name, revision=version.revision)


def predict_qa(version: ModelVersion, examples: Sequence[QAExample]) -> list[QAPrediction]:
    """Answer questions with a version's model, loading it on first use in this process."""
    if version.kind != ModelVersion.Kind.QUESTION_ANSWERING:
        raise ValueError(f"{version.name} is not an extractive question-answering model")
    set_torch_threads(settings.STUMPER_TORCH_THREADS)
    return load_qa_model(qa_spec_for(version)).predict(list(examples))


class QAFamily:
    """Extractive question-answering versions (``mlcore.models.qa``)."""

    example_type: type[QAExample] = QAExample
    prediction_type: type[QAPrediction] = QAPrediction
    task_name = "modelhub.predict_qa_drafts"  # modelhub.tasks

    # The module's functions are looked up at call time, so tests can replace them.
    def predict(self, version: ModelVersion, examples: Sequence[QAExample]) -> list[QAPrediction]:
        return predict_qa(version, examples)

    def load(self, version: ModelVersion) -> None:
        load_qa_model(qa_spec_for(version))

    def loaded(self, version: ModelVersion) -> bool:
        return qa_model_loaded(qa_spec_for(version))


# The same batching service as the authoring page's, answering with extractive QA models.
qa_inference_service: InferenceService[QAExample, QAPrediction] = InferenceService(QAFamily())
