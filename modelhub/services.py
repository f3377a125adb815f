"""Writes of the model registry: registering a version, sharing a course's version with every
instructor, and version 0 that a fresh install serves."""
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_noop

from core.exceptions import AccessError
from mlcore.configs import PACKAGED_MINILM
from modelhub.models import ModelVersion
from modelhub.selectors import model_version_for_user

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
    course_id: int | None = None,
) -> ModelVersion:
    """Create or update the version called ``name`` (idempotent on the name).

    ``course_id``: the course whose questions trained it, whose instructors alone may see and
    serve it (None: public). Registering again under the same name sets it again.
    """
    version, _ = ModelVersion.objects.update_or_create(
        name=name,
        defaults={
            "kind": kind,
            "path": str(path),
            "revision": revision,
            "metrics": metrics or {},
            "description": description,
            "base": base,
            "course_id": course_id,
        },
    )
    return version


def model_version_share(*, model_id: int, user, shared: bool) -> ModelVersion:
    """Share the course's model with every instructor (``shared``), or take it back to the course.

    Only an instructor of the course it was trained for (or staff) may; one the user cannot see is
    "no such model" (NotFoundError) whether it exists or not. Rounds of other courses that already
    serve it keep it after it is taken back; they cannot choose it again.
    """
    version = model_version_for_user(user=user, model_id=model_id)
    if version.course_id is None:
        raise ValidationError({"shared": "This model belongs to no course: every instructor can already use it."})
    manages = user.is_staff or user.is_superuser or version.course.owner_id == user.pk or \
        version.course.instructors.filter(pk=user.pk).exists()
    if not manages:
        raise AccessError(f"Only the instructors of {version.course.name} can share or unshare this model.")
    ModelVersion.objects.filter(pk=version.pk).update(shared=bool(shared))
    version.shared = bool(shared)
    return version


def model_version_default() -> ModelVersion:
    """Version 0: a zero-shot scorer on the packaged MiniLM weights, meaningful on a fresh install."""
    version, _ = ModelVersion.objects.get_or_create(
        name=DEFAULT_MODEL_NAME,
        defaults={
            "kind": ModelVersion.Kind.ZERO_SHOT,
            "path": PACKAGED_MINILM,
            # Stored in English; the round page shows it in the reader's language (it is in the catalog).
            "description": gettext_noop("Cosine similarity of MiniLM sentence embeddings; no training."),
        },
    )
    return version
