"""JSON API of courses: the user's courses, creating courses and rounds, a course's students.

GET  /api/courses/                          the signed-in user's courses (taught or enrolled in)
POST /api/courses/create/                   {name, join_code?}; instructors
GET  /api/courses/<id>/                     a course with its rounds; its instructors
GET  /api/courses/<id>/students/            its enrolled students; its instructors
POST /api/courses/<id>/rounds/create/       {name, title, dates, weights, categories, live_model}
GET  /api/rounds/open/                      rounds the user may write questions in now
"""
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector import course_selectors, selectors, services
from collector.apis import ApiErrorsMixin, ListPagination, paginated
from collector.models import CATEGORY_CHOICES, Course, Round


class CourseSerializer(serializers.Serializer):
    """A course as one of its members sees it; the join code only for its instructors."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=["instructor", "student"])
    join_code = serializers.CharField(allow_null=True)
    owner = serializers.CharField()
    num_students = serializers.IntegerField()
    num_rounds = serializers.IntegerField()
    created_at = serializers.DateTimeField()

    def to_representation(self, course: Course):
        return super().to_representation(course_summary(course))


def course_summary(course: Course) -> dict:
    # A course just created has no counts annotated yet: it is taught by its creator and empty.
    manages = getattr(course, "manages", True)
    return {
        "id": course.pk, "name": course.name, "role": "instructor" if manages else "student",
        "join_code": course.join_code if manages else None, "owner": course.owner.username,
        "num_students": getattr(course, "num_students", 0), "num_rounds": getattr(course, "num_rounds", 0),
        "created_at": course.created_at,
    }


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


class CourseListApi(ApiErrorsMixin, APIView):
    """GET the courses the signed-in user teaches or is enrolled in, by name."""

    Pagination = ListPagination
    OutputSerializer = CourseSerializer

    def get(self, request: Request) -> Response:
        courses = course_selectors.courses_of_user(user=request.user)
        return paginated(self, request, courses, lambda page: CourseSerializer(page, many=True).data)


class CourseCreateApi(ApiErrorsMixin, APIView):
    """POST a new course taught by the signed-in instructor; a join code is generated unless given."""

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        join_code = serializers.CharField(max_length=16, required=False, allow_blank=True, default="")

    OutputSerializer = CourseSerializer

    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        course = services.course_create(owner=request.user, **serializer.validated_data)
        return Response(CourseSerializer(course).data, status=status.HTTP_201_CREATED)


class CourseDetailApi(ApiErrorsMixin, APIView):
    """GET a course with its rounds (newest first); its instructors only."""

    class OutputSerializer(CourseSerializer):
        rounds = RoundSummarySerializer(many=True)

        def to_representation(self, course: Course):
            rounds = selectors.course_rounds(course=course)
            return serializers.Serializer.to_representation(self, {**course_summary(course), "rounds": rounds})

    def get(self, request: Request, course_id: int) -> Response:
        course = course_selectors.course_detail_for_manager(user=request.user, course_id=course_id)
        return Response(self.OutputSerializer(course).data)


class CourseStudentListApi(ApiErrorsMixin, APIView):
    """GET the course's enrolled students, by username; its instructors only."""

    Pagination = ListPagination

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField(source="user.username")
        email = serializers.EmailField(source="user.email")
        first_name = serializers.CharField(source="user.first_name")
        last_name = serializers.CharField(source="user.last_name")
        sis_user_id = serializers.CharField(source="user.sis_user_id")
        section = serializers.CharField(source="user.section")
        joined_at = serializers.DateTimeField()

    def get(self, request: Request, course_id: int) -> Response:
        course = selectors.course_for_manager(user=request.user, course_id=course_id)
        enrollments = selectors.course_enrollments(course=course)
        return paginated(self, request, enrollments, lambda page: self.OutputSerializer(page, many=True).data)


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
            queryset=selectors.live_model_choices(), required=False, allow_null=True, default=None,
            help_text="Id of a multiple-choice or zero-shot model version",
        )

    OutputSerializer = RoundSummarySerializer

    def post(self, request: Request, course_id: int) -> Response:
        course = selectors.course_for_manager(user=request.user, course_id=course_id)
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
