"""Sign-in rate limit: failed attempts counted per username and per client address in the cache.

Per username it stops password guessing against one account; per address (with a higher limit,
because a whole class may sign in from one campus address) it stops one client trying many
usernames. The cache is Redis when ``REDIS_URL`` is set, so all web processes share the counts.
Writes are in ``accounts.services``; this module only names the keys and reads them.
"""
import hashlib

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


def login_blocked(*, username: str, address: str) -> bool:
    """True when this username or this address used up its failed attempts in the window."""
    counts = cache.get_many(failure_keys(username=username, address=address))
    return (
        counts.get(username_key(username), 0) >= settings.STUMPER_LOGIN_MAX_FAILURES
        or counts.get(address_key(address), 0) >= settings.STUMPER_LOGIN_MAX_FAILURES_PER_ADDRESS
    )
