"""Sign-in rate limit: failed attempts counted per username and per client address in the cache.

Per username it stops password guessing against one account; per address (with a higher limit,
because a whole class may sign in from one campus address) it stops one client trying many
usernames. The cache is Redis when ``REDIS_URL`` is set, so all web processes share the counts.
Writes are in ``accounts.services``; this module only names the keys and reads them.
"""
import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache


def username_key(username: str) -> str:
    # Hashed: usernames may hold characters that memcached-style keys reject.
    digest = hashlib.sha256((username or "").strip().lower().encode()).hexdigest()[:32]
    return f"login-failures:user:{digest}"


def address_key(address: str) -> str:
    return f"login-failures:addr:{hashlib.sha256((address or '').encode()).hexdigest()[:32]}"


def failure_keys(*, username: str, address: str) -> tuple[str, str]:
    return username_key(username), address_key(address)


def window_end_key(key: str) -> str:
    """Where the time (epoch seconds) at which ``key``'s window ends is kept, for "try again in"."""
    return f"{key}:until"


@dataclass(frozen=True)
class LoginLimitState:
    """What the sign-in form tells the user: tries left before a lock-out, and how long one lasts."""

    attempts_left: int  # failed tries still allowed before sign-in is locked (0 = locked now)
    lock_seconds: int  # how long a lock-out lasts, or the seconds left of the current one

    @property
    def blocked(self) -> bool:
        return self.attempts_left <= 0

    @property
    def lock_minutes(self) -> int:
        return max(1, math.ceil(self.lock_seconds / 60))


def login_limit_state(*, username: str, address: str) -> LoginLimitState:
    """The tighter of the username's and the address's limits, read from the cache."""
    user_key, addr_key = failure_keys(username=username, address=address)
    values = cache.get_many([user_key, addr_key, window_end_key(user_key), window_end_key(addr_key)])
    left = {
        user_key: settings.STUMPER_LOGIN_MAX_FAILURES - values.get(user_key, 0),
        addr_key: settings.STUMPER_LOGIN_MAX_FAILURES_PER_ADDRESS - values.get(addr_key, 0),
    }
    tightest = min(left, key=left.get)
    lock_seconds = settings.STUMPER_LOGIN_WINDOW_SECONDS
    if left[tightest] <= 0:
        # Locked: the lock lasts until the window that counted these failures ends.
        until = values.get(window_end_key(tightest))
        lock_seconds = max(1, int(until - time.time())) if until else lock_seconds
    return LoginLimitState(attempts_left=max(0, left[tightest]), lock_seconds=lock_seconds)
