"""The training skeleton every fine-tuned model version goes through (multiple choice, QA).

``model_version_train_and_register``: check the name, resolve the base checkpoint, fit, save the
weights beside their folder and swap them in (the registered folder is never half-written),
measure, register the version (and hand it to ``attach``, e.g. to make it a round's live
model) in one transaction. The trainer and the metrics are the caller's: one model family each.
``training_job_finish`` ends the background job that ran such a training (a round's, a project's).
"""
import logging
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from core.jobs import job_done, job_fail
from core.models import BackgroundJob
from core.validators import folder_name_validator
from mlcore.models.loading import weights_revision
from modelhub.models import ModelVersion
from modelhub.selectors import model_version_by_name_or_path
from modelhub.services import model_version_register

logger = logging.getLogger(__name__)


class Trainer(Protocol):
    def save(self, directory: Path) -> None: ...


def model_version_name_check(*, name: str, kind: str) -> None:
    """Raise ValidationError unless ``name`` can name a new version of ``kind`` (and its folder)."""
    # The name becomes a folder under STUMPER_MODEL_DIR, so it must be a safe path component.
    try:
        folder_name_validator(name)
    except ValidationError as error:
        raise ValidationError({"name": error.messages}) from None
    existing = ModelVersion.objects.filter(name=name).first()
    if existing is not None and existing.kind != kind:
        raise ValidationError({"name": f"{name!r} is already registered as a {existing.get_kind_display()}."})


def save_replacing(trainer: Trainer, directory: Path) -> Path:
    """Save next to ``directory`` and then swap it in, so the registered folder is never half-written."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    partial = directory.with_name(f".{directory.name}.partial-{uuid.uuid4().hex[:8]}")
    trainer.save(partial)
    if directory.exists():
        retired = directory.with_name(f".{directory.name}.old-{uuid.uuid4().hex[:8]}")
        directory.rename(retired)
        partial.rename(directory)
        shutil.rmtree(retired, ignore_errors=True)
    else:
        partial.rename(directory)
    return directory


def model_version_train_and_register(
    *,
    name: str,
    kind: str,
    base: str | None,
    fit: Callable[[str], Trainer],
    measure: Callable[[Any, Path, str], dict],
    description: Callable[[str], str],
    attach: Callable[[ModelVersion], None] | None = None,
    course_id: int | None = None,
) -> ModelVersion:
    """Train a version ``name`` of ``kind`` from ``base`` (default ``STUMPER_BASE_CHECKPOINT``).

    ``course_id``: the course whose questions it is trained on; the version is that course's
    instructors' (``modelhub.selectors.models_usable_by``). None: public.

    ``fit(base_path)`` returns the fitted trainer; its weights go to ``STUMPER_MODEL_DIR/<name>``
    (an earlier training of the same name is replaced whole, with a new revision).
    ``measure(trainer, directory, revision)`` returns the version's metrics and
    ``description(base_path)`` its description. Raises ValidationError for a bad name.
    """
    model_version_name_check(name=name, kind=kind)
    base_path, base_version = model_version_by_name_or_path(base=base or settings.STUMPER_BASE_CHECKPOINT)
    trainer = fit(base_path)
    directory = save_replacing(trainer, Path(settings.STUMPER_MODEL_DIR) / name)
    revision = weights_revision(str(directory))
    metrics = measure(trainer, directory, revision)
    with transaction.atomic():
        version = model_version_register(name=name, kind=kind, path=str(directory), revision=revision,
                                         metrics=metrics, description=description(base_path), base=base_version,
                                         course_id=course_id)
        if attach is not None:
            attach(version)
    return version


def training_job_finish(job: BackgroundJob, train: Callable[[], ModelVersion]) -> None:
    """Run ``train`` for a claimed training job: the version it registers is stored on the job, now done; any
    error (gathering the data too) fails the job and is logged. Either way the job's progress says so (``stage``)."""
    try:
        version = train()
    except Exception as error:
        logger.exception("%s %s failed", type(job).__name__, job.pk)
        job_fail(job, error, progress={**job.progress, "stage": "failed"})
    else:
        job_done(job, model_version=version, progress={**job.progress, "stage": "done", "eta_seconds": 0})
