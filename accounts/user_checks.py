"""Every reason an account cannot be created, collected rather than stopping at the first."""
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

from accounts.models import User


def user_create_errors(*, username: str, password: str, email: str = "", role: str = User.Role.STUDENT
                       ) -> dict[str, list[str]]:
    """The checks of ``services.user_create`` (unique name, valid fields, strong password), all of
    them, as ``{field: messages}``; empty when the account can be created. Writes nothing."""
    username = (username or "").strip()
    user = User(username=username, email=(email or "").strip(), role=role)
    errors: dict[str, list[str]] = {}
    if username and User.objects.filter(username__iexact=username).exists():
        errors["username"] = ["This username is taken."]
    try:
        user.full_clean(exclude=["password"], validate_unique=False)
    except ValidationError as error:
        for field, messages in error.message_dict.items():
            errors.setdefault(field, messages)
    try:
        validate_password(password, user)
    except ValidationError as error:
        errors["password"] = error.messages
    return errors
