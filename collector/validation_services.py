"""Writes of the quality loop: blind validations, the owner's review decisions, appeals, and
what happens to a question right after it is submitted (near-duplicate check, coach).

Status changes (``Question.status``), each recorded as a ``ReviewDecision``:

    pending --validators agree--> accepted
    pending --disagreement, a flag or a near-duplicate--> review
    pending/review/accepted --owner rejects (reason)--> rejected --author appeals once--> appealed
    pending/review/rejected --owner accepts or edits--> accepted
    appealed --owner upholds--> accepted | --owner denies (response)--> rejected

Credit needs no recomputation: ``selectors.question_credit`` reads the status, so grades
follow every decision at once.
"""
import logging
import time
from collections.abc import Sequence

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from accounts.models import User
from collector import coach, duplicates
from collector.models import (
    LETTERS,
    NUM_CHOICES,
    Appeal,
    CVPrediction,
    PeerValidation,
    Prediction,
    Question,
    QuestionStatus,
    ReviewDecision,
    Round,
    Validation,
)
from collector.signals import credit_changed
from collector.validation import clean_question
from collector.validation_selectors import TOKEN_SALT, check_may_validate, display_order
from core.exceptions import AccessError
from core.jobs import job_enqueue
from courses.selectors import user_manages_course

logger = logging.getLogger(__name__)

MAX_COMMENT_CHARS = 1000
MAX_REASON_CHARS = 1000
MAX_APPEAL_CHARS = 2000
MAX_SECONDS = 3600  # a form left open over lunch is not an hour of work
Action = ReviewDecision.Action


def _text(value, *, field: str, label: str, limit: int, required: bool) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationError({field: f"{label} must be text."})
    text = value.strip()
    if required and not text:
        raise ValidationError({field: f"{label} is required."})
    if len(text) > limit:
        raise ValidationError({field: f"{label} is too long ({len(text)} characters; at most {limit})."})
    return text


def _set_status(question: Question, status: str, *, action: str, reviewer: User | None = None, reason: str = "",
                changes: dict | None = None) -> None:
    """Change the status (and the texts that go with it) and record the decision."""
    fields: dict = {"status": status}
    if status == QuestionStatus.REVIEW:
        fields["review_reason"] = reason
    if status == QuestionStatus.REJECTED and action == Action.REJECTED:
        fields["rejection_reason"] = reason
    if status == QuestionStatus.ACCEPTED:
        fields["rejection_reason"] = ""
    if status in (QuestionStatus.ACCEPTED, QuestionStatus.REJECTED):
        fields["decided_at"] = timezone.now()
    Question.objects.filter(pk=question.pk).update(**fields)
    for name, value in fields.items():
        setattr(question, name, value)
    ReviewDecision.objects.create(question=question, reviewer=reviewer, action=action, reason=reason, changes=changes or {})
    credit_changed.send(sender=Question, round_id=question.round_id, user_ids=[question.author_id])


def _locked_question(question_id) -> Question:
    try:
        return Question.objects.select_for_update().select_related("round", "round__course", "author").get(pk=question_id)
    except (Question.DoesNotExist, ValueError, TypeError):
        raise AccessError("This question does not exist.") from None


# --- Blind validation ------------------------------------------------------------------------


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
    question = _locked_question(question_id)
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
        comment=_text(comment, field="comment", label="The comment", limit=MAX_COMMENT_CHARS, required=False),
        seconds_spent=seconds,
    )
    validation.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            validation.save()
    except IntegrityError:
        raise ValidationError("You have already validated this question.") from None
    _settle(question)
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


def _settle(question: Question) -> None:
    """Accept a pending question once enough validators agreed; send it to review on any doubt."""
    validations = list(question.validations.select_related("validator").order_by("created_at", "id"))
    problems = _problems(question, validations)
    doubtful = any(not v.is_correct or v.flags for v in validations)
    if question.status == QuestionStatus.PENDING:
        if doubtful:
            _set_status(question, QuestionStatus.REVIEW, action=Action.SENT_TO_REVIEW, reason="; ".join(problems))
        elif sum(v.is_correct for v in validations) >= question.round.validations_required:
            _set_status(question, QuestionStatus.ACCEPTED, action=Action.AUTO_ACCEPTED,
                        reason=f"{len(validations)} validator(s) agreed with the answer key.")
    elif question.status == QuestionStatus.REVIEW and problems:
        reason = "; ".join(p for p in dict.fromkeys([*question.review_reason.split("; "), *problems]) if p)
        Question.objects.filter(pk=question.pk).update(review_reason=reason)


