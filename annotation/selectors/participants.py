"""Reads of a project's participants (its crowdworkers) and of everything one of them wrote in it.

A participant of a project is anyone with a session, a question, an answer span, a second-pass
answer or a flag in it. ``participant_export`` is the JSON an owner downloads on the participant's
request (docs/crowd.md, "A participant's data: export and deletion").
"""
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from annotation.models import AnnotationSession, Project, QuestionFlag, SecondPassAnswer, SpanAnswer, SpanQuestion
from core.exceptions import NotFoundError

EXPORT_FORMAT = "stumper-participant-export/1"


@dataclass(frozen=True)
class Participant:
    worker_id: int
    username: str
    sessions: int
    questions: int
    second_pass_answers: int
    flags: int


def _sessions(project: Project):
    return AnnotationSession.objects.filter(paragraph__article__project=project)


def _worker_ids(project: Project) -> set[int]:
    ids = set(_sessions(project).values_list("worker_id", flat=True))
    ids |= set(SpanQuestion.objects.filter(project=project, author__isnull=False).values_list("author_id", flat=True))
    ids |= set(SpanAnswer.objects.filter(question__project=project, author__isnull=False)
               .values_list("author_id", flat=True))
    ids |= set(SecondPassAnswer.objects.filter(question__project=project).values_list("worker_id", flat=True))
    ids |= set(QuestionFlag.objects.filter(question__project=project).values_list("raised_by_id", flat=True))
    return ids


def participants_of_project(*, project: Project) -> list[Participant]:
    """The project's participants with how much each wrote, by user name (the owner is one if they annotated)."""
    users = User.objects.filter(pk__in=_worker_ids(project)).order_by("username")
    return [Participant(
        worker_id=u.pk, username=u.username,
        sessions=_sessions(project).filter(worker=u).count(),
        questions=SpanQuestion.objects.filter(project=project, author=u, source=SpanQuestion.Source.AUTHORED).count(),
        second_pass_answers=SecondPassAnswer.objects.filter(question__project=project, worker=u).count(),
        flags=QuestionFlag.objects.filter(question__project=project, raised_by=u).count(),
    ) for u in users]


def participant_for_owner(*, project: Project, worker_id: int) -> User:
    """The participant ``worker_id`` of ``project`` (already checked to be the caller's); anyone else is a 404."""
    if worker_id not in _worker_ids(project):
        raise NotFoundError(_("This person has no data in this project."))
    return User.objects.get(pk=worker_id)


def _when(value) -> str | None:
    return value.isoformat() if value else None


def _answer(a: SpanAnswer) -> dict:
    return {"qid": a.question.qid, "kind": a.kind, "text": a.text, "answer_start": a.answer_start,
            "created_at": _when(a.created_at)}


def participant_export(*, project: Project, worker: User) -> dict:
    """Everything ``worker`` wrote in ``project``, as one JSON-ready object."""
    sessions = _sessions(project).filter(worker=worker).select_related("paragraph__article").order_by("started_at", "id")
    questions = (SpanQuestion.objects.filter(project=project, author=worker).select_related("paragraph__article")
                 .order_by("created_at", "id"))
    answers = (SpanAnswer.objects.filter(question__project=project, author=worker).select_related("question")
               .order_by("created_at", "id"))
    seconds = (SecondPassAnswer.objects.filter(question__project=project, worker=worker).select_related("question")
               .order_by("created_at", "id"))
    flags = (QuestionFlag.objects.filter(question__project=project, raised_by=worker).select_related("question")
             .order_by("created_at", "id"))
    return {
        "format": EXPORT_FORMAT, "project": project.name, "participant": worker.username,
        "exported_at": timezone.now().isoformat(),
        "sessions": [{
            "id": s.pk, "kind": s.kind, "status": s.status, "article": s.paragraph.article.title,
            "paragraph": s.paragraph.position, "draft": s.draft, "discard_reason": s.discard_reason,
            "discard_note": s.discard_note, "started_at": _when(s.started_at), "submitted_at": _when(s.submitted_at),
            "active_seconds": s.active_seconds,
        } for s in sessions],
        "questions": [{
            "qid": q.qid, "question": q.question, "is_impossible": q.is_impossible, "status": q.status,
            "source": q.source, "article": q.paragraph.article.title, "paragraph": q.paragraph.position,
            "session": q.session_id, "model_prediction": q.qa_prediction_text, "fooled_model": q.fooled_model,
            "created_at": _when(q.created_at), "updated_at": _when(q.updated_at),
        } for q in questions],
        "answers": [_answer(a) for a in answers],
        "second_pass_answers": [{
            "qid": s.question.qid, "is_impossible": s.is_impossible, "text": s.text, "answer_start": s.answer_start,
            "session": s.session_id, "created_at": _when(s.created_at),
        } for s in seconds],
        "flags": [{
            "qid": f.question.qid, "proposal": f.proposal, "reason": f.reason, "proposed_text": f.proposed_text,
            "proposed_start": f.proposed_start, "after_reveal": f.after_reveal, "status": f.status,
            "resolution_note": f.resolution_note, "created_at": _when(f.created_at), "resolved_at": _when(f.resolved_at),
        } for f in flags],
    }

