"""Forms of the account pages; they only parse input, the services decide what is valid."""
from django import forms


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

    def add_service_errors(self, message_dict: dict[str, list[str]]) -> None:
        """Show a service's ValidationError next to the field it is about."""
        for key, messages in message_dict.items():
            field = self.SERVICE_FIELD_MAP.get(key, key)
            self.add_error(field if field in self.fields else None, messages)

