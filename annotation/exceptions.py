"""Errors the annotation app raises for people; each message is meant to be shown as is."""
from django.core.exceptions import ValidationError


class AnswerFinal(ValidationError):
    """A second-pass answer was sent for a question the worker has already answered.

    The first answer is final (the original answer was shown right after it); the API turns this
    into 409 with this ``detail``. Being a ``ValidationError``, any other caller still
    reports it as a 400 with the message on ``question_id``.
    """

    def __init__(self, message: str):
        super().__init__({"question_id": message})
        self.detail = message
