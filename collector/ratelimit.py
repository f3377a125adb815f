"""Token buckets: at most ``rate`` events per second per key, with bursts of ``burst``.

The author websocket limits drafts per user with one process-wide ``draft_limiter`` (all of a
user's connections to this server process share it). The client debounces typing to about
four drafts a second, so the limit only meets scripts and stuck clients.
"""
import threading
import time
from collections.abc import Hashable


class TokenBuckets:
    """One token bucket per key; ``allow`` takes a token if there is one."""

    def __init__(self, *, max_keys: int = 100_000) -> None:
        self._lock = threading.Lock()
        self._buckets: dict[Hashable, tuple[float, float]] = {}  # key -> (tokens, last refill time)
        self.max_keys = max_keys

    def allow(self, key: Hashable, *, rate: float, burst: int, now: float | None = None) -> bool:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.get(key, (float(burst), now))
            tokens = min(float(burst), tokens + (now - last) * rate)
            allowed = tokens >= 1.0
            self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
            if len(self._buckets) > self.max_keys:
                # Full buckets carry no state worth keeping: forget the oldest half.
                for stale in list(self._buckets)[: self.max_keys // 2]:
                    del self._buckets[stale]
        return allowed

    def reset(self) -> None:
        with self._lock:
            self._buckets.clear()


draft_limiter = TokenBuckets()
