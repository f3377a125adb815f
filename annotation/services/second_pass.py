"""Writes of the second pass (PQuAD §3: validation and test questions answered again).

Other workers answer a paragraph's questions blind, by span or "unanswerable"; a span on an
answerable question becomes an extra gold answer. The answer is final: the page shows the
original answer right after it, so a second answer would no longer be blind, and human
performance and the gold answers must not depend on what the worker saw. After the reveal the
worker may flag the original answer, proposing a fix (a span), "unanswerable" or removal; the
flag is a proposal for the project's owner, who accepts or rejects it (``services/reviews.py``), never an answer.
"""
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from annotation.exceptions import AnswerFinal
from annotation.inputs import clean_span
from annotation.models import AnnotationSession, QuestionFlag, SecondPassAnswer, SpanAnswer, SpanQuestion
from annotation.selectors.second_pass import second_pass_questions
from annotation.services.authoring import lock_session
from annotation.signals import worker_progress_send
from core.i18n import digits
from mlcore.data.spans import Span, SpanError, check_span

Kind = AnnotationSession.Kind
Proposal = QuestionFlag.Proposal
ANSWER_IS_FINAL = gettext_lazy("You have already answered this question, and your first answer is final: the "
                               "original answer was shown to you after it. If you think the original answer is "
                               "wrong, flag it instead.")


def _next_answer_position(question: SpanQuestion) -> int:
    top = question.answers.aggregate(top=Max("position"))["top"]
    return 0 if top is None else top + 1


def _question_to_answer(session: AnnotationSession, question_id: int) -> SpanQuestion:
    question = second_pass_questions(session=session).select_for_update().filter(pk=question_id).first()
    if question is None:
        raise ValidationError({"question_id": _("This question is not one of this paragraph's questions to answer.")})
    return question


def _has_answered(question: SpanQuestion, user: User) -> bool:
    return SecondPassAnswer.objects.filter(question=question, worker=user).exists()


def _clean_flag(flag: object, span: Span | None) -> tuple[str, str] | None:
    if flag is None:
        return None
    if not isinstance(flag, dict) or flag.get("proposal") not in Proposal.values:
        raise ValidationError({"flag": _("Choose what should happen to the question: fix the answer, mark it "
                                         "unanswerable, or remove it.")})
    reason = flag.get("reason", "")
    if not isinstance(reason, str) or len(reason) > 2000:
        raise ValidationError({"flag": _("The reason must be text (at most %(count)s characters).")
                                       % {"count": digits(2000)}})
    if flag["proposal"] == Proposal.FIX_ANSWER and span is None:
        raise ValidationError({"flag": _("To propose a better answer, select it in the paragraph.")})
    return flag["proposal"], reason.strip()


def _save_flag(session: AnnotationSession, question: SpanQuestion, user: User, flag: tuple[str, str],
               span: Span | None, *, after_reveal: bool) -> QuestionFlag:
    existing = QuestionFlag.objects.filter(question=question, raised_by=user).first()
    if existing is not None and existing.status != QuestionFlag.Status.OPEN:
        raise ValidationError({"flag": _("Your earlier flag on this question was already resolved.")})
    proposal, reason = flag
    fix = proposal == Proposal.FIX_ANSWER
    values = {"session": session, "proposal": proposal, "reason": reason, "after_reveal": after_reveal,
              "proposed_text": span.text if fix else "", "proposed_start": span.start if fix else None}
    saved = QuestionFlag.objects.update_or_create(question=question, raised_by=user, defaults=values)[0]
    # An open flag holds the author's paragraph in review.
    worker_progress_send(sender=QuestionFlag, project_id=question.project_id, user_ids=[question.author_id])
    return saved


