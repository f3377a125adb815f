"""Reads of the model registry, and who may see and serve which model (``models_usable_by``)."""
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from core.exceptions import NotFoundError
from mlcore.configs import PACKAGED_MINILM
from modelhub.models import ModelVersion

#: The kinds a round's live model can be (they answer multiple choice).
LIVE_MODEL_KINDS = (ModelVersion.Kind.ZERO_SHOT, ModelVersion.Kind.MULTIPLE_CHOICE)
#: Kinds a round's panel of target models may hold: the live kinds and the two language-model kinds.
PANEL_MODEL_KINDS = (*LIVE_MODEL_KINDS, ModelVersion.Kind.CAUSAL_LM, ModelVersion.Kind.OPENAI_COMPATIBLE)
NO_SUCH_MODEL = "There is no such model version."


def model_version_get(*, model_id: int) -> ModelVersion:
    return ModelVersion.objects.get(pk=model_id)


def models_usable_by(*, user=None, course_id: int | None = None,
                     kinds: Iterable[str] | None = None) -> QuerySet[ModelVersion]:
    """The versions that ``user`` may see and serve, newest first: the public ones (no course: the
    packaged version 0, models the operator registered), the shared ones, and those trained for a
    course ``user`` teaches (staff: every one). With ``course_id`` also those trained for that
    course (what the system, e.g. a training job, may put live in the course's rounds).

    The one rule of the registry: the model list, the round settings' choices and the services
    that put a model live all read it. Whether ``user`` teaches a course is ``courses.selectors``'
    rule (owner or instructor), written here as lookups since modelhub does not import courses.
    """
    versions = ModelVersion.objects.select_related("course")
    if kinds is not None:
        versions = versions.filter(kind__in=list(kinds))
    if user is not None and user.is_authenticated and (user.is_staff or user.is_superuser):
        return versions.order_by("-created_at", "-pk")
    usable = Q(course__isnull=True) | Q(shared=True)
    if course_id is not None:
        usable |= Q(course_id=course_id)
    if user is not None and user.is_authenticated:
        usable |= Q(course__owner=user) | Q(course__instructors=user)
    return versions.filter(usable).distinct().order_by("-created_at", "-pk")


def model_version_usable(*, model_version: ModelVersion, user=None, course_id: int | None = None) -> bool:
    """True when ``models_usable_by`` (same arguments) holds ``model_version``."""
    return models_usable_by(user=user, course_id=course_id).filter(pk=model_version.pk).exists()


def model_version_for_user(*, user, model_id: int) -> ModelVersion:
    """The version if ``user`` may see it; else NotFoundError (404), the same for one that exists but is
    not theirs to see: the answer says nothing about other courses' models."""
    version = models_usable_by(user=user).filter(pk=model_id).first()
    if version is None:
        raise NotFoundError(NO_SUCH_MODEL)
    return version


def live_model_choices(*, user=None, course_id: int | None = None) -> QuerySet[ModelVersion]:
    """Model versions ``user`` may make a round's live model (``models_usable_by`` that answer multiple choice)."""
    return models_usable_by(user=user, course_id=course_id, kinds=LIVE_MODEL_KINDS)


def model_version_by_name_or_path(*, base: str) -> tuple[str, ModelVersion | None]:
    """A registered version's name or a checkpoint path/hub id -> (path, version if registered)."""
    version = ModelVersion.objects.filter(name=base).first()
    if version is not None:
        return version.path, version
    return base, ModelVersion.objects.filter(path=base).first()


@dataclass(frozen=True)
class ReferenceAccuracy:
    """A model's measured accuracy on questions it was not trained on (chance: 1 in 4)."""

    accuracy: float
    questions: int
    reference: str  # which questions, in words


#: Version 0 (the zero-shot scorer on the packaged MiniLM) on CODAH's official fold-0 test split
#: (docs/measured.md, "Model accuracy"); it is never trained, so its stored metrics are empty.
ZERO_SHOT_REFERENCE = ReferenceAccuracy(accuracy=0.425, questions=555, reference="CODAH, fold-0 test")


def model_reference_accuracy(*, model_version: ModelVersion | None) -> ReferenceAccuracy | None:
    """How the model did on a reference set, where that is known: its stored evaluation
    (``metrics["eval_accuracy"]`` on ``metrics["eval_examples"]`` held-out questions, written when it
    was trained with evaluation questions), or the measured figure of the packaged zero-shot scorer."""
    if model_version is None:
        return None
    metrics = model_version.metrics or {}
    accuracy, questions = metrics.get("eval_accuracy"), metrics.get("eval_examples")
    if isinstance(accuracy, (int, float)) and isinstance(questions, int) and questions > 0:
        return ReferenceAccuracy(float(accuracy), questions, str(metrics.get("eval_set") or "held-out questions"))
    if model_version.kind == ModelVersion.Kind.ZERO_SHOT and model_version.path == PACKAGED_MINILM:
        return ZERO_SHOT_REFERENCE
    return None