# --- After a submission ----------------------------------------------------------------------


def question_quality_after_submit(*, question: Question) -> None:
    """Flag near-duplicates (to review) and settle the coach's warnings for a new question.

    Called after the question is committed; a failure here is logged and never loses it.
    """
    try:
        flags = duplicates.question_duplicates_flag(question=question)
        if flags:
            closest = flags[0]
            with transaction.atomic():
                locked = _locked_question(question.pk)
                if locked.status == QuestionStatus.PENDING:
                    _set_status(locked, QuestionStatus.REVIEW, action=Action.SENT_TO_REVIEW,
                                reason=f"Possible duplicate: {round(100 * closest.similarity)}% of its words are shared "
                                f"with question #{closest.similar_to_id}.")
                    question.status = locked.status
    except Exception:
        logger.exception("Near-duplicate check of question %s failed", question.pk)
    try:
        coach.coach_warnings_settle(question=question)
    except Exception:
        logger.exception("Settling the coach's warnings of question %s failed", question.pk)


# --- The owner's review ----------------------------------------------------------------------

REVIEW_ACTIONS = ("accept", "reject", "edit")


def _check_manager(reviewer: User, question: Question) -> None:
    if not user_manages_course(user=reviewer, course=question.round.course):
        raise AccessError("Only the course's instructors can review its questions.")


@transaction.atomic
def question_review_decide(
    *, reviewer: User, question_id: int, action: str, reason: str = "", prompt=None, choices=None,
    correct_index=None, categories=None,
) -> Question:
    """Accept, reject (with a reason the author sees) or edit-and-accept a question."""
    question = _locked_question(question_id)
    _check_manager(reviewer, question)
    if action not in REVIEW_ACTIONS:
        raise ValidationError({"action": f"Choose one of {', '.join(REVIEW_ACTIONS)}."})
    if question.status == QuestionStatus.APPEALED:
        raise ValidationError("This question has an open appeal: decide the appeal instead.")
    required = action == "reject"
    reason = _text(reason, field="reason", label="The reason", limit=MAX_REASON_CHARS, required=required)
    if action == "accept":
        if question.status != QuestionStatus.ACCEPTED:
            _set_status(question, QuestionStatus.ACCEPTED, action=Action.ACCEPTED, reviewer=reviewer, reason=reason)
    elif action == "reject":
        if question.status != QuestionStatus.REJECTED or question.rejection_reason != reason:
            _set_status(question, QuestionStatus.REJECTED, action=Action.REJECTED, reviewer=reviewer, reason=reason)
    else:
        changes = _apply_edit(question, prompt=prompt, choices=choices, correct_index=correct_index, categories=categories)
        _set_status(question, QuestionStatus.ACCEPTED, action=Action.EDITED, reviewer=reviewer, reason=reason,
                    changes=changes)
    return question


def _apply_edit(question: Question, *, prompt, choices, correct_index, categories) -> dict:
    clean = clean_question(
        prompt=question.prompt if prompt is None else prompt,
        choices=question.choices if choices is None else choices,
        answer=question.correct_index if correct_index is None else correct_index,
        categories=question.categories if categories is None else categories,
        allowed_categories=question.round.categories,
    )
    after = {"prompt": clean.prompt, "choices": list(clean.choices), "correct_index": clean.answer,
             "categories": list(clean.categories or ("other",))}
    changes = {f: [getattr(question, f), v] for f, v in after.items() if getattr(question, f) != v}
    if not changes:
        raise ValidationError("Nothing was changed: use Accept to accept the question as it is.")
    for field, value in after.items():
        setattr(question, field, value)
    question.full_clean(validate_constraints=False)
    question.save()
    _refresh_model_answers(question, text_changed="prompt" in changes or "choices" in changes)
    return changes


