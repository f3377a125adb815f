"""Writes of a round: creating it in a course and changing its live model.

Changing its other settings after creation is ``services/round_settings.py``.
"""
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from collector.models import Round
from courses.models import Course
from modelhub.models import ModelVersion
from modelhub.services import model_version_default


@transaction.atomic
def round_create(
    *,
    course: Course,
    name: str,
    title: str = "",
    opens_at=None,
    closes_at=None,
    live_model: ModelVersion | None = None,
    weight_live: float = 1.0,
    weight_cv: float = 1.0,
    categories: Sequence[str] | None = None,
    instructions: str = "",
) -> Round:
    round_ = Round(
        course=course,
        name=name,
        title=title,
        opens_at=opens_at,
        closes_at=closes_at,
        live_model=live_model or model_version_default(),
        weight_live=weight_live,
        weight_cv=weight_cv,
        instructions=instructions,
    )
    if categories is not None:
        round_.categories = list(categories)
    round_.full_clean()
    round_dates_check(round_=round_)
    round_.save()
    return round_


def round_dates_check(*, round_: Round) -> None:
    """Raise ValidationError unless the round closes after it opens (when it has both dates)."""
    if round_.closes_at and round_.opens_at and round_.closes_at <= round_.opens_at:
        raise ValidationError({"closes_at": "The round must close after it opens."})


def live_model_check(*, model_version: ModelVersion) -> None:
    """Raise ValidationError unless ``model_version`` can be a round's live model (it answers multiple choice)."""
    if model_version.kind not in (ModelVersion.Kind.ZERO_SHOT, ModelVersion.Kind.MULTIPLE_CHOICE):
        raise ValidationError({"live_model": "A round's live model must answer multiple-choice questions."})


@transaction.atomic
def round_set_live_model(*, round_: Round, model_version: ModelVersion) -> Round:
    live_model_check(model_version=model_version)
    Round.objects.filter(pk=round_.pk).update(live_model=model_version)
    round_.live_model = model_version
    return round_
