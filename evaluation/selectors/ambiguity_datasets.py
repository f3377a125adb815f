"""Read-only queries of the files a project owner uploaded for the ambiguity probes."""
from __future__ import annotations

from django.db.models import QuerySet

from annotation.models import Project
from evaluation.models import AmbiguityDataset


def ambiguity_datasets(*, project: Project, kind: str | None = None) -> QuerySet[AmbiguityDataset]:
    """A project's uploads (of one ``kind``, or all), newest first."""
    datasets = AmbiguityDataset.objects.filter(project=project)
    return datasets.filter(kind=kind) if kind else datasets


def ambiguity_dataset_get(*, dataset_id: int, kind: str) -> AmbiguityDataset | None:
    """The upload ``dataset_id`` of that kind, or ``None`` (deleted since a report chose it)."""
    return AmbiguityDataset.objects.filter(pk=dataset_id, kind=kind).first()
