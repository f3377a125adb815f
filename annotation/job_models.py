"""A project's "train a QA model on its answered questions" job (the round training job's twin).

Same fields and life cycle as ``collector.models.TrainingJob`` (queued, running with a
heartbeat and progress, done with the model it made, or failed with the error), run by
``annotation.services.qa_training_jobs`` the way ``collector.training_jobs`` runs a round's.
When the shared ``core`` job base lands, both derive from it.
"""
from django.conf import settings
from django.db import models


class QATrainingJob(models.Model):
    """Fine-tuning an extractive QA model on a project's answered train questions, from its page."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="qa_training_jobs")
    name = models.CharField(max_length=100, help_text="Name of the model version to create")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    model_version = models.ForeignKey("collector.ModelVersion", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One training per project at a time: a double click queues one job.
            models.UniqueConstraint(fields=["project"], condition=models.Q(status__in=["queued", "running"]),
                                    name="one_active_qa_training_per_project"),
        ]

    def __str__(self) -> str:
        return f"Training {self.name} on {self.project_id} ({self.status})"
