"""Deleting a participant's data in a project on request, and logging that it was done.

What goes (all inside the one project): the participant's sessions, the questions they wrote
(with everything on them, other people's second-pass answers, answer spans and flags included:
they cannot stand without the question), their answer spans on other people's questions
(second-pass spans and accepted corrections), their second-pass answers and their flags. A
question of someone else whose only answer was the participant's correction is withdrawn
(``removed``) rather than released answerable with no answer. Paragraphs the participant's
submissions closed reopen when fewer than ``overlap`` workers remain. The log row
(``ParticipantDeletion``) keeps who asked, when and the counts, never the participant.
"""
from collections import Counter

from django.db import transaction

from accounts.models import User
from annotation.models import (
    AnnotationSession,
    Paragraph,
    ParticipantDeletion,
    Project,
    QuestionFlag,
    SecondPassAnswer,
    SpanAnswer,
    SpanQuestion,
)
from annotation.services.projects import paragraph_refresh_status


def _deleted(queryset) -> int:
    # QuerySet.delete counts cascaded rows too; the log counts the rows of each kind it targets.
    count = queryset.count()
    queryset.delete()
    return count


@transaction.atomic
def participant_delete(*, project: Project, worker_id: int, user: User) -> ParticipantDeletion:
    """Delete everything ``worker_id`` wrote in ``project`` (idempotent: a second call deletes nothing).

    ``user`` is the owner (or staff) honouring the request; access is checked by the caller's selector.
    """
    counts: Counter[str] = Counter()
    sessions = AnnotationSession.objects.filter(paragraph__article__project=project, worker_id=worker_id)
    paragraph_ids = set(sessions.values_list("paragraph_id", flat=True))
    own_questions = SpanQuestion.objects.filter(project=project, author_id=worker_id,
                                                source=SpanQuestion.Source.AUTHORED)
    on_own = {"question__in": own_questions}
    counts["others_second_pass_answers"] = SecondPassAnswer.objects.filter(**on_own).exclude(worker_id=worker_id).count()
    counts["others_flags"] = QuestionFlag.objects.filter(**on_own).exclude(raised_by_id=worker_id).count()
    counts["others_answers"] = SpanAnswer.objects.filter(**on_own).exclude(author_id=worker_id).count()
    counts["questions"] = _deleted(own_questions)
    counts["second_pass_answers"] = _deleted(
        SecondPassAnswer.objects.filter(question__project=project, worker_id=worker_id))
    answers = SpanAnswer.objects.filter(question__project=project, author_id=worker_id)
    touched = set(answers.filter(kind=SpanAnswer.Kind.CORRECTION).values_list("question_id", flat=True))
    counts["answers"] = _deleted(answers)
    counts["flags"] = _deleted(QuestionFlag.objects.filter(question__project=project, raised_by_id=worker_id))
    counts["sessions"] = _deleted(sessions)
    counts["withdrawn_questions"] = (
        SpanQuestion.objects.filter(pk__in=touched, is_impossible=False, answers__isnull=True)
        .exclude(status=SpanQuestion.Status.REMOVED).update(status=SpanQuestion.Status.REMOVED))
    for paragraph in Paragraph.objects.filter(pk__in=paragraph_ids).select_related("article__project"):
        paragraph_refresh_status(paragraph=paragraph)
    return ParticipantDeletion.objects.create(project=project, requested_by=user, counts=dict(counts))
