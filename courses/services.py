"""Writes of courses: creating a course, joining it with its code, a student's sign-up."""
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import User
from accounts.services import user_create
from accounts.user_checks import user_create_errors
from core.exceptions import AccessError
from courses.models import Course, Enrollment

UNKNOWN_CODE = "No course has this join code. Check it with your instructor."


@transaction.atomic
def course_create(*, owner: User, name: str, join_code: str | None = None) -> Course:
    """Create a course owned (and taught) by ``owner``; a join code is generated unless given."""
    if not owner.is_instructor:
        raise AccessError("Only instructors can create courses.")
    course = Course(owner=owner, name=(name or "").strip())
    if join_code:
        course.join_code = join_code.strip().upper()
    course.full_clean()
    course.save()
    course.instructors.add(owner)
    return course


@transaction.atomic
def course_join(*, user: User, join_code: str) -> Enrollment:
    """Enrol ``user`` in the course with this join code (joining twice is harmless)."""
    code = (join_code or "").strip().upper()
    course = Course.objects.filter(join_code=code).first()
    if course is None:
        raise ValidationError({"join_code": UNKNOWN_CODE})
    enrollment, _ = Enrollment.objects.get_or_create(course=course, user=user)
    return enrollment


def student_register_errors(*, username: str, password: str, join_code: str, email: str = "") -> dict[str, list[str]]:
    """Every reason a sign-up would be refused, by field (empty: it would pass), so the form
    shows them all at once instead of one per attempt."""
    errors = user_create_errors(username=username, password=password, email=email, role=User.Role.STUDENT)
    if not Course.objects.filter(join_code=(join_code or "").strip().upper()).exists():
        errors["join_code"] = [UNKNOWN_CODE]
    return errors


@transaction.atomic
def student_register(*, username: str, password: str, join_code: str, email: str = "") -> User:
    """Sign a student up and enrol them, or do neither."""
    errors = student_register_errors(username=username, password=password, join_code=join_code, email=email)
    if errors:
        raise ValidationError(errors)
    user = user_create(username=username, password=password, email=email, role=User.Role.STUDENT)
    course_join(user=user, join_code=join_code)
    return user
