"""Rounds: a course's collection periods, with their live model, credit weights and quality settings.

Courses are in ``courses.models``, model versions in ``modelhub.models``.
"""
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.validators import folder_name_validator
from courses.models import Course
from mlcore.configs import CATEGORIES
from modelhub.models import ModelVersion

CATEGORY_LABELS = {"idioms": _("Idioms"), "reference": _("Reference"), "polysemy": _("Polysemy"),
                   "negation": _("Negation"), "quantitative": _("Quantitative"), "other": _("Other")}
CATEGORY_CHOICES = [(c, CATEGORY_LABELS.get(c, c.capitalize())) for c in CATEGORIES]
NUM_CHOICES = 4
LETTERS = "ABCD"  # how pages, exports and messages name choices 0..3


def all_categories() -> list[str]:
    return list(CATEGORIES)


class PeerValidation(models.TextChoices):
    OFF = "off", _("No: only the course's instructors validate")
    AFTER_CLOSE = "after_close", _("Yes, once the round has closed")
    ALWAYS = "always", _("Yes, while the round is open too")


class CreditRuleChoice(models.TextChoices):
    """``mlcore.stats.credit.CreditRuleKind``, as a round stores it."""

    ANY = "any", _("Fool any shown model")
    ALL = "all", _("Fool every shown model")
    AT_LEAST_K = "at_least_k", _("Fool at least k shown models")
    WEIGHTED = "weighted", _("Weighted share of the shown models fooled")


class Round(models.Model):
    """A collection period with its own live model and reward weights."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="rounds")
    name = models.CharField(max_length=100, unique=True, validators=[folder_name_validator])
    title = models.CharField(max_length=200, blank=True)
    instructions = models.TextField(blank=True)
    opens_at = models.DateTimeField(null=True, blank=True)
    closes_at = models.DateTimeField(null=True, blank=True)
    live_model = models.ForeignKey(
        ModelVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="live_in_rounds"
    )
    weight_live = models.FloatField(default=1.0, validators=[MinValueValidator(0.0)])
    weight_cv = models.FloatField(default=1.0, validators=[MinValueValidator(0.0)])
    # Which panel models a question must fool for its live credit (mlcore.stats.credit; models/panel.py).
    credit_rule = models.CharField(max_length=16, choices=CreditRuleChoice.choices, default=CreditRuleChoice.ANY)
    credit_k = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(20)],
        help_text="With the at-least-k rule: how many shown models a question must fool",
    )
    categories = models.JSONField(default=all_categories, help_text="Categories offered to authors")
    base_checkpoint = models.CharField(
        max_length=500, blank=True,
        help_text="Model fine-tuned in cross-validation scoring (blank: STUMPER_BASE_CHECKPOINT)",
    )
    scoring_config = models.JSONField(
        default=dict, blank=True, help_text="FineTuneConfig fields that override the scoring defaults"
    )
    # Quality loop (validation, review, the artifact coach).
    validations_required = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1), MaxValueValidator(10)],
        help_text="Validators who must agree with the answer key before a question is accepted",
    )
    peer_validation = models.CharField(
        max_length=16, choices=PeerValidation.choices, default=PeerValidation.AFTER_CLOSE,
        help_text="Whether students of the course validate each other's questions, and from when",
    )
    credit_requires_acceptance = models.BooleanField(
        default=False,
        help_text="Count credit only for accepted questions (otherwise questions awaiting validation count "
        "provisionally; rejected questions never count)",
    )
    coach_answer_only = models.BooleanField("Warn when the answer-only model finds the answer", default=True)
    coach_words = models.BooleanField("Warn about words typical of right answers", default=True)
    coach_length = models.BooleanField("Warn when the right completion's length stands out", default=True)
    coach_duplicates = models.BooleanField("Warn when a draft is very similar to an existing question", default=True)
    answer_only_model = models.ForeignKey(
        ModelVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="answer_only_in_rounds",
        help_text="Model trained on completions only (prompts blanked); the coach asks it about each draft",
    )
    # Where imported questions come from, recorded by the import (docs/release.md): a release of them
    # takes its license and source_datasets from here, or asks for them when blank.
    source_dataset = models.CharField(
        max_length=200, blank=True, help_text="Hub id of the dataset imported questions come from (e.g. codah)",
    )
    source_license = models.CharField(
        max_length=64, blank=True, help_text="Hub license id of the imported questions (e.g. odc-by)",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.title or self.name

    def students_may_validate(self, at=None) -> bool:
        """Whether enrolled students may validate this round's questions now."""
        if self.peer_validation == PeerValidation.ALWAYS:
            return True
        return self.peer_validation == PeerValidation.AFTER_CLOSE and self.closes_at is not None and not self.is_open(at)

    def is_open(self, at=None) -> bool:
        at = at or timezone.now()
        started = self.opens_at is None or self.opens_at <= at
        not_ended = self.closes_at is None or at < self.closes_at
        return started and not_ended
