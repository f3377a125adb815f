"""Reads of the second pass: the validation and test questions that need more answers, and a
second-pass session's questions, blind answers and flags."""
from django.db.models import Count, Exists, F, OuterRef, QuerySet

from accounts.models import User
from annotation.models import AnnotationSession, Paragraph, Project, QuestionFlag, SecondPassAnswer, SpanQuestion, Split
from annotation.selectors.authoring import paragraph_had_by

SECOND_PASS_SPLITS = (Split.VALIDATION, Split.TEST)


def questions_needing_answers(*, project: Project, user: User) -> QuerySet[SpanQuestion]:
    """Submitted validation/test questions of others with fewer than ``second_pass_answers`` extra answers."""
    return (
        SpanQuestion.objects.filter(project=project, status=SpanQuestion.Status.SUBMITTED,
                                    paragraph__article__split__in=SECOND_PASS_SPLITS)
        .exclude(author=user)
        .annotate(n_second=Count("second_pass_answers"))
        .filter(n_second__lt=project.second_pass_answers)
    )


def paragraphs_needing_second_pass(*, project: Project, user: User) -> QuerySet[Paragraph]:
    if project.second_pass_answers == 0:
        return Paragraph.objects.none()
    wanted = questions_needing_answers(project=project, user=user).filter(paragraph=OuterRef("pk"))
    return (
        Paragraph.objects.select_related("article")
        .filter(article__project=project, article__split__in=SECOND_PASS_SPLITS)
        .exclude(status=Paragraph.Status.DISCARDED)
        .exclude(paragraph_had_by(user, AnnotationSession.Kind.SECOND_PASS))
        .filter(Exists(wanted))
        .order_by(F("article__rank").asc(nulls_last=True), "article__position", "position", "id")
    )


def second_pass_questions(*, session: AnnotationSession) -> QuerySet[SpanQuestion]:
    """The paragraph's questions this second-pass worker answers (never their own)."""
    return (
        SpanQuestion.objects.filter(paragraph=session.paragraph_id, status=SpanQuestion.Status.SUBMITTED)
        .exclude(author=session.worker_id).order_by("position", "id")
    )


def second_pass_answers_of(*, session: AnnotationSession) -> dict[int, SecondPassAnswer]:
    return {a.question_id: a for a in SecondPassAnswer.objects.filter(session=session)}


def flags_of_session(*, session: AnnotationSession) -> dict[int, QuestionFlag]:
    return {f.question_id: f for f in QuestionFlag.objects.filter(session=session)}
