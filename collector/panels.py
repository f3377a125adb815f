"""What the collector adds to the pages below it, registered in ``CollectorConfig.ready`` (``core.registry``):
where a student starts (``home``), the student's pages in the site's menu, and a course's own page (a course
and its rounds), which the courses app links to."""
from django.utils.translation import gettext_lazy as _

from core.registry import Link


def is_student(user) -> bool:
    return bool(user.is_student)


def is_only_student(user) -> bool:
    return bool(user.is_student and not user.is_instructor)


def writes_questions(user) -> bool:
    """Students and instructors validate questions; crowdworkers annotate."""
    return bool(user.is_student or user.is_instructor)


LINKS = {
    "home": [Link("", "collector:dashboard", order=20, visible=is_student)],
    "site_nav": [Link(_("Dashboard"), "collector:dashboard", order=30, visible=is_only_student),
                 Link(_("Validate"), "collector:validate", order=40, visible=writes_questions)],
    "course_page": [Link("", "collector:course_detail")],
}
