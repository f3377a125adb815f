"""The LMS parts of other apps' pages, registered in ``LtiConfig.ready`` (``core.registry``): a round's and a
project's grade passback (``lti/_grades.html``; nothing if it is not an LMS assignment) and a course's roster
link (``lti/_course_roster_link.html``). Each function gives the names its template needs."""
from django.urls import reverse
from django.utils.translation import gettext as _

from core.registry import Panel
from lti import selectors


def _grades_panel(context, *, what: str, sent_when: str, resend_url: str, **assignment: int) -> dict:
    links = list(selectors.assignment_resource_links(**assignment))
    return {"what": what, "sent_when": sent_when, "resend_url": resend_url, "links": links,
            "syncs": selectors.assignment_grade_syncs(**assignment) if links else [],
            "csrf_token": context.get("csrf_token")}


def round_grades(context, round_) -> dict:
    return _grades_panel(context, what=_("round"), sent_when=_("Scores are sent when credit changes; a student with "
                                                              "no question in the round gets none (a blank, not a "
                                                              "zero)."),
                         resend_url=reverse("lti:round_grades_resend", args=[round_.pk]), round_id=round_.pk)


def project_grades(context, project) -> dict:
    return _grades_panel(context, what=_("annotation project"),
                         sent_when=_("A student's score is the number of paragraphs they finished that no open flag "
                                     "holds in review (capped at the maximum); it is sent when that changes."),
                         resend_url=reverse("lti:project_grades_resend", args=[project.pk]), project_id=project.pk)


def course_roster_link(context, course) -> dict:
    return {"course": course, "contexts": list(selectors.course_contexts(course_id=course.pk))}


# By slot: the round page and the project dashboard under their header, the course page's header.
PANELS = {
    "round_detail": [Panel("lti/_grades.html", round_grades)],
    "project_dashboard": [Panel("lti/_grades.html", project_grades)],
    "course_detail": [Panel("lti/_course_roster_link.html", course_roster_link)],
}
