"""The LMS panels of other apps' pages: ``{% lti_round_grades round %}`` and ``{% lti_project_grades project %}``
(the grade passback of an LMS assignment; nothing if it is not one), ``{% lti_course_roster_link course %}``."""
from django import template
from django.urls import reverse

from lti import selectors

register = template.Library()


def _grades_panel(context, *, what: str, sent_when: str, resend_url: str, **assignment: int) -> dict:
    links = list(selectors.assignment_resource_links(**assignment))
    return {"what": what, "sent_when": sent_when, "resend_url": resend_url, "links": links,
            "syncs": selectors.assignment_grade_syncs(**assignment) if links else [],
            "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("lti/_grades.html", takes_context=True)
def lti_round_grades(context, round_) -> dict:
    return _grades_panel(context, what="round", sent_when="Scores are sent when credit changes; a student with no "
                                                         "question in the round gets none (a blank, not a zero).",
                         resend_url=reverse("lti:round_grades_resend", args=[round_.pk]), round_id=round_.pk)


@register.inclusion_tag("lti/_grades.html", takes_context=True)
def lti_project_grades(context, project) -> dict:
    return _grades_panel(context, what="annotation project",
                         sent_when="A student's score is the number of paragraphs they finished that no open flag "
                                   "holds in review (capped at the maximum); it is sent when that changes.",
                         resend_url=reverse("lti:project_grades_resend", args=[project.pk]), project_id=project.pk)


@register.inclusion_tag("lti/_course_roster_link.html")
def lti_course_roster_link(course) -> dict:
    return {"course": course, "contexts": list(selectors.course_contexts(course_id=course.pk))}
