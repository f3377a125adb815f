"""Users and their role in the product."""
from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A person using Stumper; the role decides which pages they work in."""

    class Role(models.TextChoices):
        INSTRUCTOR = "instructor", "Instructor / project owner"
        STUDENT = "student", "Student"
        CROWDWORKER = "crowdworker", "Crowdworker"

    role = models.CharField(max_length=16, choices=Role.choices, default=Role.STUDENT)
    # Canvas/Moodle grade exports need these; empty is allowed for crowdworkers.
    sis_user_id = models.CharField("SIS user id", max_length=64, blank=True)
    section = models.CharField(max_length=64, blank=True)

    @property
    def is_instructor(self) -> bool:
        return self.role == self.Role.INSTRUCTOR or self.is_staff or self.is_superuser

    @property
    def is_student(self) -> bool:
        return self.role == self.Role.STUDENT
