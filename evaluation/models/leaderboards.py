"""Leaderboard entries: one registered model version evaluated on a frozen set of questions."""
from django.db import models

from evaluation.models.targets import TargetJob, project_field, round_field, target_constraints


class ModelEvaluation(TargetJob):
    """A model version's score on a round's accepted questions or a project's test split.

    ``question_ids`` and ``snapshot_id`` freeze the data (sha256 of the sorted ids and each
    question's ``updated_at``), so two entries on the same snapshot are comparable and an entry
    is never recomputed on different data. ``result`` is written once, whole, when the job ends:
    a crash never leaves half a result (see ``evaluation/services/leaderboards.py``).
    """

    round = round_field("model_evaluations")
    project = project_field("model_evaluations")
    model_version = models.ForeignKey(
        "modelhub.ModelVersion", on_delete=models.CASCADE, related_name="model_evaluations"
    )
    model_revision = models.CharField(max_length=64, blank=True)
    question_ids = models.JSONField(default=list, help_text="The questions evaluated, fixed when the job was queued")
    snapshot_id = models.CharField(max_length=64, help_text="sha256 of the sorted question ids and content versions")

    class Meta(TargetJob.Meta):
        # A double click queues one job: one active evaluation per (target, model version).
        constraints = target_constraints(one_target="model_evaluation_has_one_target",
                                         one_active="one_active_model_evaluation_per_{}", per=("model_version",))

    def __str__(self) -> str:
        return f"{self.model_version} on {self.target_label} ({self.status})"

    @property
    def target_label(self) -> str:
        label = super().target_label
        return f"{label} (test split)" if self.target == self.Target.PROJECT and self.project_id else label
