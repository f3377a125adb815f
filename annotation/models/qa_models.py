"""A project's "train a QA model on its answered questions" job: a ``core`` background job like the
round's ``collector.models.TrainingJob`` (queued, running with a heartbeat and progress, done with
the model it made, or failed with the error), run through ``core.jobs``.
"""
from django.conf import settings
from django.db import models

from core.models import BackgroundJob


class QATrainingJob(BackgroundJob):
    """Fine-tuning an extractive QA model on a project's answered train questions, from its page."""

    # None only for a train_qa_model job given no --project.
    project = models.ForeignKey("annotation.Project", null=True, blank=True, on_delete=models.CASCADE,
                                related_name="qa_training_jobs")
    name = models.CharField(max_length=100, help_text="Name of the model version to create")
    model_version = models.ForeignKey("modelhub.ModelVersion", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    # What train_qa_model asked for: its files on the server, base and hyperparameters (empty from the page).
    options = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One training per project at a time: a double click queues one job.
            models.UniqueConstraint(fields=["project"], condition=models.Q(status__in=["queued", "running"]),
                                    name="one_active_qa_training_per_project"),
        ]

    def __str__(self) -> str:
        return f"Training {self.name} on {self.project_id} ({self.status})"
