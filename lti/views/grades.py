"""The "send all grades again" button of a round's page and of an annotation project's owner page."""
from celery import Task
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from annotation.selectors.projects import project_for_owner
from collector.selectors.rounds import round_for_manager
from lti.tasks import project_grades_passback_task, round_grades_passback_task


def _send_again(request: HttpRequest, task: Task, target_id: int, page: str, **page_args: int) -> HttpResponse:
    """Queue the passback of every student's score again (forced), say so, and go back to ``page``."""
    task.delay(target_id, None, True)
    messages.info(request, _("Every student's score is being sent to the LMS again."))
    return redirect(page, **page_args)


@login_required
@require_POST
def round_grades_resend(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = round_for_manager(user=request.user, round_id=round_id)
    return _send_again(request, round_grades_passback_task, round_.pk, "collector:round_detail", round_id=round_.pk)


@login_required
@require_POST
def project_grades_resend(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    return _send_again(request, project_grades_passback_task, project.pk, "annotation:project_dashboard",
                       project_id=project.pk)
