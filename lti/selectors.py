"""Reads of the lti app."""
from django.db.models import Q, QuerySet

from accounts.models import User
from annotation.models import Project
from annotation.selectors import projects_of_owner
from collector.selectors import questions_of_author
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
    """The LMS roster with each member's progress: never opened Stumper, or how many questions they wrote."""
    users = {identity.subject: identity.user for identity in
             LtiIdentity.objects.select_related("user").filter(platform_id=context.platform_id,
                                                                subject__in=context.members.values("subject"))}
    rows = []
    for member in context_roster(context=context):
        user = users.get(member.subject)
        questions = None
        if user is not None and context.course_id:
            questions = questions_of_author(user=user).filter(round__course_id=context.course_id).count()
        rows.append({"member": member, "user": user, "questions": questions,
                     "started": bool(questions)})
    return rows
