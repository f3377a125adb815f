"""Names and Role Provisioning Services 2.0: copy an LMS course's roster (members and roles)."""
import logging

import requests
from django.db import transaction
from django.utils import timezone
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import ServiceConnector

from lti.models import ContextLink, RosterMember
from lti.tool_conf import registration_of, service_session

logger = logging.getLogger(__name__)


class RosterSyncFailed(Exception):
    pass


def _fetch_members(context: ContextLink) -> list[dict]:
    connector = ServiceConnector(registration_of(context.platform), service_session(context.platform))
    service = NamesRolesProvisioningService(connector, {"context_memberships_url": context.memberships_url})
    return service.get_members()  # follows rel="next" pages


def roster_sync(*, context_id: int) -> ContextLink:
    """Replace the stored roster of one LMS course with the platform's current member list.

    Idempotent; on failure the previous roster stays and the reason is stored on the context."""
    context = ContextLink.objects.select_related("platform").get(pk=context_id)
    if not context.memberships_url:
        raise RosterSyncFailed("The LMS has not offered its roster service for this course (launch it once first).")
    try:
        members = _fetch_members(context)
    except (LtiServiceException, LtiException, requests.RequestException, ValueError) as exc:
        reason = f"{type(exc).__name__}: {exc}"[:1000]
        ContextLink.objects.filter(pk=context.pk).update(roster_error=reason)
        logger.warning("LTI roster sync of context %s failed: %s", context.pk, reason)
        raise RosterSyncFailed(reason) from exc
    return _store(context, members)


@transaction.atomic
def _store(context: ContextLink, members: list[dict]) -> ContextLink:
    seen = []
    for member in members:  # NRPS 2.0 §3.6: user_id, roles, status, name, email ...
        subject = str(member.get("user_id") or "")
        if not subject:
            continue
        seen.append(subject)
        RosterMember.objects.update_or_create(context=context, subject=subject, defaults={
            "name": str(member.get("name") or "")[:255], "email": str(member.get("email") or "")[:255],
            "roles": list(member.get("roles") or []), "status": str(member.get("status") or "Active")[:32]})
    RosterMember.objects.filter(context=context).exclude(subject__in=seen).delete()
    context.roster_synced_at = timezone.now()
    context.roster_error = ""
    context.save(update_fields=["roster_synced_at", "roster_error"])
    return context
