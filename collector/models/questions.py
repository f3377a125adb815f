"""Adversarial questions and the predictions stored with them.

The quality loop's records (validations, review decisions, appeals, duplicate flags, coach
warnings) are in ``models/quality.py``, scoring runs in ``models/scoring.py``.
"""
from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from collector.models.rounds import NUM_CHOICES, Round
from modelhub.models import ModelVersion


class QuestionStatus(models.TextChoices):
    PENDING = "pending", _("Awaiting validation")
    REVIEW = "review", _("In review")
    ACCEPTED = "accepted", _("Accepted")
    REJECTED = "rejected", _("Rejected")
    APPEALED = "appealed", _("Rejected, appeal pending")


class Question(models.Model):
    """One CODAH-style question: a prompt, four completions, exactly one right.

    ``status`` follows the quality loop: validators answer it blind (``pending``); agreement
    accepts it, a disagreement, flag or near-duplicate sends it to the owner (``review``),
    who accepts, edits or rejects it; a rejected question may be ``appealed`` once.
    """

    Status = QuestionStatus

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="questions")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="questions")
    prompt = models.TextField()
    choices = models.JSONField(help_text="The four candidate completions, in the author's order")
    correct_index = models.PositiveSmallIntegerField(validators=[MaxValueValidator(NUM_CHOICES - 1)])
    categories = models.JSONField(default=list, blank=True)
    time_spent_seconds = models.PositiveIntegerField(default=0)
    # The browser sends a fresh token per question so a double submit is stored once.
    client_token = models.UUIDField(null=True, blank=True)
    source = models.CharField(max_length=16, default="authored", choices=[("authored", "Authored"), ("imported", "Imported")])
    status = models.CharField(max_length=16, choices=QuestionStatus.choices, default=QuestionStatus.PENDING, db_index=True)
    # Why it went to the owner's review (disagreement, flags, a near-duplicate), for the reviewer.
    review_reason = models.TextField(blank=True)
    # Shown to the author; set when the question is rejected.
    rejection_reason = models.TextField(blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["author", "client_token"], name="unique_question_client_token"),
        ]
        indexes = [models.Index(fields=["round", "author"])]

    def __str__(self) -> str:
        return self.prompt[:60]


class Prediction(models.Model):
    """The model's answer to a question, computed on the server (never taken from the client)."""

    class Kind(models.TextChoices):
        LIVE = "live", "Live model at submission"
        # "fooled" then means the answer-only model missed: the coach's check, stored.
        ANSWER_ONLY = "answer_only", "Answer-only model at submission"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="predictions")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.LIVE)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    model_version = models.ForeignKey(ModelVersion, null=True, blank=True, on_delete=models.PROTECT)
    model_revision = models.CharField(max_length=64, blank=True)
    probs = models.JSONField(null=True, blank=True)
    predicted_index = models.PositiveSmallIntegerField(null=True, blank=True)
    fooled = models.BooleanField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["question", "kind"], name="unique_prediction_kind")]

    def __str__(self) -> str:
        return f"{self.kind} prediction for question {self.question_id}: {self.status}"
