"""Reads of courses for the API: every course a user is in, whatever their role in it."""
from django.db.models import BooleanField, Count, Exists, OuterRef, Q, QuerySet, Value

from accounts.models import User
from collector.models import Course
from collector.selectors import course_for_manager


def courses_of_user(*, user: User) -> QuerySet[Course]:
    """Courses ``user`` teaches (all of them for staff) or is enrolled in, by name, each with
    ``manages`` (True where they teach it), ``num_students`` and ``num_rounds``."""
    teaches = Q(owner=user) | Q(instructors=user)
    if user.is_staff or user.is_superuser:
        courses, manages = Course.objects.all(), Value(True, output_field=BooleanField())
    else:
        # Filtering by ids, not by the joins themselves, keeps the counts below over all rows.
        ids = Course.objects.filter(teaches | Q(enrollments__user=user)).values("pk")
        courses = Course.objects.filter(pk__in=ids)
        manages = Exists(Course.objects.filter(teaches, pk=OuterRef("pk")))
    return (courses.select_related("owner")
            .annotate(manages=manages, num_students=Count("enrollments", distinct=True),
                      num_rounds=Count("rounds", distinct=True))
            .order_by("name", "pk"))



def course_detail_for_manager(*, user: User, course_id: int) -> Course:
    """The course with ``num_students`` and ``num_rounds`` if ``user`` teaches it (or is staff);
    otherwise the AccessError of ``selectors.course_for_manager``."""
    course = course_for_manager(user=user, course_id=course_id)
    return Course.objects.select_related("owner").annotate(
        num_students=Count("enrollments", distinct=True), num_rounds=Count("rounds", distinct=True)
    ).get(pk=course.pk)
