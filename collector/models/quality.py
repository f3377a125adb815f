"""The quality loop's records: blind validations, the owner's decisions, appeals, near-duplicate
flags and the artifact coach's warnings (re-exported by ``collector/models/__init__.py``, where Django finds them)."""
from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from collector.models.rounds import NUM_CHOICES


class Validation(models.Model):
    """One validator's blind answer to a question.

    The validator saw the completions shuffled (``choice_order[display position]`` = index in
    the author's order) and without the model's answer; ``chosen_index`` is in the author's
    order, ``None`` when they flagged "no single right answer" without picking one.
    """

    class Flag(models.TextChoices):
        NO_SINGLE_ANSWER = "no_single_answer", _("No single right answer")
        WRONG_KEY = "wrong_key", _("The marked answer is wrong")
        GRAMMAR = "grammar", _("Grammar or spelling errors")
        OFFENSIVE = "offensive", _("Offensive")
        DUPLICATE = "duplicate", _("Duplicate of another question")

    question = models.ForeignKey("collector.Question", on_delete=models.CASCADE, related_name="validations")
    validator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="validations")
    choice_order = models.JSONField(help_text="Display position -> index in the author's order")
    chosen_index = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MaxValueValidator(NUM_CHOICES - 1)])
    is_correct = models.BooleanField(help_text="The pick matched the answer key when it was made")
    flags = models.JSONField(default=list, blank=True)
    categories = models.JSONField(default=list, blank=True, help_text="The validator's category labels")
    comment = models.TextField(blank=True)
    seconds_spent = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["question_id", "created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["question", "validator"], name="unique_validation")]
        indexes = [models.Index(fields=["validator", "created_at"])]

    def __str__(self) -> str:
        return f"{self.validator} on question {self.question_id}"


class ReviewDecision(models.Model):
    """Every change of a question's status by its owner (or automatically), with the reason."""

    class Action(models.TextChoices):
        ACCEPTED = "accepted", _("Accepted")
        AUTO_ACCEPTED = "auto_accepted", _("Accepted: validators agreed")
        SENT_TO_REVIEW = "sent_to_review", _("Sent to review")
        EDITED = "edited", _("Edited and accepted")
        REJECTED = "rejected", _("Rejected")
        APPEAL_UPHELD = "appeal_upheld", _("Appeal upheld: accepted")
        APPEAL_DENIED = "appeal_denied", _("Appeal denied: stays rejected")

    question = models.ForeignKey("collector.Question", on_delete=models.CASCADE, related_name="decisions")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="review_decisions",
        help_text="Empty for automatic decisions",
    )
    action = models.CharField(max_length=24, choices=Action.choices)
    reason = models.TextField(blank=True)
    changes = models.JSONField(default=dict, blank=True, help_text="Edited fields: {field: [before, after]}")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} (question {self.question_id})"


class Appeal(models.Model):
    """An author's one appeal against the rejection of their question."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("appeal", "Open")
        UPHELD = "upheld", _("Upheld")
        DENIED = "denied", _("Denied")

    question = models.OneToOneField("collector.Question", on_delete=models.CASCADE, related_name="appeal")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="appeals")
    message = models.TextField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    response = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="decided_appeals"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Appeal on question {self.question_id} ({self.status})"


class DuplicateFlag(models.Model):
    """A question found very similar to an earlier one (``similar_to``) when it was submitted."""

    question = models.ForeignKey("collector.Question", on_delete=models.CASCADE, related_name="duplicate_flags")
    similar_to = models.ForeignKey("collector.Question", on_delete=models.CASCADE, related_name="duplicated_by")
    similarity = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-similarity"]
        constraints = [models.UniqueConstraint(fields=["question", "similar_to"], name="unique_duplicate_flag")]

    def __str__(self) -> str:
        return f"{self.question_id} ~ {self.similar_to_id} ({self.similarity:.2f})"


class CoachWarning(models.Model):
    """A warning the coach showed while an author wrote one question (one row per kind).

    ``client_token`` is the authoring form's token of that question; when the question is
    submitted, ``question`` is set and ``present_at_submit`` says whether the warning still
    applied (``False``: the author heeded it). Drafts that were never submitted keep
    ``question`` empty.
    """

    class Kind(models.TextChoices):
        ANSWER_ONLY = "answer_only", _("The answer-only model finds the answer")
        WORDS = "words", _("Words typical of right answers")
        LENGTH = "length", _("Right completion much longer or shorter")
        DUPLICATE = "duplicate", _("Very similar to an existing question")

    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="coach_warnings")
    round = models.ForeignKey("collector.Round", on_delete=models.CASCADE, related_name="coach_warnings")
    client_token = models.UUIDField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    detail = models.JSONField(default=dict, blank=True)
    question = models.ForeignKey(
        "collector.Question", null=True, blank=True, on_delete=models.SET_NULL, related_name="coach_warnings"
    )
    present_at_submit = models.BooleanField(null=True, blank=True)
    first_shown_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-first_shown_at"]
        constraints = [
            models.UniqueConstraint(fields=["author", "client_token", "kind"], name="unique_coach_warning"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.author}"
