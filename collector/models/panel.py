"""A round's panel of target models and each submission's verdict per model.

A round's panel is an ordered list of model versions, each *shown* (authors see its answer as
they type) or *held out* (scored at submission and in reports, never shown: it measures whether
questions transfer to a model the author never saw). The round's first shown model is its
``live_model`` (the authoring page's model). A round without panel rows has the panel of one
shown model, its live model (``collector.selectors.panel.round_panel``).

The round's credit rule (``Round.credit_rule``, ``Round.credit_k``, the members' ``weight``)
turns the shown models' verdicts into the question's live credit (``mlcore.stats.credit``).
"""
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from collector.models.questions import Question
from collector.models.rounds import NUM_CHOICES, Round
from modelhub.models import ModelVersion


class PanelRole(models.TextChoices):
    SHOWN = "shown", _("Shown to authors")
    HELD_OUT = "held_out", _("Held out (scored at submission, never shown)")


class RoundPanelMember(models.Model):
    """One model of a round's panel, at ``position`` (0 first), shown or held out."""

    Role = PanelRole

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="panel_members")
    model_version = models.ForeignKey(ModelVersion, on_delete=models.PROTECT, related_name="panel_memberships")
    position = models.PositiveSmallIntegerField()
    role = models.CharField(max_length=16, choices=PanelRole.choices, default=PanelRole.SHOWN)
    # An integer, so that the weighted credit rule's sums are exact.
    weight = models.PositiveSmallIntegerField(
        default=1, validators=[MaxValueValidator(1000)], help_text="Weight in the weighted credit rule",
    )

    class Meta:
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "position"], name="unique_panel_position"),
            models.UniqueConstraint(fields=["round", "model_version"], name="unique_panel_model"),
        ]

    def __str__(self) -> str:
        return f"{self.model_version_id} at {self.position} in round {self.round_id} ({self.role})"


class SubmissionVerdict(models.Model):
    """What one panel model answered to a submitted question, with the model's revision.

    ``role`` is the model's role when the question was submitted. ``status`` is ``pending`` until
    the model answered (``done``) or its call failed (``failed``, ``detail`` says why: a remote
    model's timeout, say); a failed or pending verdict is not fooled for credit.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="verdicts")
    model_version = models.ForeignKey(ModelVersion, on_delete=models.PROTECT, related_name="verdicts")
    role = models.CharField(max_length=16, choices=PanelRole.choices, default=PanelRole.SHOWN)
    position = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    model_revision = models.CharField(max_length=64, blank=True)
    predicted_index = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(0), MaxValueValidator(NUM_CHOICES - 1)],
    )
    probs = models.JSONField(null=True, blank=True, help_text="One probability per choice; null without them")
    fooled = models.BooleanField(null=True, blank=True)
    detail = models.CharField(max_length=300, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["question", "position"]
        constraints = [
            models.UniqueConstraint(fields=["question", "model_version"], name="unique_verdict_model"),
        ]

    def __str__(self) -> str:
        return f"verdict of {self.model_version_id} on question {self.question_id}: {self.status}"
