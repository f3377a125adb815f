"""``services/rounds.py``: creating a round and changing its live model."""
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from collector.services.rounds import round_create, round_set_live_model
from modelhub.models import ModelVersion
from modelhub.services import DEFAULT_MODEL_NAME, model_version_register


@pytest.mark.django_db
def test_round_defaults_to_model_version_zero(course):
    round_ = round_create(course=course, name="r0")
    assert round_.live_model.name == DEFAULT_MODEL_NAME
    assert round_.live_model.kind == ModelVersion.Kind.ZERO_SHOT
    assert round_.is_open()


@pytest.mark.django_db
def test_round_name_must_be_command_friendly_and_dates_ordered(course):
    with pytest.raises(ValidationError):
        round_create(course=course, name="has spaces")
    now = timezone.now()
    with pytest.raises(ValidationError):
        round_create(course=course, name="r1", opens_at=now, closes_at=now - timedelta(hours=1))


@pytest.mark.django_db
def test_live_model_must_be_multiple_choice(open_round):
    qa = model_version_register(name="qa", kind="question_answering", path="/qa")
    with pytest.raises(ValidationError):
        round_set_live_model(round_=open_round, model_version=qa)
