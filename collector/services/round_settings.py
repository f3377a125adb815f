"""Changing a round after it was created: dates, credit weights, live model, scoring settings, and
how its questions are validated and coached.

``round_settings_save`` saves the round settings page's one form (every setting) all or nothing:
``round_update`` and then ``round_quality_settings_update``.

The scoring settings are ``FineTuneConfig`` fields stored on ``Round.scoring_config`` as
overrides of the fast CPU preset (``FineTuneConfig.fast_cv()``); only the fields an instructor
may reasonably change are offered (``SCORING_FIELDS``), and the whole result is checked by
constructing the config, so a bad combination is refused before any run starts.

``bf16`` is ``auto``, ``on`` or ``off``; what ``auto`` means depends on the worker's CPU, which
``collector.services.hardware`` reports. ``threads`` 0 means every CPU the worker may use.
"""
import dataclasses
from collections.abc import Collection

from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import User
from collector.models import PeerValidation, Question, QuestionStatus, Round
from collector.services.reviews import question_lock
from collector.services.rounds import (
    all_problems,
    base_checkpoint_check,
    live_model_check,
    round_dates_check,
    round_panel_follow_live_model,
)
from collector.services.validation import question_settle
from collector.signals import credit_changed
from mlcore.configs import FineTuneConfig
from modelhub.models import ModelVersion

#: FineTuneConfig fields shown on the round settings page, in display order.
SCORING_FIELDS = ("epochs", "learning_rate", "batch_size", "max_length", "freeze_layers", "bf16", "threads")
#: Bounds an instructor may choose within (the settings form and the API offer the same ones).
SCORING_LIMITS = {
    "epochs": (1, 20), "learning_rate": (1e-7, 1e-2), "batch_size": (1, 128), "max_length": (16, 512),
    "freeze_layers": (0, 5), "threads": (0, 64),
}
_ROUND_FIELDS = ("title", "instructions", "opens_at", "closes_at", "weight_live", "weight_cv", "base_checkpoint")


def round_scoring_settings(*, round_: Round) -> dict:
    """The effective values of ``SCORING_FIELDS`` for the round (preset plus its overrides)."""
    effective = dataclasses.asdict(FineTuneConfig.fast_cv())
    effective.update(round_.scoring_config or {})
    return {name: effective[name] for name in SCORING_FIELDS}


def _scoring_overrides(values: dict) -> dict:
    """The values that differ from the preset, after checking the whole config is valid."""
    preset = dataclasses.asdict(FineTuneConfig.fast_cv())
    unknown = sorted(set(values) - set(SCORING_FIELDS))
    if unknown:
        raise ValidationError({"scoring_config": f"Unknown scoring settings: {', '.join(unknown)}."})
    try:
        FineTuneConfig(**{**preset, **values})
    except (TypeError, ValueError) as error:
        raise ValidationError({"scoring_config": f"Invalid scoring settings: {error}"}) from None
    if values.get("freeze_layers", preset["freeze_layers"]) > 5:
        raise ValidationError({"freeze_layers": "Leave at least one of the model's layers trainable (at most 5)."})
    for name, (low, high) in SCORING_LIMITS.items():
        value = values.get(name, preset[name])
        if isinstance(value, (int, float)) and not low <= value <= high:
            raise ValidationError({name: f"Choose a value from {low:g} to {high:g}."})
    return {name: value for name, value in values.items() if value != preset[name]}


@transaction.atomic
def round_update(*, round_: Round, live_model: ModelVersion | None = None, scoring: dict | None = None,
                 user: User | None = None, **fields) -> Round:
    """Update the round's settings; all checks pass or nothing is saved.

    ``fields`` are plain Round fields (``_ROUND_FIELDS``); ``scoring`` maps some or all of
    ``SCORING_FIELDS`` to values, the others keep the round's current ones (so an API client may
    send only what changes). Questions already scored keep their results: new settings apply to
    the next run. A new ``live_model`` must be one ``user`` may use (``live_model_check``); the
    round's current one may stay even if its course has stopped sharing it.
    """
    round_ = round_update_check(round_=Round.objects.select_for_update().get(pk=round_.pk), live_model=live_model,
                                scoring=scoring, user=user, **fields)
    round_.save()
    round_panel_follow_live_model(round_=round_)
    credit_changed.send(sender=Round, round_id=round_.pk, user_ids=None)  # the weights may have changed
    return round_


