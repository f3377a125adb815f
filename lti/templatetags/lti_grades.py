"""``{% lti_round_grades round %}``: the round page's LMS grade passback panel (nothing if the round is not an LMS assignment)."""
from django import template

from lti import selectors

register = template.Library()


@register.inclusion_tag("lti/_round_grades.html", takes_context=True)
def lti_round_grades(context, round_) -> dict:
    links = list(selectors.round_resource_links(round_id=round_.pk))
    return {"round": round_, "links": links, "syncs": selectors.round_grade_syncs(round_id=round_.pk) if links else [],
            "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("lti/_course_roster_link.html")
def lti_course_roster_link(course) -> dict:
    return {"course": course, "contexts": list(selectors.course_contexts(course_id=course.pk))}
