"""JSON API of a round's files, for its course's instructors: grades and CODAH import.

GET  /api/rounds/<id>/grades/?format=canvas|moodle|csv&points_possible=    CSV, as the round page's download
POST /api/rounds/<id>/import/  (multipart: file, allow_duplicate_choices)   as ``manage.py import_codah``

The CODAH export (``GET /api/rounds/<id>/export/``), which can add an evaluation report's
weights, is ``evaluation.export_apis.RoundExportApi``.

The downloads are files, not JSON; their errors are JSON like every other endpoint's. An import
is all or nothing, with the same byte and row limits as the command (``STUMPER_IMPORT_MAX_*``).
"""
from django.conf import settings
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector import grades, selectors, services
from core.apis import ApiErrorsMixin, FormatParamNegotiation, file_response, import_error
from core.exceptions import ImportFailed


class RoundGradesApi(ApiErrorsMixin, APIView):
    """GET one row per enrolled student as a Canvas or Moodle import file or plain CSV. Points =
    credit, or min(points_possible, credit) when ``points_possible`` is given."""

    content_negotiation_class = FormatParamNegotiation
    output_media_type = "text/csv"

    class FilterSerializer(serializers.Serializer):
        format = serializers.ChoiceField(choices=grades.FORMATS, default="canvas")
        points_possible = serializers.FloatField(required=False, allow_null=True, default=None, min_value=0.0,
                                                 max_value=1e9)

    def get(self, request: Request, round_id: int):
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        fmt, points_possible = filters.validated_data["format"], filters.validated_data["points_possible"]
        rows = grades.round_grades(round_=round_, points_possible=points_possible)
        return file_response(grades.grades_csv(round_=round_, rows=rows, fmt=fmt, points_possible=points_possible),
                             content_type="text/csv; charset=utf-8",
                             filename=f"stumper-{round_.name}-grades-{fmt}.csv")


class CodahFileField(serializers.FileField):
    """A CODAH TSV upload as text. A file over the import limit is read only just past it: the
    import service then refuses it for its size, with its own message, and nothing more is read."""

    def to_internal_value(self, data) -> str:
        upload = super().to_internal_value(data)
        raw = upload.read(settings.STUMPER_IMPORT_MAX_BYTES + 1)
        if len(raw) > settings.STUMPER_IMPORT_MAX_BYTES:
            return raw.decode("utf-8", errors="replace")  # still over the limit, so still refused
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise serializers.ValidationError("The file is not UTF-8 text.") from None


class RoundImportApi(ApiErrorsMixin, APIView):
    """POST a CODAH TSV file (7 tab-separated fields: category letters, prompt, 4 answers, right
    index) as multipart ``file``: every row is imported, as accepted questions by the course's
    owner, or none; bad rows are listed by line."""

    parser_classes = [MultiPartParser]  # a file upload

    class InputSerializer(serializers.Serializer):
        file = CodahFileField()
        allow_duplicate_choices = serializers.BooleanField(
            required=False, default=False,
            help_text="Accept rows that repeat a completion (three rows of the public CODAH release do)")

    class OutputSerializer(serializers.Serializer):
        round_id = serializers.IntegerField()
        imported = serializers.IntegerField()
        question_ids = serializers.ListField(child=serializers.IntegerField())

    def post(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            questions = services.codah_import(
                round_=round_, text=serializer.validated_data["file"], author=round_.course.owner,
                allow_duplicate_choices=serializer.validated_data["allow_duplicate_choices"],
            )
        except ImportFailed as error:
            raise import_error(error) from None
        return Response({"round_id": round_.pk, "imported": len(questions), "question_ids": [q.pk for q in questions]},
                        status=status.HTTP_201_CREATED)


