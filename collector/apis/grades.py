"""JSON API of a round's grades, for its course's instructors.

GET  /api/rounds/<id>/grades/?format=canvas|moodle|csv&points_possible=    CSV, as the round page's download

The download is a file, not JSON; its errors are JSON like every other endpoint's.
"""
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.views import APIView

from collector.presentation.grades import FORMATS, grades_file
from collector.selectors.grades import round_gradebook, round_grades
from collector.selectors.rounds import round_for_manager
from core.apis import ApiErrorsMixin, FormatParamNegotiation, file_response


class RoundGradesApi(ApiErrorsMixin, APIView):
    """GET one row per enrolled student as a Canvas or Moodle import file or plain CSV. Points =
    credit, or min(points_possible, credit) when ``points_possible`` is given."""

    content_negotiation_class = FormatParamNegotiation
    output_media_type = "text/csv"

    class FilterSerializer(serializers.Serializer):
        format = serializers.ChoiceField(choices=FORMATS, default="canvas")
        points_possible = serializers.FloatField(required=False, allow_null=True, default=None, min_value=0.0,
                                                 max_value=1e9)

    def get(self, request: Request, round_id: int):
        round_ = round_for_manager(user=request.user, round_id=round_id)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        fmt, points_possible = filters.validated_data["format"], filters.validated_data["points_possible"]
        rows = round_grades(round_=round_, points_possible=points_possible)
        gradebook = round_gradebook(round_=round_, users=[row.user for row in rows])
        grades = grades_file(round_=round_, rows=rows, fmt=fmt, points_possible=points_possible, gradebook=gradebook)
        return file_response(grades.text,
                             content_type="text/csv; charset=utf-8",
                             filename=f"stumper-{round_.name}-grades-{fmt}.csv")
