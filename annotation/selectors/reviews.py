"""Reads of the owner's review work: the project's paragraphs (to restore discarded ones) and the
second pass's flags (to accept or reject)."""
from django.db.models import Count, F, Q, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from annotation.models import Paragraph, Project, QuestionFlag, SpanQuestion
from annotation.selectors.projects import can_manage
from core.exceptions import AccessError, NotFoundError


def flags_of_project(*, project: Project, status: str | None = QuestionFlag.Status.OPEN) -> QuerySet[QuestionFlag]:
    flags = QuestionFlag.objects.filter(question__project=project).select_related(
        "question__paragraph__article", "raised_by", "resolved_by"
    ).prefetch_related("question__answers")
    return flags.filter(status=status) if status else flags


def flag_for_owner(*, user: User, flag_id: int) -> QuestionFlag:
    flag = QuestionFlag.objects.select_related("question__project", "question__paragraph").filter(pk=flag_id).first()
    if flag is None:
        raise NotFoundError(_("This flag does not exist."))
    if not can_manage(user, flag.question.project):
        raise AccessError(_("Only the project's owner resolves its flags."))
    return flag


def paragraphs_of_project(*, project: Project, status: str = "", split: str = "") -> QuerySet[Paragraph]:
    paragraphs = (
        Paragraph.objects.filter(article__project=project).select_related("article")
        .annotate(n_questions=Count("questions", filter=Q(questions__status=SpanQuestion.Status.SUBMITTED)))
        .order_by(F("article__rank").asc(nulls_last=True), "article__position", "position")
    )
    if status:
        paragraphs = paragraphs.filter(status=status)
    if split:
        paragraphs = paragraphs.filter(article__split=split)
    return paragraphs


def paragraph_for_owner(*, user: User, paragraph_id: int) -> Paragraph:
    paragraph = Paragraph.objects.select_related("article__project").filter(pk=paragraph_id).first()
    if paragraph is None:
        raise NotFoundError(_("This paragraph does not exist."))
    if not can_manage(user, paragraph.article.project):
        raise AccessError(_("Only the project's owner manages its paragraphs."))
    return paragraph
