"""Rounds of a course, adversarial questions, the predictions stored with them and the scoring jobs.

Courses are in ``courses.models``, model versions in ``modelhub.models``.

The quality loop's models (validations, review decisions, appeals, duplicate flags, coach
warnings) are in ``collector/quality_models.py`` (this file stays under ~400 lines) and imported at the end.
"""
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from core.models import BackgroundJob
from core.validators import folder_name_validator
from courses.models import Course
from mlcore.configs import CATEGORIES
from modelhub.models import ModelVersion

CATEGORY_CHOICES = [(c, c.capitalize()) for c in CATEGORIES]
NUM_CHOICES = 4
LETTERS = "ABCD"  # how pages, exports and messages name choices 0..3


def all_categories() -> list[str]:
    return list(CATEGORIES)


class PeerValidation(models.TextChoices):
    OFF = "off", "No: only the course's instructors validate"
    AFTER_CLOSE = "after_close", "Yes, once the round has closed"
    ALWAYS = "always", "Yes, while the round is open too"


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


class QuestionStatus(models.TextChoices):
    PENDING = "pending", "Awaiting validation"
    REVIEW = "review", "In review"
    ACCEPTED = "accepted", "Accepted"
    REJECTED = "rejected", "Rejected"
    APPEALED = "appealed", "Rejected, appeal pending"


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


class ScoringRun(BackgroundJob):
    """Cross-validation scoring of a round (or its answer-only baseline), fold by fold.

    Each finished fold is stored as a ``ScoringFold`` with its predictions, so a run that a
    killed worker left behind resumes with the folds still missing.
    """

    class Kind(models.TextChoices):
        CROSS_VALIDATION = "cross_validation", "Cross-validation"
        ANSWER_ONLY = "answer_only", "Answer-only baseline"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        # Stopped by an instructor; its finished folds are kept and it can be resumed.
        CANCELLED = "cancelled", "Cancelled"

    ACTIVE = (Status.QUEUED, Status.RUNNING)
    # core.jobs.job_claim leaves these alone: a cancelled run runs again only once resumed.
    FINISHED = (Status.DONE, Status.FAILED, Status.CANCELLED)
    ENDED = FINISHED

    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="scoring_runs")
    kind = models.CharField(max_length=24, choices=Kind.choices, default=Kind.CROSS_VALIDATION)
    folds = models.PositiveSmallIntegerField(default=5, validators=[MinValueValidator(2), MaxValueValidator(20)])
    trials = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1), MaxValueValidator(10)])
    seed = models.IntegerField(default=0)
    base_checkpoint = models.CharField(max_length=500)
    config = models.JSONField(default=dict, help_text="FineTuneConfig fields used for every fold")
    # The data snapshot: exactly these questions are scored, whatever arrives meanwhile.
    question_ids = models.JSONField(default=list)
    summary = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One active run per round and kind: a second start is refused by the database itself.
            models.UniqueConstraint(
                fields=["round", "kind"],
                condition=models.Q(status__in=["queued", "running"]),
                name="one_active_scoring_run",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.round.name} ({self.status})"


class ScoringFold(models.Model):
    """One finished (trial, fold) of a scoring run: its model's accuracy on the held-out fold."""

    run = models.ForeignKey(ScoringRun, on_delete=models.CASCADE, related_name="fold_results")
    trial = models.PositiveSmallIntegerField()
    fold = models.PositiveSmallIntegerField()
    accuracy = models.FloatField()
    n_train = models.PositiveIntegerField()
    n_test = models.PositiveIntegerField()
    seconds = models.FloatField()
    finished_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["trial", "fold"]
        constraints = [models.UniqueConstraint(fields=["run", "trial", "fold"], name="unique_scoring_fold")]


class ScoringRunAssignment(models.Model):
    """The fold a question is held out in, per trial, fixed when its scoring run starts.

    A resumed run reads its folds from here instead of recomputing them from the questions that
    exist then: deleting one question would reshuffle most of the others (SPEC-bias §5.2 permutes
    each stratum as a whole), so finished folds would no longer match the missing ones. A deleted
    question's rows go with it (cascade) and its fold is scored on the questions that remain.
    Every trial holds the same folds today (one §5.2 assignment per run seed); the trial column
    mirrors ``CVPrediction`` so a run's split is stored exactly as its predictions are.
    """

    run = models.ForeignKey(ScoringRun, on_delete=models.CASCADE, related_name="assignments")
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="scoring_assignments")
    trial = models.PositiveSmallIntegerField()
    fold = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "question", "trial"], name="unique_scoring_assignment")]

    def __str__(self) -> str:
        return f"question {self.question_id}: fold {self.fold} of run {self.run_id}, trial {self.trial}"


class CVPrediction(models.Model):
    """A question's out-of-fold prediction in one trial of a scoring run."""

    run = models.ForeignKey(ScoringRun, on_delete=models.CASCADE, related_name="predictions")
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="cv_predictions")
    trial = models.PositiveSmallIntegerField()
    fold = models.PositiveSmallIntegerField()
    probs = models.JSONField()
    predicted_index = models.PositiveSmallIntegerField()
    correct = models.BooleanField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "question", "trial"], name="unique_cv_prediction")]


class TrainingJob(BackgroundJob):
    """Training of a new live model on a course's questions, queued from a round's page.

    The page shows its progress and, if it failed, the error; the trained version is kept
    here so the instructor sees which model the job produced.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="training_jobs")
    name = models.CharField(max_length=100, help_text="Name of the model version to create")
    make_live_round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    model_version = models.ForeignKey(ModelVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One model name is trained by one job at a time: a double click queues one job.
            models.UniqueConstraint(fields=["name"], condition=models.Q(status__in=["queued", "running"]),
                                    name="one_active_training_per_name"),
        ]

    def __str__(self) -> str:
        return f"Training {self.name} from {self.round.name} ({self.status})"




# Django registers models found in the app's models module; these live in their own file.
from collector.hardware_models import WorkerHardware  # noqa: E402, F401
from collector.quality_models import (  # noqa: E402, F401  (they refer to the models above)
    Appeal,
    CoachWarning,
    DuplicateFlag,
    ReviewDecision,
    Validation,
)
