"""A question in the owner's review queue with everything needed to decide, as the review pages show it.

Pure functions over already-fetched objects (``selectors.reviews`` prefetches the evidence).
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _

from collector.models import LETTERS, Question, Validation
from collector.selectors.questions import live_prediction_of, question_credit
from collector.selectors.reviews import appeal_of


@dataclass(frozen=True)
class ValidationView:
    validation: Validation
    picked: str  # "B" or "no pick"
    agrees: bool
    flags: list[str]


@dataclass(frozen=True)
class ReviewItem:
    """A question in the owner's queue with everything needed to decide."""

    question: Question
    choices: list[tuple[str, str, bool]]  # (letter, text, is the key)
    validations: list[ValidationView]
    duplicates: list  # DuplicateFlag rows, similar question prefetched
    appeal: object  # Appeal | None
    model_pick: str | None
    credit: float


def review_item(question: Question) -> ReviewItem:
    validations = [
        ValidationView(
            v, LETTERS[v.chosen_index] if v.chosen_index is not None else _("no pick"), v.is_correct,
            [Validation.Flag(flag).label for flag in v.flags],
        )
        for v in question.validations.all()
    ]
    prediction = live_prediction_of(question)
    picked = prediction.predicted_index if prediction is not None and prediction.predicted_index is not None else None
    return ReviewItem(
        question=question,
        choices=[(LETTERS[i], text, i == question.correct_index) for i, text in enumerate(question.choices)],
        validations=validations,
        duplicates=list(question.duplicate_flags.all()),
        appeal=appeal_of(question),
        model_pick=LETTERS[picked] if picked is not None else None,
        credit=question_credit(question=question, prediction=prediction),
    )
