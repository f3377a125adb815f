"""Junk completions (reads): the coach's warning while an author types, and why a question's live
credit waits for validation.

A completion that is one character repeated, has no word of the language, or is far longer than
the others (``mlcore.bias.junk.junk_check``, whose docstring defines each rule) can fool a weak
live model without being a question. Such a question is still saved, but its live credit is held
back until a validator or instructor accepts it (``selectors/questions.question_credit``); the
submission sends it to the review queue (``services/validation.question_quality_after_submit``).
"""
from collections.abc import Sequence

from django.utils.translation import gettext as _

from collector.models import LETTERS, Question, QuestionStatus
from mlcore.bias.junk import JunkCheck, junk_check, packaged_vocabulary

JUNK_KIND = "junk"  # a coach warning's kind; not stored as a CoachWarning (it decides credit instead)


def completions_junk(choices: Sequence[str]) -> JunkCheck:
    """The degenerate completions of ``choices``, words read from the packaged tokenizer's vocabulary."""
    if len(choices) < 2:
        return JunkCheck(())
    return junk_check(choices, vocabulary=packaged_vocabulary())


def _reason_text(reason: str) -> str:
    return {
        "repeated": _("is one character repeated"),
        "no_word": _("has no word of the language"),
        "too_long": _("is far longer than the others"),
    }[reason]


def junk_reasons(check: JunkCheck) -> str:
    """“completion B is one character repeated; completion C has no word of the language”."""
    return "; ".join(
        _("completion %(letter)s %(reason)s") % {"letter": LETTERS[c.index], "reason": _reason_text(c.reason)}
        for c in check.completions
    )


def junk_warning(choices: Sequence[str]) -> list[dict]:
    """The coach's junk warning for a draft (JSON-ready), or none."""
    check = completions_junk(choices)
    if not check.junk:
        return []
    message = _("This looks like junk: %(reasons)s. A question like this is saved, but earns no live credit "
                "until a validator accepts it.") % {"reasons": junk_reasons(check)}
    return [{"kind": JUNK_KIND, "completions": [c.index for c in check.completions],
             "reasons": [c.reason for c in check.completions], "message": message}]


def live_credit_held(question: Question) -> bool:
    """Is the question's live credit held back: junk completions, awaiting validation or review?
    (Accepted questions earn it; rejected ones earn nothing anyway.)"""
    return question.status in (QuestionStatus.PENDING, QuestionStatus.REVIEW) and completions_junk(question.choices).junk


def live_credit_note(question: Question) -> str:
    """Why the question has no live credit yet (empty when it is not held back)."""
    if not live_credit_held(question):
        return ""
    return _("No live credit yet: %(reasons)s. It counts once a validator accepts the question.") % {
        "reasons": junk_reasons(completions_junk(question.choices))}
