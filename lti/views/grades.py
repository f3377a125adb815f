"""The round page's "send all grades again" button."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from collector.selectors import round_for_manager
from lti.tasks import round_grades_passback_task


@login_required
@require_POST
def round_grades_resend(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = round_for_manager(user=request.user, round_id=round_id)
    round_grades_passback_task.delay(round_.pk, None, True)
    messages.info(request, "Every student's score is being sent to the LMS again.")
    return redirect("collector:round_detail", round_id=round_.pk)
