"""Errors the annotation app raises for people; each message is meant to be shown as is."""
from collections.abc import Sequence

from django.core.exceptions import ValidationError

from collector.exceptions import AccessError

__all__ = ["AccessError", "AnswerFinal", "ImportFailed"]


class AnswerFinal(ValidationError):
    """A second-pass answer was sent for a question the worker has already answered.

    The first answer is final (the original answer was shown right after it); the API turns this
    into 409 with this ``detail``. Being a ``ValidationError``, any other caller still
    reports it as a 400 with the message on ``question_id``.
    """

    def __init__(self, message: str):
        super().__init__({"question_id": message})
        self.detail = message


class ImportFailed(Exception):
    """An import file had problems; nothing was written. ``errors`` lists ``(location, message)``.

    A location is a line number for JSON Lines and a JSON path such as
    ``data[3].paragraphs[0].qas[2] (id '1801005')`` for SQuAD files.
    """

    def __init__(self, errors: Sequence[tuple[str | int, str]]):
        self.errors = [(str(where), message) for where, message in errors]
        shown = [f"{where}: {message}" for where, message in self.errors[:50]]
        more = f"\n... and {len(self.errors) - 50} more" if len(self.errors) > 50 else ""
        super().__init__(f"{len(self.errors)} problem(s), nothing imported:\n" + "\n".join(shown) + more)
