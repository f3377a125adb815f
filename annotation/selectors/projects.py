"""Reads of projects, and the access rules of the annotation app.

Access rules live here: they raise ``AccessError`` (a ``PermissionDenied``) with a message
for the person. Project owners (and staff) manage a project; crowdworkers and instructors
annotate in active projects.
"""
from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from annotation.models import Project
from annotation.selectors.invites import is_member, is_member_anywhere, worker_may_enter
from core.exceptions import AccessError, NotFoundError


def can_annotate(user: User) -> bool:
    """Crowdworkers and instructors annotate in any project open to them."""
    return user.is_authenticated and (user.role == User.Role.CROWDWORKER or user.is_instructor)


def can_annotate_in(user: User, project: Project) -> bool:
    """``can_annotate``, or a student who is a member of ``project`` (an LMS assignment of it made them one)."""
    return can_annotate(user) or is_member(user=user, project=project)


def can_manage(user: User, project: Project) -> bool:
    return user.is_authenticated and (project.owner_id == user.pk or user.is_staff or user.is_superuser)


def project_get(*, project_id: int) -> Project:
    project = Project.objects.select_related("owner", "qa_model").filter(pk=project_id).first()
    if project is None:
        raise NotFoundError(_("There is no such annotation project."))
    return project


def project_by_name(*, name: str) -> Project:
    project = Project.objects.select_related("owner", "qa_model").filter(name=name).first()
    if project is None:
        raise NotFoundError(_("There is no annotation project called %(name)s.") % {"name": repr(name)})
    return project


def project_for_owner(*, user: User, project_id: int) -> Project:
    project = project_get(project_id=project_id)
    if not can_manage(user, project):
        raise AccessError(_("Only the project's owner can manage this project."))
    return project


def projects_of_owner(*, user: User) -> QuerySet[Project]:
    projects = Project.objects.select_related("owner", "qa_model")
    if not (user.is_staff or user.is_superuser):
        projects = projects.filter(owner=user)
    return projects.annotate(n_paragraphs=Count("articles__paragraphs", distinct=True)).order_by("name")


def projects_for_instructor(*, user: User) -> QuerySet[Project]:
    """``projects_of_owner`` for an instructor (or staff); anyone else is refused, as on the page."""
    if not user.is_instructor:
        raise AccessError(_("Only instructors (project owners) manage annotation projects."))
    return projects_of_owner(user=user)


def project_for_worker(*, user: User, project_id: int) -> Project:
    if not can_annotate(user) and not is_member_anywhere(user=user):
        raise AccessError(_("Only crowdworkers and instructors annotate paragraphs."))
    project = project_get(project_id=project_id)
    if not can_annotate_in(user, project):
        raise AccessError(_("Students annotate only in the projects their course's LMS assignments open to them."))
    if not project.is_active and not can_manage(user, project):
        raise AccessError(_("This project is not taking annotations at the moment."))
    if not worker_may_enter(user=user, project=project):
        raise AccessError(_("This project is open to invited crowdworkers only: join it with the invite link "
                            "its owner sent you."))
    return project


def project_languages(*, session_id: int | None = None, question_id: int | None = None,
                      project_id: int | None = None) -> list[str]:
    """The language of the project a worker's session, question or project id belongs to ([] if none),
    read before any access check: a refusal is worded in the language of the page too."""
    if session_id is not None:
        projects = Project.objects.filter(articles__paragraphs__sessions__pk=session_id)
    elif question_id is not None:
        projects = Project.objects.filter(questions__pk=question_id)
    elif project_id is not None:
        projects = Project.objects.filter(pk=project_id)
    else:
        return []
    return list(projects.values_list("language", flat=True)[:1])
