"""The second pass: blind answers to others' questions, and flags on their original answers."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from annotation.models.authoring import AnnotationSession, SpanAnswer, SpanQuestion


class SecondPassAnswer(models.Model):
    """A second-pass worker's blind answer to an existing question: a span or "unanswerable".

    Final once stored (one per worker and question, written once by ``second_pass_answer_save``):
    the original answer is revealed right after it, so a later answer would no longer be blind.
    The span, if any, is also stored as an extra gold ``SpanAnswer``; this row keeps who said
    what so human performance (against the first answer) can be computed. What the worker
    thinks after the reveal is a ``QuestionFlag`` (``after_reveal``), never an answer.
    """

    question = models.ForeignKey(SpanQuestion, on_delete=models.CASCADE, related_name="second_pass_answers")
    session = models.ForeignKey(AnnotationSession, on_delete=models.CASCADE, related_name="second_pass_answers")
    worker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="second_pass_answers")
    is_impossible = models.BooleanField(default=False)
    span = models.OneToOneField(SpanAnswer, null=True, blank=True, on_delete=models.SET_NULL, related_name="second_pass")
    text = models.TextField(blank=True, help_text="The answered text ('' = unanswerable), kept even if the span is removed")
    answer_start = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["question_id", "created_at"]
        constraints = [models.UniqueConstraint(fields=["question", "worker"], name="unique_second_pass_answer")]

    def __str__(self) -> str:
        return f"{self.worker} on {self.question_id}"


class QuestionFlag(models.Model):
    """A second-pass worker's report that a question's original answer is wrong; the owner resolves it.

    A proposed span (``fix_answer``) is a correction for the owner to accept or reject: it never
    counts as the worker's answer, and ``after_reveal`` says whether the worker had seen the
    original answer when proposing it.
    """

    class Proposal(models.TextChoices):
        FIX_ANSWER = "fix_answer", _("Replace the answer with the proposed span")
        MARK_UNANSWERABLE = "mark_unanswerable", _("The question cannot be answered from the paragraph")
        REMOVE_QUESTION = "remove_question", _("Remove the question")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACCEPTED = "accepted", _("Accepted")
        REJECTED = "rejected", _("Rejected")

    question = models.ForeignKey(SpanQuestion, on_delete=models.CASCADE, related_name="flags")
    raised_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="question_flags")
    session = models.ForeignKey(AnnotationSession, null=True, blank=True, on_delete=models.SET_NULL, related_name="flags")
    proposal = models.CharField(max_length=24, choices=Proposal.choices)
    reason = models.TextField(blank=True)
    proposed_text = models.TextField(blank=True)
    proposed_start = models.PositiveIntegerField(null=True, blank=True)
    after_reveal = models.BooleanField(
        default=False, help_text="Raised after the worker saw the original answer (a proposal, not a blind answer)",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    resolution_note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["question", "raised_by"], name="unique_flag_per_worker")]

    def __str__(self) -> str:
        return f"{self.get_proposal_display()} on {self.question_id} ({self.status})"
