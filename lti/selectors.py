"""Reads of the lti app."""
from django.db.models import QuerySet

from collector.selectors import questions_of_author
from lti.models import ContextLink, GradeSync, LtiIdentity, Platform, ResourceLink, RosterMember


def platforms_list() -> QuerySet[Platform]:
    return Platform.objects.order_by("name", "id")


def round_resource_links(*, round_id: int) -> QuerySet[ResourceLink]:
    return ResourceLink.objects.select_related("context__platform").filter(round_id=round_id)


def round_grade_syncs(*, round_id: int) -> QuerySet[GradeSync]:
    return (GradeSync.objects.select_related("user", "resource_link__context__platform")
            .filter(resource_link__round_id=round_id).order_by("user__username", "resource_link_id"))


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
