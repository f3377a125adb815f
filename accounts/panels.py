"""What accounts adds to the site's menu (``templates/base.html``), registered in ``AccountsConfig.ready``
(``core.registry``): the signed-in user's name (their settings) and the sign-out button, and for a visitor
the sign-in link."""
from django.utils.translation import gettext_lazy as _

from core.registry import Link, Panel

PANELS = {"site_user": [Panel("accounts/_nav_user.html")]}
LINKS = {"site_guest": [Link(_("Sign in"), "accounts:login", order=10)]}
