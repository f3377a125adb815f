"""Reads of the lti app."""
from django.db.models import Q, QuerySet

from accounts.models import User
from annotation.models import Project
from annotation.selectors.projects import projects_of_owner
from annotation.selectors.worker_home import paragraphs_finished_counts
from collector.selectors.questions import course_question_counts
from courses.models import Course
from lti.models import ContextLink, GradeSync, LtiIdentity, Platform, ResourceLink, RosterMember


def platforms_list() -> QuerySet[Platform]:
    return Platform.objects.order_by("name", "id")


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
