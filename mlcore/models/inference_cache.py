"""A bounded, thread-safe LRU of per-pair logits and per-text embeddings.

Live scoring (:mod:`mlcore.models.incremental`) stores what it computes for one
(prompt, choice) pair of a cross-encoder or one text of the embedding scorer
under a key that names everything the value depends on: the model (name,
path, revision), the engine that computed it, the settings that change the
output (token limit, answer-only) and the exact text(s). A keystroke changes
one field of a draft, so the next draft finds the other fields here.

A key never matches a value of another model version: a new version has a
new revision (and so new keys), and the old version's entries simply age
out of the LRU. :meth:`InferenceCache.discard_model` drops them at once.

Nothing here imports torch; values are whatever the caller stores.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

__all__ = ["CacheStats", "InferenceCache", "ModelKey", "shared_cache"]


@dataclass(frozen=True)
class ModelKey:
    """Everything besides the text that a cached value depends on.

    Parameters
    ----------
    name, path, revision : str
        The model version (``revision`` is the weights' hash when none is given).
    engine : str
        The inference engine that computed the value (engines differ in float rounding).
    settings : tuple
        Output-changing settings as ``(name, value)`` pairs, e.g. ``(("max_length", 80),)``.
    """

    name: str
    path: str
    revision: str
    engine: str
    settings: tuple[tuple[str, Hashable], ...] = ()


@dataclass(frozen=True)
class CacheStats:
    """Counters since creation (or the last :meth:`InferenceCache.clear`)."""

    hits: int
    misses: int
    evictions: int
    entries: int
    max_entries: int

    @property
    def hit_rate(self) -> float:
        """Share of lookups that found a value (0 when nothing was looked up)."""
        lookups = self.hits + self.misses
        return self.hits / lookups if lookups else 0.0


class InferenceCache:
    """Least-recently-used map from ``(ModelKey, text...)`` keys to computed values.

    Parameters
    ----------
    max_entries : int
        Most values kept; 0 turns storing off (every lookup misses).

    Examples
    --------
    >>> cache = InferenceCache(max_entries=2)
    >>> model = ModelKey("m", "/m", "abc", "torch")
    >>> cache.put((model, "a"), 1.0)
    >>> cache.get((model, "a")), cache.get((model, "b"))
    (1.0, None)
    >>> cache.stats.hits, cache.stats.misses
    (1, 1)
    """

    def __init__(self, max_entries: int = 0) -> None:
        if max_entries < 0:
            raise ValueError(f"max_entries must be >= 0, got {max_entries}")
        self.max_entries = max_entries
        self._values: OrderedDict[Hashable, Any] = OrderedDict()
        # One lock: the draft batcher's thread and request threads scoring submissions share it.
        self._lock = threading.Lock()
        self._hits = self._misses = self._evictions = 0

    @property
    def stats(self) -> CacheStats:
        """Snapshot of the counters."""
        with self._lock:
            return CacheStats(self._hits, self._misses, self._evictions, len(self._values), self.max_entries)

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: Hashable) -> Any | None:
        """The value stored under ``key`` (now the most recently used), or ``None``."""
        with self._lock:
            value = self._values.get(key)
            if value is None:
                self._misses += 1
                return None
            self._values.move_to_end(key)
            self._hits += 1
            return value

    def put(self, key: Hashable, value: Any) -> None:
        """Store ``value``, evicting the least recently used entries beyond ``max_entries``."""
        if value is None:
            raise ValueError("None cannot be cached (it means 'not found')")
        with self._lock:
            if self.max_entries == 0:
                return
            self._values[key] = value
            self._values.move_to_end(key)
            self._evict()

    def resize(self, max_entries: int) -> None:
        """Change the bound (e.g. from a setting); shrinking evicts the oldest entries."""
        if max_entries < 0:
            raise ValueError(f"max_entries must be >= 0, got {max_entries}")
        with self._lock:
            self.max_entries = max_entries
            self._evict()

    def discard_model(self, model: ModelKey) -> int:
        """Drop every entry of one model key; returns how many were dropped."""
        with self._lock:
            stale = [key for key in self._values if isinstance(key, tuple) and key and key[0] == model]
            for key in stale:
                del self._values[key]
            return len(stale)

    def clear(self) -> None:
        """Forget every value and reset the counters."""
        with self._lock:
            self._values.clear()
            self._hits = self._misses = self._evictions = 0

    def _evict(self) -> None:
        while len(self._values) > self.max_entries:
            self._values.popitem(last=False)
            self._evictions += 1


#: The process-wide cache that live drafts and submission scoring share; its size is set by the
#: caller (the Django side sets it from ``STUMPER_INFERENCE_CACHE_SIZE``). Off until then.
shared_cache = InferenceCache(max_entries=0)
