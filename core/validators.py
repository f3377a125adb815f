"""Validators the apps share."""
from django.core.validators import RegexValidator

# Round names and model names become folder and file names: one safe path component.
folder_name_validator = RegexValidator(
    r"^[A-Za-z0-9][A-Za-z0-9._-]*$", "Use letters, digits, '.', '_' or '-' (no spaces)."
)
