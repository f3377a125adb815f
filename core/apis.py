"""What every JSON API of the apps shares: service errors as DRF errors, unknown fields refused,
pagination and downloads (Styleguide-Example ``api/mixins.py``, ``api/pagination.py``).

Services raise Django's ``ValidationError`` and our ``AccessError`` (``NotFoundError``); ``ApiErrorsMixin``
turns them into 400 with field errors and 403 (404) with the service's message, so no input can cause a 500.

``DetailApi``, ``ListApi`` and ``ActionApi`` (with ``ImportApi``) are the three shapes most APIs
have: find one object, list a page, act on one object. A view on one of them names its selector,
serializers and service call; anything less regular stays a plain ``APIView``. ``JobSerializer``
is the part every background job's output shares.

Every download is named through ``content_disposition``, which makes any name (a project's, with
quotes or a line break) safe. The API's JSON parser is ``core.parsers.BoundedJSONParser``.
"""
import re
from collections.abc import Callable, Iterable
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpResponse, JsonResponse
from django.utils.http import content_disposition_header
from rest_framework import exceptions, serializers, status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.exceptions import AccessError, ImportFailed, NotFoundError
from core.jobs import job_progress_shown, job_stall, job_state
from core.models import BackgroundJob

# An import's problems shown in an API error, at most.
MAX_ERRORS_SHOWN = 100
# Ids and counts beyond a 64-bit integer can't be looked up; reject them as input errors.
MAX_ID = 2**63 - 1


def unknown_fields(serializer: serializers.Serializer, data: Any, prefix: str = "") -> dict[str, str]:
    """Keys of ``data`` that ``serializer`` has no field for (nested ones as ``outer.inner``), each
    with the message naming the fields accepted there."""
    if not hasattr(data, "keys"):
        return {}  # not an object: the serializer itself says so
    unknown = {}
    for key in data:
        field = serializer.fields.get(key)
        if field is None:
            if key != "csrfmiddlewaretoken":  # a session-authenticated form post carries it
                unknown[prefix + key] = f"Unknown field. Accepted here: {', '.join(serializer.fields)}."
        elif isinstance(field, serializers.Serializer):
            unknown.update(unknown_fields(field, data[key], prefix=f"{prefix}{key}."))
    return unknown


class ApiErrorsMixin:
    """Translate the services' exceptions into DRF's before DRF's handler sees them, and refuse
    request bodies with fields the view's ``InputSerializer`` does not know: DRF would ignore
    them, and a client that misspelt a setting would be told it was saved."""

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)
        input_serializer = getattr(self, "InputSerializer", None)
        if input_serializer is not None and request.method in ("POST", "PUT", "PATCH"):
            unknown = unknown_fields(input_serializer(), request.data)
            if unknown:
                raise exceptions.ValidationError({name: [message] for name, message in unknown.items()})

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, NotFoundError):  # before AccessError, which it also is
            exc = exceptions.NotFound(detail=exc.message)
        elif isinstance(exc, AccessError):
            # DRF would replace a Django PermissionDenied with its generic message.
            exc = exceptions.PermissionDenied(detail=exc.message)
        elif isinstance(exc, DjangoValidationError):
            detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
            exc = exceptions.ValidationError(detail=detail)
        elif isinstance(exc, RequestDataTooBig):  # Django's cap, met reading the body: JSON, not its HTML 400
            exc = RequestTooLarge(f"The request body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes.")
        return super().handle_exception(exc)


class Conflict(exceptions.APIException):
    """409 with the service's reason in ``detail``: the request is fine but cannot be done now
    (a job of that kind already running, a run already ended)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "This cannot be done now."
    default_code = "conflict"


class RequestTooLarge(exceptions.APIException):
    """413: a request body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "request_too_large"


class ListPagination(PageNumberPagination):
    """Pages of 25 (``?page=``, ``?page_size=`` up to 100) for the API's lists."""

    page_size = 25
    page_size_query_param = "page_size"
    max_page_size = 100


def paginated(view: APIView, request: Request, items: Iterable, serialize: Callable[[list], Any]) -> Response:
    """One page of ``items`` (a queryset or list) through the view's ``Pagination``; ``serialize``
    turns the page's items into JSON-ready data."""
    paginator = view.Pagination()
    page = paginator.paginate_queryset(items, request, view=view)
    return paginator.get_paginated_response(serialize(page))


class DetailApi(ApiErrorsMixin, APIView):
    """GET one object through ``OutputSerializer``. ``lookup`` is the selector that finds it for the
    signed-in user from the URL's ids (``lookup(user=..., round_id=...)``); it raises 404 or 403
    itself, so a subclass only names the two."""

    lookup: Callable[..., Any]

    def get(self, request: Request, **ids: int) -> Response:
        target = self.lookup(user=request.user, **ids)
        return Response(self.OutputSerializer(target, context={"request": request}).data)


class ListApi(ApiErrorsMixin, APIView):
    """GET a page (``Pagination``) of ``items``, each through ``OutputSerializer``. ``items`` selects
    them for the signed-in user from the URL's ids and the query (its ``FilterSerializer``), and
    raises 404, 403 or 400 itself."""

    Pagination = ListPagination

    def items(self, request: Request, **ids: int) -> Iterable:
        raise NotImplementedError

    def get(self, request: Request, **ids: int) -> Response:
        items = self.items(request, **ids)
        return paginated(self, request, items, lambda page: self.OutputSerializer(page, many=True).data)


