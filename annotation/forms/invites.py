"""Forms of the invite pages; they parse input, ``annotation.services.invites`` decides."""
from django import forms
from django.utils.translation import gettext_lazy as _

EXPIRY_CHOICES = [("1", _("1 day")), ("7", _("7 days")), ("30", _("30 days")), ("", _("Until I revoke it"))]


class InviteCreateForm(forms.Form):
    days = forms.TypedChoiceField(label=_("The link works for"), choices=EXPIRY_CHOICES, initial="7", required=False,
                                  coerce=int, empty_value=None)


class InviteAccessForm(forms.Form):
    invite_only = forms.BooleanField(
        label=_("Only crowdworkers who joined by an invite link see this project"), required=False,
        help_text=_("Off: every crowdworker of this site sees the project on their task list."),
    )


class InviteSignupForm(forms.Form):
    """A new crowdworker's account, made on the invite page."""

    username = forms.CharField(max_length=150, label=_("Username"), widget=forms.TextInput(attrs={"autocomplete": "username"}))
    email = forms.EmailField(label=_("Email (optional, for password resets)"), required=False)
    password1 = forms.CharField(label=_("Password"), strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(label=_("Password again"), strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    SERVICE_FIELD_MAP = {"password": "password1"}

    def clean(self) -> dict:
        cleaned = super().clean()
        if cleaned.get("password1") and cleaned.get("password2") and cleaned["password1"] != cleaned["password2"]:
            self.add_error("password2", _("The two passwords differ."))
        return cleaned

    def add_service_errors(self, message_dict: dict[str, list[str]]) -> None:
        for key, messages in message_dict.items():
            field = self.SERVICE_FIELD_MAP.get(key, key)
            self.add_error(field if field in self.fields else None, messages)
