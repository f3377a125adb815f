"""The worker pages' JavaScript translations, in the page's language (``annotation.i18n``): the pages'
one catalogue (``core.views.javascript_catalog``) under the worker pages' address."""
from django.http import HttpRequest, HttpResponse

from core.views import javascript_catalog as pages_catalog


def javascript_catalog(request: HttpRequest, language: str) -> HttpResponse:
    """The worker pages' JavaScript translations (gettext, ngettext) in the page's language."""
    return pages_catalog(request, language)
