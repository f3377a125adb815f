"""Logging: where records go, and a request id on every log record of a request and on its response.

Every record goes to **stderr**, never stdout: stdout belongs to what a program outputs, and a
management command's ``--json`` must be exactly one JSON document there (tests/test_json_commands.py).
The handler, not only the root logger, carries the level: a library that sets its own logger to
DEBUG at import (bm25s does: "DEBUG bm25s: Building index from tokens") cannot get below it.

The request id comes from the proxy's ``X-Request-ID`` header when it sends a sane one (so a request can be
followed from the load balancer to Django), otherwise a new one. It lives in a context variable,
which asgiref copies into the thread a sync view runs in, so records logged there carry it too.
"""
import contextvars
import logging
import re
import uuid

from asgiref.sync import iscoroutinefunction, markcoroutinefunction

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")

# Anything else a client sends is replaced: the id is written into logs verbatim.
_SANE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


def _request_id(request) -> str:
    incoming = request.META.get("HTTP_X_REQUEST_ID", "")
    return incoming if _SANE_ID.match(incoming) else uuid.uuid4().hex


class RequestIdMiddleware:
    """Sets the request id for the request's log records and returns it as ``X-Request-ID``."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self.__acall__(request)
        # Not reset on the way out: Django logs 4xx/5xx responses ("Not Found: ...") after the
        # middleware returned, and those records need the id too. The next request sets a new one.
        request_id_var.set(_request_id(request))
        response = self.get_response(request)
        response["X-Request-ID"] = request_id_var.get()
        return response

    async def __acall__(self, request):
        request_id_var.set(_request_id(request))
        response = await self.get_response(request)
        response["X-Request-ID"] = request_id_var.get()
        return response


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` ("-" outside a request) to every record, for the formatters."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        return True


class ExpectedErrorFilter(logging.Filter):
    """An expected refusal (403 ``PermissionDenied``, 404 ``Http404``) is one line, not a traceback.

    Django logs these responses with the exception attached, so every 403 a student gets for
    opening an instructor's page would print a stack trace. The reason is kept on the line.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        from django.core.exceptions import PermissionDenied
        from django.http import Http404

        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, PermissionDenied | Http404):
            reason = str(error)
            record.msg, record.args = record.getMessage() + (f" ({reason})" if reason else ""), ()
            record.exc_info, record.exc_text = None, None
        return True


def logging_settings(*, level: str = "INFO", log_format: str = "plain") -> dict:
    """The ``LOGGING`` dict of the settings: one stderr handler at ``level`` in ``log_format``.

    ``log_format`` is ``plain`` (one readable line per record) or ``json`` (one JSON object per
    line with the request id, for a log collector, which reads stderr as well as stdout).
    """
    if log_format not in ("plain", "json"):
        raise ValueError(f'LOG_FORMAT must be "plain" or "json", not {log_format!r}')
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request_id": {"()": "config.logging.RequestIdFilter"},
            "expected_errors": {"()": "config.logging.ExpectedErrorFilter"},
        },
        "formatters": {
            "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "format": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(process)d",
                "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            },
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "level": level,
                "formatter": log_format,
                "filters": ["request_id", "expected_errors"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        # Django's own handlers on its "django" logger go: with DEBUG on, its console handler printed
        # every refusal a second time, with the traceback that the filter above keeps out (and,
        # with DEBUG off, its mail_admins handler has no ADMINS to write to). Records reach the
        # handler above through the root.
        "loggers": {"django": {"handlers": [], "propagate": True}},
    }
