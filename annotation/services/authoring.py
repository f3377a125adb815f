"""Writes of the first pass: handing out paragraphs, draft questions, submitting, discarding.

A worker's questions are ``SpanQuestion`` rows in ``draft`` status from the moment they are
added, so a reload, a closed tab or a crashed model never loses one; the half-typed question
is kept in ``AnnotationSession.draft``. Submitting checks the per-paragraph limits and turns
the drafts into submitted questions in one transaction.
"""
import uuid
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from annotation.i18n import SESSION_STATUS
from annotation.inputs import (
    CleanQuestion,
    check_no_duplicate,
    clean_draft,
    clean_span_question,
    normalize_question_key,
)
from annotation.models import AnnotationSession, Paragraph, Project, SpanAnswer, SpanQuestion
from annotation.selectors.authoring import paragraph_question_texts, paragraphs_needing_questions, session_in_progress
from annotation.selectors.projects import can_annotate_in
from annotation.selectors.second_pass import paragraphs_needing_second_pass
from annotation.services.predictions import prediction_schedule
from annotation.services.projects import paragraph_refresh_status
from annotation.signals import worker_progress_send
from core.exceptions import AccessError
from core.i18n import digits

Kind = AnnotationSession.Kind
Status = AnnotationSession.Status
CANDIDATES_TRIED = 5


def new_qid() -> str:
    """A SQuAD-style id: 24 hex digits, unique in practice (the database checks per project)."""
    return uuid.uuid4().hex[:24]


def _queue(kind: str):
    if kind not in Kind.values:
        raise ValidationError({"kind": _("Unknown kind of task %(kind)s.") % {"kind": repr(kind)}})
    return paragraphs_needing_questions if kind == Kind.AUTHORING else paragraphs_needing_second_pass


def session_start_on(*, user: User, paragraph: Paragraph, kind: str = Kind.AUTHORING) -> AnnotationSession | None:
    """Start work on this paragraph if it is in the worker's queue; None if it is not (or no longer)."""
    project = paragraph.article.project
    if not can_annotate_in(user, project):
        raise AccessError(_("Only crowdworkers and instructors annotate paragraphs."))
    queue = _queue(kind)
    try:
        with transaction.atomic():
            Paragraph.objects.select_for_update().filter(pk=paragraph.pk).first()
            # Checked under the lock: another worker may just have taken the last place.
            if not queue(project=project, user=user).filter(pk=paragraph.pk).exists():
                return None
            session = AnnotationSession(paragraph=paragraph, worker=user, kind=kind)
            session.full_clean(validate_constraints=False)
            session.save()
            return session
    except IntegrityError:
        # A double click created it a moment ago; hand out that one.
        return session_in_progress(user=user, project=project, kind=kind)


def session_start_next(*, user: User, project: Project, kind: str = Kind.AUTHORING) -> AnnotationSession | None:
    """The worker's unfinished session in ``project``, else a new one on the next paragraph; None if none is left."""
    if not can_annotate_in(user, project):
        raise AccessError(_("Only crowdworkers and instructors annotate paragraphs."))
    queue = _queue(kind)
    existing = session_in_progress(user=user, project=project, kind=kind)
    if existing is not None:
        return existing
    for paragraph in queue(project=project, user=user)[:CANDIDATES_TRIED]:
        session = session_start_on(user=user, paragraph=paragraph, kind=kind)
        if session is not None:
            return session
    return None


def lock_session(session: AnnotationSession, user: User, kind: str = Kind.AUTHORING) -> AnnotationSession:
    locked = (
        AnnotationSession.objects.select_for_update(of=("self",))
        .select_related("paragraph__article__project").get(pk=session.pk)
    )
    if locked.worker_id != user.pk:
        raise AccessError(_("This annotation task is not yours."))
    if locked.kind != kind:
        raise ValidationError({"session": _("This is not a task for writing questions.") if kind == Kind.AUTHORING
                               else _("This is not a second-pass task.")})
    if locked.status != Status.IN_PROGRESS:
        raise ValidationError({"session": _("This paragraph was already %(status)s; its questions can no longer "
                                            "change.") % {"status": SESSION_STATUS[locked.status]}})
    return locked


