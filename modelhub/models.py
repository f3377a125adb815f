"""The model registry: every model the apps serve or train, where its weights are, how it did.

The table keeps the name it had in the collector app (``db_table``), so an existing database
moved to this app without copying a row (migration ``modelhub/0001``).
"""
from django.db import models


class ModelVersion(models.Model):
    """A registered model: where its weights are and how well it did."""

    class Kind(models.TextChoices):
        ZERO_SHOT = "zero_shot_embedding", "Zero-shot sentence-embedding scorer"
        MULTIPLE_CHOICE = "multiple_choice", "Fine-tuned multiple-choice model"
        QUESTION_ANSWERING = "question_answering", "Extractive question answering"

    name = models.CharField(max_length=100, unique=True)
    kind = models.CharField(max_length=32, choices=Kind.choices)
    path = models.CharField(max_length=500, help_text="Local folder, hub id or packaged:all-MiniLM-L6-v2")
    revision = models.CharField(max_length=64, blank=True)
    metrics = models.JSONField(default=dict, blank=True)
    description = models.TextField(blank=True)
    base = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="derived")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "collector_modelversion"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name
