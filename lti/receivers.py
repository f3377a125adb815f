"""Grade passback on credit changes: the collector's signal -> a Celery task after the commit."""
from functools import partial

from django.db import transaction
from django.dispatch import receiver

from collector.signals import credit_changed
from lti.models import ResourceLink
from lti.tasks import round_grades_passback_task


@receiver(credit_changed, dispatch_uid="lti-grade-passback")
def enqueue_grade_passback(sender, *, round_id: int, user_ids: list[int] | None = None, **kwargs) -> None:
    if not ResourceLink.objects.filter(round_id=round_id).exclude(lineitem_url="").exists():
        return  # the round is not an LMS assignment: nothing to send
    transaction.on_commit(partial(round_grades_passback_task.delay, round_id, user_ids))
