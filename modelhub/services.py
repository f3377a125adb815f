"""Writes of the model registry: registering a version, and version 0 that a fresh install serves."""
from mlcore.configs import PACKAGED_MINILM
from modelhub.models import ModelVersion

DEFAULT_MODEL_NAME = "v0-minilm-zero-shot"


def model_version_register(
    *,
    name: str,
    kind: str,
    path: str,
    revision: str = "",
    metrics: dict | None = None,
    description: str = "",
    base: ModelVersion | None = None,
) -> ModelVersion:
    """Create or update the version called ``name`` (idempotent on the name)."""
    version, _ = ModelVersion.objects.update_or_create(
        name=name,
        defaults={
            "kind": kind,
            "path": str(path),
            "revision": revision,
            "metrics": metrics or {},
            "description": description,
            "base": base,
        },
    )
    return version


def model_version_default() -> ModelVersion:
    """Version 0: a zero-shot scorer on the packaged MiniLM weights, meaningful on a fresh install."""
    version, _ = ModelVersion.objects.get_or_create(
        name=DEFAULT_MODEL_NAME,
        defaults={
            "kind": ModelVersion.Kind.ZERO_SHOT,
            "path": PACKAGED_MINILM,
            "description": "Cosine similarity of MiniLM sentence embeddings; no training.",
        },
    )
    return version
