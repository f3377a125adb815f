"""``services/round_settings.py``: ``round_update`` changes settings together or not at all; ``round_quality_settings_update``."""
import pytest
from django.core.exceptions import ValidationError

from collector.models import Question, Round, ScoringRun
from collector.services.round_settings import round_quality_settings_update, round_scoring_settings, round_update
from collector.services.scoring import scoring_config_for
from collector.tests.factories import validate
from mlcore.configs import FineTuneConfig
from modelhub.models import ModelVersion
from modelhub.services import model_version_register

PRESET = FineTuneConfig.fast_cv()  # what a round uses unless its settings override it

pytestmark = pytest.mark.django_db


@pytest.mark.django_db
class RoundUpdateTests:
    def test_stores_only_overrides_of_the_preset_and_scoring_uses_them(self, round_):
        settings_now = round_scoring_settings(round_=round_)
        assert settings_now["freeze_layers"] == PRESET.freeze_layers and settings_now["epochs"] == 4  # the fast_cv preset
        updated = round_update(
            round_=round_, weight_cv=2.0, base_checkpoint="/models/base",
            scoring={**settings_now, "epochs": 3, "learning_rate": 3e-5},
        )
        assert updated.scoring_config == {"epochs": 3, "learning_rate": 3e-5}
        assert Round.objects.get(pk=round_.pk).weight_cv == 2.0
        config = scoring_config_for(round_=updated, kind=ScoringRun.Kind.CROSS_VALIDATION)
        assert (config.epochs, config.learning_rate, config.freeze_layers, config.cache_frozen) == (3, 3e-5, PRESET.freeze_layers, True)

    def test_live_model_must_answer_multiple_choice(self, round_):
        qa = model_version_register(name="qa-1", kind=ModelVersion.Kind.QUESTION_ANSWERING, path="/m/qa")
        before = round_.live_model_id
        with pytest.raises(ValidationError, match="multiple-choice"):
            round_update(round_=round_, live_model=qa, weight_live=5.0)
        assert Round.objects.get(pk=round_.pk).live_model_id == before
        assert Round.objects.get(pk=round_.pk).weight_live == 1.0  # nothing half-saved

    def test_another_courses_model_is_refused_and_nothing_is_saved(self, round_, instructor, other_course):
        theirs = model_version_register(name="vision-after-r1", kind="multiple_choice", path="/m/b",
                                        course_id=other_course.pk)
        with pytest.raises(ValidationError, match="There is no such model version."):
            round_update(round_=round_, live_model=theirs, weight_live=5.0, user=instructor)
        saved = Round.objects.get(pk=round_.pk)
        assert (saved.live_model_id, saved.weight_live) == (round_.live_model_id, 1.0)

    def test_another_courses_model_is_no_base_checkpoint_by_name_or_folder(self, round_, instructor, other_course):
        theirs = model_version_register(name="vision-after-r1", kind="multiple_choice", path="/var/models/vision",
                                        course_id=other_course.pk)
        for base in (theirs.name, theirs.path, theirs.path + "/"):
            with pytest.raises(ValidationError, match="There is no such model version."):
                round_update(round_=round_, base_checkpoint=base, user=instructor)
        assert Round.objects.get(pk=round_.pk).base_checkpoint == ""
        assert round_update(round_=round_, base_checkpoint="/models/my-own-folder", user=instructor).base_checkpoint

    @pytest.mark.parametrize(
        ("scoring", "message"),
        [({"epochs": 0}, "epochs"), ({"batch_size": -1}, "batch_size"), ({"freeze_layers": 6}, "at most 5"),
         ({"dropout": 0.1}, "Unknown scoring settings: dropout")],
    )
    def test_invalid_scoring_settings_are_refused(self, round_, scoring, message):
        with pytest.raises(ValidationError, match=message):
            round_update(round_=round_, scoring=scoring)
        assert Round.objects.get(pk=round_.pk).scoring_config == {}

    def test_dates_must_be_in_order_and_weights_non_negative(self, round_):
        from django.utils import timezone

        now = timezone.now()
        with pytest.raises(ValidationError, match="close after it opens"):
            round_update(round_=round_, opens_at=now, closes_at=now)
        with pytest.raises(ValidationError):
            round_update(round_=round_, weight_live=-1.0)

    def test_every_problem_is_reported_at_once_and_nothing_is_saved(self, round_):
        from django.utils import timezone

        now = timezone.now()
        with pytest.raises(ValidationError) as raised:
            round_update(round_=round_, opens_at=now, closes_at=now, weight_live=-1.0, scoring={"epochs": 50})
        assert {"closes_at", "weight_live", "epochs"} <= set(raised.value.message_dict)
        saved = Round.objects.get(pk=round_.pk)
        assert (saved.weight_live, saved.closes_at, saved.scoring_config) == (1.0, None, {})

    def test_scoring_settings_not_sent_keep_their_values(self, round_):
        round_update(round_=round_, scoring={"epochs": 3})
        updated = round_update(round_=round_, scoring={"batch_size": 16})
        assert updated.scoring_config == {"epochs": 3, "batch_size": 16}

    @pytest.mark.parametrize(("scoring", "field"), [({"epochs": 50}, "epochs"), ({"threads": 500}, "threads"),
                                                    ({"learning_rate": 0.5}, "learning_rate")])
    def test_scoring_settings_outside_the_offered_bounds_are_refused(self, round_, scoring, field):
        with pytest.raises(ValidationError) as raised:
            round_update(round_=round_, scoring=scoring)
        assert field in raised.value.message_dict
        assert Round.objects.get(pk=round_.pk).scoring_config == {}


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
