"""An instructor sends a password-reset link to a student of their own course.

The link is the one Django's reset flow emails (``accounts.recovery_services``); the instructor
never sees it nor the new password. Only a course's instructors (or staff) may, and only for a
student enrolled in that course.
"""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.recovery_services import password_reset_send
from core.exceptions import AccessError
from courses.models import Enrollment
from courses.panels import course_page_url
from courses.selectors import course_for_manager


def course_student_for_manager(*, user: User, course_id: int, student_id: int) -> User:
    """The student if enrolled in a course ``user`` teaches; otherwise an AccessError."""
    course = course_for_manager(user=user, course_id=course_id)
    enrollment = Enrollment.objects.select_related("user").filter(course=course, user_id=student_id).first()
    if enrollment is None:
        raise AccessError("That person is not a student of this course.")
    return enrollment.user


@login_required
@require_POST
def student_password_reset(request: HttpRequest, course_id: int, student_id: int) -> HttpResponse:
    student = course_student_for_manager(user=request.user, course_id=course_id, student_id=student_id)
    try:
        password_reset_send(user=student, domain=request.get_host(), use_https=request.is_secure(),
                            sent_by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"A password-reset link is on its way to {student.username} ({student.email}).")
    return redirect(course_page_url(course_id))
