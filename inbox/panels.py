"""What the inbox adds to the pages below it, registered in ``InboxConfig.ready`` (``core.registry``): it is
where an instructor starts (``home``) and the first entry of their menu."""
from django.utils.translation import gettext_lazy as _

from core.registry import Link


def is_instructor(user) -> bool:
    return bool(user.is_instructor)


LINKS = {
    "home": [Link("", "inbox:inbox", order=10, visible=is_instructor)],
    "site_nav": [Link(_("Inbox"), "inbox:inbox", order=10, visible=is_instructor)],
}
