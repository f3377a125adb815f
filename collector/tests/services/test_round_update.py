"""``round_update``: settings change together or not at all."""
import pytest
from django.core.exceptions import ValidationError

from collector.models import Round, ScoringRun
from collector.services.round_settings import round_scoring_settings, round_update
from collector.services.scoring import scoring_config_for
from modelhub.models import ModelVersion
from modelhub.services import model_version_register


@pytest.mark.django_db
class RoundUpdateTests:
    def test_stores_only_overrides_of_the_preset_and_scoring_uses_them(self, round_):
        settings_now = round_scoring_settings(round_=round_)
        assert settings_now["freeze_layers"] == 2 and settings_now["epochs"] == 4  # the fast_cv preset
        updated = round_update(
            round_=round_, weight_cv=2.0, base_checkpoint="/models/base",
            scoring={**settings_now, "epochs": 3, "learning_rate": 3e-5},
        )
        assert updated.scoring_config == {"epochs": 3, "learning_rate": 3e-5}
        assert Round.objects.get(pk=round_.pk).weight_cv == 2.0
        config = scoring_config_for(round_=updated, kind=ScoringRun.Kind.CROSS_VALIDATION)
        assert (config.epochs, config.learning_rate, config.freeze_layers, config.cache_frozen) == (3, 3e-5, 2, True)

    def test_live_model_must_answer_multiple_choice(self, round_):
        qa = model_version_register(name="qa-1", kind=ModelVersion.Kind.QUESTION_ANSWERING, path="/m/qa")
        before = round_.live_model_id
        with pytest.raises(ValidationError, match="multiple-choice"):
            round_update(round_=round_, live_model=qa, weight_live=5.0)
        assert Round.objects.get(pk=round_.pk).live_model_id == before
        assert Round.objects.get(pk=round_.pk).weight_live == 1.0  # nothing half-saved

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
