"""Language plumbing every app shares: the language a person chose, and digits in a language.

Persian text writes numbers in Persian digits (۰–۹); Django's localisation keeps ASCII digits,
so messages and pages convert them with :func:`local_digits` (or :func:`digits` in the active
language). ``set_language`` (``/i18n/setlang/``) keeps a person's choice of language in the
``django_language`` cookie, read by :func:`chosen_language` wherever a request or a websocket
scope has cookies.
"""
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import get_language, get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header

PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
DIGITS_BY_LANGUAGE = {"fa": PERSIAN_DIGITS}


def local_digits(value: object, language: str) -> str:
    """``value`` as text with the digits ``language`` writes numbers in (Persian: ۰–۹)."""
    table = DIGITS_BY_LANGUAGE.get(language.split("-")[0])
    text = str(value)
    return text.translate(table) if table else text


def digits(value: object) -> str:
    """``value`` as text with the digits of the active language (for numbers inside a message)."""
    return local_digits(value, get_language() or settings.LANGUAGE_CODE)


def chosen_language(cookies: Mapping[str, str]) -> str | None:
    """The language the person chose with a Language button (the ``set_language`` cookie), if any."""
    language = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    return language if language in dict(settings.LANGUAGES) else None


def socket_language(scope: Mapping[str, Any]) -> str | None:
    """The language of the page that opened a websocket: the person's choice (cookie), else the
    browser's ``Accept-Language`` as LocaleMiddleware reads it; None when neither names a site language."""
    chosen = chosen_language(scope.get("cookies") or {})
    if chosen is not None:
        return chosen
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return None

