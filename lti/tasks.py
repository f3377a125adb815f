"""Celery tasks of the lti app: thin wrappers that take ids and call idempotent services."""
import contextlib

from celery import shared_task

from lti.models import ContextLink
from lti.services import roster


@shared_task(acks_late=True, name="lti.roster_sync")
def roster_sync_task(context_id: int) -> None:
    # A failure's reason is stored on the context and shown on the roster page; the next sync tries again.
    with contextlib.suppress(roster.RosterSyncFailed):
        roster.roster_sync(context_id=context_id)


@shared_task(acks_late=True, name="lti.roster_sync_all")
def roster_sync_all_task() -> None:
    """Celery beat's periodic sync (STUMPER_LTI_ROSTER_SYNC_SECONDS): one task per linked LMS course."""
    for context_id in ContextLink.objects.exclude(memberships_url="").exclude(course=None).values_list("pk", flat=True):
        roster_sync_task.delay(context_id)