class ActionApi(ApiErrorsMixin, APIView):
    """POST to act on the object ``lookup`` finds for the signed-in user (as ``DetailApi``; its 404
    or 403 comes before any input error): ``InputSerializer`` checks the body, ``perform`` calls
    the service, and its result goes out through ``OutputSerializer`` with ``success_status``, the
    code the schema documents too."""

    lookup: Callable[..., Any]
    success_status = status.HTTP_201_CREATED

    def perform(self, target: Any, data: dict, user: Any) -> Any:
        raise NotImplementedError

    def post(self, request: Request, **ids: int) -> Response:
        target = self.lookup(user=request.user, **ids)
        # The request in the context: a field may offer only what this user may choose.
        serializer = self.InputSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        result = self.perform(target, serializer.validated_data, request.user)
        return Response(self.OutputSerializer(result, context={"request": request}).data, status=self.success_status)


class ImportApi(ActionApi):
    """An ``ActionApi`` that imports a file (multipart, with the ``InputSerializer``'s options) all
    or nothing: ``run_import`` raises ``ImportFailed`` with every problem, answered as the ``file``
    field's errors."""

    parser_classes = [MultiPartParser]  # a file upload

    def run_import(self, target: Any, data: dict) -> Any:
        raise NotImplementedError

    def perform(self, target: Any, data: dict, user: Any) -> Any:
        try:
            return self.run_import(target, data)
        except ImportFailed as error:
            raise import_error(error) from None


class JobSerializer(serializers.Serializer):
    """A background job (``core.models.BackgroundJob``): the fields every job shows, then its own."""

    # The job's model, whose ``Status`` the schema lists as the job's states.
    job_model: type[BackgroundJob] = BackgroundJob

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=BackgroundJob.Status.choices)
    progress = serializers.DictField()
    error = serializers.CharField()
    stalled = serializers.BooleanField(help_text="Running, but no worker has reported for STUMPER_JOB_STALL_SECONDS "
                                                 "(display.stalled says how long)")
    state = serializers.CharField(help_text='The status, or "stalled" for a stalled running job')
    display = serializers.DictField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["status"].choices = self.job_model.Status.choices  # a job may have more (a cancelled run)
        return fields

    def payload(self, job: Any) -> dict:
        """The subclass's own fields and ``display`` (the job in words), usually built on the payload
        its page and websocket show; a key here wins over the common one."""
        raise NotImplementedError

    def to_representation(self, job: BackgroundJob) -> dict:
        return super().to_representation({
            "id": job.pk, "status": job.status, "progress": job_progress_shown(job), "error": job.error,
            "stalled": bool(job_stall(job)), "state": job_state(job), "created_at": job.created_at, "finished_at": job.finished_at, **self.payload(job),
        })


class FormatParamNegotiation(DefaultContentNegotiation):
    """Leave ``?format=`` to the view: our downloads use it for the file format (``canvas``,
    ``tsv``...), as the HTML pages do, where DRF would read it as a renderer name and answer 404."""

    settings = SimpleNamespace(URL_FORMAT_OVERRIDE=None)  # the only setting the negotiation reads


# What a file name keeps: letters and digits of any script, '_', '.' and '-'; the rest becomes '-'.
_UNSAFE_IN_FILENAME = re.compile(r"[^\w.-]+")
MAX_FILENAME_CHARS = 150


def safe_filename(name: str) -> str:
    """``name`` as a file name every browser and system takes: no quotes, slashes, line breaks or
    spaces (each run becomes ``-``), no leading dot, at most ``MAX_FILENAME_CHARS`` before the
    extension, which is kept."""
    stem, dot, extension = name.rpartition(".")
    if not dot or not extension.isalnum() or len(extension) > 10:
        stem, extension = name, ""
    stem = _UNSAFE_IN_FILENAME.sub("-", stem).strip(".-")[:MAX_FILENAME_CHARS].rstrip(".-") or "download"
    return f"{stem}.{extension}" if extension else stem


def content_disposition(filename: str) -> str:
    """The ``Content-Disposition`` of a download named after ``filename`` (made safe; a name in
    another script goes in RFC 6266's ``filename*``)."""
    return content_disposition_header(True, safe_filename(filename))


def file_response(content: str | bytes, *, content_type: str, filename: str) -> HttpResponse:
    """A download, as the HTML pages send it (DRF's renderers are for JSON only)."""
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition(filename)
    return response


def json_file_response(document: Any, *, filename: str) -> HttpResponse:
    """A JSON download (indented, non-ASCII text as it is), as the pages' "JSON" links send it."""
    response = JsonResponse(document, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = content_disposition(filename)
    return response


def import_error(error: ImportFailed) -> serializers.ValidationError:
    """A failed import as the ``file`` field's errors: every problem with its line or JSON path."""
    return serializers.ValidationError({"file": import_messages(error.errors)})


def import_messages(errors) -> list[str]:
    """An import's problems, one message each (``line 3: ...``), the first ``MAX_ERRORS_SHOWN``."""
    shown = [f"line {line}: {message}" if isinstance(line, int) else f"{line}: {message}"
             for line, message in errors[:MAX_ERRORS_SHOWN]]
    more = len(errors) - len(shown)
    return [*shown, *([f"... and {more} more"] if more > 0 else []), "Nothing was imported."]
