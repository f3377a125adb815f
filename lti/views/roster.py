"""The LMS roster of a course (NRPS): who has not started, and a button to sync it now."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from courses.selectors import course_for_manager
from lti import selectors
from lti.tasks import roster_sync_task


@login_required
@require_safe
def course_roster(request: HttpRequest, course_id: int) -> HttpResponse:
    course = course_for_manager(user=request.user, course_id=course_id)
    contexts = [{"context": c, "rows": selectors.roster_progress(context=c)}
                for c in selectors.course_contexts(course_id=course.pk)]
    return render(request, "lti/roster.html", {"course": course, "contexts": contexts})


@login_required
@require_POST
def course_roster_sync(request: HttpRequest, course_id: int) -> HttpResponse:
    course = course_for_manager(user=request.user, course_id=course_id)
    for context in selectors.course_contexts(course_id=course.pk):
        roster_sync_task.delay(context.pk)
    messages.info(request, _("Roster sync started: reload in a moment."))
    return redirect("lti:course_roster", course_id=course.pk)
