"""Project-level endpoints that belong to no app: the health check of load balancers and compose, the
operator's metrics, and the page for an address or an object that does not exist."""
import hmac

from django.conf import settings
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound, JsonResponse
from django.template.loader import render_to_string
from django.urls import Resolver404
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from core.metrics import exposition


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when this process can reach the database, 503 otherwise (the balancer then skips it)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:
        return JsonResponse({"status": "unavailable", "database": type(error).__name__}, status=503)
    return JsonResponse({"status": "ok"})


def metrics_reader(request: HttpRequest) -> bool:
    """Staff, or a scraper that sends ``Authorization: Bearer <STUMPER_METRICS_TOKEN>`` (when one is set)."""
    if request.user.is_authenticated and request.user.is_staff:
        return True
    token = settings.STUMPER_METRICS_TOKEN
    sent = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus metrics (``core.metrics``); anyone else gets the same 404 as an unknown address."""
    if not metrics_reader(request):
        raise Http404()
    return HttpResponse(exposition(), content_type="text/plain; version=0.0.4; charset=utf-8")


def page_not_found(request: HttpRequest, exception: Http404) -> HttpResponseNotFound:
    """``templates/404.html`` (the ``handler404``, used when DEBUG is false) with the code's reason
    ("This round does not exist.") when it gave one. An address no URL matches has none: Django's
    default handler would show "Resolver404" there."""
    message = exception.args[0] if exception.args else ""
    reason = message if isinstance(message, str) and not isinstance(exception, Resolver404) else ""
    return HttpResponseNotFound(render_to_string("404.html", {"reason": reason}, request))
