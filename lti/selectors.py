"""Reads of the lti app."""
from collections.abc import Sequence

from django.db.models import F, Q, QuerySet

from accounts.models import User
from annotation.models import Project
from annotation.selectors.projects import projects_of_owner
from annotation.selectors.worker_home import paragraphs_finished_counts
from collector.presentation.grades import lineitem_label
from collector.selectors.questions import course_question_counts
from core.exceptions import AccessError, NotFoundError
from core.registry import Gradebook, GradebookIdentity
from courses.models import Course
from lti.models import ContextLink, GradeSync, LtiIdentity, Platform, ResourceLink, RosterMember


def platform_may_manage(user: User, platform: Platform) -> bool:
    """A registration is its creator's; a staff superuser may manage every one (the admin shows them all)."""
    return user.is_authenticated and (platform.created_by_id == user.pk or (user.is_staff and user.is_superuser))


def platforms_of(*, user: User) -> QuerySet[Platform]:
    """The LMS registrations ``user`` made (the settings page and the API list these, for everyone)."""
    return Platform.objects.filter(created_by=user).order_by("name", "id")


def lms_manager_check(user: User) -> None:
    """Only instructors (and admins) manage LMS registrations: the page's and the API's one rule."""
    if not user.is_instructor:
        raise AccessError("Only instructors and admins manage LMS registrations.")


def platform_of_manager(*, user: User, platform_id: int) -> Platform:
    """The registration ``platform_id`` that ``user`` manages; ``NotFoundError`` whether it is someone
    else's or does not exist (the same answer for both)."""
    lms_manager_check(user)
    platform = platform_managed(user=user, platform_id=platform_id)
    if platform is None:
        raise NotFoundError("You have no LMS registration with this id.")
    return platform


def platform_managed(*, user: User, platform_id: int) -> Platform | None:
    """The registration ``platform_id`` if ``user`` may see and change it; None whether it is someone
    else's or does not exist, so that the answer says nothing about other accounts' registrations."""
    platform = Platform.objects.filter(pk=platform_id).first()
    return platform if platform is not None and platform_may_manage(user, platform) else None


def _assignment(round_id: int | None, project_id: int | None, via: str = "") -> Q:
    """An LMS assignment's Stumper side, a round or an annotation project (``via``: the path to the resource link)."""
    if (round_id is None) == (project_id is None):
        raise ValueError("Give a round_id or a project_id.")
    return Q(**{f"{via}round_id": round_id}) if round_id is not None else Q(**{f"{via}project_id": project_id})


def assignment_resource_links(*, round_id: int | None = None, project_id: int | None = None) -> QuerySet[ResourceLink]:
    """The LMS assignments (resource links) of a round or of a project."""
    return ResourceLink.objects.select_related("context__platform").filter(_assignment(round_id, project_id))


def assignment_grade_syncs(*, round_id: int | None = None, project_id: int | None = None) -> QuerySet[GradeSync]:
    return (GradeSync.objects.select_related("user", "resource_link__context__platform")
            .filter(_assignment(round_id, project_id, via="resource_link__"))
            .order_by("user__username", "resource_link_id"))


def course_projects(*, course: Course) -> QuerySet[Project]:
    """Annotation projects an LMS course linked to ``course`` may use: those owned by one of its instructors."""
    teachers = Q(owner_id=course.owner_id) | Q(owner__in=course.instructors.all())
    return Project.objects.filter(teachers)


def deep_link_projects(*, user: User, course: Course) -> QuerySet[Project]:
    """The projects ``user`` may add to the LMS course linked to ``course`` (theirs, of this course)."""
    return projects_of_owner(user=user).filter(pk__in=course_projects(course=course).values("pk"))


def course_contexts(*, course_id: int) -> QuerySet[ContextLink]:
    return ContextLink.objects.select_related("platform").filter(course_id=course_id)


def context_roster(*, context: ContextLink) -> QuerySet[RosterMember]:
    return RosterMember.objects.filter(context=context)


def roster_progress(*, context: ContextLink) -> list[dict]:
    """The LMS roster with each member's progress: never opened Stumper, or how many questions they wrote
    in the course's rounds and paragraphs they finished in its LMS-linked annotation projects.

    A fixed number of queries, whatever the number of members."""
    members = list(context_roster(context=context))
    users = {identity.subject: identity.user for identity in
             LtiIdentity.objects.select_related("user").filter(platform_id=context.platform_id,
                                                                subject__in=[m.subject for m in members])}
    user_ids = [user.pk for user in users.values()]
    questions, paragraphs = {}, {}
    if context.course_id and user_ids:
        questions = course_question_counts(course_id=context.course_id, user_ids=user_ids)
        project_ids = list(context.resource_links.exclude(project=None).values_list("project_id", flat=True))
        if project_ids:
            paragraphs = paragraphs_finished_counts(project_ids=project_ids, user_ids=user_ids)
    rows = []
    for member in members:
        user = users.get(member.subject)
        n_questions = questions.get(user.pk, 0) if user is not None and context.course_id else None
        n_paragraphs = paragraphs.get(user.pk, 0) if user is not None else 0
        rows.append({"member": member, "user": user, "questions": n_questions, "paragraphs": n_paragraphs,
                     "started": bool(n_questions or n_paragraphs)})
    return rows


def round_gradebook(*, round_id: int, user_ids: Sequence[int]) -> Gradebook:
    """The LMS side of a round's grade file (``core.registry``'s gradebook hook, registered in ``LtiConfig.ready``):
    each student's ids from their latest launch, preferring the platform of the round's LMS assignment, and that
    assignment's gradebook column: its title as the LMS last sent it, else the label deep linking gave it."""
    graded = (ResourceLink.objects.select_related("round", "context").exclude(lineitem_url="")
              .filter(round_id=round_id, context__course_id=F("round__course_id")).order_by("-pk").first())
    platform_id = graded.context.platform_id if graded is not None else None
    identities: dict[int, GradebookIdentity] = {}
    for identity in sorted(LtiIdentity.objects.filter(user_id__in=user_ids),
                           key=lambda identity: (identity.platform_id != platform_id, -identity.pk)):
        identities.setdefault(identity.user_id, GradebookIdentity(
            sis_user_id=identity.person_sourcedid, lms_user_id=identity.subject, email=identity.email))
    label = (graded.title or lineitem_label(graded.round)) if graded is not None else ""
    return Gradebook(identities=identities, lineitem_label=label)
