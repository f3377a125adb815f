"""Project-level endpoints that belong to no app: the health check of load balancers and compose."""
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


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
