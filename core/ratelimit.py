"""Rate limits counted in Django's cache, so every web process shares them.

The draft websockets (authoring and the annotation QA assist) limit drafts per user with
``draft_limiter``: at most ``burst`` drafts in a window of ``burst / rate`` seconds (rounded up),
which averages ``rate`` drafts a second. A window starts with a user's first draft and ends when
its cache key expires. The cache is Redis when ``REDIS_URL`` is set, so a user's connections to
all web processes draw on one budget; with the default ``LocMemCache`` the budget is per process.
The client debounces typing to about four drafts a second, so the limit only meets scripts and
stuck clients.

The count relies on ``cache.add`` (set if absent) and ``cache.incr`` being atomic and on ``incr``
keeping the key's expiry: true of Redis, Memcached and ``LocMemCache``, not of the database
or file caches. Django's async ``aincr`` is a get followed by a set, so async callers use
``aallow``, which runs the atomic sync calls in a worker thread.
"""
import logging
import math
import time

from asgiref.sync import sync_to_async
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache

logger = logging.getLogger(__name__)
OUTAGE_LOG_SECONDS = 60.0


class CacheRateLimiter:
    """At most ``burst`` events per key in each window of ``burst / rate`` seconds.

    ``cache`` is for tests that stand in for other processes; by default the ``default`` cache is
    looked up on every call (Django's cache connections belong to a thread).
    """

    def __init__(self, *, prefix: str, cache: BaseCache | None = None) -> None:
        self.prefix = prefix
        self._cache = cache
        self._outage_logged_at: float | None = None

    @property
    def cache(self) -> BaseCache:
        return self._cache if self._cache is not None else caches["default"]

    def cache_key(self, key: str) -> str:
        return f"ratelimit:{self.prefix}:{key}"

    def allow(self, key: str, *, rate: float, burst: int) -> bool:
        """Count one event for ``key``; False once the window's ``burst`` events are used up.

        If the cache is down the event is allowed: the limit only protects the model, and a
        Redis outage must not cut authors off (the inference queue is bounded on its own).
        """
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        window = max(1, math.ceil(burst / rate))  # cache timeouts are whole seconds
        try:
            count = self._count(self.cache_key(key), window)
        except Exception:  # any backend's connection error; the limiter fails open
            self._log_outage()
            return True
        return count <= burst

    async def aallow(self, key: str, *, rate: float, burst: int) -> bool:
        """``allow`` from async code, off the event loop and off the ORM's thread."""
        return await sync_to_async(self.allow, thread_sensitive=False)(key, rate=rate, burst=burst)

    def _count(self, cache_key: str, window: int) -> int:
        cache = self.cache
        for _ in range(3):
            if cache.add(cache_key, 1, timeout=window):
                return 1  # the first event opens the window
            try:
                return cache.incr(cache_key)
            except ValueError:
                continue  # the window expired between add and incr: open a new one
        raise RuntimeError(f"could not count {cache_key!r}")

    def _log_outage(self) -> None:
        now = time.monotonic()
        if self._outage_logged_at is None or now - self._outage_logged_at >= OUTAGE_LOG_SECONDS:
            self._outage_logged_at = now
            logger.warning("Rate limit cache unavailable; allowing events until it is back", exc_info=True)


draft_limiter = CacheRateLimiter(prefix="drafts")
