"""Writes of the second pass (PQuAD §3: validation and test questions answered again).

Other workers answer a paragraph's questions blind, by span or "unanswerable"; a span on an
answerable question becomes an extra gold answer. A worker who thinks the original answer is
wrong raises a flag proposing a fix (their span), "unanswerable" or removal; the project's
owner accepts or rejects it.
"""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.models import User
from annotation import selectors
from annotation.exceptions import AccessError
from annotation.models import AnnotationSession, QuestionFlag, SecondPassAnswer, SpanAnswer, SpanQuestion
from annotation.services.authoring import lock_session
from annotation.validation import clean_span
from mlcore.spans import SpanError, check_span

Kind = AnnotationSession.Kind
Proposal = QuestionFlag.Proposal


def _next_answer_position(question: SpanQuestion) -> int:
    top = question.answers.aggregate(top=Max("position"))["top"]
    return 0 if top is None else top + 1


def _clean_flag(flag: object, span) -> tuple[str, str] | None:
    if flag is None:
        return None
    if not isinstance(flag, dict) or flag.get("proposal") not in Proposal.values:
        raise ValidationError({"flag": "Choose what should happen to the question: fix the answer, "
                                       "mark it unanswerable, or remove it."})
    reason = flag.get("reason", "")
    if not isinstance(reason, str) or len(reason) > 2000:
        raise ValidationError({"flag": "The reason must be text (at most 2000 characters)."})
    if flag["proposal"] == Proposal.FIX_ANSWER and span is None:
        raise ValidationError({"flag": "To propose a better answer, select it in the paragraph."})
    return flag["proposal"], reason.strip()


def _save_flag(session: AnnotationSession, question: SpanQuestion, user: User, flag: tuple[str, str] | None,
               span) -> None:
    existing = QuestionFlag.objects.filter(question=question, raised_by=user).first()
    if existing is not None and existing.status != QuestionFlag.Status.OPEN:
        if flag is not None:
            raise ValidationError({"flag": "Your earlier flag on this question was already resolved."})
        return
    if flag is None:
        if existing is not None:
            existing.delete()  # the worker changed their mind before the owner looked
        return
    proposal, reason = flag
    values = {"session": session, "proposal": proposal, "reason": reason,
              "proposed_text": span.text if proposal == Proposal.FIX_ANSWER else "",
              "proposed_start": span.start if proposal == Proposal.FIX_ANSWER else None}
    QuestionFlag.objects.update_or_create(question=question, raised_by=user, defaults=values)


@transaction.atomic
def second_pass_answer_save(*, session: AnnotationSession, user: User, question_id: int, is_impossible: bool = False,
                            answer: dict | None = None, selection: dict | None = None,
                            flag: dict | None = None) -> SecondPassAnswer:
    """Store (or replace) this worker's blind answer to one question, and their flag if any."""
    session = lock_session(session, user, Kind.SECOND_PASS)
    question = selectors.second_pass_questions(session=session).select_for_update().filter(pk=question_id).first()
    if question is None:
        raise ValidationError({"question_id": "This question is not one of this paragraph's questions to answer."})
    if not isinstance(is_impossible, bool):
        raise ValidationError({"is_impossible": "is_impossible must be true or false."})
    if is_impossible and (answer is not None or selection is not None):
        raise ValidationError({"answer": "An unanswerable verdict cannot come with an answer span."})
    span = None if is_impossible else clean_span(context=session.paragraph.context, answer=answer, selection=selection)
    cleaned_flag = _clean_flag(flag, span)
    previous = SecondPassAnswer.objects.filter(question=question, worker=user).select_related("span").first()
    if previous is not None:
        if previous.span is not None:
            previous.span.delete()
        previous.delete()
    gold = None
    # An extra span is a gold answer only where the question has answers; a span on an
    # unanswerable question is a disagreement, which the flag (if any) brings to the owner.
    if span is not None and not question.is_impossible:
        gold = SpanAnswer.objects.create(question=question, text=span.text, answer_start=span.start, author=user,
                                         kind=SpanAnswer.Kind.SECOND_PASS, position=_next_answer_position(question))
    stored = SecondPassAnswer.objects.create(
        question=question, session=session, worker=user, is_impossible=is_impossible, span=gold,
        text=span.text if span else "", answer_start=span.start if span else None,
    )
    _save_flag(session, question, user, cleaned_flag, span)
    return stored


@transaction.atomic
def second_pass_submit(*, session: AnnotationSession, user: User) -> AnnotationSession:
    """Finish a second-pass paragraph once every question has this worker's answer."""
    session = lock_session(session, user, Kind.SECOND_PASS)
    wanted = set(selectors.second_pass_questions(session=session).values_list("pk", flat=True))
    answered = set(SecondPassAnswer.objects.filter(session=session).values_list("question_id", flat=True))
    missing = len(wanted - answered)
    if missing:
        raise ValidationError({"questions": f"Answer every question first ({missing} left)."})
    session.status, session.submitted_at, session.draft = AnnotationSession.Status.SUBMITTED, timezone.now(), {}
    session.save(update_fields=["status", "submitted_at", "draft"])
    return session


def _apply_flag(flag: QuestionFlag) -> None:
    question = flag.question
    if flag.proposal == Proposal.REMOVE_QUESTION:
        question.status = SpanQuestion.Status.REMOVED
    elif flag.proposal == Proposal.MARK_UNANSWERABLE:
        question.answers.all().delete()
        question.is_impossible = True
    else:
        try:
            check_span(question.paragraph.context, flag.proposed_text, flag.proposed_start)
        except SpanError as error:
            raise ValidationError({"flag": f"The proposed answer no longer fits the paragraph: {error}"}) from None
        first = question.answers.order_by("position", "id").first()
        if first is not None:
            first.delete()
        SpanAnswer.objects.create(question=question, text=flag.proposed_text, answer_start=flag.proposed_start,
                                  author=flag.raised_by, kind=SpanAnswer.Kind.CORRECTION, position=0 if first is None
                                  else first.position)
        question.is_impossible = False
    question.save()


@transaction.atomic
def flag_resolve(*, flag: QuestionFlag, user: User, accept: bool, note: str = "") -> QuestionFlag:
    """The owner accepts (the proposal is applied) or rejects a flag."""
    flag = QuestionFlag.objects.select_for_update(of=("self",)).select_related("question__project", "question__paragraph").get(pk=flag.pk)
    if not selectors.can_manage(user, flag.question.project):
        raise AccessError("Only the project's owner resolves its flags.")
    if flag.status != QuestionFlag.Status.OPEN:
        raise ValidationError({"flag": "This flag was already resolved."})
    if accept:
        _apply_flag(flag)
    flag.status = QuestionFlag.Status.ACCEPTED if accept else QuestionFlag.Status.REJECTED
    flag.resolved_by, flag.resolved_at, flag.resolution_note = user, timezone.now(), (note or "").strip()[:2000]
    flag.save()
    return flag
