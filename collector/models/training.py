"""Training a new live model from a round's page, as a background job."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from collector.models.rounds import Round
from core.models import BackgroundJob
from modelhub.models import ModelVersion


class TrainingJob(BackgroundJob):
    """Training of a model from a round: the next live model on the course's questions (queued
    from a round's page), the round's answer-only model for the coach (from its quality page) or the
    demo round's starter model fine-tuned on CODAH at first start (``services/starter.py``).

    The round page shows its progress and, if it failed, the error; the trained version is kept
    here so the instructor sees which model the job produced.
    """

    class Kind(models.TextChoices):
        NEXT_MODEL = "next_model", _("Next live model")
        ANSWER_ONLY = "answer_only", _("Answer-only model for the coach")
        STARTER = "starter", _("Starter model fine-tuned on CODAH")
        COMMAND = "command", _("Trained by train_mc_model")

    # None only for a train_mc_model job on a file that no round is involved in.
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE, related_name="training_jobs")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.NEXT_MODEL)
    name = models.CharField(max_length=100, help_text="Name of the model version to create")
    make_live_round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    model_version = models.ForeignKey(ModelVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # What train_mc_model asked for (kind "command"): its files on the server, base and hyperparameters.
    options = models.JSONField(default=dict, blank=True)
    push_scopes = ("round",)  # the round page's socket follows every training job of the round

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One model name is trained by one job at a time: a double click queues one job.
            models.UniqueConstraint(fields=["name"], condition=models.Q(status__in=["queued", "running"]),
                                    name="one_active_training_per_name"),
        ]

    def __str__(self) -> str:
        return f"Training {self.name} from {self.round.name if self.round else 'files'} ({self.status})"
