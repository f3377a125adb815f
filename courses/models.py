"""Courses and enrolment: a class of students run by instructors, joined with a join code.

Teaching staff: the owner, co-instructors (``instructors``: everything the owner may do in the
course) and teaching assistants (``teaching_assistants``: they validate the course's questions at
any time, nothing else). A co-instructor joins by name or e-mail, or by the instructor invite link
(``instructor_invite_token``), which the course's instructors create, renew and withdraw.

The tables keep the names they had in the collector app (``db_table``), so an existing database
moved to this app without copying a row (migration ``courses/0001``).
"""
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_join_code() -> str:
    """Eight characters from an alphabet without look-alikes (0/O, 1/I/L)."""
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)  # 24 URL-safe characters, 144 random bits


class StaffRole(models.TextChoices):
    """Who teaches a course (the pages write what each may do: ``courses.forms.STAFF_ROLE_POWERS``)."""

    OWNER = "owner", _("Owner")
    INSTRUCTOR = "instructor", _("Co-instructor")
    TA = "ta", _("Teaching assistant")


class Course(models.Model):
    """A class of students run by one or more instructors; students join with the join code."""

    name = models.CharField(max_length=200)
    join_code = models.CharField(max_length=16, unique=True, default=new_join_code)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_courses")
    instructors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="taught_courses", blank=True)
    teaching_assistants = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="assisted_courses", blank=True,
        help_text="Validate the course's questions at any time; no other power in the course",
    )
    # Null, not "", when there is no link: the column is unique.
    instructor_invite_token = models.CharField(
        max_length=64, unique=True, null=True, blank=True, default=None,
        help_text="Whoever opens /courses/instructor-invite/<token>/ becomes a co-instructor (empty: no link)",
    )
    students = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Enrollment", related_name="enrolled_courses", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "collector_course"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Enrollment(models.Model):
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="enrollments")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="enrollments")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "collector_enrollment"
        constraints = [models.UniqueConstraint(fields=["course", "user"], name="unique_enrollment")]

    def __str__(self) -> str:
        return f"{self.user} in {self.course}"
