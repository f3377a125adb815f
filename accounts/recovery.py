"""Django's password reset and change views with our templates and wording.

The email goes out in its user's language (``accounts.forms.PasswordResetForm``), and the pages
its link opens speak that language too (the set-password page, then "password changed"). The
pages before the address is known follow the request (the asker's choice, else the browser), so
they never tell whether an address has an account.
"""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse_lazy
from django.utils import translation

from accounts.forms import PasswordResetForm
from accounts.languages import user_language
from accounts.recovery_services import (
    RESET_EMAIL_TEMPLATE,
    RESET_SUBJECT_TEMPLATE,
    password_reset_complete,
    reset_link_days,
)
from core.i18n import chosen_language

# The language of the set-password page, kept for the "password changed" page after it.
RESET_LANGUAGE_SESSION_KEY = "password_reset_language"


def _speak(request: HttpRequest, language: str) -> None:
    translation.activate(language)
    request.LANGUAGE_CODE = language


class PasswordResetView(auth_views.PasswordResetView):
    """Ask for a reset link by email; the answer never says whether the address has an account."""

    template_name = "accounts/password_reset_form.html"
    form_class = PasswordResetForm
    email_template_name = RESET_EMAIL_TEMPLATE
    subject_template_name = RESET_SUBJECT_TEMPLATE
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        self.extra_email_context = {"timeout_days": reset_link_days()}
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"

    def get_context_data(self, **kwargs) -> dict:
        return {**super().get_context_data(**kwargs), "timeout_days": reset_link_days()}


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """The emailed link's page, in the language the email was written in."""

    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        # Only a working link (as Django checks it below) tells the user's language: a guessed
        # address must not learn that an account exists, nor who speaks what.
        user = self.get_user(kwargs["uidb64"])
        token = kwargs["token"]
        if token == self.reset_url_token:
            token = request.session.get(auth_views.INTERNAL_RESET_SESSION_TOKEN)
        if user is not None and self.token_generator.check_token(user, token):
            language = user_language(user, chosen=chosen_language(request.COOKIES))
            _speak(request, language)
            request.session[RESET_LANGUAGE_SESSION_KEY] = language
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form) -> HttpResponse:
        # Django's form_valid, with the write (password and API token) in the service.
        password_reset_complete(user=form.user, password=form.cleaned_data["new_password1"])
        del self.request.session[auth_views.INTERNAL_RESET_SESSION_TOKEN]
        return redirect(self.get_success_url())


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    """"Your password is changed", in the language of the page where it was set."""

    template_name = "accounts/password_reset_complete.html"

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        language = request.session.get(RESET_LANGUAGE_SESSION_KEY)
        if language in dict(settings.LANGUAGES):
            _speak(request, language)
        return super().dispatch(request, *args, **kwargs)


@login_required
def password_change_done(request: HttpRequest) -> HttpResponse:
    messages.success(request, "Your password is changed.")
    return redirect("accounts:settings")
