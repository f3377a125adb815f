"""JSON API of the reports: one ``APIView`` per operation (Styleguide-Example ``users/apis.py``).

An operation that exists for rounds and projects is one base view with a subclass per target,
which only words its documentation (the OpenAPI description). Errors never become a 500:
``ApiErrorsMixin`` turns ``AccessError`` into 403 and Django's ``ValidationError`` into 400 with
field errors; a refused start (a report already running) is 409.
"""
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.apis import ApiErrorsMixin, Conflict, ListPagination, file_response
from evaluation.reports.presentation import run_json, run_payload
from evaluation.reports.sections import table_csv
from evaluation.selectors import reports as report_selectors
from evaluation.services.ambiguity_datasets import Upload
from evaluation.services.reports import (
    LIMITS,
    P0_CHOICES,
    EvaluationRefused,
    evaluation_start_project_with_inputs,
    evaluation_start_round,
)


class SettingsSerializer(serializers.Serializer):
    k = serializers.IntegerField(required=False, min_value=LIMITS["k"][0], max_value=LIMITS["k"][1])
    p0 = serializers.ChoiceField(choices=P0_CHOICES, required=False)
    min_count = serializers.IntegerField(required=False, allow_null=True, min_value=LIMITS["min_count"][0],
                                         max_value=LIMITS["min_count"][1])
    max_steps = serializers.IntegerField(required=False, min_value=LIMITS["max_steps"][0],
                                         max_value=LIMITS["max_steps"][1])
    seed = serializers.IntegerField(required=False, min_value=LIMITS["seed"][0], max_value=LIMITS["seed"][1])


class ProjectSettingsSerializer(SettingsSerializer):
    ambiguity_questions = serializers.CharField(
        required=False, allow_blank=True,
        help_text='Selectional-ambiguity questions: an upload\'s id, "server" (STUMPER_AMBIGUITY_QUESTIONS) or "none"; '
                  "blank: the project's newest upload, else the server's set.")
    occupations = serializers.CharField(
        required=False, allow_blank=True,
        help_text='Occupation list: an upload\'s id or "unqover" (70 English occupations); blank: the newest upload, '
                  "else UnQover's.")
    ambiguity_questions_file = serializers.FileField(
        required=False, help_text="Upload a question set (JSON Lines) and use it (multipart request).")
    occupations_file = serializers.FileField(
        required=False, help_text="Upload an occupation list (UnQover format) and use it (multipart request).")


PROBE_FIELDS = ("ambiguity_questions", "occupations", "ambiguity_questions_file", "occupations_file")


def _upload(file) -> Upload | None:
    return Upload(file.name, file.read()) if file else None


def _queued(start, **kwargs) -> Response:
    """201 with the queued report, or 409 when a report of the target is being computed."""
    try:
        run = start(**kwargs)
    except EvaluationRefused as error:
        raise Conflict(error.message) from None
    return Response(run_payload(run), status=status.HTTP_201_CREATED)


class EvaluationRunStartApi(ApiErrorsMixin, APIView):
    """POST: queue a report of a round; course instructors only. Body: optional settings."""

    InputSerializer = SettingsSerializer

    def post(self, request: Request, round_id: int) -> Response:
        round_ = report_selectors.round_for_evaluation(user=request.user, round_id=round_id)
        serializer = SettingsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return _queued(evaluation_start_round, round_=round_, user=request.user, config=serializer.validated_data)


class EvaluationProjectRunStartApi(ApiErrorsMixin, APIView):
    """POST: queue a report of an annotation project; its owner only. Body: optional settings and the
    ambiguity probes' inputs (choices, or files in a multipart body; a bad file is a 400 naming its
    line, and nothing is saved)."""

    InputSerializer = ProjectSettingsSerializer

    def post(self, request: Request, project_id: int) -> Response:
        project = report_selectors.project_for_evaluation(user=request.user, project_id=project_id)
        serializer = ProjectSettingsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        return _queued(
            evaluation_start_project_with_inputs, project=project, user=request.user,
            config={k: v for k, v in data.items() if k not in PROBE_FIELDS},
            questions=data.get("ambiguity_questions"), occupations=data.get("occupations"),
            questions_upload=_upload(data.get("ambiguity_questions_file")),
            occupations_upload=_upload(data.get("occupations_file")),
        )


class RunsPagination(ListPagination):
    page_size = 20


class _RunListApi(ApiErrorsMixin, APIView):
    def get(self, request: Request, round_id: int | None = None, project_id: int | None = None) -> Response:
        target = report_selectors.evaluation_target(user=request.user, round_id=round_id, project_id=project_id)
        paginator = RunsPagination()
        page = paginator.paginate_queryset(report_selectors.evaluation_runs(**target), request, view=self)
        return paginator.get_paginated_response([run_payload(run) for run in page])


class EvaluationRunListApi(_RunListApi):
    """GET: a round's reports, newest first, as status summaries (paginated)."""


class EvaluationProjectRunListApi(_RunListApi):
    """GET: a project's reports, newest first, as status summaries (paginated)."""


class EvaluationRunDetailApi(ApiErrorsMixin, APIView):
    """GET: one report as JSON (status, settings, provenance and every section): the same document
    as the report page's JSON download."""

    def get(self, request: Request, run_id: int) -> Response:
        run = report_selectors.evaluation_run_for_user(user=request.user, run_id=run_id)
        return Response(run_json(run))


class EvaluationRunTableCsvApi(ApiErrorsMixin, APIView):
    """GET one table of a report's section as CSV (the names are the keys of ``sections`` and
    their ``tables`` in the report's JSON); 404 when the report has no such table."""

    output_media_type = "text/csv"

    def get(self, request: Request, run_id: int, section: str, table: str):
        run = report_selectors.evaluation_run_for_user(user=request.user, run_id=run_id)
        item = report_selectors.evaluation_run_table(run=run, section=section, table=table)
        if item is None:
            raise exceptions.NotFound(f"Report {run.pk} has no table “{table}” in section “{section}”.")
        return file_response(table_csv(item), content_type="text/csv; charset=utf-8",
                             filename=f"stumper-evaluation-{run.pk}-{section}-{table}.csv")
