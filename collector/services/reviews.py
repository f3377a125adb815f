"""Writes of the owner's side of the quality loop: every status change of a question, the owner's
review decisions and appeals.

Status changes (``Question.status``), each recorded as a ``ReviewDecision``:

    pending --validators agree--> accepted
    pending --disagreement, a flag or a near-duplicate--> review
    pending/review/accepted --owner rejects (reason)--> rejected --author appeals once--> appealed
    pending/review/rejected --owner accepts or edits--> accepted
    appealed --owner upholds--> accepted | --owner denies (response)--> rejected

The first two are ``services/validation.py``'s (blind validation); they go through
``question_status_set`` here too. Credit needs no recomputation:
``selectors.questions.question_credit`` reads the status, so grades follow every decision at once.
"""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from accounts.models import User
from collector.cleaning import clean_free_text, clean_question
from collector.models import Appeal, CVPrediction, Prediction, Question, QuestionStatus, ReviewDecision
from collector.services.verdicts import submission_verdicts_rejudge
from collector.signals import credit_changed
from core.exceptions import AccessError, NotFoundError
from core.jobs import task_enqueue
from courses.selectors import user_manages_course

MAX_REASON_CHARS = 1000
MAX_APPEAL_CHARS = 2000
Action = ReviewDecision.Action


def question_status_set(question: Question, status: str, *, action: str, reviewer: User | None = None, reason: str = "",
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


def question_lock(question_id) -> Question:
    """The question, locked for update until the transaction ends; AccessError if there is none."""
    try:
        return Question.objects.select_for_update().select_related("round", "round__course", "author").get(pk=question_id)
    except (Question.DoesNotExist, ValueError, TypeError):
        raise NotFoundError("This question does not exist.") from None


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
    question = question_lock(question_id)
    _check_manager(reviewer, question)
    if action not in REVIEW_ACTIONS:
        raise ValidationError({"action": f"Choose one of {', '.join(REVIEW_ACTIONS)}."})
    if question.status == QuestionStatus.APPEALED:
        raise ValidationError("This question has an open appeal: decide the appeal instead.")
    required = action == "reject"
    reason = clean_free_text(reason, field="reason", label="The reason", limit=MAX_REASON_CHARS, required=required)
    if action == "accept":
        if question.status != QuestionStatus.ACCEPTED:
            question_status_set(question, QuestionStatus.ACCEPTED, action=Action.ACCEPTED, reviewer=reviewer, reason=reason)
    elif action == "reject":
        if question.status != QuestionStatus.REJECTED or question.rejection_reason != reason:
            question_status_set(question, QuestionStatus.REJECTED, action=Action.REJECTED, reviewer=reviewer, reason=reason)
    else:
        changes = _apply_edit(question, prompt=prompt, choices=choices, correct_index=correct_index, categories=categories)
        question_status_set(question, QuestionStatus.ACCEPTED, action=Action.EDITED, reviewer=reviewer, reason=reason,
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
    submission_verdicts_rejudge(question=question, text_changed=text_changed)
    predictions = Prediction.objects.filter(question=question)
    if text_changed:
        predictions.update(status=Prediction.Status.PENDING, probs=None, predicted_index=None, fooled=None,
                           computed_at=None, attempts=0, last_error="")
        for pk in predictions.values_list("pk", flat=True):
            # The task named as in collector.tasks (services enqueue tasks by name, never import them).
            transaction.on_commit(lambda pk=pk: task_enqueue("collector.prediction_compute", pk))
        return
    for prediction in predictions.filter(status=Prediction.Status.DONE):
        Prediction.objects.filter(pk=prediction.pk).update(fooled=prediction.predicted_index != key)
    credit_changed.send(sender=Question, round_id=question.round_id, user_ids=[question.author_id])


@transaction.atomic
def appeal_submit(*, author: User, question_id: int, message: str) -> Appeal:
    """The author appeals the rejection of their question (once); it goes to the owner's queue."""
    question = question_lock(question_id)
    if question.author_id != author.pk:
        raise AccessError("You can only appeal your own questions.")
    if Appeal.objects.filter(question=question).exists():
        raise ValidationError("You have already appealed this question; a rejection can be appealed once.")
    if question.status != QuestionStatus.REJECTED:
        raise ValidationError("Only rejected questions can be appealed.")
    text = clean_free_text(message, field="message", label="Your appeal", limit=MAX_APPEAL_CHARS, required=True)
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
        raise NotFoundError("This appeal does not exist.") from None
    question = question_lock(appeal.question_id)
    _check_manager(reviewer, question)
    if appeal.status != Appeal.Status.OPEN:
        raise ValidationError("This appeal has already been decided.")
    response = clean_free_text(response, field="response", label="The response", limit=MAX_REASON_CHARS, required=not uphold)
    appeal.status = Appeal.Status.UPHELD if uphold else Appeal.Status.DENIED
    appeal.response, appeal.decided_by, appeal.decided_at = response, reviewer, timezone.now()
    appeal.save()
    if uphold:
        question_status_set(question, QuestionStatus.ACCEPTED, action=Action.APPEAL_UPHELD, reviewer=reviewer, reason=response)
    else:
        question_status_set(question, QuestionStatus.REJECTED, action=Action.APPEAL_DENIED, reviewer=reviewer, reason=response)
    return appeal
