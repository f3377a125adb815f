"""What the apps' HTML forms share."""
from django import forms
from django.core.exceptions import ValidationError


class ServiceErrorsMixin:
    """Show a service's ValidationError next to the field it is about (or above the form)."""

    def add_service_errors(self, error: ValidationError) -> None:
        if not hasattr(error, "error_dict"):
            self.add_error(None, error.messages)
            return
        for key, messages in error.message_dict.items():
            self.add_error(key if key in self.fields else None, messages)


def form_errors(form: forms.Form) -> str:
    """A form's errors on one line, each after its field's label (for a flash message)."""
    parts = []
    for field, errors in form.errors.items():
        label = (form.fields[field].label or field.replace("_", " ").capitalize()) if field in form.fields else ""
        parts.append(f"{label}: {' '.join(errors)}" if label else " ".join(errors))
    return " ".join(parts)


class FilterForm(forms.Form):
    """Filters of a list page, bound to its GET parameters. A filter that does not validate counts
    as unset, so a hand-edited or stale link still lists instead of showing errors."""

    def values(self) -> dict:
        """The valid filters' cleaned values by field name; an invalid one is left out, as if not sent."""
        self.is_valid()  # cleaned_data keeps the fields that are valid even when others are not
        return dict(getattr(self, "cleaned_data", {}))  # an unbound form (no GET data) filters nothing
