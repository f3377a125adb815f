"""Reads of courses: who teaches or is in a course, and courses with their counts."""
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import BooleanField, Count, Exists, OuterRef, Q, QuerySet, Value
from django.utils.translation import gettext as _

from accounts.models import User
from core.exceptions import AccessError, NotFoundError
from courses.models import Course, Enrollment, StaffRole


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
        raise NotFoundError("This course does not exist.") from None
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


def user_assists_course(*, user: User, course: Course) -> bool:
    """Whether ``user`` is one of the course's teaching assistants."""
    return bool(user.is_authenticated and course.teaching_assistants.filter(pk=user.pk).exists())


def user_validates_anytime(*, user: User, course: Course) -> bool:
    """Teaching staff (instructors and teaching assistants) validate the course's questions at any
    time; students only when a round's settings let them."""
    return user_manages_course(user=user, course=course) or user_assists_course(user=user, course=course)


def courses_assisted_by(*, user: User) -> QuerySet[Course]:
    if not user.is_authenticated:
        return Course.objects.none()
    return Course.objects.filter(teaching_assistants=user)


@dataclass(frozen=True)
class StaffMember:
    user: User
    role: str  # a StaffRole value

    @property
    def role_label(self) -> str:
        return StaffRole(self.role).label


def course_staff(*, course: Course) -> list[StaffMember]:
    """The owner, then co-instructors, then teaching assistants, each by username."""
    staff = [StaffMember(course.owner, StaffRole.OWNER)]
    staff += [StaffMember(user, StaffRole.INSTRUCTOR)
              for user in course.instructors.exclude(pk=course.owner_id).order_by("username")]
    staff += [StaffMember(user, StaffRole.TA) for user in course.teaching_assistants.order_by("username")]
    return staff


@dataclass(frozen=True)
class CoursePeople:
    staff: int  # owner, co-instructors and teaching assistants, each counted once
    students: int


def course_people_counts(*, course_ids: Iterable[int]) -> dict[int, CoursePeople]:
    """Teaching staff and students of each course, in four queries whatever the number of courses."""
    ids = list(course_ids)
    staff: dict[int, set[int]] = {pk: set() for pk in ids}
    for course_id, owner_id in Course.objects.filter(pk__in=ids).values_list("pk", "owner_id"):
        staff[course_id].add(owner_id)
    for through in (Course.instructors.through, Course.teaching_assistants.through):
        for course_id, user_id in through.objects.filter(course_id__in=ids).values_list("course_id", "user_id"):
            staff[course_id].add(user_id)
    students = dict(Enrollment.objects.filter(course_id__in=ids).values("course_id")
                    .annotate(n=Count("id")).values_list("course_id", "n"))
    return {pk: CoursePeople(staff=len(staff[pk]), students=students.get(pk, 0)) for pk in ids}


def instructor_refusal(*, course: Course, user: User) -> str:
    """Why ``user`` cannot become a co-instructor of ``course`` ("" when they can): a student of it,
    or a student account of another course (an instructor account has no student dashboard)."""
    if course.enrollments.filter(user=user).exists():
        return _("%(name)s is a student of this course: a student cannot also teach it.") % {"name": user.username}
    if user.is_instructor:
        return ""
    enrolled = list(Course.objects.filter(enrollments__user=user).order_by("name").values_list("name", flat=True))
    if enrolled:
        return _("%(name)s is a student in %(courses)s: as an instructor account it would lose its student "
                 "dashboard. Add them as a teaching assistant, or send them the instructor invite link to make a "
                 "separate instructor account.") % {"name": user.username, "courses": ", ".join(enrolled)}
    return ""


def course_by_invite_token(*, token: str) -> Course | None:
    """The course whose instructor invite link this is; None for a withdrawn or mistyped link."""
    if not token:
        return None
    return Course.objects.select_related("owner").filter(instructor_invite_token=token).first()
