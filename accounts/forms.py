"""Forms of the account pages; they only parse input, the services decide what is valid."""
from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext, ngettext

from accounts import login_limits, services
from accounts.languages import user_language
from core.i18n import chosen_language, digits


class SignupForm(forms.Form):
    """A student signs up with the join code their instructor gave them."""

    join_code = forms.CharField(
        label="Course join code",
        max_length=16,
        help_text="Eight letters and digits from your instructor.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )
    username = forms.CharField(max_length=150, widget=forms.TextInput(attrs={"autocomplete": "username"}))
    email = forms.EmailField(label="Email (optional)", required=False)
    password1 = forms.CharField(
        label="Password", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    password2 = forms.CharField(
        label="Password again", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )

    # Service error keys that belong to a differently named field of this form.
    SERVICE_FIELD_MAP = {"password": "password1"}

    def clean(self) -> dict:
        cleaned = super().clean()
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second and first != second:
            self.add_error("password2", "The two passwords differ.")
        return cleaned

    def add_service_errors(self, message_dict: dict[str, list[str]], *, only_new: bool = False) -> None:
        """Show a service's ValidationError next to the field it is about; with ``only_new``, not
        on a field that already shows an error of the form's own."""
        for key, messages in message_dict.items():
            field = self.SERVICE_FIELD_MAP.get(key, key)
            if only_new and field in self.errors:
                continue
            self.add_error(field if field in self.fields else None, messages)


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's reset form; each email (subject and body) is written in its user's language
    (``accounts.languages``: the asker's own choice on this browser counts for a self-service reset)."""

    chosen: str | None = None

    def save(self, *args, request: HttpRequest | None = None, **kwargs) -> None:
        self.chosen = chosen_language(request.COOKIES) if request is not None else None
        super().save(*args, request=request, **kwargs)

    def send_mail(self, subject_template_name: str, email_template_name: str, context: dict, from_email: str | None,
                  to_email: str, html_email_template_name: str | None = None) -> None:
        with translation.override(user_language(context["user"], chosen=self.chosen)):
            super().send_mail(subject_template_name, email_template_name, context, from_email, to_email,
                              html_email_template_name)


class _RateLimitedSignIn:
    """Refuses a sign-in once its username or address failed too often (see ``login_limits``).

    Its messages are in the page's language (the person's choice, else the browser's), with the
    numbers in that language's digits.
    """

    rate_limited = False

    def clean(self) -> dict:
        username = self.cleaned_data.get("username") or ""
        # The client's address, also behind trusted proxies (core.proxies.TrustedProxyMiddleware).
        address = self.request.META.get("REMOTE_ADDR", "") if self.request else ""
        state = login_limits.login_limit_state(username=username, address=address)
        if state.blocked:
            self.rate_limited = True
            raise ValidationError(
                gettext("Too many failed sign-ins. Sign-in is locked for %(minutes)s more; "
                        "then try again, or reset your password.") % {"minutes": _minutes(state.lock_minutes)},
                code="rate_limited",
            )
        try:
            cleaned = super().clean()
        except ValidationError as error:
            services.login_failure_record(username=username, address=address)
            state = login_limits.login_limit_state(username=username, address=address)
            raise ValidationError([*error.error_list, ValidationError(_tries_left_message(state), code="tries_left")]) from error
        services.login_failures_clear(username=username)
        return cleaned


def _minutes(count: int) -> str:
    return ngettext("%(count)s minute", "%(count)s minutes", count) % {"count": digits(count)}


def _tries_left_message(state: login_limits.LoginLimitState) -> str:
    minutes = _minutes(state.lock_minutes)
    if state.blocked:
        return gettext("That was the last try: sign-in is now locked for %(minutes)s. "
                       "You can reset your password meanwhile.") % {"minutes": minutes}
    return ngettext("%(count)s more try before sign-in is locked for %(minutes)s.",
                    "%(count)s more tries before sign-in is locked for %(minutes)s.",
                    state.attempts_left) % {"count": digits(state.attempts_left), "minutes": minutes}


class RateLimitedAuthenticationForm(_RateLimitedSignIn, AuthenticationForm):
    """Django's sign-in form with the rate limit; the view answers 429 when it refuses."""


class RateLimitedAdminAuthenticationForm(_RateLimitedSignIn, AdminAuthenticationForm):
    """The admin's sign-in form with the same limit, so /admin/login/ is no way around it."""
