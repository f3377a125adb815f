"""``apis/round_settings.py``: a round's settings and its quality settings over the API; the course's instructors only."""
import pytest
from django.urls import reverse

from collector.models import Round
from collector.services.round_settings import round_scoring_settings
from collector.tests.factories import api_client
from core.tests.factories import assert_settings_refused
from mlcore.configs import FineTuneConfig
from modelhub.services import model_version_register

PRESET = FineTuneConfig.fast_cv()  # what a round uses unless its settings override it

pytestmark = pytest.mark.django_db




class RoundSettingsApiTests:
    def test_read(self, instructor, round_):
        data = api_client(instructor).get(reverse("api:round_settings", args=[round_.pk])).json()
        assert data["scoring"] == round_scoring_settings(round_=round_)
        assert data["live_model"] == round_.live_model_id
        assert round_.live_model_id in [m["id"] for m in data["live_model_choices"]]

    @pytest.mark.parametrize(("sent", "stored"), [("off", {"bf16": "off"}), ("on", {"bf16": "on"}), ("auto", {}),
                                                  (False, {"bf16": "off"}), (True, {"bf16": "on"})])
    def test_bf16_is_auto_on_or_off_and_old_booleans_still_work(self, instructor, round_, sent, stored):
        url = reverse("api:round_settings_update", args=[round_.pk])
        response = api_client(instructor).post(url, {"scoring": {"bf16": sent}}, format="json")
        assert response.status_code == 200, response.data
        assert Round.objects.get(pk=round_.pk).scoring_config == stored
        assert response.data["scoring"]["bf16"] == stored.get("bf16", "auto")
        assert response.data["precision"]["text"].startswith(f"{stored.get('bf16', 'auto')} → ")

    def test_update_only_what_is_sent(self, instructor, round_):
        url = reverse("api:round_settings_update", args=[round_.pk])
        response = api_client(instructor).post(url, {"weight_live": 0.5, "scoring": {"epochs": 3}}, format="json")
        assert response.status_code == 200, response.data
        round_.refresh_from_db()
        assert round_.weight_live == 0.5 and round_.title == "Round one"
        assert round_.scoring_config == {"epochs": 3}
        assert response.data["scoring"]["epochs"] == 3 and response.data["scoring"]["freeze_layers"] == PRESET.freeze_layers
        # A second partial update keeps the first one's scoring change.
        api_client(instructor).post(url, {"scoring": {"learning_rate": 3e-5}}, format="json")
        assert Round.objects.get(pk=round_.pk).scoring_config == {"epochs": 3, "learning_rate": 3e-5}

    @pytest.mark.parametrize(
        ("body", "field"),
        [({"weight_cv": -1}, "weight_cv"), ({"scoring": {"epochs": 0}}, "scoring"),
         ({"scoring": {"freeze_layers": 6}}, "scoring"), ({"live_model": 999}, "live_model"),
         ({"scoring": {"bf16": "sometimes"}}, "scoring"), ({"scoring": {"threads": -1}}, "scoring"),
         ({"opens_at": "2030-01-02T00:00:00Z", "closes_at": "2030-01-01T00:00:00Z", "weight_live": 3}, "closes_at"),
         ({"scoring": "fast"}, "scoring")],
    )
    def test_bad_settings_are_400_and_nothing_is_saved(self, instructor, round_, body, field):
        response = api_client(instructor).post(reverse("api:round_settings_update", args=[round_.pk]), body,
                                              format="json")
        assert response.status_code == 400 and field in response.data, response.data
        round_.refresh_from_db()
        assert (round_.weight_live, round_.weight_cv, round_.scoring_config, round_.closes_at) == (1.0, 1.0, {}, None)

    def test_a_qa_model_cannot_be_live(self, instructor, round_):
        qa = model_version_register(name="qa-1", kind="question_answering", path="/m/qa")
        response = api_client(instructor).post(reverse("api:round_settings_update", args=[round_.pk]),
                                              {"live_model": qa.pk}, format="json")
        assert response.status_code == 400 and "live_model" in response.data

    def test_another_courses_model_is_no_choice_until_shared(self, instructor, other_instructor, other_course, round_):
        theirs = model_version_register(name="vision-after-r1", kind="multiple_choice", path="/m/b",
                                        course_id=other_course.pk)
        mine = model_version_register(name="nlp-after-r1", kind="multiple_choice", path="/m/a",
                                      course_id=round_.course_id)
        client = api_client(instructor)
        choices = client.get(reverse("api:round_settings", args=[round_.pk])).json()["live_model_choices"]
        assert mine.pk in [m["id"] for m in choices] and theirs.pk not in [m["id"] for m in choices]
        url = reverse("api:round_settings_update", args=[round_.pk])
        refused = client.post(url, {"live_model": theirs.pk}, format="json")
        assert refused.status_code == 400 and "does not exist" in str(refused.data["live_model"])
        assert Round.objects.get(pk=round_.pk).live_model_id != theirs.pk
        created = client.post(reverse("api:round_create", args=[round_.course_id]),
                              {"name": "r9", "live_model": theirs.pk}, format="json")
        assert created.status_code == 400 and not Round.objects.filter(name="r9").exists()
        api_client(other_instructor).post(reverse("modelhub_api:model_share", args=[theirs.pk]), {"shared": True},
                                          format="json")
        assert client.post(url, {"live_model": theirs.pk}, format="json").status_code == 200
        assert Round.objects.get(pk=round_.pk).live_model_id == theirs.pk

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_others_get_403(self, round_, who, request):
        assert_settings_refused(request.getfixturevalue(who), round_, body={"weight_live": 9},
                                read_url=reverse("api:round_settings", args=[round_.pk]),
                                update_url=reverse("api:round_settings_update", args=[round_.pk]))


class RoundQualitySettingsApiTests:
    def test_partial_update(self, instructor, round_):
        url = reverse("api:round_quality_settings", args=[round_.pk])
        response = api_client(instructor).post(url, {"validations_required": 3, "coach_words": False}, format="json")
        assert response.status_code == 200, response.data
        round_.refresh_from_db()
        assert (round_.validations_required, round_.coach_words, round_.coach_length) == (3, False, True)

    @pytest.mark.parametrize(("body", "field"), [({"validations_required": 0}, "validations_required"),
                                                 ({"peer_validation": "sometimes"}, "peer_validation")])
    def test_bad_input_is_400(self, instructor, round_, body, field):
        response = api_client(instructor).post(reverse("api:round_quality_settings", args=[round_.pk]), body,
                                              format="json")
        assert response.status_code == 400 and field in response.data
        assert Round.objects.get(pk=round_.pk).validations_required == 2

    def test_students_get_403(self, student, round_):
        response = api_client(student).post(reverse("api:round_quality_settings", args=[round_.pk]),
                                           {"validations_required": 1}, format="json")
        assert response.status_code == 403 and Round.objects.get(pk=round_.pk).validations_required == 2


def test_unknown_settings_fields_are_refused_and_nothing_changes(instructor, round_):
    before = (round_.weight_cv, round_.scoring_config)
    response = api_client(instructor).post(reverse("api:round_settings_update", args=[round_.pk]),
                                          {"epochs": 3, "scoring": {"epochs": 3, "lerning_rate": 1e-4}}, format="json")
    assert response.status_code == 400
    assert response.json()["epochs"][0].startswith("Unknown field. Accepted here: title,")
    assert response.json()["scoring.lerning_rate"][0].startswith("Unknown field. Accepted here: epochs,")
    round_.refresh_from_db()
    assert (round_.weight_cv, round_.scoring_config) == before
