"""Reads of courses: who teaches or is in a course, and courses with their counts."""
from django.db.models import BooleanField, Count, Exists, OuterRef, Q, QuerySet, Value

from accounts.models import User
from core.exceptions import AccessError
from courses.models import Course, Enrollment


def user_manages_course(*, user: User, course: Course) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser or course.owner_id == user.id:
        return True
    return course.instructors.filter(pk=user.pk).exists()


def user_in_course(*, user: User, course: Course) -> bool:
    if not user.is_authenticated:
        return False
    return course.enrollments.filter(user=user).exists() or user_manages_course(user=user, course=course)


def courses_managed_by(*, user: User) -> QuerySet[Course]:
    courses = Course.objects.select_related("owner")
    if user.is_staff or user.is_superuser:
        return courses.all()
    return courses.filter(Q(owner=user) | Q(instructors=user)).distinct()


def course_for_manager(*, user: User, course_id: int, courses: QuerySet[Course] | None = None) -> Course:
    """The course if ``user`` teaches it (or is staff); otherwise a clear AccessError.

    ``courses`` is the queryset to read it from (e.g. :func:`with_course_counts`), ``Course.objects`` by default.
    """
    try:
        course = (Course.objects if courses is None else courses).select_related("owner").get(pk=course_id)
    except (Course.DoesNotExist, ValueError, TypeError):
        raise AccessError("This course does not exist.") from None
    if not user_manages_course(user=user, course=course):
        raise AccessError("Only the course's instructors can open this page.")
    return course


def with_course_counts(courses: QuerySet[Course]) -> QuerySet[Course]:
    """``courses``, each with ``num_students`` and ``num_rounds``."""
    return courses.annotate(num_students=Count("enrollments", distinct=True), num_rounds=Count("rounds", distinct=True))


def courses_with_counts(*, user: User) -> QuerySet[Course]:
    """The courses ``user`` manages, each with ``num_students`` and ``num_rounds``."""
    return with_course_counts(courses_managed_by(user=user))


def course_enrollments(*, course: Course) -> QuerySet[Enrollment]:
    return course.enrollments.select_related("user").order_by("user__username")


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
    otherwise the AccessError of :func:`course_for_manager`."""
    return course_for_manager(user=user, course_id=course_id, courses=with_course_counts(Course.objects.all()))


def instructor_check(*, user: User) -> None:
    """Raise AccessError unless ``user`` is an instructor (students have no course pages)."""
    if not user.is_instructor:
        raise AccessError("Only instructors can manage courses. Students write questions from their dashboard.")
