"""JSON API of a course's rounds (the course itself, its students and the list: courses/apis.py).

GET  /api/courses/<id>/                     a course with its rounds; its instructors
POST /api/courses/<id>/rounds/create/       {name, title, dates, weights, categories, live_model}
GET  /api/rounds/open/                      rounds the user may write questions in now
"""
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector import selectors, services
from collector.models import CATEGORY_CHOICES, Round
from core.apis import ApiErrorsMixin, ListPagination, paginated
from courses.apis import CourseSerializer, course_summary
from courses.models import Course
from courses.selectors import course_detail_for_manager, course_for_manager
from modelhub.selectors import live_model_choices


class RoundSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    course_id = serializers.IntegerField()
    name = serializers.CharField()
    title = serializers.CharField()
    instructions = serializers.CharField()
    opens_at = serializers.DateTimeField(allow_null=True)
    closes_at = serializers.DateTimeField(allow_null=True)
    is_open = serializers.BooleanField()
    categories = serializers.ListField(child=serializers.CharField())
    live_model = serializers.CharField(allow_null=True)
    num_questions = serializers.IntegerField(allow_null=True, help_text="Only in a course's list of rounds")

    def to_representation(self, round_: Round):
        return super().to_representation(round_summary(round_))


def round_summary(round_: Round) -> dict:
    return {
        "id": round_.pk, "course_id": round_.course_id, "name": round_.name, "title": round_.title,
        "instructions": round_.instructions, "opens_at": round_.opens_at, "closes_at": round_.closes_at,
        "is_open": round_.is_open(), "categories": list(round_.categories),
        "live_model": round_.live_model.name if round_.live_model else None,
        "num_questions": getattr(round_, "num_questions", None),
    }


class CourseDetailApi(ApiErrorsMixin, APIView):
    """GET a course with its rounds (newest first); its instructors only."""

    class OutputSerializer(CourseSerializer):
        rounds = RoundSummarySerializer(many=True)

        def to_representation(self, course: Course):
            rounds = selectors.course_rounds(course=course)
            return serializers.Serializer.to_representation(self, {**course_summary(course), "rounds": rounds})

    def get(self, request: Request, course_id: int) -> Response:
        course = course_detail_for_manager(user=request.user, course_id=course_id)
        return Response(self.OutputSerializer(course).data)


class RoundCreateApi(ApiErrorsMixin, APIView):
    """POST a new round of the course; its instructors only. Without ``live_model`` the round
    starts with the default model (version 0)."""

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100, help_text="A short id without spaces, e.g. fall25-round1")
        title = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
        instructions = serializers.CharField(required=False, allow_blank=True, default="")
        opens_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
        closes_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
        weight_live = serializers.FloatField(min_value=0.0, required=False, default=1.0)
        weight_cv = serializers.FloatField(min_value=0.0, required=False, default=1.0)
        categories = serializers.ListField(child=serializers.ChoiceField(choices=CATEGORY_CHOICES), required=False,
                                           allow_empty=False, max_length=len(CATEGORY_CHOICES),
                                           help_text="Categories authors may tag questions with (default: all)")
        live_model = serializers.PrimaryKeyRelatedField(
            queryset=live_model_choices(), required=False, allow_null=True, default=None,
            help_text="Id of a multiple-choice or zero-shot model version",
        )

    OutputSerializer = RoundSummarySerializer

    def post(self, request: Request, course_id: int) -> Response:
        course = course_for_manager(user=request.user, course_id=course_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = services.round_create(course=course, **serializer.validated_data)
        return Response(RoundSummarySerializer(round_).data, status=status.HTTP_201_CREATED)


class RoundOpenListApi(ApiErrorsMixin, APIView):
    """GET the rounds the signed-in user may write questions in now (their dashboard's list)."""

    Pagination = ListPagination
    OutputSerializer = RoundSummarySerializer

    def get(self, request: Request) -> Response:
        rounds = selectors.rounds_open_for_author(user=request.user)
        return paginated(self, request, rounds, lambda page: RoundSummarySerializer(page, many=True).data)
