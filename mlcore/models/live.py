"""The one typed live-model path: what every model kind implements, and the one cache that holds them.

Every model that scores questions for the product (an author's draft as they type, a submission,
a cross-validation fold, a leaderboard entry) is a :class:`LiveModel`. The existing kinds, the
fine-tuned multiple-choice encoder and the zero-shot embedding scorer, are both
:class:`mlcore.models.incremental.EncoderLiveModel` (scored part by part through the shared
:data:`~mlcore.models.inference_cache.shared_cache`). A new kind implements the same four methods
and adds its builder to :data:`_BUILDERS` (or calls :func:`register_kind`).

Models are kept per process in one bounded cache keyed by :class:`LiveKey` (spec, engine,
device): :func:`live_model` builds and warms a model once however many threads ask at once, and
:func:`live_model_ready` says, without loading, whether it would answer at once. Being ready is
being in the cache *and* warm, so a model the cache has forgotten is never reported ready.

Nothing here imports torch: the web process imports this module at start-up.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from mlcore.configs import LiveKey, MCExample, MCPrediction, ScorerKind, ScorerSpec
from mlcore.models.inference_cache import shared_cache
from mlcore.models.loading import LoadOnceCache, forget_file_hashes

__all__ = [
    "MAX_LIVE_MODELS",
    "LiveKey",
    "LiveModel",
    "clear_live_models",
    "live_model",
    "live_model_ready",
    "open_live_model",
    "register_kind",
]

#: Most live models a process keeps (the least recently used one is forgotten first).
MAX_LIVE_MODELS = 4


@runtime_checkable
class LiveModel(Protocol):
    """A model that scores CODAH-style questions for the product.

    ``ready`` is cheap and never loads; ``warm_up`` loads whatever is still missing (weights, an
    inference engine, a connection) so that the next ``predict`` answers at once; ``predict``
    warms up first if needed. ``close`` frees what the model holds; it is for the owner of a
    model built with :func:`open_live_model` (the cache never closes a model: a thread may still
    be scoring with one it forgot, and its memory goes when the last user drops it).
    """

    def ready(self) -> bool:
        """True when ``predict`` would answer without loading anything first."""
        ...

    def warm_up(self) -> None:
        """Load everything ``predict`` needs; may take seconds. Raises ``ModelLoadError`` on failure."""
        ...

    def predict(self, examples: Sequence[MCExample]) -> list[MCPrediction]:
        """One prediction per example, in order, naming the model and its revision.

        A kind that can fail per example (a remote endpoint) returns a failed record for that
        example (:meth:`MCPrediction.failure`, ``answered`` false) instead of raising.
        """
        ...

    def close(self) -> None:
        """Free what the model holds (weights, sessions, connections)."""
        ...


#: Builds a model (not yet warm) of one kind from its key; cheap, loads nothing.
Builder = Callable[[LiveKey], LiveModel]


def _encoder(key: LiveKey) -> LiveModel:
    from mlcore.models.incremental import EncoderLiveModel  # imports torch: only when a model is built

    return EncoderLiveModel(key.spec, engine=key.engine, device=key.device)


def _causal_lm(key: LiveKey) -> LiveModel:
    from mlcore.models.causal_lm import CausalLMScorer  # imports torch: only when a model is built

    return CausalLMScorer.from_live_key(key)


def _openai_compatible(key: LiveKey) -> LiveModel:
    from mlcore.models.openai_endpoint import EndpointLiveModel

    return EndpointLiveModel.from_live_key(key)


#: One builder per :class:`~mlcore.configs.ScorerKind` value; each imports its heavy code itself.
_BUILDERS: dict[str, Builder] = {
    ScorerKind.MULTIPLE_CHOICE.value: _encoder,
    ScorerKind.ZERO_SHOT.value: _encoder,
    ScorerKind.CAUSAL_LM.value: _causal_lm,
    ScorerKind.OPENAI_COMPATIBLE.value: _openai_compatible,
}


def register_kind(kind: str, builder: Builder) -> None:
    """Make ``live_model`` build specs of ``kind`` with ``builder`` (replacing any builder of that kind)."""
    _BUILDERS[str(kind)] = builder


def open_live_model(key: LiveKey) -> LiveModel:
    """A new model for ``key``, outside the cache and not warmed up (the caller closes it).

    Raises
    ------
    ValueError
        If no builder is registered for the spec's kind.
    """
    builder = _BUILDERS.get(str(key.spec.kind))
    if builder is None:
        raise ValueError(f"no live model kind {key.spec.kind!r}; known: {sorted(_BUILDERS)}")
    return builder(key)


def _open_warm(key: LiveKey) -> LiveModel:
    model = open_live_model(key)
    model.warm_up()  # under the cache's per-key lock: two threads asking at once wait for one load
    return model


_models: LoadOnceCache[LiveKey, LiveModel] = LoadOnceCache(_open_warm, maxsize=MAX_LIVE_MODELS)
# The parent's live models in a forked child: referenced for good, never used or freed there.
_inherited: list[object] = []


def live_model(spec: ScorerSpec, *, engine: str = "auto", device: str = "cpu") -> LiveModel:
    """The warm live model of ``spec`` on ``engine`` and ``device``, built once per process.

    The key includes the whole frozen spec (kind, path, name, revision), so a new revision
    string loads fresh weights. Call :func:`clear_live_models` after overwriting a checkpoint in
    place without changing its revision.

    Raises
    ------
    ModelLoadError
        If the checkpoint cannot be loaded (nothing is cached; the next call tries again).
    """
    return _models.get(LiveKey(spec, engine, device))


def live_model_ready(spec: ScorerSpec, *, engine: str = "auto", device: str = "cpu") -> bool:
    """True when :func:`live_model` would answer at once: cached and warm. Never loads."""
    model = _models.peek(LiveKey(spec, engine, device))
    return model is not None and model.ready()


def clear_live_models() -> None:
    """Forget every live model and every cached part (after overwriting weights in place)."""
    _models.clear()
    shared_cache.clear()
    forget_file_hashes()


def _start_afresh_after_fork() -> None:
    # An ONNX Runtime session does not survive a fork: the child has none of its pool's threads,
    # so a run there waits forever, and freeing it (an eviction, clear_live_models) waits on or
    # joins the parent's threads: a hang or a segmentation fault (the browser tests' forked
    # Daphne crashed evicting a live scorer the test process had built). So a child builds its
    # own live models, and keeps the inherited ones, unused, until it exits. A fresh cache also
    # has fresh locks (a parent thread may have held one while loading at the fork).
    global _models
    _inherited.append(_models)
    _models = LoadOnceCache(_open_warm, maxsize=MAX_LIVE_MODELS)


os.register_at_fork(after_in_child=_start_afresh_after_fork)
