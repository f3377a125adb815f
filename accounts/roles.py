"""Which role a page is for: a page meant for one kind of user refuses the others with a reason.

Navigation (``templates/base.html``) shows each role only its own pages; these decorators make a
typed-in address of another role's page answer 403 with a page that says where to go instead.
"""
from collections.abc import Callable
from functools import wraps

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from accounts.models import User

STUDENT_PAGE_MESSAGE = (
    "This page is for students of a course. As a crowdworker, your projects and tasks are on your "
    "Tasks page."
)


def is_crowdworker(user: User) -> bool:
    """A signed-in crowdworker who is not also staff (staff count as instructors everywhere)."""
    return bool(user.is_authenticated and user.role == User.Role.CROWDWORKER and not user.is_instructor)


def not_for_crowdworkers(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Refuse a student page (dashboard, validation) to crowdworkers with a 403 that says why."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if is_crowdworker(request.user):
            raise PermissionDenied(STUDENT_PAGE_MESSAGE)
        return view(request, *args, **kwargs)

    return wrapped
