"""Helpers building users for tests, in every app above accounts (the root conftest.py's user fixtures use them)."""
from accounts.models import User
from accounts.services import user_create

PASSWORD = "a-long-test-password-42"


def make_user(username: str, role: str = User.Role.STUDENT, **extra) -> User:
    """A user made by the sign-up service, with ``extra`` fields (names, email, staff) set afterwards."""
    user = user_create(username=username, password=PASSWORD, role=role)
    if extra:
        User.objects.filter(pk=user.pk).update(**extra)
        user.refresh_from_db()
    return user
