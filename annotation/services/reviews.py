"""Writes of the owner's review work: restoring a discarded paragraph, and resolving the second
pass's flags (accepting one applies its proposal to the question, rejecting leaves it as it is).
"""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from annotation.inputs import span_message
from annotation.models import Paragraph, QuestionFlag, SpanAnswer, SpanQuestion
from annotation.selectors.projects import can_manage
from annotation.services.projects import paragraph_refresh_status
from annotation.signals import worker_progress_send
from core.exceptions import AccessError
from mlcore.data.spans import SpanError, check_span


@transaction.atomic
def paragraph_restore(*, paragraph: Paragraph, user: User) -> Paragraph:
    """Put a discarded paragraph back in the queue (the owner disagreed with the discard)."""
    if not can_manage(user, paragraph.article.project):
        raise AccessError("Only the project's owner restores paragraphs.")
    paragraph = Paragraph.objects.select_for_update(of=("self",)).select_related("article__project").get(pk=paragraph.pk)
    if paragraph.status != Paragraph.Status.DISCARDED:
        raise ValidationError({"paragraph": "This paragraph is not discarded."})
    paragraph.status = Paragraph.Status.OPEN
    paragraph.save(update_fields=["status"])
    return paragraph_refresh_status(paragraph=paragraph)


Proposal = QuestionFlag.Proposal


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
            raise ValidationError({"flag": _("The proposed answer no longer fits the paragraph: %(reason)s")
                                           % {"reason": span_message(error)}}) from None
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
    if not can_manage(user, flag.question.project):
        raise AccessError(_("Only the project's owner resolves its flags."))
    if flag.status != QuestionFlag.Status.OPEN:
        raise ValidationError({"flag": _("This flag was already resolved.")})
    if accept:
        _apply_flag(flag)
    flag.status = QuestionFlag.Status.ACCEPTED if accept else QuestionFlag.Status.REJECTED
    flag.resolved_by, flag.resolved_at, flag.resolution_note = user, timezone.now(), (note or "").strip()[:2000]
    flag.save()
    worker_progress_send(sender=QuestionFlag, project_id=flag.question.project_id,
                         user_ids=[flag.question.author_id, flag.raised_by_id])
    return flag
