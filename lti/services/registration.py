"""Register an LMS (platform) with the tool."""
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import User
from lti.models import Platform


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
    """Register a platform (or update the one with this issuer + client id)."""
    if not created_by.is_instructor:
        raise ValidationError("Only instructors and admins can register an LMS.")
    deployments = [str(d).strip() for d in deployment_ids if str(d).strip()]
    if not deployments:
        raise ValidationError({"deployment_ids": "Give at least one deployment id."})
    platform = Platform.objects.filter(issuer=issuer.strip(), client_id=client_id.strip()).first() or Platform(
        created_by=created_by)
    platform.name = name.strip()
    platform.issuer = issuer.strip()
    platform.client_id = client_id.strip()
    platform.deployment_ids = sorted(set(deployments))
    platform.auth_login_url = auth_login_url.strip()
    platform.auth_token_url = auth_token_url.strip()
    platform.auth_audience = auth_audience.strip()
    platform.key_set_url = key_set_url.strip()
    platform.frame_origins = [o.strip().rstrip("/") for o in frame_origins or [] if o.strip()]
    bad = [o for o in platform.frame_origins if not o.startswith(("https://", "http://")) or o.count("/") != 2]
    if bad:
        raise ValidationError({"frame_origins": f"Give origins like https://school.instructure.com, not {', '.join(bad)}."})
    platform.full_clean(validate_constraints=False)
    platform.save()
    return platform
