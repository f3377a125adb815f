"""Reads of user accounts."""
from django.contrib.auth.forms import UsernameField

from accounts.models import User


def user_password_hash(*, username: str) -> str:
    """The stored password hash of the account a sign-in form names, "" when there is none.

    The name is normalised and looked up exactly as the sign-in form and ``ModelBackend`` do.
    """
    name = UsernameField().to_python(username or "")
    return User._default_manager.filter(**{User.USERNAME_FIELD: name}).values_list("password", flat=True).first() or ""
