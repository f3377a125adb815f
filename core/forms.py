"""What the apps' HTML forms share."""
from django.core.exceptions import ValidationError


class ServiceErrorsMixin:
    """Show a service's ValidationError next to the field it is about (or above the form)."""

    def add_service_errors(self, error: ValidationError) -> None:
        if not hasattr(error, "error_dict"):
            self.add_error(None, error.messages)
            return
        for key, messages in error.message_dict.items():
            self.add_error(key if key in self.fields else None, messages)
