"""Grade passback on credit changes: the collector's and annotation's signals -> a Celery task after the commit."""
from functools import partial

from celery import Task
from django.db import transaction
from django.dispatch import receiver

from annotation.signals import worker_progress_changed
from collector.signals import credit_changed
from lti.models import ResourceLink
from lti.tasks import project_grades_passback_task, round_grades_passback_task


def _enqueue(task: Task, target_id: int, user_ids: list[int] | None, **assignment: int) -> None:
    if not ResourceLink.objects.filter(**assignment).exclude(lineitem_url="").exists():
        return  # not an LMS assignment: nothing to send
    transaction.on_commit(partial(task.delay, target_id, user_ids))


@receiver(credit_changed, dispatch_uid="lti-grade-passback")
def enqueue_grade_passback(sender, *, round_id: int, user_ids: list[int] | None = None, **kwargs) -> None:
    _enqueue(round_grades_passback_task, round_id, user_ids, round_id=round_id)


@receiver(worker_progress_changed, dispatch_uid="lti-project-grade-passback")
def enqueue_project_grade_passback(sender, *, project_id: int, user_ids: list[int], **kwargs) -> None:
    _enqueue(project_grades_passback_task, project_id, user_ids, project_id=project_id)
