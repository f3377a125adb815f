"""Errors the apps raise for people, each with a message meant to be shown as is."""
from collections.abc import Sequence

from django.core.exceptions import PermissionDenied
from django.http import Http404


class AccessError(PermissionDenied):
    """The user may not do this here (wrong course, closed round, not signed in)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFoundError(AccessError, Http404):
    """What the user asked for does not exist (no round with this id): 404 with its message.

    Still an ``AccessError``, so everything that refuses on one (a socket's 4403, a command's
    error, ``except AccessError``) refuses on this too; Django's handler and DRF's test ``Http404``
    before ``PermissionDenied``, so pages and APIs answer 404. Something that exists but is not
    the user's stays a plain ``AccessError`` (403, saying why), except where a selector hides
    whether it exists (another course's model, another account's LMS registration).
    """


class ImportFailed(Exception):
    """An import file had problems; nothing was written. ``errors`` lists ``(location, message)``.

    A location is a line number (an int, shown as ``line N``: a file of rows such as CODAH TSV or
    JSON Lines) or a text such as the JSON path ``data[3].paragraphs[0].qas[2] (id '1801005')``.
    """

    def __init__(self, errors: Sequence[tuple[str | int, str]]):
        rows = all(isinstance(where, int) for where, _ in errors)
        self.errors: list[tuple[str | int, str]] = (
            list(errors) if rows else [(str(where), message) for where, message in errors]
        )
        shown = [f"{'line ' if rows else ''}{where}: {message}" for where, message in self.errors[:50]]
        more = f"\n... and {len(self.errors) - 50} more" if len(self.errors) > 50 else ""
        what = "bad row(s)" if rows else "problem(s)"
        super().__init__(f"{len(self.errors)} {what}, nothing imported:\n" + "\n".join(shown) + more)
