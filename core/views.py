"""The site's start address: everyone goes to the first start page registered for them (``core.registry``'s
``home`` links, filled by the apps that own the pages: the inbox for instructors, the dashboard for
students, the task list for everyone else), a visitor to the sign-in page."""
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.shortcuts import redirect
from django.views.decorators.http import require_safe

from core.registry import links_shown


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Send everyone to the page of their role."""
    if not request.user.is_authenticated:
        return redirect(settings.LOGIN_URL)
    starts = links_shown("home", user=request.user)
    return redirect(starts[0].url) if starts else HttpResponseNotFound()
