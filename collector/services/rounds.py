"""Writes of a round: creating it in a course and changing its live model.

Changing its other settings after creation is ``services/round_settings.py``.
"""
from collections.abc import Callable, Collection, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import User
from collector.models import PanelRole, Round, RoundPanelMember
from courses.models import Course
from modelhub.models import ModelVersion
from modelhub.selectors import LIVE_MODEL_KINDS, NO_SUCH_MODEL, model_version_by_name_or_path, model_version_usable
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
    user: User | None = None,
) -> Round:
    """Create the round; ``live_model`` (default: version 0) must be one ``user`` may use
    (``live_model_check``)."""
    if live_model is not None:
        live_model_check(model_version=live_model, course_id=course.pk, user=user)
    round_ = round_create_check(
        course=course, name=name, title=title, opens_at=opens_at, closes_at=closes_at,
        live_model=live_model or model_version_default(), weight_live=weight_live, weight_cv=weight_cv,
        categories=categories, instructions=instructions,
    )
    round_.save()
    return round_


def round_create_check(*, course: Course, skip: Collection[str] = (), categories: Sequence[str] | None = None,
                       **fields) -> Round:
    """The unsaved round of ``course`` with ``fields``, or one ValidationError with every problem at
    once (the model's rules, the name taken, the dates), so that a form shows them together. Fields in
    ``skip`` (those a form could not read) are not checked."""
    round_ = Round(course=course, **fields)
    if categories is not None:
        round_.categories = list(categories)
    all_problems(lambda: round_.full_clean(exclude=list(skip)), lambda: round_dates_check(round_=round_), skip=skip)
    return round_


def all_problems(*checks: Callable[[], object], skip: Collection[str] = ()) -> None:
    """Run every check; their ValidationErrors (but those about fields in ``skip``) raised as one."""
    problems: dict[str, list[str]] = {}
    for check in checks:
        try:
            check()
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                problems.setdefault(field, []).extend(messages)
    problems = {field: messages for field, messages in problems.items() if field not in skip}
    if problems:
        raise ValidationError(problems)


def round_dates_check(*, round_: Round) -> None:
    """Raise ValidationError unless the round closes after it opens (when it has both dates)."""
    if round_.closes_at and round_.opens_at and round_.closes_at <= round_.opens_at:
        raise ValidationError({"closes_at": "The round must close after it opens."})


def live_model_check(*, model_version: ModelVersion, course_id: int, user: User | None = None) -> None:
    """Raise ValidationError unless ``model_version`` can be the live model of a round of course
    ``course_id``: it answers multiple choice, and ``user`` (None: the system, for the course) may
    use it: a public or shared model, or one trained for a course they teach
    (``modelhub.selectors.models_usable_by``). Another course's model is "no such model"."""
    if not model_version_usable(model_version=model_version, user=user, course_id=course_id):
        raise ValidationError({"live_model": NO_SUCH_MODEL})
    if model_version.kind not in LIVE_MODEL_KINDS:
        raise ValidationError({"live_model": "A round's live model must answer multiple-choice questions."})


def base_checkpoint_check(*, base_checkpoint: str, course_id: int, user: User | None = None) -> None:
    """Raise ValidationError when ``base_checkpoint`` names (or is the folder of) a registered model
    that ``user`` may not use: fine-tuning from another course's model would use it too."""
    base = base_checkpoint.strip()
    _, version = model_version_by_name_or_path(base=base.rstrip("/") or base)
    if version is not None and not model_version_usable(model_version=version, user=user, course_id=course_id):
        raise ValidationError({"base_checkpoint": NO_SUCH_MODEL})


@transaction.atomic
def round_set_live_model(*, round_: Round, model_version: ModelVersion, user: User | None = None) -> Round:
    """Make ``model_version`` the round's live model, if ``user`` (None: the system) may use it there."""
    live_model_check(model_version=model_version, course_id=round_.course_id, user=user)
    Round.objects.filter(pk=round_.pk).update(live_model=model_version)
    round_.live_model = model_version
    round_panel_follow_live_model(round_=round_)
    return round_


def round_panel_follow_live_model(*, round_: Round) -> None:
    """Keep a round's live model the first shown model of its panel rows (a round without rows has
    the panel of its live model anyway): a new live model takes the first shown seat, and leaves the
    seat it had elsewhere in the panel."""
    members = list(RoundPanelMember.objects.select_for_update().filter(round=round_).order_by("position"))
    live_id = round_.live_model_id
    shown = [member for member in members if member.role == PanelRole.SHOWN]
    if not members or live_id is None or (shown and shown[0].model_version_id == live_id):
        return
    RoundPanelMember.objects.filter(round=round_, model_version_id=live_id).delete()
    if shown:
        RoundPanelMember.objects.filter(pk=shown[0].pk).update(model_version_id=live_id)
    else:
        RoundPanelMember.objects.create(round=round_, model_version_id=live_id, role=PanelRole.SHOWN,
                                        position=max(member.position for member in members) + 1)
