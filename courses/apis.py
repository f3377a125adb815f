"""JSON API of courses: the user's courses, creating one, a course's students.

GET  /api/courses/                          the signed-in user's courses (taught or enrolled in)
POST /api/courses/create/                   {name, join_code?}; instructors
GET  /api/courses/<id>/students/            its enrolled students; its instructors

A course with its rounds (``/api/courses/<id>/``) is the collector's (collector/apis/rounds.py).
"""
from django.db.models import QuerySet
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.apis import ApiErrorsMixin, ListApi
from courses import selectors, services
from courses.models import Course, Enrollment


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


class CourseListApi(ListApi):
    """GET the courses the signed-in user teaches or is enrolled in, by name."""

    OutputSerializer = CourseSerializer

    def items(self, request: Request) -> QuerySet[Course]:
        return selectors.courses_of_user(user=request.user)


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


class CourseStudentListApi(ListApi):
    """GET the course's enrolled students, by username; its instructors only."""

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField(source="user.username")
        email = serializers.EmailField(source="user.email")
        first_name = serializers.CharField(source="user.first_name")
        last_name = serializers.CharField(source="user.last_name")
        sis_user_id = serializers.CharField(source="user.sis_user_id")
        section = serializers.CharField(source="user.section")
        joined_at = serializers.DateTimeField()

    def items(self, request: Request, course_id: int) -> QuerySet[Enrollment]:
        course = selectors.course_for_manager(user=request.user, course_id=course_id)
        return selectors.course_enrollments(course=course)
