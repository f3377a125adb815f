"""Password recovery: the reset email Django's own flow sends, also sendable to one chosen user."""
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.forms import PasswordResetForm
from accounts.models import User
from accounts.tokens import api_token_revoke

RESET_EMAIL_TEMPLATE = "accounts/password_reset_email.txt"
RESET_SUBJECT_TEMPLATE = "accounts/password_reset_subject.txt"


def reset_link_days() -> int:
    """Whole days a reset link stays valid (at least one, for the wording)."""
    return max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)


def password_reset_send(*, user: User, domain: str, use_https: bool, sent_by: User | None = None) -> None:
    """Email ``user`` a one-time link to set a new password, as Django's reset view does, in the
    user's language (``accounts.languages``).

    ``sent_by`` names the instructor who asked for it, so the email says who did. Raises a
    ValidationError that says why when the user cannot receive one (no email, inactive).
    """
    if not user.is_active:
        raise ValidationError(f"{user.get_username()}'s account is deactivated; no reset link was sent.")
    if not user.email:
        raise ValidationError(
            f"{user.get_username()} has no email address on file, so no reset link can be sent. "
            "Ask them for one and add it to their account first."
        )
    context = {
        "email": user.email,
        "domain": domain,
        "site_name": domain,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "user": user,
        "token": default_token_generator.make_token(user),
        "protocol": "https" if use_https else "http",
        "timeout_days": reset_link_days(),
        "sent_by": sent_by.get_full_name() or sent_by.get_username() if sent_by else "",
    }
    # The form's send_mail renders subject and body exactly as the public reset view does, in the user's language.
    PasswordResetForm().send_mail(RESET_SUBJECT_TEMPLATE, RESET_EMAIL_TEMPLATE, context, None, user.email)


@transaction.atomic
def password_reset_complete(*, user: User, password: str) -> None:
    """Set the password chosen through an emailed reset link, and revoke ``user``'s API token.

    A reset is how an account is taken back after its password leaked, so whatever else may have
    leaked with it stops working too: a token would otherwise keep the API open to whoever holds
    it. (Changing a known password from the settings page keeps the token.) ``password`` has
    passed the validators of the set-password form.
    """
    user.set_password(password)
    user.save(update_fields=["password"])
    api_token_revoke(user=user)
