"""Celery tasks of the lti app: thin wrappers that take ids and call idempotent services."""
import contextlib

from celery import shared_task
from django.conf import settings

from lti.models import ContextLink
from lti.services import grades, roster


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


@shared_task(bind=True, acks_late=True, name="lti.grade_passback")
def grade_passback_task(self, resource_link_id: int, user_id: int, force: bool = False) -> None:
    retries = settings.STUMPER_LTI_PASSBACK_RETRIES
    try:
        grades.grade_passback(resource_link_id=resource_link_id, user_id=user_id, force=force,
                              last_attempt=self.request.retries >= retries)
    except grades.PassbackFailed as exc:
        # Back off 30 s, 60 s, 120 s ... (STUMPER_LTI_PASSBACK_BACKOFF_SECONDS); the last failure is stored as failed.
        raise self.retry(exc=exc, countdown=settings.STUMPER_LTI_PASSBACK_BACKOFF_SECONDS * 2**self.request.retries,
                         max_retries=retries) from exc


@shared_task(acks_late=True, name="lti.round_grades_passback")
def round_grades_passback_task(round_id: int, user_ids: list[int] | None = None, force: bool = False) -> None:
    """Fan out: one grade_passback_task per (LMS line item, student) of the round."""
    _fan_out(grades.passback_targets(round_id=round_id, user_ids=user_ids), force)


@shared_task(acks_late=True, name="lti.project_grades_passback")
def project_grades_passback_task(project_id: int, user_ids: list[int] | None = None, force: bool = False) -> None:
    """Fan out: one grade_passback_task per (LMS line item, student) of the annotation project."""
    _fan_out(grades.passback_targets(project_id=project_id, user_ids=user_ids), force)


def _fan_out(targets: list[grades.PassbackTarget], force: bool) -> None:
    for target in targets:
        grade_passback_task.delay(target.resource_link_id, target.user_id, force)
