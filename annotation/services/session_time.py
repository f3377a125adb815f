"""Time a worker spends on a paragraph: the annotation page's heartbeats, added up on the server.

The page reports every ``HEARTBEAT_SECONDS`` while it is open and visible; each heartbeat adds
the time since the previous one, capped at ``HEARTBEAT_GAP_MAX`` so a page closed overnight
(or a laptop asleep) adds nothing for the gap. The 15-minute guide of the page is measured
against this time on the paragraph, not against when the task was first opened.
"""
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from annotation.models import AnnotationSession
from annotation.services.authoring import lock_session

HEARTBEAT_SECONDS = 15
HEARTBEAT_GAP_MAX = timedelta(seconds=2 * HEARTBEAT_SECONDS + 15)


def active_seconds_between(last: datetime | None, now: datetime) -> int:
    """Seconds a heartbeat at ``now`` adds after one at ``last`` (None: the page just opened)."""
    if last is None or now <= last:
        return 0
    gap = now - last
    return int(gap.total_seconds()) if gap <= HEARTBEAT_GAP_MAX else 0


@transaction.atomic
def session_heartbeat(*, session: AnnotationSession, user: User) -> AnnotationSession:
    """Count the time since the page's last heartbeat towards the worker's time on the paragraph."""
    locked = lock_session(session, user, session.kind)
    now = timezone.now()
    locked.active_seconds += active_seconds_between(locked.last_active_at, now)
    locked.last_active_at = now
    locked.full_clean(exclude=["worker", "paragraph"])
    locked.save(update_fields=["active_seconds", "last_active_at"])
    return locked
