"""The draft rate limit counts in Django's cache: shared by limiter instances, atomic, fails open."""
import threading
import time
from unittest import mock

import pytest
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache

from core.ratelimit import CacheRateLimiter, draft_limiter


class RecordingCache(LocMemCache):
    """A LocMemCache that remembers the timeouts it was given."""

    def __init__(self, location: str) -> None:
        super().__init__(location, {})
        self.timeouts: list[int] = []

    def add(self, key, value, timeout=None, version=None):
        self.timeouts.append(timeout)
        return super().add(key, value, timeout, version)


class DownCache(LocMemCache):
    def add(self, key, value, timeout=None, version=None):
        raise ConnectionError("Error 111 connecting to redis:6379. Connection refused.")


def test_a_burst_is_allowed_then_refused_per_key():
    limiter = CacheRateLimiter(prefix="test")
    assert [limiter.allow("author:1", rate=0.01, burst=3) for _ in range(5)] == [True, True, True, False, False]
    assert limiter.allow("author:2", rate=0.01, burst=3)  # another user has a budget of their own
    assert limiter.allow("annotation:1", rate=0.01, burst=3)  # so does the same user's other socket
    assert CacheRateLimiter(prefix="other").allow("author:1", rate=0.01, burst=3)


def test_two_limiters_with_their_own_cache_connections_share_the_count():
    # Each instance has its own backend object on one store, like two web processes on one Redis.
    first = CacheRateLimiter(prefix="drafts", cache=LocMemCache("ratelimit-shared", {}))
    second = CacheRateLimiter(prefix="drafts", cache=LocMemCache("ratelimit-shared", {}))
    assert first.cache is not second.cache
    assert first.allow("author:7", rate=0.01, burst=2)
    assert second.allow("author:7", rate=0.01, burst=2)
    assert not first.allow("author:7", rate=0.01, burst=2)
    assert not second.allow("author:7", rate=0.01, burst=2)
    first.cache.clear()


def test_the_default_limiter_counts_in_the_default_cache():
    other_process = CacheRateLimiter(prefix="drafts")
    assert draft_limiter.allow("author:3", rate=0.01, burst=1)
    assert not other_process.allow("author:3", rate=0.01, burst=1)
    assert cache.get(draft_limiter.cache_key("author:3")) == 2


def test_concurrent_calls_never_allow_more_than_the_burst():
    limiter = CacheRateLimiter(prefix="test")
    allowed: list[bool] = []

    def send() -> None:
        # Threads get separate cache connections, as processes would.
        allowed.extend(limiter.allow("author:1", rate=0.01, burst=50) for _ in range(40))

    threads = [threading.Thread(target=send) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(allowed) == 200 and allowed.count(True) == 50


def test_the_window_is_burst_over_rate_seconds_rounded_up():
    limiter = CacheRateLimiter(prefix="test", cache=RecordingCache("ratelimit-window"))
    limiter.allow("a", rate=5.0, burst=20)
    limiter.allow("b", rate=3.0, burst=10)
    limiter.allow("c", rate=100.0, burst=1)
    assert limiter.cache.timeouts == [4, 4, 1]
    limiter.cache.clear()


def test_a_new_window_opens_when_the_old_one_expires():
    limiter = CacheRateLimiter(prefix="test")
    assert limiter.allow("author:1", rate=1000.0, burst=1)  # a window of one second
    assert not limiter.allow("author:1", rate=1000.0, burst=1)
    time.sleep(1.1)
    assert limiter.allow("author:1", rate=1000.0, burst=1)


def test_a_cache_outage_lets_drafts_through_and_is_logged_once(caplog):
    limiter = CacheRateLimiter(prefix="test", cache=DownCache("ratelimit-down", {}))
    with caplog.at_level("WARNING", logger="core.ratelimit"):
        assert all(limiter.allow("author:1", rate=0.01, burst=1) for _ in range(3))
    assert len(caplog.records) == 1 and "unavailable" in caplog.records[0].message


def test_a_key_that_expires_between_add_and_incr_opens_a_new_window():
    limiter = CacheRateLimiter(prefix="test")
    with mock.patch.object(LocMemCache, "incr", side_effect=ValueError("Key not found")), \
            mock.patch.object(LocMemCache, "add", side_effect=[False, True]):
        assert limiter.allow("author:1", rate=0.01, burst=1)


@pytest.mark.parametrize(("rate", "burst"), [(0, 5), (-1.0, 5), (1.0, 0)])
def test_nonsense_settings_are_refused(rate, burst):
    with pytest.raises(ValueError):
        draft_limiter.allow("author:1", rate=rate, burst=burst)


async def test_async_callers_share_the_count_with_sync_ones():
    assert await draft_limiter.aallow("author:9", rate=0.01, burst=2)
    assert await draft_limiter.aallow("author:9", rate=0.01, burst=2)
    assert not draft_limiter.allow("author:9", rate=0.01, burst=2)
