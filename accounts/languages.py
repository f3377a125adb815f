"""The language of what reaches a user outside a page: the password-reset email, and the reset
pages its link opens.

There is no language field on a user. In this order, a user's language is:

1. the one they chose with a *Language* button on this browser (the ``set_language`` cookie),
   when the request comes from them (the self-service reset, the link they open);
2. the language the apps above know them by: receivers of :data:`user_language_asked` answer
   with a language code or None (annotation: the one language of a crowdworker's projects);
3. the request's active language (LocaleMiddleware's: the browser's, else ``LANGUAGE_CODE``).
"""
from django.conf import settings
from django.dispatch import Signal
from django.utils import translation

from accounts.models import User

#: Sent with ``user=``; a receiver returns the user's language code, or None when it has no view.
user_language_asked = Signal()


def user_language(user: User, *, chosen: str | None = None) -> str:
    """``user``'s language (see the module docstring); ``chosen`` is the cookie's choice, if theirs."""
    if chosen in dict(settings.LANGUAGES):
        return chosen
    answers = {language for _, language in user_language_asked.send(sender=User, user=user) if language}
    if len(answers) == 1 and (language := answers.pop()) in dict(settings.LANGUAGES):
        return language
    return translation.get_language() or settings.LANGUAGE_CODE
