"""Register an LMS (platform) with the tool, change and remove registrations.

A registration belongs to the account that made it (``Platform.created_by``): only that account, or a staff
superuser, sees, changes or removes it (``lti.selectors.platform_may_manage``). Another account registering
the same issuer + client id is refused with ``PlatformTaken`` and nothing changes: otherwise it could swap
in its own key set and sign launches as the LMS's users.
"""
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import User
from core.exceptions import AccessError
from lti.models import Platform
from lti.selectors import platform_may_manage

# The same words whoever holds the pair: they say nothing about that account.
PLATFORM_TAKEN = ("This issuer and client id are already registered in Stumper by another account. Ask your LMS "
                  "administrator for a client id of your own, or ask the Stumper administrator.")


class PlatformTaken(Exception):
    """Another account's registration has this issuer + client id (the API answers 409)."""

    def __init__(self):
        super().__init__(PLATFORM_TAKEN)
        self.message = PLATFORM_TAKEN


def _set_fields(platform: Platform, *, name: str, deployment_ids: list[str], auth_login_url: str, auth_token_url: str,
                key_set_url: str, auth_audience: str, frame_origins: list[str]) -> None:
    deployments = [str(d).strip() for d in deployment_ids if str(d).strip()]
    if not deployments:
        raise ValidationError({"deployment_ids": "Give at least one deployment id."})
    platform.name = name.strip()
    platform.deployment_ids = sorted(set(deployments))
    platform.auth_login_url = auth_login_url.strip()
    platform.auth_token_url = auth_token_url.strip()
    platform.auth_audience = auth_audience.strip()
    platform.key_set_url = key_set_url.strip()
    platform.frame_origins = [o.strip().rstrip("/") for o in frame_origins if o.strip()]
    bad = [o for o in platform.frame_origins if not o.startswith(("https://", "http://")) or o.count("/") != 2]
    if bad:
        raise ValidationError({"frame_origins": f"Give origins like https://school.instructure.com, not {', '.join(bad)}."})
    platform.full_clean(validate_constraints=False)  # Platform.clean(): the URL rules of lti/outbound.py


@transaction.atomic
def platform_register(
    *,
    created_by: User,
    name: str,
    issuer: str,
    client_id: str,
    deployment_ids: list[str],
    auth_login_url: str,
    auth_token_url: str,
    key_set_url: str,
    auth_audience: str = "",
    frame_origins: list[str] | None = None,
) -> Platform:
    """Register a platform, or update the one with this issuer + client id if ``created_by`` may manage it;
    ``PlatformTaken`` if another account's registration has them."""
    if not created_by.is_instructor:
        raise ValidationError("Only instructors and admins can register an LMS.")
    issuer, client_id = issuer.strip(), client_id.strip()
    existing = Platform.objects.select_for_update().filter(issuer=issuer, client_id=client_id).first()
    if existing is not None and not platform_may_manage(created_by, existing):
        raise PlatformTaken()
    platform = existing or Platform(created_by=created_by, issuer=issuer, client_id=client_id)
    _set_fields(platform, name=name, deployment_ids=deployment_ids, auth_login_url=auth_login_url,
                auth_token_url=auth_token_url, key_set_url=key_set_url, auth_audience=auth_audience,
                frame_origins=frame_origins or [])
    try:
        with transaction.atomic():
            platform.save()
    except IntegrityError as exc:  # the same pair registered at the same moment by someone else
        raise PlatformTaken() from exc
    return platform


@transaction.atomic
def platform_update(
    *,
    user: User,
    platform: Platform,
    name: str | None = None,
    deployment_ids: list[str] | None = None,
    auth_login_url: str | None = None,
    auth_token_url: str | None = None,
    key_set_url: str | None = None,
    auth_audience: str | None = None,
    frame_origins: list[str] | None = None,
) -> Platform:
    """Change the given fields of a registration ``user`` may manage. Issuer and client id stay: they name
    the LMS's users (``LtiIdentity``); register again for another pair."""
    if not platform_may_manage(user, platform):
        raise AccessError("You may not change this LMS registration.")
    platform = Platform.objects.select_for_update().get(pk=platform.pk)
    given = {"name": name, "deployment_ids": deployment_ids, "auth_login_url": auth_login_url,
             "auth_token_url": auth_token_url, "key_set_url": key_set_url, "auth_audience": auth_audience,
             "frame_origins": frame_origins}
    _set_fields(platform, **{field: getattr(platform, field) if value is None else value
                             for field, value in given.items()})
    platform.save()
    return platform


@transaction.atomic
def platform_delete(*, user: User, platform: Platform) -> None:
    """Remove a registration ``user`` may manage, with what its launches linked (accounts stay)."""
    if not platform_may_manage(user, platform):
        raise AccessError("You may not remove this LMS registration.")
    platform.delete()
