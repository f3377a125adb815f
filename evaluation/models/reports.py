"""Evaluation runs: one bias report of a collector round (or an annotation project), as stored.

Its target is a round or a span-annotation project. A run snapshots the data it reads (ids and a digest) and records the model version whose
predictions it used, so a report stays reproducible while the round keeps growing.
"""
from django.conf import settings
from django.db import models

from core.models import BackgroundJob


class EvaluationRun(BackgroundJob):
    """One evaluation report, computed by a Celery job section by section.

    ``result`` maps a section name to a section dict ``{"title", "available", "note",
    "summary", "tables": {name: {"title", "columns", "rows"}}, "charts"}`` (the layout is
    shared with the ambiguity probes, see ``evaluation/sections.py``), so every table can be
    downloaded as CSV without knowing what it holds.
    """

    class Target(models.TextChoices):
        ROUND = "round", "Collector round"
        PROJECT = "project", "Annotation project"

    target = models.CharField(max_length=16, choices=Target.choices)
    round = models.ForeignKey(
        "collector.Round", null=True, blank=True, on_delete=models.CASCADE, related_name="evaluation_runs"
    )
    project = models.ForeignKey(
        "annotation.Project", null=True, blank=True, on_delete=models.CASCADE, related_name="evaluation_runs"
    )
    config = models.JSONField(default=dict, blank=True, help_text="Analysis settings (k, p0, min_count, steps, seed)")
    # Provenance: the model whose predictions were analysed and the exact data read.
    model_version = models.ForeignKey(
        "modelhub.ModelVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="evaluation_runs"
    )
    model_revision = models.CharField(max_length=64, blank=True)
    snapshot = models.JSONField(default=dict, blank=True, help_text="Ids of the questions and runs that were read")
    snapshot_digest = models.CharField(max_length=64, blank=True, help_text="sha256 of the data that was read")
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
                name="evaluation_run_has_one_target",
            ),
            # A second start while one is queued or running is refused by the database itself.
            models.UniqueConstraint(
                fields=["round"],
                condition=models.Q(status__in=["queued", "running"], round__isnull=False),
                name="one_active_evaluation_per_round",
            ),
            models.UniqueConstraint(
                fields=["project"],
                condition=models.Q(status__in=["queued", "running"], project__isnull=False),
                name="one_active_evaluation_per_project",
            ),
        ]

    def __str__(self) -> str:
        return f"Evaluation {self.pk} of {self.target_label} ({self.status})"

    @property
    def target_label(self) -> str:
        if self.target == self.Target.ROUND and self.round_id:
            return f"round {self.round.name}"
        if self.target == self.Target.PROJECT and self.project_id:
            return f"project {self.project.name}"
        return self.get_target_display().lower()


class AmbiguityDataset(models.Model):
    """A file a project owner uploaded for the ambiguity probes, stored as validated text.

    ``questions``: selectional-ambiguity questions (JSON Lines, the format of Mao et al.'s
    doubly-eponymous set); ``occupations``: an occupation list in UnQover's format, in the
    passages' language. A report records which one it used (``EvaluationRun.snapshot``).
    """

    class Kind(models.TextChoices):
        QUESTIONS = "questions", "Selectional-ambiguity questions"
        OCCUPATIONS = "occupations", "Occupation list"

    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="ambiguity_datasets")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    name = models.CharField(max_length=200, help_text="The uploaded file's name")
    content = models.TextField()
    sha256 = models.CharField(max_length=64)
    items = models.PositiveIntegerField(help_text="Questions or occupations in the file")
    script = models.CharField(max_length=32, blank=True, help_text="Writing system of the occupations")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            # The same file uploaded twice to a project is one dataset.
            models.UniqueConstraint(fields=["project", "kind", "sha256"], name="one_ambiguity_dataset_per_content"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display().lower()}, {self.items})"

    @property
    def label(self) -> str:
        """How reports and forms name it: the file name, what it holds and when it came."""
        what = "questions" if self.kind == self.Kind.QUESTIONS else "occupations"
        script = f", {self.script} script" if self.script else ""
        return f"{self.name} ({self.items} {what}{script}, uploaded {self.created_at:%Y-%m-%d})"

