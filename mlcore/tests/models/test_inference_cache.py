"""Tests for mlcore.models.inference_cache: LRU order, bound, counters, per-model invalidation, threads."""

from __future__ import annotations

import threading

import pytest

from mlcore.models.inference_cache import InferenceCache, ModelKey

MODEL = ModelKey("tiny", "/models/tiny", "abc123", "torch", (("max_length", 80),))
NEXT_VERSION = ModelKey("tiny", "/models/tiny", "def456", "torch", (("max_length", 80),))


def test_least_recently_used_entry_is_evicted_first() -> None:
    cache = InferenceCache(max_entries=2)
    cache.put((MODEL, "a"), 1)
    cache.put((MODEL, "b"), 2)
    assert cache.get((MODEL, "a")) == 1  # "a" is now newer than "b"
    cache.put((MODEL, "c"), 3)
    assert cache.get((MODEL, "b")) is None
    assert cache.get((MODEL, "a")) == 1 and cache.get((MODEL, "c")) == 3
    stats = cache.stats
    assert (stats.hits, stats.misses, stats.evictions, stats.entries) == (3, 1, 1, 2)
    assert stats.hit_rate == pytest.approx(3 / 4)


def test_size_zero_stores_nothing_and_shrinking_evicts_the_oldest() -> None:
    off = InferenceCache(max_entries=0)
    off.put((MODEL, "a"), 1)
    assert off.get((MODEL, "a")) is None and len(off) == 0
    cache = InferenceCache(max_entries=3)
    for i, text in enumerate("abc"):
        cache.put((MODEL, text), i)
    cache.resize(1)
    assert len(cache) == 1 and cache.get((MODEL, "c")) == 2
    with pytest.raises(ValueError):
        cache.resize(-1)
    with pytest.raises(ValueError):
        InferenceCache(max_entries=-5)
    with pytest.raises(ValueError):
        cache.put((MODEL, "d"), None)


def test_a_new_revision_never_sees_the_old_versions_values_and_discard_drops_them() -> None:
    cache = InferenceCache(max_entries=10)
    cache.put((MODEL, "prompt", "choice"), 0.5)
    cache.put((NEXT_VERSION, "prompt", "choice"), 0.7)
    assert cache.get((NEXT_VERSION, "prompt", "choice")) == 0.7
    assert cache.discard_model(MODEL) == 1
    assert cache.get((MODEL, "prompt", "choice")) is None
    assert cache.get((NEXT_VERSION, "prompt", "choice")) == 0.7
    cache.clear()
    assert len(cache) == 0 and cache.stats.hits == 0


def test_threads_sharing_the_cache_keep_it_bounded_and_consistent() -> None:
    cache = InferenceCache(max_entries=50)

    def work(offset: int) -> None:
        for i in range(500):
            key = (MODEL, str((i + offset) % 80))
            value = cache.get(key)
            assert value is None or value == key[1]
            cache.put(key, key[1])

    threads = [threading.Thread(target=work, args=(n * 7,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stats = cache.stats
    assert stats.entries == 50 and stats.hits + stats.misses == 2000