@transaction.atomic
def second_pass_answer_save(*, session: AnnotationSession, user: User, question_id: int, is_impossible: bool = False,
                            answer: dict | None = None, selection: dict | None = None,
                            flag: dict | None = None) -> SecondPassAnswer:
    """Store this worker's blind answer to one question, and a flag sent with it, if any.

    Written once: another answer to the same question raises :class:`AnswerFinal` and changes
    nothing (flag the original with :func:`second_pass_flag_save` instead).
    """
    session = lock_session(session, user, Kind.SECOND_PASS)
    question = _question_to_answer(session, question_id)
    if _has_answered(question, user):
        raise AnswerFinal(ANSWER_IS_FINAL)
    if not isinstance(is_impossible, bool):
        raise ValidationError({"is_impossible": _("is_impossible must be true or false.")})
    if is_impossible and (answer is not None or selection is not None):
        raise ValidationError({"answer": _("An unanswerable verdict cannot come with an answer span.")})
    span = None if is_impossible else clean_span(context=session.paragraph.context, answer=answer, selection=selection)
    cleaned_flag = _clean_flag(flag, span)
    gold = None
    # An extra span is a gold answer only where the question has answers; a span on an
    # unanswerable question is a disagreement, which the flag (if any) brings to the owner.
    if span is not None and not question.is_impossible:
        gold = SpanAnswer.objects.create(question=question, text=span.text, answer_start=span.start, author=user,
                                         kind=SpanAnswer.Kind.SECOND_PASS, position=_next_answer_position(question))
    try:
        with transaction.atomic():
            stored = SecondPassAnswer.objects.create(
                question=question, session=session, worker=user, is_impossible=is_impossible, span=gold,
                text=span.text if span else "", answer_start=span.start if span else None,
            )
    except IntegrityError:
        # A concurrent request stored this worker's answer first (the unique constraint saw it);
        # raising rolls back the gold span created above.
        raise AnswerFinal(ANSWER_IS_FINAL) from None
    if cleaned_flag is not None:
        _save_flag(session, question, user, cleaned_flag, span, after_reveal=False)
    return stored


def _proposed_span(context: str, mine: SecondPassAnswer, answer: dict | None, selection: dict | None) -> Span | None:
    """The span a flag proposes: the one sent, else the worker's own answer (if it is a span)."""
    if answer is not None or selection is not None:
        return clean_span(context=context, answer=answer, selection=selection)
    if mine.is_impossible or mine.answer_start is None:
        return None
    try:
        return check_span(context, mine.text, mine.answer_start)
    except SpanError:
        return None


def _check_proposal(question: SpanQuestion, proposal: str, span: Span | None, sent_span: bool) -> None:
    if sent_span and proposal != Proposal.FIX_ANSWER:
        raise ValidationError({"answer": _("A proposed span goes with “fix the answer” only.")})
    if proposal == Proposal.MARK_UNANSWERABLE and question.is_impossible:
        raise ValidationError({"flag": _("The original answer already says the question is unanswerable.")})
    if proposal == Proposal.FIX_ANSWER and span is not None:
        original = question.answers.exclude(kind=SpanAnswer.Kind.SECOND_PASS).order_by("position", "id").first()
        if original is not None and (original.text, original.answer_start) == (span.text, span.start):
            raise ValidationError({"answer": _("That span is the original answer; select the span you think is "
                                               "right.")})


@transaction.atomic
def second_pass_flag_save(*, session: AnnotationSession, user: User, question_id: int, proposal: str,
                          reason: str = "", answer: dict | None = None,
                          selection: dict | None = None) -> QuestionFlag:
    """Flag the original answer of a question this worker has answered (its original is revealed).

    The flag is a labelled proposal (``after_reveal``) for the owner: a proposed span (``answer``
    or ``selection``, else the worker's own answer) is stored on the flag only. It never changes
    the worker's answer, the gold answers or human performance; an owner who accepts a fix
    replaces the original answer with it (``flag_resolve``). An open flag can be changed.
    """
    session = lock_session(session, user, Kind.SECOND_PASS)
    question = _question_to_answer(session, question_id)
    mine = SecondPassAnswer.objects.filter(question=question, worker=user).first()
    if mine is None:
        raise ValidationError({"question_id": _("Answer the question first: its original answer is shown after "
                                                "your own, and then you can flag it.")})
    span = _proposed_span(session.paragraph.context, mine, answer, selection)
    cleaned = _clean_flag({"proposal": proposal, "reason": reason}, span)
    _check_proposal(question, proposal, span, sent_span=answer is not None or selection is not None)
    return _save_flag(session, question, user, cleaned, span, after_reveal=True)


@transaction.atomic
def second_pass_submit(*, session: AnnotationSession, user: User) -> AnnotationSession:
    """Finish a second-pass paragraph once every question has this worker's answer."""
    session = lock_session(session, user, Kind.SECOND_PASS)
    wanted = set(second_pass_questions(session=session).values_list("pk", flat=True))
    answered = set(SecondPassAnswer.objects.filter(session=session).values_list("question_id", flat=True))
    missing = len(wanted - answered)
    if missing:
        raise ValidationError({"questions": _("Answer every question first (%(count)s left).")
                                            % {"count": digits(missing)}})
    session.status, session.submitted_at, session.draft = AnnotationSession.Status.SUBMITTED, timezone.now(), {}
    session.save(update_fields=["status", "submitted_at", "draft"])
    worker_progress_send(sender=AnnotationSession, project_id=session.paragraph.article.project_id,
                         user_ids=[session.worker_id])
    return session