@transaction.atomic
def session_draft_save(*, session: AnnotationSession, user: User, draft: dict) -> AnnotationSession:
    """Keep the question being typed (text, selection) so a reload restores it."""
    locked = lock_session(session, user, session.kind)
    locked.draft = clean_draft(draft)
    locked.save(update_fields=["draft"])
    return locked


def _store_question(session: AnnotationSession, user: User, clean: CleanQuestion, position: int) -> SpanQuestion:
    paragraph = session.paragraph
    question = SpanQuestion(
        project=paragraph.article.project, paragraph=paragraph, session=session, author=user, qid=new_qid(),
        question=clean.question, is_impossible=clean.is_impossible, status=SpanQuestion.Status.DRAFT,
        position=position,
    )
    question.full_clean(validate_constraints=False)
    question.save()
    if clean.span is not None:
        SpanAnswer.objects.create(question=question, text=clean.span.text, answer_start=clean.span.start,
                                  author=user, kind=SpanAnswer.Kind.ORIGINAL, position=0)
    return question


def _next_position(paragraph: Paragraph) -> int:
    current = paragraph.questions.aggregate(top=Max("position"))["top"]
    return 0 if current is None else current + 1


@transaction.atomic
def question_add(*, session: AnnotationSession, user: User, question: str, is_impossible: bool = False,
                 answer: dict | None = None, selection: dict | None = None) -> SpanQuestion:
    """Add a draft question with its span (``answer`` in code points or a UTF-16 ``selection``) or unanswerable."""
    session = lock_session(session, user)
    project = session.paragraph.article.project
    drafts = session.questions.filter(status=SpanQuestion.Status.DRAFT).count()
    if drafts >= project.questions_max:
        raise ValidationError({"question": _("This paragraph already has %(count)s questions, the most allowed: "
                                             "submit the paragraph, or delete a question first.")
                                           % {"count": digits(project.questions_max)}})
    clean = clean_span_question(context=session.paragraph.context, question=question, is_impossible=is_impossible,
                                answer=answer, selection=selection)
    check_no_duplicate(clean.question, paragraph_question_texts(paragraph=session.paragraph, session=session))
    stored = _store_question(session, user, clean, _next_position(session.paragraph))
    session.draft = {}
    session.save(update_fields=["draft"])
    prediction_schedule(question=stored)
    return stored


def _lock_draft_question(question: SpanQuestion, user: User) -> tuple[SpanQuestion, AnnotationSession]:
    question = SpanQuestion.objects.select_for_update(of=("self",)).select_related("session").get(pk=question.pk)
    if question.session is None or question.session.worker_id != user.pk:
        raise AccessError(_("This question is not yours."))
    session = lock_session(question.session, user)
    if question.status != SpanQuestion.Status.DRAFT:
        raise ValidationError({"question": _("Submitted questions can no longer change.")})
    return question, session


@transaction.atomic
def question_update(*, question: SpanQuestion, user: User, question_text: str, is_impossible: bool = False,
                    answer: dict | None = None, selection: dict | None = None) -> SpanQuestion:
    """Edit a draft question and its answer; the model's earlier prediction is recomputed."""
    question, session = _lock_draft_question(question, user)
    clean = clean_span_question(context=session.paragraph.context, question=question_text,
                                is_impossible=is_impossible, answer=answer, selection=selection)
    check_no_duplicate(clean.question, paragraph_question_texts(
        paragraph=session.paragraph, session=session, exclude_id=question.pk))
    question.question, question.is_impossible = clean.question, clean.is_impossible
    question.qa_model_version, question.qa_model_revision = None, ""
    question.qa_prediction_text, question.qa_prediction_start = "", None
    question.qa_prediction_f1, question.fooled_model = None, None
    question.full_clean(validate_constraints=False)
    question.save()
    question.answers.all().delete()
    if clean.span is not None:
        SpanAnswer.objects.create(question=question, text=clean.span.text, answer_start=clean.span.start,
                                  author=user, kind=SpanAnswer.Kind.ORIGINAL, position=0)
    session.draft = {}
    session.save(update_fields=["draft"])
    prediction_schedule(question=question)
    return question


