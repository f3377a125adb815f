"""Reads of courses for the API: every course a user is in, whatever their role in it."""
from django.db.models import BooleanField, Exists, OuterRef, Q, QuerySet, Value

from accounts.models import User
from collector.models import Course
from collector.selectors import course_for_manager, with_course_counts


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
    return with_course_counts(courses.select_related("owner").annotate(manages=manages)).order_by("name", "pk")



def course_detail_for_manager(*, user: User, course_id: int) -> Course:
    """The course with ``num_students`` and ``num_rounds`` if ``user`` teaches it (or is staff);
    otherwise the AccessError of ``selectors.course_for_manager``."""
    return course_for_manager(user=user, course_id=course_id, courses=with_course_counts(Course.objects.all()))
