"""Which worker process holds a long job (a scoring or evaluation run), and when to take it over.

A job records ``host:pid`` of the worker running it and a heartbeat. Another worker takes the
job over when the heartbeat is stale or when the owner was a process on this machine that no
longer exists (a killed worker is noticed at once, not after the stale period).
"""
import os
import socket
from datetime import datetime, timedelta

from django.utils import timezone


def worker_owner() -> str:
    """``host:pid`` of this process."""
    return f"{socket.gethostname()}:{os.getpid()}"


def owner_is_dead(owner: str) -> bool:
    """True when ``owner`` was a process on this machine that no longer exists."""
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def held_by_another_worker(*, running: bool, owner: str, heartbeat_at: datetime | None, stale_after: timedelta) -> bool:
    """True when a running job belongs to another live worker whose heartbeat is fresh."""
    fresh = heartbeat_at is not None and timezone.now() - heartbeat_at < stale_after
    return running and owner != worker_owner() and fresh and not owner_is_dead(owner)
