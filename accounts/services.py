"""Writes for user accounts."""
import time

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts import login_limits
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


@transaction.atomic
def user_role_set(*, user: User, role: str) -> User:
    """Give ``user`` another role (``User.Role``); the caller decides who may."""
    if role not in User.Role.values:
        raise ValidationError({"role": f"Choose one of {', '.join(User.Role.values)}."})
    if user.role != role:
        user.role = role
        user.save(update_fields=["role"])
    return user


def login_failure_record(*, username: str, address: str) -> None:
    """Count a failed sign-in against the username and the client address (see ``login_limits``)."""
    window = settings.STUMPER_LOGIN_WINDOW_SECONDS
    for key in login_limits.failure_keys(username=username, address=address):
        # add() starts the window; incr() never extends it, so the block lifts when it ends.
        if cache.add(key, 1, timeout=window):
            cache.set(login_limits.window_end_key(key), time.time() + window, timeout=window)
            continue
        try:
            cache.incr(key)
        except ValueError:  # expired between add() and incr()
            cache.add(key, 1, timeout=window)
            cache.set(login_limits.window_end_key(key), time.time() + window, timeout=window)


def login_failures_clear(*, username: str) -> None:
    """A successful sign-in forgives the username's failures (not the address's)."""
    cache.delete(login_limits.username_key(username))