def _refresh_model_answers(question: Question, *, text_changed: bool) -> None:
    """Keep the models' verdicts true to the edited question.

    A new answer key re-judges stored predictions; new text is scored again by the model
    version that scored the original (after commit, like any submission). Cross-validation
    predictions are re-judged against the key; new text is scored at the next run.
    """
    key = question.correct_index
    CVPrediction.objects.filter(question=question).update(
        correct=Case(When(predicted_index=key, then=Value(True)), default=Value(False))
    )
    predictions = Prediction.objects.filter(question=question)
    if text_changed:
        predictions.update(status=Prediction.Status.PENDING, probs=None, predicted_index=None, fooled=None,
                           computed_at=None, attempts=0, last_error="")
        for pk in predictions.values_list("pk", flat=True):
            # The task named as in collector.tasks (collector.services imports this module).
            transaction.on_commit(lambda pk=pk: job_enqueue("collector.prediction_compute", pk))
        return
    for prediction in predictions.filter(status=Prediction.Status.DONE):
        Prediction.objects.filter(pk=prediction.pk).update(fooled=prediction.predicted_index != key)
    credit_changed.send(sender=Question, round_id=question.round_id, user_ids=[question.author_id])


# --- Appeals ---------------------------------------------------------------------------------


@transaction.atomic
def appeal_submit(*, author: User, question_id: int, message: str) -> Appeal:
    """The author appeals the rejection of their question (once); it goes to the owner's queue."""
    question = _locked_question(question_id)
    if question.author_id != author.pk:
        raise AccessError("You can only appeal your own questions.")
    if Appeal.objects.filter(question=question).exists():
        raise ValidationError("You have already appealed this question; a rejection can be appealed once.")
    if question.status != QuestionStatus.REJECTED:
        raise ValidationError("Only rejected questions can be appealed.")
    text = _text(message, field="message", label="Your appeal", limit=MAX_APPEAL_CHARS, required=True)
    appeal = Appeal.objects.create(question=question, author=author, message=text)
    Question.objects.filter(pk=question.pk).update(status=QuestionStatus.APPEALED)
    return appeal


@transaction.atomic
def appeal_decide(*, reviewer: User, appeal_id: int, uphold: bool, response: str = "") -> Appeal:
    """Uphold an appeal (the question is accepted) or deny it (it stays rejected; the author
    reads ``response``)."""
    try:
        appeal = Appeal.objects.select_for_update().get(pk=appeal_id)
    except (Appeal.DoesNotExist, ValueError, TypeError):
        raise AccessError("This appeal does not exist.") from None
    question = _locked_question(appeal.question_id)
    _check_manager(reviewer, question)
    if appeal.status != Appeal.Status.OPEN:
        raise ValidationError("This appeal has already been decided.")
    response = _text(response, field="response", label="The response", limit=MAX_REASON_CHARS, required=not uphold)
    appeal.status = Appeal.Status.UPHELD if uphold else Appeal.Status.DENIED
    appeal.response, appeal.decided_by, appeal.decided_at = response, reviewer, timezone.now()
    appeal.save()
    if uphold:
        _set_status(question, QuestionStatus.ACCEPTED, action=Action.APPEAL_UPHELD, reviewer=reviewer, reason=response)
    else:
        _set_status(question, QuestionStatus.REJECTED, action=Action.APPEAL_DENIED, reviewer=reviewer, reason=response)
    return appeal


# --- Round settings --------------------------------------------------------------------------


#: The round's validation and coach settings, as ``round_quality_settings_update`` takes them.
QUALITY_SETTING_FIELDS = ("validations_required", "peer_validation", "credit_requires_acceptance", "coach_answer_only",
                          "coach_words", "coach_length", "coach_duplicates")


@transaction.atomic
def round_quality_settings_update(
    *, round_: Round, validations_required: int, peer_validation: str, credit_requires_acceptance: bool,
    coach_answer_only: bool, coach_words: bool, coach_length: bool, coach_duplicates: bool,
) -> Round:
    """Change how a round's questions are validated and which coach warnings authors see.

    Lowering ``validations_required`` accepts pending questions that now have enough agreement.
    """
    if peer_validation not in PeerValidation.values:
        raise ValidationError({"peer_validation": f"Choose one of {', '.join(PeerValidation.values)}."})
    values = {
        "validations_required": validations_required, "peer_validation": peer_validation,
        "credit_requires_acceptance": bool(credit_requires_acceptance), "coach_answer_only": bool(coach_answer_only),
        "coach_words": bool(coach_words), "coach_length": bool(coach_length), "coach_duplicates": bool(coach_duplicates),
    }
    for field, value in values.items():
        setattr(round_, field, value)
    round_.full_clean()
    Round.objects.filter(pk=round_.pk).update(**values)
    for question in Question.objects.filter(round=round_, status=QuestionStatus.PENDING, validations__isnull=False).distinct():
        _settle(_locked_question(question.pk))
    credit_changed.send(sender=Round, round_id=round_.pk, user_ids=None)  # credit_requires_acceptance may have changed
    return round_
