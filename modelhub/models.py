"""The model registry: every model the apps serve or train, where its weights are, how it did.

A model fine-tuned on a course's questions belongs to that course (``course``): only its
instructors see it and may serve it, unless they share it with every instructor (``shared``).
A model without a course (the packaged version 0, one the operator registered) is public
(``modelhub.selectors.models_usable_by``).

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
    # PROTECT: a course is not deleted from under its models (SET_NULL would make them public).
    course = models.ForeignKey(
        "courses.Course", null=True, blank=True, on_delete=models.PROTECT, related_name="trained_models",
        help_text="The course whose questions trained it: only its instructors see and serve it unless shared. "
                  "Blank: public (a packaged model or one the operator registered).",
    )
    shared = models.BooleanField(
        default=False, help_text="Every instructor may see it and serve it in their rounds, not only its course's.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "collector_modelversion"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name