def round_update_check(*, round_: Round, live_model: ModelVersion | None = None, scoring: dict | None = None,
                       user: User | None = None, skip: Collection[str] = (), **fields) -> Round:
    """``round_`` with ``round_update``'s changes, unsaved, or one ValidationError with every problem at
    once. Fields in ``skip`` (those a form could not read) are not checked, so that the settings page
    shows the service's problems with the form's."""
    unknown = sorted(set(fields) - set(_ROUND_FIELDS))
    if unknown:
        raise ValueError(f"round_update does not change {', '.join(unknown)}")
    checks = []  # run together, so that every problem is reported at once
    if fields.get("base_checkpoint") and fields["base_checkpoint"] != round_.base_checkpoint:
        checks.append(lambda: base_checkpoint_check(base_checkpoint=fields["base_checkpoint"],
                                                    course_id=round_.course_id, user=user))
    for name, value in fields.items():
        setattr(round_, name, value)
    if live_model is not None and live_model.pk != round_.live_model_id:
        checks.append(lambda: live_model_check(model_version=live_model, course_id=round_.course_id, user=user))
        round_.live_model = live_model  # saved only if every check passes
    if scoring is not None:
        overrides = {**round_scoring_settings(round_=round_), **scoring}
        checks.append(lambda: setattr(round_, "scoring_config", _scoring_overrides(overrides)))
    all_problems(*checks, lambda: round_dates_check(round_=round_), lambda: round_.full_clean(exclude=list(skip)),
                 skip=skip)
    return round_


def round_settings_check(*, round_: Round, **kwargs) -> None:
    """``round_update_check`` on a fresh copy of ``round_`` (which stays as it is): raises one
    ValidationError with every problem of the changes, saves nothing."""
    round_update_check(round_=Round.objects.get(pk=round_.pk), **kwargs)


#: The round's validation and coach settings, as ``round_quality_settings_update`` takes them.
QUALITY_SETTING_FIELDS = ("validations_required", "peer_validation", "credit_requires_acceptance", "coach_answer_only",
                          "coach_words", "coach_length", "coach_duplicates")


@transaction.atomic
def round_quality_settings_update(
    *, round_: Round, validations_required: int, peer_validation: str, credit_requires_acceptance: bool,
    coach_answer_only: bool, coach_words: bool, coach_length: bool, coach_duplicates: bool,
) -> Round:
    """Change how a round's questions are validated and which coach warnings authors see.

    Lowering ``validations_required`` accepts pending questions that now have enough agreement.
    """
    if peer_validation not in PeerValidation.values:
        raise ValidationError({"peer_validation": f"Choose one of {', '.join(PeerValidation.values)}."})
    values = {
        "validations_required": validations_required, "peer_validation": peer_validation,
        "credit_requires_acceptance": bool(credit_requires_acceptance), "coach_answer_only": bool(coach_answer_only),
        "coach_words": bool(coach_words), "coach_length": bool(coach_length), "coach_duplicates": bool(coach_duplicates),
    }
    for field, value in values.items():
        setattr(round_, field, value)
    round_.full_clean()
    Round.objects.filter(pk=round_.pk).update(**values)
    for question in Question.objects.filter(round=round_, status=QuestionStatus.PENDING, validations__isnull=False).distinct():
        question_settle(question=question_lock(question.pk))
    credit_changed.send(sender=Round, round_id=round_.pk, user_ids=None)  # credit_requires_acceptance may have changed
    return round_


@transaction.atomic
def round_settings_save(*, round_: Round, live_model: ModelVersion | None, scoring: dict, quality: dict | None,
                        user: User | None = None, **fields) -> Round:
    """``round_update`` with ``fields``, ``live_model`` (one ``user`` may use) and ``scoring``, then,
    when given, the ``quality`` settings (``round_quality_settings_update``); all or nothing."""
    round_ = round_update(round_=round_, live_model=live_model, scoring=scoring, user=user, **fields)
    if quality is not None:
        round_ = round_quality_settings_update(round_=Round.objects.get(pk=round_.pk), **quality)
    return round_
