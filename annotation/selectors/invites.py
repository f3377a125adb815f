"""Reads about invite links and project membership (``annotation.models.invites``)."""
from django.db.models import Count, Q, QuerySet

from accounts.models import User
from annotation.models import Project, ProjectInvite, ProjectMember
from core.exceptions import AccessError, NotFoundError


def projects_visible_to_worker(*, user: User) -> QuerySet[Project]:
    """Active projects ``user`` may annotate in: open ones, invite-only ones they joined or manage;
    for a student, only the ones they are a member of (by an LMS assignment)."""
    projects = Project.objects.filter(is_active=True)
    if user.is_staff or user.is_superuser:
        return projects
    if user.role == User.Role.STUDENT:
        return projects.filter(members__worker=user)
    return projects.filter(Q(invite_only=False) | Q(members__worker=user) | Q(owner=user)).distinct()


def worker_may_enter(*, user: User, project: Project) -> bool:
    """False for an invite-only project the user neither joined nor manages."""
    if not project.invite_only or user.is_staff or user.is_superuser or project.owner_id == user.pk:
        return True
    return ProjectMember.objects.filter(project=project, worker=user).exists()


def invites_of_project(*, project: Project) -> QuerySet[ProjectInvite]:
    return ProjectInvite.objects.filter(project=project).select_related("created_by").annotate(
        n_members=Count("members")).order_by("-created_at", "-id")


def members_of_project(*, project: Project) -> QuerySet[ProjectMember]:
    return ProjectMember.objects.filter(project=project).select_related("worker").order_by("joined_at", "id")


def invite_for_owner(*, user: User, invite_id: int) -> ProjectInvite:
    invite = ProjectInvite.objects.select_related("project").filter(pk=invite_id).first()
    if invite is None:
        raise NotFoundError("There is no such invite link.")
    if not (invite.project.owner_id == user.pk or user.is_staff or user.is_superuser):
        raise AccessError("Only the project's owner can manage its invite links.")
    return invite


def invite_by_token(*, token: str) -> ProjectInvite | None:
    """The invite of a link, whatever its state (the join page explains an expired or revoked one)."""
    return ProjectInvite.objects.select_related("project").filter(token=token).first()


def is_member(*, user: User, project: Project) -> bool:
    return user.is_authenticated and ProjectMember.objects.filter(project=project, worker=user).exists()


def is_member_anywhere(*, user: User) -> bool:
    return user.is_authenticated and ProjectMember.objects.filter(worker=user).exists()
