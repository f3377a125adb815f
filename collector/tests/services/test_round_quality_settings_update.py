"""``round_quality_settings_update``."""
import pytest
from django.core.exceptions import ValidationError

from collector.models import Question, Round
from collector.services.round_settings import round_quality_settings_update
from collector.tests.factories import validate

pytestmark = pytest.mark.django_db

SETTINGS = {"validations_required": 2, "peer_validation": "always", "credit_requires_acceptance": False,
            "coach_answer_only": True, "coach_words": True, "coach_length": True, "coach_duplicates": True}


def test_settings_are_saved(peer_round):
    round_quality_settings_update(
        round_=peer_round, **{**SETTINGS, "validations_required": 3, "peer_validation": "off",
                              "credit_requires_acceptance": True, "coach_words": False})
    saved = Round.objects.get(pk=peer_round.pk)
    assert (saved.validations_required, saved.peer_validation, saved.credit_requires_acceptance) == (3, "off", True)
    assert (saved.coach_words, saved.coach_length) == (False, True)


def test_lowering_the_agreement_needed_accepts_questions_that_now_have_enough(submitted, classmates, peer_round):
    validate(submitted, classmates[0], 0)
    assert Question.objects.get(pk=submitted.pk).status == "pending"
    round_quality_settings_update(round_=peer_round, **{**SETTINGS, "validations_required": 1})
    assert Question.objects.get(pk=submitted.pk).status == "accepted"


@pytest.mark.parametrize("field, value", [("validations_required", 0), ("validations_required", 11),
                                          ("peer_validation", "sometimes")])
def test_invalid_settings_change_nothing(peer_round, field, value):
    with pytest.raises(ValidationError) as error:
        round_quality_settings_update(round_=peer_round, **{**SETTINGS, field: value})
    assert field in error.value.message_dict
    assert getattr(Round.objects.get(pk=peer_round.pk), field) == SETTINGS[field]
