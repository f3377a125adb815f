"""Leaderboard entries: one registered model version evaluated on a frozen set of questions.

Imported at the end of ``evaluation/models.py`` so Django registers the model there.
"""
from django.conf import settings
from django.db import models

from core.models import BackgroundJob


class ModelEvaluation(BackgroundJob):
    """A model version's score on a round's accepted questions or a project's test split.

    ``question_ids`` and ``snapshot_id`` freeze the data (sha256 of the sorted ids and each
    question's ``updated_at``), so two entries on the same snapshot are comparable and an entry
    is never recomputed on different data. ``result`` is written once, whole, when the job ends:
    a crash never leaves half a result (see ``evaluation/leaderboard_services.py``).
    """

    class Target(models.TextChoices):
        ROUND = "round", "Collector round"
        PROJECT = "project", "Annotation project"

    target = models.CharField(max_length=16, choices=Target.choices)
    round = models.ForeignKey(
        "collector.Round", null=True, blank=True, on_delete=models.CASCADE, related_name="model_evaluations"
    )
    project = models.ForeignKey(
        "annotation.Project", null=True, blank=True, on_delete=models.CASCADE, related_name="model_evaluations"
    )
    model_version = models.ForeignKey(
        "modelhub.ModelVersion", on_delete=models.CASCADE, related_name="model_evaluations"
    )
    model_revision = models.CharField(max_length=64, blank=True)
    question_ids = models.JSONField(default=list, help_text="The questions evaluated, fixed when the job was queued")
    snapshot_id = models.CharField(max_length=64, help_text="sha256 of the sorted question ids and content versions")
    result = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(target="round", round__isnull=False, project__isnull=True)
                | models.Q(target="project", project__isnull=False, round__isnull=True),
                name="model_evaluation_has_one_target",
            ),
            # A double click queues one job: one active evaluation per (target, model version).
            models.UniqueConstraint(
                fields=["round", "model_version"],
                condition=models.Q(status__in=["queued", "running"], round__isnull=False),
                name="one_active_model_evaluation_per_round",
            ),
            models.UniqueConstraint(
                fields=["project", "model_version"],
                condition=models.Q(status__in=["queued", "running"], project__isnull=False),
                name="one_active_model_evaluation_per_project",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.model_version} on {self.target_label} ({self.status})"

    @property
    def target_label(self) -> str:
        if self.target == self.Target.ROUND and self.round_id:
            return f"round {self.round.name}"
        if self.target == self.Target.PROJECT and self.project_id:
            return f"project {self.project.name} (test split)"
        return self.get_target_display().lower()
