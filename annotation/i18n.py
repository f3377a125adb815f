"""The crowdworker pages' language: the worker's own choice, else the project's language.

Django's ``LocaleMiddleware`` activates the language of the ``django_language`` cookie that
``set_language`` (``/i18n/setlang/``) writes when a worker switches; without that cookie a
project page speaks the project's language (a Persian project's workers see Persian) rather
than whatever the browser asks for. The worker APIs (``annotation.apis.worker_language``) and the
model-in-the-loop socket (``annotation.consumers``) answer in the same language.
"""
from collections.abc import Iterable, Mapping

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from core.i18n import chosen_language

# The models' choice labels stay plain English (labels are part of migrations); the worker's
# pages name them through these.
SESSION_STATUS = {"in_progress": _("in progress"), "submitted": _("submitted"), "discarded": _("discarded")}
DISCARD_REASONS = [
    ("hard_to_understand", _("Hard to understand")),
    ("foreign_words", _("Too many words not in the project's language")),
    ("other", _("Other")),
]
SPLITS = {"train": _("Train"), "validation": _("Validation"), "test": _("Test")}
LANGUAGE_NAMES = {"en": _("English"), "fa": _("Persian")}


def worker_language(cookies: Mapping[str, str], languages: Iterable[str]) -> str | None:
    """The language of a worker's page: their choice, else the one language of the projects it
    shows (``languages``); None for a mix (the browser's language then, as LocaleMiddleware chose)."""
    chosen = chosen_language(cookies)
    if chosen is not None:
        return chosen
    distinct = set(languages)
    if len(distinct) != 1:
        return None
    (language,) = distinct
    return language if language in dict(settings.LANGUAGES) else None


def activate_project_language(request: HttpRequest, languages: Iterable[str]) -> None:
    """Speak the projects' language on this page (or API answer) unless the worker chose one.

    ``languages`` are the languages of the projects the page shows; one shared language wins,
    a mix leaves the middleware's choice (the browser's) alone.
    """
    language = worker_language(request.COOKIES, languages)
    if language is not None:
        translation.activate(language)
        request.LANGUAGE_CODE = language
