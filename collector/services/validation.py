"""Writes of the quality loop's first step: blind validations, and what happens to a question
right after it is submitted (near-duplicate check, coach).

A validator's answer moves a pending question on (``question_settle``): enough agreement accepts
it, any doubt sends it to the owner's review (``services/reviews.py``, which records every status
change and holds the state diagram).
"""
import logging
import time
from collections.abc import Sequence

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import User
from collector.cleaning import clean_free_text, clean_question
from collector.models import LETTERS, NUM_CHOICES, Question, QuestionStatus, Round, Validation
from collector.selectors.junk import completions_junk, junk_reasons
from collector.selectors.validation import TOKEN_SALT, check_may_validate, display_order
from collector.services.coach import coach_warnings_settle
from collector.services.duplicates import question_duplicates_flag
from collector.services.reviews import Action, question_lock, question_status_set

logger = logging.getLogger(__name__)

MAX_COMMENT_CHARS = 1000
MAX_SECONDS = 3600  # a form left open over lunch is not an hour of work


def _read_token(token: str, validator: User) -> tuple[int, int]:
    """The question id and seconds spent from a validation token issued to ``validator``."""
    try:
        data = signing.loads(token or "", salt=TOKEN_SALT, max_age=settings.STUMPER_VALIDATION_MAX_AGE_SECONDS)
    except signing.SignatureExpired:
        raise ValidationError({"token": "This form is too old; reload the page to get the question again."}) from None
    except signing.BadSignature:
        raise ValidationError({"token": "This form was not issued by Stumper; reload the page."}) from None
    if data.get("v") != validator.pk:
        raise ValidationError({"token": "This form was issued to someone else; reload the page."})
    seconds = int(max(0.0, min(time.time() - float(data.get("t", time.time())), MAX_SECONDS)))
    return int(data["q"]), seconds


def _clean_flags(flags) -> list[str]:
    if flags is None:
        return []
    if isinstance(flags, str) or not isinstance(flags, (list, tuple)):
        raise ValidationError({"flags": "Flags must be a list."})
    unknown = [str(f) for f in flags if f not in Validation.Flag.values]
    if unknown:
        raise ValidationError({"flags": f"Unknown flags: {', '.join(unknown)}. Use {', '.join(Validation.Flag.values)}."})
    return [f for f in Validation.Flag.values if f in flags]  # canonical order, no repeats


def _clean_position(position, flags: list[str]) -> int | None:
    if position is None or position == "":
        if Validation.Flag.NO_SINGLE_ANSWER in flags:
            return None
        raise ValidationError({"choice": "Pick the completion you think is right (or flag “no single right answer”)."})
    if isinstance(position, bool) or not isinstance(position, int):
        try:
            position = int(str(position))
        except ValueError:
            raise ValidationError({"choice": "The picked completion must be a number from 0 to 3."}) from None
    if not 0 <= position < NUM_CHOICES:
        raise ValidationError({"choice": f"The picked completion must be between 0 and {NUM_CHOICES - 1}."})
    return position


def _clean_categories(categories, round_: Round, default: Sequence[str]) -> list[str]:
    if categories is None:
        return list(default)
    try:
        return list(clean_question(prompt="x", choices=["a", "b", "c", "d"], answer=0, categories=categories,
                                   allowed_categories=round_.categories).categories)
    except ValidationError as error:
        raise ValidationError({"categories": error.message_dict.get("categories", error.messages)}) from None


