"""Save all of a round's settings at once: dates, credit, live model, scoring, validation and coach.

The round settings page holds every setting of a round in one form (they were split between
Settings and the bottom of the quality report). Both parts are checked and saved together:
if either is refused, nothing changes.
"""
from django.db import transaction

from collector.models import Round
from collector.round_settings import round_update
from collector.validation_services import round_quality_settings_update
from modelhub.models import ModelVersion


@transaction.atomic
def round_settings_save(*, round_: Round, live_model: ModelVersion | None, scoring: dict, quality: dict | None,
                        **fields) -> Round:
    """``round_update`` with ``fields``, ``live_model`` and ``scoring``, then, when given, the
    ``quality`` settings (``round_quality_settings_update``); all or nothing."""
    round_ = round_update(round_=round_, live_model=live_model, scoring=scoring, **fields)
    if quality is not None:
        round_ = round_quality_settings_update(round_=Round.objects.get(pk=round_.pk), **quality)
    return round_
