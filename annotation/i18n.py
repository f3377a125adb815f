"""The crowdworker pages' language: the worker's own choice, else the project's language.

Django's ``LocaleMiddleware`` activates the language of the ``django_language`` cookie that
``set_language`` (``/i18n/setlang/``) writes when a worker switches; without that cookie a
project page speaks the project's language (a Persian project's workers see Persian) rather
than whatever the browser asks for.
"""
from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext_lazy as _

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

PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
DIGITS_BY_LANGUAGE = {"fa": PERSIAN_DIGITS}


def local_digits(value: object, language: str) -> str:
    """``value`` as text with the digits ``language`` writes numbers in (Persian: ۰–۹)."""
    table = DIGITS_BY_LANGUAGE.get(language.split("-")[0])
    text = str(value)
    return text.translate(table) if table else text


def worker_chose_language(request: HttpRequest) -> bool:
    return request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) in dict(settings.LANGUAGES)


def activate_project_language(request: HttpRequest, languages: Iterable[str]) -> None:
    """Speak the projects' language on this page unless the worker chose one.

    ``languages`` are the languages of the projects the page shows; one shared language wins,
    a mix leaves the middleware's choice (the browser's) alone.
    """
    distinct = set(languages)
    if worker_chose_language(request) or len(distinct) != 1:
        return
    (language,) = distinct
    if language in dict(settings.LANGUAGES):
        translation.activate(language)
        request.LANGUAGE_CODE = language