@transaction.atomic
def question_delete(*, question: SpanQuestion, user: User) -> None:
    """Delete a draft question (submitted ones stay)."""
    question, _session = _lock_draft_question(question, user)
    question.delete()


def _replace_drafts(session: AnnotationSession, user: User, questions: Sequence[dict]) -> None:
    """Validate a whole list first, then swap it in for the drafts (API clients submit this way)."""
    if not isinstance(questions, (list, tuple)):
        raise ValidationError({"questions": _("questions must be a list.")})
    context = session.paragraph.context
    cleaned, errors, seen = [], {}, {
        normalize_question_key(t) for t in paragraph_question_texts(paragraph=session.paragraph, session=None)
    }
    for index, item in enumerate(questions):
        try:
            if not isinstance(item, dict):
                raise ValidationError({"question": _("Each question must be an object.")})
            clean = clean_span_question(context=context, question=item.get("question"),
                                        is_impossible=item.get("is_impossible", False),
                                        answer=item.get("answer"), selection=item.get("selection"))
            if normalize_question_key(clean.question) in seen:
                raise ValidationError({"question": _("This question was already asked on this paragraph.")})
        except ValidationError as error:
            errors[f"questions[{index}]"] = error.messages
            continue
        seen.add(normalize_question_key(clean.question))
        cleaned.append(clean)
    if errors:
        raise ValidationError(errors)
    session.questions.filter(status=SpanQuestion.Status.DRAFT).delete()
    start = _next_position(session.paragraph)
    stored = [_store_question(session, user, clean, start + i) for i, clean in enumerate(cleaned)]
    for question in stored:
        prediction_schedule(question=question)


@transaction.atomic
def session_submit(*, session: AnnotationSession, user: User, questions: Sequence[dict] | None = None) -> AnnotationSession:
    """Submit a paragraph's questions (the drafts, or ``questions`` replacing them); checks the limits."""
    session = lock_session(session, user)
    project = session.paragraph.article.project
    if questions is not None:
        _replace_drafts(session, user, questions)
    drafts = session.questions.filter(status=SpanQuestion.Status.DRAFT)
    n = drafts.count()
    if not project.questions_min <= n <= project.questions_max:
        raise ValidationError({"questions": _("Write between %(min)s and %(max)s questions on this paragraph (you "
                                              "have %(count)s).") % {"min": digits(project.questions_min),
                                                                     "max": digits(project.questions_max),
                                                                     "count": digits(n)}})
    drafts.update(status=SpanQuestion.Status.SUBMITTED, updated_at=timezone.now())
    session.status, session.submitted_at, session.draft = Status.SUBMITTED, timezone.now(), {}
    session.save(update_fields=["status", "submitted_at", "draft"])
    paragraph_refresh_status(paragraph=session.paragraph)
    worker_progress_send(sender=AnnotationSession, project_id=project.pk, user_ids=[session.worker_id])
    return session


@transaction.atomic
def session_discard(*, session: AnnotationSession, user: User, reason: str, note: str = "") -> AnnotationSession:
    """Discard the paragraph (hard to understand, too many foreign words): it leaves everyone's queue."""
    session = lock_session(session, user)
    if reason not in AnnotationSession.DiscardReason.values:
        raise ValidationError({"reason": _("Choose why the paragraph should be discarded.")})
    note = (note or "").strip()
    if reason == AnnotationSession.DiscardReason.OTHER and not note:
        raise ValidationError({"note": _("Say in a few words why the paragraph should be discarded.")})
    session.questions.filter(status=SpanQuestion.Status.DRAFT).delete()
    session.status, session.submitted_at, session.draft = Status.DISCARDED, timezone.now(), {}
    session.discard_reason, session.discard_note = reason, note[:2000]
    session.save()
    Paragraph.objects.filter(pk=session.paragraph_id).update(status=Paragraph.Status.DISCARDED)
    return session
