"""Reads of the model registry."""
from django.db.models import QuerySet

from modelhub.models import ModelVersion


def model_version_get(*, model_id: int) -> ModelVersion:
    return ModelVersion.objects.get(pk=model_id)


def live_model_choices() -> QuerySet[ModelVersion]:
    """Model versions that can serve as a round's live model (they answer multiple choice)."""
    return ModelVersion.objects.filter(
        kind__in=[ModelVersion.Kind.ZERO_SHOT, ModelVersion.Kind.MULTIPLE_CHOICE]
    ).order_by("-created_at")


def model_version_by_name_or_path(*, base: str) -> tuple[str, ModelVersion | None]:
    """A registered version's name or a checkpoint path/hub id -> (path, version if registered)."""
    version = ModelVersion.objects.filter(name=base).first()
    if version is not None:
        return version.path, version
    return base, ModelVersion.objects.filter(path=base).first()
