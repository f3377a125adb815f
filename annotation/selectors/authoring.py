"""Reads of the first pass: a worker's sessions, the paragraphs that need questions, a session's questions."""
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from annotation.models import AnnotationSession, Paragraph, Project, SpanQuestion
from core.exceptions import AccessError, NotFoundError

Kind = AnnotationSession.Kind


def session_for_worker(*, user: User, session_id: int) -> AnnotationSession:
    session = (
        AnnotationSession.objects.select_related("paragraph__article__project__qa_model", "worker")
        .filter(pk=session_id).first()
    )
    if session is None:
        raise NotFoundError(_("This annotation task does not exist."))
    if session.worker_id != user.pk:
        raise AccessError(_("This annotation task is not yours."))
    return session


def session_in_progress(*, user: User, project: Project, kind: str) -> AnnotationSession | None:
    return (
        AnnotationSession.objects.select_related("paragraph__article__project")
        .filter(worker=user, kind=kind, status=AnnotationSession.Status.IN_PROGRESS,
                paragraph__article__project=project)
        .order_by("started_at").first()
    )


def _lease_cutoff():
    return timezone.now() - timedelta(minutes=settings.STUMPER_ANNOTATION_LEASE_MINUTES)


def paragraph_had_by(user: User, kind: str) -> Exists:
    """True for a paragraph (the outer query's row) ``user`` already had a session of ``kind`` on."""
    return Exists(AnnotationSession.objects.filter(paragraph=OuterRef("pk"), worker=user, kind=kind))


def paragraphs_needing_questions(*, project: Project, user: User) -> QuerySet[Paragraph]:
    """Open paragraphs this worker never had, with fewer than ``overlap`` workers on them.

    Ordered as imported: by the article's PageRank rank, then paragraph position. A session
    left in progress past the lease no longer holds its paragraph.
    """
    held = Q(sessions__kind=Kind.AUTHORING) & (
        Q(sessions__status=AnnotationSession.Status.SUBMITTED)
        | Q(sessions__status=AnnotationSession.Status.IN_PROGRESS, sessions__started_at__gte=_lease_cutoff())
    )
    return (
        Paragraph.objects.select_related("article")
        .filter(article__project=project, status=Paragraph.Status.OPEN)
        .exclude(paragraph_had_by(user, Kind.AUTHORING))
        .annotate(n_held=Count("sessions", filter=held))
        .filter(n_held__lt=project.overlap)
        .order_by(F("article__rank").asc(nulls_last=True), "article__position", "position", "id")
    )


def session_questions(*, session: AnnotationSession) -> QuerySet[SpanQuestion]:
    """The questions a worker wrote in an authoring session, with their answers."""
    return (
        session.questions.exclude(status=SpanQuestion.Status.REMOVED)
        .select_related("qa_model_version").prefetch_related("answers").order_by("position", "id")
    )


def paragraph_question_texts(*, paragraph: Paragraph, session: AnnotationSession | None,
                             exclude_id: int | None = None) -> list[str]:
    """Questions already on the paragraph: submitted ones and this session's drafts."""
    mine = Q(session=session) if session is not None else Q(pk__in=[])
    questions = paragraph.questions.filter(Q(status=SpanQuestion.Status.SUBMITTED) | (mine & Q(status=SpanQuestion.Status.DRAFT)))
    if exclude_id is not None:
        questions = questions.exclude(pk=exclude_id)
    return list(questions.values_list("question", flat=True))


def question_for_worker(*, user: User, question_id: int) -> SpanQuestion:
    question = (
        SpanQuestion.objects.select_related("session", "paragraph__article__project__qa_model")
        .filter(pk=question_id).first()
    )
    if question is None:
        raise NotFoundError(_("This question does not exist."))
    if question.session is None or question.session.worker_id != user.pk:
        raise AccessError(_("This question is not yours."))
    return question
