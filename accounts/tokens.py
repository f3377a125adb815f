"""A user's own API token (DRF's ``Token``, one per user): created and revoked by its owner.

DRF stores one token per user, so "create" replaces any token the user had: an old key stops
working the moment a new one is shown.
"""
from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts.models import User


@transaction.atomic
def api_token_create(*, user: User) -> Token:
    """A fresh token for ``user``; any previous one is revoked first."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@transaction.atomic
def api_token_revoke(*, user: User) -> bool:
    """Delete ``user``'s token; True when there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted > 0


def api_token_of(*, user: User) -> Token | None:
    return Token.objects.filter(user=user).first()
