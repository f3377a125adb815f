"""The target of a report or a model evaluation: one collector round or one annotation project.

``TargetJob`` is the abstract background job both ``EvaluationRun`` and ``ModelEvaluation``
extend. Each declares its ``round`` and ``project`` with :func:`round_field` and
:func:`project_field` (its own reverse name) and lists :func:`target_constraints` in its
``Meta``: exactly one target, and one queued or running job per target.
"""
from django.conf import settings
from django.db import models

from core.models import BackgroundJob


class TargetJob(BackgroundJob):
    """A background job about a round or a project, with its result and who started it."""

    class Target(models.TextChoices):
        ROUND = "round", "Collector round"
        PROJECT = "project", "Annotation project"

    target = models.CharField(max_length=16, choices=Target.choices)
    result = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        abstract = True
        ordering = ["-created_at", "-pk"]

    @property
    def target_label(self) -> str:
        if self.target == self.Target.ROUND and self.round_id:
            return f"round {self.round.name}"
        if self.target == self.Target.PROJECT and self.project_id:
            return f"project {self.project.name}"
        return self.get_target_display().lower()


def round_field(related_name: str) -> models.ForeignKey:
    return models.ForeignKey("collector.Round", null=True, blank=True, on_delete=models.CASCADE,
                             related_name=related_name)


def project_field(related_name: str) -> models.ForeignKey:
    return models.ForeignKey("annotation.Project", null=True, blank=True, on_delete=models.CASCADE,
                             related_name=related_name)


def target_constraints(*, one_target: str, one_active: str, per: tuple[str, ...] = ()) -> list[models.BaseConstraint]:
    """Exactly one target, matching ``target`` (``one_target`` names the check), and one queued or
    running job per target and ``per`` (a double click queues one job; ``one_active`` names the
    two unique constraints, formatted with the target: ``"one_active_x_per_{}"``)."""
    return [
        models.CheckConstraint(
            condition=models.Q(target="round", round__isnull=False, project__isnull=True)
            | models.Q(target="project", project__isnull=False, round__isnull=True),
            name=one_target,
        ),
        *(models.UniqueConstraint(
            fields=[target, *per],
            condition=models.Q(status__in=["queued", "running"], **{f"{target}__isnull": False}),
            name=one_active.format(target),
        ) for target in ("round", "project")),
    ]
