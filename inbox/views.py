"""The instructor's start page."""
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from core.exceptions import AccessError
from inbox.selectors import instructor_inbox


@login_required
@require_safe
def inbox(request: HttpRequest) -> HttpResponse:
    """Reviews and appeals waiting, flags to resolve, runs that ended, rounds closing soon."""
    if not request.user.is_instructor:
        raise AccessError("The inbox is the instructors' start page.")
    return render(request, "inbox/inbox.html", {"inbox": instructor_inbox(user=request.user)})
