"""Writes for user accounts."""
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import User


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str,
    role: str = User.Role.STUDENT,
    email: str = "",
    first_name: str = "",
    last_name: str = "",
) -> User:
    """Create a user after the same checks the sign-up form shows (unique name, strong password)."""
    username = (username or "").strip()
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": "This username is taken."})
    user = User(username=username, email=(email or "").strip(), role=role, first_name=first_name, last_name=last_name)
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise ValidationError({"password": error.messages}) from None
    user.set_password(password)
    user.full_clean()
    user.save()
    return user
