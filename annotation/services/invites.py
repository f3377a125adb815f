"""Invite links: the owner creates and revokes them; a crowdworker joins (signing up if new)."""
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from annotation.models import Project, ProjectInvite, ProjectMember
from core.exceptions import AccessError

MAX_INVITE_DAYS = 365


def invite_refusal(invite: ProjectInvite | None) -> str:
    """Why this link cannot be used now ("" when it can), in words for the person who opened it."""
    if invite is None:
        return "This invite link does not exist. Check that you copied all of it, or ask for a new one."
    if invite.state == ProjectInvite.State.REVOKED:
        return "This invite link was withdrawn by the project's owner. Ask them for a new one."
    if invite.state == ProjectInvite.State.EXPIRED:
        return (f"This invite link expired on {timezone.localtime(invite.expires_at):%d %b %Y, %H:%M}. "
                "Ask the project's owner for a new one.")
    if not invite.project.is_active:
        return f"{invite.project.name} is not taking annotations at the moment."
    return ""


@transaction.atomic
def invite_create(*, project: Project, created_by: User, days: int | None) -> ProjectInvite:
    """A new link for ``project``, valid ``days`` days (None: until revoked)."""
    if days is not None and not 1 <= days <= MAX_INVITE_DAYS:
        raise ValidationError({"days": f"An invite lasts between 1 and {MAX_INVITE_DAYS} days, or until revoked."})
    expires_at = timezone.now() + timedelta(days=days) if days else None
    invite = ProjectInvite(project=project, created_by=created_by, expires_at=expires_at)
    invite.full_clean()
    invite.save()
    return invite


@transaction.atomic
def invite_revoke(*, invite: ProjectInvite) -> ProjectInvite:
    """Withdraw the link (idempotent); who already joined stays a member."""
    invite = ProjectInvite.objects.select_for_update().get(pk=invite.pk)
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


@transaction.atomic
def project_invite_only_set(*, project: Project, invite_only: bool) -> Project:
    project.invite_only = invite_only
    project.save(update_fields=["invite_only"])
    return project


@transaction.atomic
def invite_accept(*, invite: ProjectInvite, user: User) -> ProjectMember:
    """Join ``user`` to the invite's project (idempotent: joining twice keeps the first membership)."""
    invite = ProjectInvite.objects.select_for_update().select_related("project").get(pk=invite.pk)
    refusal = invite_refusal(invite)
    if refusal:
        raise ValidationError(refusal)
    if not (user.role == User.Role.CROWDWORKER or user.is_instructor):
        raise AccessError("Invite links are for crowdworkers. You are signed in as a student: sign out first, "
                          "then open the link again to make a crowdworker account.")
    return project_member_add(project=invite.project, user=user, invite=invite)


@transaction.atomic
def project_member_add(*, project: Project, user: User, invite: ProjectInvite | None = None) -> ProjectMember:
    """Make ``user`` a worker of ``project`` (idempotent: joining twice keeps the first membership).

    Who may join is the caller's decision: an invite link admits crowdworkers (``invite_accept``);
    an LMS assignment of the project admits the students of its course (the lti app). A member
    who is a student annotates in this project only (``selectors.projects.can_annotate_in``)."""
    member, _ = ProjectMember.objects.get_or_create(project=project, worker=user, defaults={"invite": invite})
    return member


@transaction.atomic
def invite_signup(*, invite: ProjectInvite, username: str, password: str, email: str = "") -> ProjectMember:
    """Make a crowdworker account and join the invite's project, both or neither."""
    refusal = invite_refusal(ProjectInvite.objects.select_related("project").get(pk=invite.pk))
    if refusal:
        raise ValidationError(refusal)
    user = user_create(username=username, password=password, email=email, role=User.Role.CROWDWORKER)
    return invite_accept(invite=invite, user=user)
