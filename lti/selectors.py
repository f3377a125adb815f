"""Reads of the lti app."""
from django.db.models import QuerySet

from lti.models import ContextLink, GradeSync, Platform, ResourceLink, RosterMember


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
