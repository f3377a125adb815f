"""The per-process cache of live scorers: one load per spec, shared by every caller.

Kept apart from :mod:`mlcore.models.loading` (checkpoints, weights, the generic
:class:`~mlcore.models.loading.LoadOnceCache`) because it builds the scorer classes of
:mod:`mlcore.models.inference`, which itself loads through :mod:`mlcore.models.loading`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mlcore.configs import ScorerKind, ScorerSpec
from mlcore.models.loading import LoadOnceCache, forget_file_hashes

if TYPE_CHECKING:
    from mlcore.models.inference import MultipleChoiceScorer

__all__ = ["clear_cache", "load_scorer", "scorer_loaded"]


def _build_scorer(spec: ScorerSpec) -> MultipleChoiceScorer:
    # torch comes in with the first load, not when the URLconf imports the inference service
    # (tests/test_startup_imports.py): a web process starts in a second.
    from mlcore.models.inference import MultipleChoiceModelScorer, ZeroShotEmbeddingScorer

    kind = ScorerKind(spec.kind)
    if kind is ScorerKind.ZERO_SHOT:
        return ZeroShotEmbeddingScorer(spec)
    return MultipleChoiceModelScorer(spec)


_scorers: LoadOnceCache[ScorerSpec, MultipleChoiceScorer] = LoadOnceCache(_build_scorer, maxsize=4)


def load_scorer(spec: ScorerSpec) -> MultipleChoiceScorer:
    """Build the scorer a spec describes, once per process (and once at a time, see :class:`LoadOnceCache`).

    The cache key is the whole frozen spec (kind, path, name, revision), so a
    new revision string loads fresh weights. Call :func:`clear_cache` after
    overwriting a checkpoint in place without changing its revision.

    Raises
    ------
    ModelLoadError
        If the checkpoint cannot be loaded.
    """
    return _scorers.get(spec)


def scorer_loaded(spec: ScorerSpec) -> bool:
    """True when :func:`load_scorer` would answer ``spec`` at once, without loading."""
    return _scorers.loaded(spec)


def clear_cache() -> None:
    """Forget every cached scorer (frees the weights once no one else holds them)."""
    _scorers.clear()
    forget_file_hashes()
