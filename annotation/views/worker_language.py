"""The worker pages' JavaScript translations, in the page's language (``annotation.i18n``)."""
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog

pass


_catalog_view = JavaScriptCatalog.as_view(packages=["annotation"])


@require_safe
def javascript_catalog(request: HttpRequest, language: str) -> HttpResponse:
    """The worker pages' JavaScript translations (gettext, ngettext) in the page's language."""
    if language not in dict(settings.LANGUAGES):
        raise Http404("No such language.")
    with translation.override(language):
        return _catalog_view(request)
