"""The round settings page: instructors of the course only; errors shown next to the fields."""
import pytest
from django.urls import reverse

from collector.models import Round
from collector.services.hardware import worker_hardware_record
from collector.services.round_settings import round_scoring_settings
from mlcore.configs import FineTuneConfig
from mlcore.models.hardware import CpuReport, resolve_precision

PRESET = FineTuneConfig.fast_cv()  # what a round uses unless its settings override it

AVX2_WORKER = CpuReport("AMD EPYC 7B12", "AVX2", ("avx2",), 2, "2.13.0")


def settings_url(round_) -> str:
    return reverse("collector:round_settings", args=[round_.pk])


def form_data(round_, **changes) -> dict:
    data = {
        "title": round_.title, "instructions": "", "opens_at": "", "closes_at": "", "weight_live": 1.0,
        "weight_cv": 1.0, "live_model": round_.live_model_id, "base_checkpoint": "",
        **round_scoring_settings(round_=round_),
    }
    data.update(changes)
    return data


QUALITY = {"validations_required": 3, "peer_validation": "off", "coach_words": "on"}


@pytest.mark.django_db
class RoundSettingsPageTests:
    def test_validation_and_coach_settings_are_on_this_page_and_saved_with_the_rest(self, client, instructor, round_):
        client.force_login(instructor)
        page = client.get(settings_url(round_)).content.decode()
        for name in ("validations_required", "peer_validation", "credit_requires_acceptance", "coach_answer_only",
                     "epochs", "weight_cv", "closes_at"):
            assert f'name="{name}"' in page
        client.post(settings_url(round_), form_data(round_, weight_cv=2, **QUALITY))
        saved = Round.objects.get(pk=round_.pk)
        assert (saved.weight_cv, saved.validations_required, saved.peer_validation, saved.coach_words,
                saved.coach_length) == (2.0, 3, "off", True, False)

    def test_another_courses_model_is_not_offered_nor_saved(self, client, instructor, other_course, round_):
        from modelhub.services import model_version_register

        theirs = model_version_register(name="vision-after-r1", kind="multiple_choice", path="/m/b",
                                        course_id=other_course.pk)
        client.force_login(instructor)
        assert "vision-after-r1" not in client.get(settings_url(round_)).content.decode()
        response = client.post(settings_url(round_), form_data(round_, live_model=theirs.pk))
        assert response.status_code == 200 and "live_model" in response.context["form"].errors
        assert Round.objects.get(pk=round_.pk).live_model_id == round_.live_model_id

    def test_a_bad_validation_setting_saves_nothing_and_is_shown_at_its_field(self, client, instructor, round_):
        client.force_login(instructor)
        response = client.post(settings_url(round_), form_data(round_, weight_cv=2, validations_required=0,
                                                               peer_validation="always"))
        assert response.status_code == 200
        assert "validations_required" in response.context["quality"].errors
        assert Round.objects.get(pk=round_.pk).weight_cv == 1.0

    def test_the_round_part_is_not_kept_when_the_quality_part_is_refused(self, round_):
        from django.core.exceptions import ValidationError

        from collector.services.round_settings import round_settings_save

        quality = {"validations_required": 2, "peer_validation": "sometimes", "credit_requires_acceptance": False,
                   "coach_answer_only": True, "coach_words": True, "coach_length": True, "coach_duplicates": True}
        with pytest.raises(ValidationError, match="Choose one of"):
            round_settings_save(round_=round_, live_model=None, scoring={}, quality=quality, weight_cv=5.0)
        assert Round.objects.get(pk=round_.pk).weight_cv == 1.0
    def test_instructor_sees_current_values_and_saves(self, client, instructor, round_):
        client.force_login(instructor)
        page = client.get(settings_url(round_))
        assert page.status_code == 200
        assert page.context["form"].initial["freeze_layers"] == PRESET.freeze_layers
        response = client.post(settings_url(round_), form_data(round_, weight_cv=3, epochs=2), follow=True)
        assert "Round settings saved" in response.content.decode()
        saved = Round.objects.get(pk=round_.pk)
        assert saved.weight_cv == 3.0 and saved.scoring_config == {"epochs": 2}

    def test_bad_values_are_shown_and_nothing_is_saved(self, client, instructor, round_):
        client.force_login(instructor)
        response = client.post(settings_url(round_), form_data(round_, epochs=0, weight_cv=-1, learning_rate="fast",
                                                               bf16="yes"))
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert {"epochs", "weight_cv", "learning_rate", "bf16"} <= set(errors)
        assert Round.objects.get(pk=round_.pk).scoring_config == {}

    def test_a_refused_save_lists_every_problem_of_both_parts_at_the_top(self, client, instructor, round_):
        client.force_login(instructor)
        response = client.post(settings_url(round_), form_data(
            round_, epochs=0, opens_at="2030-01-02T00:00", closes_at="2030-01-01T00:00", validations_required=0,
            peer_validation="always"))
        html = response.content.decode()
        summary = html[html.index('id="error-summary"'):]
        summary = summary[:summary.index("</div>")]
        assert html.index('id="error-summary"') < html.index('id="round-fields"')  # at the top of the form
        assert 'tabindex="-1" data-error-summary="summary"' in summary and "The settings were not saved" in summary
        # The form's problems, the quality part's, and the service's (the dates) at once.
        for field in ("epochs", "validations_required", "closes_at"):
            assert f'data-field-link="id_{field}"' in summary
        assert Round.objects.get(pk=round_.pk).closes_at is None

    def test_bfloat16_setting_shows_what_auto_means_on_the_workers(self, client, instructor, round_):
        client.force_login(instructor)
        page = client.get(settings_url(round_)).content.decode()
        assert page.count('<option value="auto" selected>') == 1
        assert "auto → not yet known: no worker has reported its hardware." in page
        worker_hardware_record(resolution=resolve_precision("auto", AVX2_WORKER), host="w1")
        page = client.get(settings_url(round_)).content.decode()
        assert "auto → float32 (AVX2, no native bfloat16) on worker w1." in page and "notice-warning" not in page
        client.post(settings_url(round_), form_data(round_, bf16="on", threads=0))
        assert Round.objects.get(pk=round_.pk).scoring_config == {"bf16": "on"}  # threads 0 = auto = the preset
        page = client.get(settings_url(round_)).content.decode()
        assert "notice-warning" in page and "bfloat16 is forced on, but w1 emulates it" in page

    @pytest.mark.parametrize("who", ["student", "other_instructor", "crowdworker"])
    def test_others_are_refused(self, client, round_, who, request):
        client.force_login(request.getfixturevalue(who))
        assert client.get(settings_url(round_)).status_code == 403
        assert client.post(settings_url(round_), form_data(round_, weight_cv=9)).status_code == 403
        assert Round.objects.get(pk=round_.pk).weight_cv == 1.0

    def test_anonymous_is_sent_to_sign_in(self, client, round_):
        assert client.get(settings_url(round_)).status_code == 302
