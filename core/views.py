"""The site's start address: everyone goes to the first start page registered for them (``core.registry``'s
``home`` links, filled by the apps that own the pages: the inbox for instructors, the dashboard for
students, the task list for everyone else), a visitor to the sign-in page; and the internal endpoint that
brings a separate worker's job pushes to this process's sockets (``core.job_relay``); and the pages'
JavaScript translations (static/js/lib/i18n.js)."""
from django.conf import settings
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    HttpResponseNotFound,
)
from django.shortcuts import redirect
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe
from django.views.i18n import JavaScriptCatalog

from core.job_relay import (
    MAX_BODY_BYTES,
    SIGNATURE_HEADER,
    is_loopback,
    relay_authentic,
    relay_configured,
    relay_parse,
)
from core.jobs import job_push_local
from core.registry import links_shown

# Django's JavaScript catalogue: the project's djangojs messages (locale/), whichever app's page loads it.
_catalog_view = JavaScriptCatalog.as_view()


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Send everyone to the page of their role."""
    if not request.user.is_authenticated:
        return redirect(settings.LOGIN_URL)
    starts = links_shown("home", user=request.user)
    return redirect(starts[0].url) if starts else HttpResponseNotFound()


@csrf_exempt
@require_POST
def job_push_relay(request: HttpRequest) -> HttpResponse:
    """A worker's job push, relayed over loopback HTTP on the in-memory layer (``core.job_relay``):
    sent to this process's sockets. Only loopback clients with the ``SECRET_KEY``-derived signature."""
    if not relay_configured() or not is_loopback(request.META.get("REMOTE_ADDR", "")):
        return HttpResponseForbidden()
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return HttpResponseBadRequest()
    body = request.read(MAX_BODY_BYTES + 1)
    if length > MAX_BODY_BYTES or len(body) > MAX_BODY_BYTES:
        return HttpResponse(status=413)
    if not relay_authentic(body, request.headers.get(SIGNATURE_HEADER, "")):
        return HttpResponseForbidden()
    try:
        groups, message = relay_parse(body)
    except ValueError as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain")
    job_push_local(groups, message)
    return HttpResponse(status=204)


@require_safe
def javascript_catalog(request: HttpRequest, language: str) -> HttpResponse:
    """The pages' JavaScript translations (``gettext``, ``ngettext``) in ``language``, the page's language:
    a classic script a page loads before its modules (static/js/lib/i18n.js)."""
    if language not in dict(settings.LANGUAGES):
        raise Http404("No such language.")
    with translation.override(language):
        return _catalog_view(request)
