"""Users and their role in the product."""
from django.contrib.auth.models import AbstractUser
from django.db import models

from accounts import passwords


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

    # Sign-in and sign-up hash in a pool of their own before Django's view runs (accounts.passwords);
    # these two take that result instead of hashing again in the request thread.
    def check_password(self, raw_password: str) -> bool:
        result = passwords.prepared(raw_password, self.password)
        if result is None:
            return super().check_password(raw_password)
        if result.is_correct and result.new_hash:
            self.password = result.new_hash  # the hasher's upgrade, as Django's setter does it
            self._password = None
            self.save(update_fields=["password"])
        return result.is_correct

    def set_password(self, raw_password: str | None) -> None:
        result = passwords.prepared(raw_password) if raw_password is not None else None
        if result is None or not result.new_hash:
            super().set_password(raw_password)
            return
        self.password = result.new_hash
        self._password = raw_password
