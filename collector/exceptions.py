"""Errors the collector raises for people, each with a message meant to be shown as is."""
from django.core.exceptions import PermissionDenied


class AccessError(PermissionDenied):
    """The user may not do this here (wrong course, closed round, not signed in)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ImportFailed(Exception):
    """An import file had bad rows; nothing was written."""

    def __init__(self, errors: list[tuple[int, str]]):
        self.errors = errors
        lines = [f"line {line}: {message}" for line, message in errors[:50]]
        more = f"\n... and {len(errors) - 50} more" if len(errors) > 50 else ""
        super().__init__(f"{len(errors)} bad row(s), nothing imported:\n" + "\n".join(lines) + more)
