"""What courses adds to the pages below it, registered in ``CoursesConfig.ready`` (``core.registry``): the
course list in an instructor's menu, the sign-up link for a visitor and under the sign-in form; and how this
app finds a course's own page, which an app above it serves (``course_page``)."""
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.registry import Link, Panel, links_shown


def is_instructor(user) -> bool:
    return bool(user.is_instructor)


PANELS = {"login": [Panel("courses/_signup_invite.html")]}
LINKS = {
    "site_nav": [Link(_("Courses"), "courses:course_list", order=20, visible=is_instructor)],
    "site_guest": [Link(_("Sign up"), "courses:signup", order=20)],
}


def course_page_url(course) -> str:
    """A course's page (the collector's, with its rounds, registered as the ``course_page`` link), or the
    course list when no app serves one."""
    pages = links_shown("course_page", obj=course)
    return pages[0].url if pages else reverse("courses:course_list")
