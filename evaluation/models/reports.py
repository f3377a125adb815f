"""Evaluation runs: one bias report of a collector round (or an annotation project), as stored.

A run snapshots the data it reads (ids and a digest) and records the model version whose
predictions it used, so a report stays reproducible while the round keeps growing.
"""
from django.db import models

from evaluation.models.targets import TargetJob, project_field, round_field, target_constraints


class EvaluationRun(TargetJob):
    """One evaluation report, computed by a Celery job section by section.

    ``result`` maps a section name to a section dict ``{"title", "available", "note",
    "summary", "tables": {name: {"title", "columns", "rows"}}, "charts"}`` (the layout is
    shared with the ambiguity probes, see ``evaluation/reports/sections.py``), so every table can
    be downloaded as CSV without knowing what it holds.
    """

    round = round_field("evaluation_runs")
    project = project_field("evaluation_runs")
    config = models.JSONField(default=dict, blank=True, help_text="Analysis settings (k, p0, min_count, steps, seed)")
    # Provenance: the model whose predictions were analysed and the exact data read.
    model_version = models.ForeignKey(
        "modelhub.ModelVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="evaluation_runs"
    )
    model_revision = models.CharField(max_length=64, blank=True)
    snapshot = models.JSONField(default=dict, blank=True, help_text="Ids of the questions and runs that were read")
    snapshot_digest = models.CharField(max_length=64, blank=True, help_text="sha256 of the data that was read")

    class Meta(TargetJob.Meta):
        # A second start while one is queued or running is refused by the database itself.
        constraints = target_constraints(one_target="evaluation_run_has_one_target",
                                         one_active="one_active_evaluation_per_{}")

    def __str__(self) -> str:
        return f"Evaluation {self.pk} of {self.target_label} ({self.status})"
