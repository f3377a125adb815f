"""What the annotation app adds to the pages below it, registered in ``AnnotationConfig.ready``
(``core.registry``): where a crowdworker starts (``home``: anyone no other app claims), their tasks and an
instructor's projects in the site's menu."""
from django.utils.translation import gettext_lazy as _

from accounts.roles import is_crowdworker
from core.registry import Link


def signed_in(user) -> bool:
    return bool(user.is_authenticated)


def has_tasks(user) -> bool:
    """Crowdworkers, and students given annotation projects by their LMS assignments."""
    return is_crowdworker(user) or bool(user.is_student and user.project_memberships.exists())


def is_instructor(user) -> bool:
    return bool(user.is_instructor)


LINKS = {
    "home": [Link("", "annotation:task_list", order=30, visible=signed_in)],
    "site_nav": [Link(_("Tasks"), "annotation:task_list", order=50, visible=has_tasks),
                 Link(_("Annotation"), "annotation:project_list", order=60, visible=is_instructor)],
}
