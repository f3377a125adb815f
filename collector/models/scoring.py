"""Cross-validation scoring of a round: runs, their finished folds, the fold of each question and
the out-of-fold predictions."""
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from collector.models.questions import Question
from collector.models.rounds import Round
from core.models import BackgroundJob, job_status_choices


class ScoringRun(BackgroundJob):
    """Cross-validation scoring of a round (or its answer-only baseline): one job row, its folds
    trained in parallel by one task each (``ScoringFoldClaim``).

    Each finished fold is stored as a ``ScoringFold`` with its predictions, so a run that a
    killed worker left behind resumes with the folds still missing.
    """

    class Kind(models.TextChoices):
        CROSS_VALIDATION = "cross_validation", _("Cross-validation")
        ANSWER_ONLY = "answer_only", _("Answer-only baseline")

    # Cancelled: stopped by an instructor; its finished folds are kept and it can be resumed.
    Status = job_status_choices(CANCELLED=("cancelled", "Cancelled"))

    # core.jobs.job_claim leaves these alone: a cancelled run runs again only once resumed.
    FINISHED = (Status.DONE, Status.FAILED, Status.CANCELLED)
    ENDED = FINISHED
    push_scopes = ("round",)  # the round page's socket follows every run of the round

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
    worker = models.CharField(max_length=200, blank=True, default="", help_text="host:pid of the worker that trained it")

    class Meta:
        ordering = ["trial", "fold"]
        constraints = [models.UniqueConstraint(fields=["run", "trial", "fold"], name="unique_scoring_fold")]


class ScoringFoldClaim(models.Model):
    """The lease of one (trial, fold) of a scoring run: which worker trains it, and its heartbeat.

    Each fold is its own Celery task, so N workers train N folds at once; a worker takes a fold
    only when nobody holds it, or when its holder died (a process of this machine that is gone)
    or went silent for ``STUMPER_SCORING_STALE_SECONDS``. ``step``/``total_steps`` are the fold's
    training progress, summed over the run's folds into the run's progress.
    """

    run = models.ForeignKey(ScoringRun, on_delete=models.CASCADE, related_name="fold_claims")
    trial = models.PositiveSmallIntegerField()
    fold = models.PositiveSmallIntegerField()
    owner = models.CharField(max_length=200, blank=True, default="", help_text="host:pid; empty while nobody trains it")
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    step = models.PositiveIntegerField(default=0)
    total_steps = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["trial", "fold"]
        constraints = [models.UniqueConstraint(fields=["run", "trial", "fold"], name="unique_scoring_fold_claim")]

    def __str__(self) -> str:
        return f"fold {self.fold} (trial {self.trial}) of run {self.run_id}: {self.owner or 'free'}"


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