@transaction.atomic
def validation_submit(
    *, validator: User, token: str, position, flags: Sequence[str] | None = None,
    categories: Sequence[str] | None = None, comment: str = "",
) -> Validation:
    """Store a validator's blind answer and move the question on (accepted or to review).

    ``position`` is the display position picked (the token's question, shuffled for this
    validator); ``None`` only together with the "no single right answer" flag. Nothing is
    stored unless everything is valid.
    """
    question_id, seconds = _read_token(token, validator)
    question = question_lock(question_id)
    check_may_validate(user=validator, question=question)
    if question.status not in (QuestionStatus.PENDING, QuestionStatus.REVIEW):
        raise ValidationError("This question has already been decided; thank you. Here is the next one.")
    if Validation.objects.filter(question=question, validator=validator).exists():
        raise ValidationError("You have already validated this question.")
    clean_flags = _clean_flags(flags)
    chosen_position = _clean_position(position, clean_flags)
    order = display_order(question_id=question.pk, validator_id=validator.pk)
    chosen = None if chosen_position is None else order[chosen_position]
    validation = Validation(
        question=question, validator=validator, choice_order=list(order), chosen_index=chosen,
        is_correct=chosen == question.correct_index, flags=clean_flags,
        categories=_clean_categories(categories, question.round, question.categories),
        comment=clean_free_text(comment, field="comment", label="The comment", limit=MAX_COMMENT_CHARS, required=False),
        seconds_spent=seconds,
    )
    validation.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            validation.save()
    except IntegrityError:
        raise ValidationError("You have already validated this question.") from None
    question_settle(question=question)
    return validation


def _problems(question: Question, validations: list[Validation]) -> list[str]:
    problems = []
    key = LETTERS[question.correct_index]
    for v in validations:
        if v.chosen_index is not None and not v.is_correct:
            problems.append(f"{v.validator.username} picked {LETTERS[v.chosen_index]}, the key is {key}")
        labels = [Validation.Flag(flag).label.lower() for flag in v.flags]
        if labels:
            problems.append(f"{v.validator.username} flagged: {', '.join(labels)}")
        if v.comment:
            problems.append(f"{v.validator.username}: “{v.comment}”")
    return problems


def question_settle(*, question: Question) -> None:
    """Accept a pending question once enough validators agreed; send it to review on any doubt."""
    validations = list(question.validations.select_related("validator").order_by("created_at", "id"))
    problems = _problems(question, validations)
    doubtful = any(not v.is_correct or v.flags for v in validations)
    if question.status == QuestionStatus.PENDING:
        if doubtful:
            question_status_set(question, QuestionStatus.REVIEW, action=Action.SENT_TO_REVIEW, reason="; ".join(problems))
        elif sum(v.is_correct for v in validations) >= question.round.validations_required:
            question_status_set(question, QuestionStatus.ACCEPTED, action=Action.AUTO_ACCEPTED,
                        reason=f"{len(validations)} validator(s) agreed with the answer key.")
    elif question.status == QuestionStatus.REVIEW and problems:
        reason = "; ".join(p for p in dict.fromkeys([*question.review_reason.split("; "), *problems]) if p)
        Question.objects.filter(pk=question.pk).update(review_reason=reason)


def question_quality_after_submit(*, question: Question) -> None:
    """Flag near-duplicates (to review) and settle the coach's warnings for a new question.

    Called after the question is committed; a failure here is logged and never loses it.
    """
    try:
        flags = question_duplicates_flag(question=question)
        if flags:
            closest = flags[0]
            with transaction.atomic():
                locked = question_lock(question.pk)
                if locked.status == QuestionStatus.PENDING:
                    question_status_set(locked, QuestionStatus.REVIEW, action=Action.SENT_TO_REVIEW,
                                reason=f"Possible duplicate: {round(100 * closest.similarity)}% of its words are shared "
                                f"with question #{closest.similar_to_id}.")
                    question.status = locked.status
    except Exception:
        logger.exception("Near-duplicate check of question %s failed", question.pk)
    try:
        _junk_to_review(question)
    except Exception:
        logger.exception("Junk check of question %s failed", question.pk)
    try:
        coach_warnings_settle(question=question)
    except Exception:
        logger.exception("Settling the coach's warnings of question %s failed", question.pk)


def _junk_to_review(question: Question) -> None:
    """A question with junk completions goes to the owner's review: its live credit waits for a
    decision (``selectors/junk.py``), so someone must make one."""
    check = completions_junk(question.choices)
    if not check.junk:
        return
    with transaction.atomic():
        locked = question_lock(question.pk)
        if locked.status == QuestionStatus.PENDING:
            question_status_set(locked, QuestionStatus.REVIEW, action=Action.SENT_TO_REVIEW,
                                reason=f"Looks like junk: {junk_reasons(check)}.")
            question.status = locked.status
