"""A round over the API: its page, question table, settings (read and update), duplicates and
quality settings; the course's instructors only."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from collector.models import Round
from collector.services.questions import question_submit
from collector.services.round_settings import round_scoring_settings
from collector.tests.factories import question_data
from modelhub.services import model_version_register

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


class RoundDetailApiTests:
    def test_shows_settings_counts_and_jobs(self, instructor, graded_round):
        data = client_of(instructor).get(reverse("api:round_detail", args=[graded_round.pk])).json()
        assert data["name"] == "r1" and data["course"]["name"] == "NLP 101" and data["weight_cv"] == 2.0
        assert data["stats"]["questions"] == 4 and data["quality"]["validations_required"] == 2
        assert [run["kind"] for run in data["scoring_runs"]] == ["cross_validation"]
        assert data["training_jobs"] == []

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_others_get_403(self, round_, who, request):
        response = client_of(request.getfixturevalue(who)).get(reverse("api:round_detail", args=[round_.pk]))
        assert response.status_code == 403 and response.data["detail"] == "Only the course's instructors can open this page."


class RoundQuestionListApiTests:
    def test_filters_and_credit(self, instructor, graded_round, student):
        client = client_of(instructor)
        url = reverse("api:round_questions", args=[graded_round.pk])
        everything = client.get(url).json()
        assert everything["count"] == 4
        fooled = client.get(url, {"fooled": "true"}).json()["results"]
        assert {q["prompt"] for q in fooled} == {"Alice one. She", "Bob one. He", "Prof tries. He"}
        alice = client.get(url, {"author_id": student.pk, "q": "two"}).json()["results"]
        assert [(q["author"], q["fooled_cv"], q["credit"]) for q in alice] == [("alice", 0.5, 1.0)]
        assert alice[0]["prediction"]["predicted"] == 3

    @pytest.mark.parametrize("query", [{"fooled": "maybe"}, {"category": "astrology"}, {"author_id": "x"}])
    def test_bad_filters_are_400(self, instructor, round_, query):
        response = client_of(instructor).get(reverse("api:round_questions", args=[round_.pk]), query)
        assert response.status_code == 400 and set(query) <= set(response.data)


class RoundSettingsApiTests:
    def test_read(self, instructor, round_):
        data = client_of(instructor).get(reverse("api:round_settings", args=[round_.pk])).json()
        assert data["scoring"] == round_scoring_settings(round_=round_)
        assert data["live_model"] == round_.live_model_id
        assert round_.live_model_id in [m["id"] for m in data["live_model_choices"]]

    @pytest.mark.parametrize(("sent", "stored"), [("off", {"bf16": "off"}), ("on", {"bf16": "on"}), ("auto", {}),
                                                  (False, {"bf16": "off"}), (True, {"bf16": "on"})])
    def test_bf16_is_auto_on_or_off_and_old_booleans_still_work(self, instructor, round_, sent, stored):
        url = reverse("api:round_settings_update", args=[round_.pk])
        response = client_of(instructor).post(url, {"scoring": {"bf16": sent}}, format="json")
        assert response.status_code == 200, response.data
        assert Round.objects.get(pk=round_.pk).scoring_config == stored
        assert response.data["scoring"]["bf16"] == stored.get("bf16", "auto")
        assert response.data["precision"]["text"].startswith(f"{stored.get('bf16', 'auto')} → ")

    def test_update_only_what_is_sent(self, instructor, round_):
        url = reverse("api:round_settings_update", args=[round_.pk])
        response = client_of(instructor).post(url, {"weight_live": 0.5, "scoring": {"epochs": 3}}, format="json")
        assert response.status_code == 200, response.data
        round_.refresh_from_db()
        assert round_.weight_live == 0.5 and round_.title == "Round one"
        assert round_.scoring_config == {"epochs": 3}
        assert response.data["scoring"]["epochs"] == 3 and response.data["scoring"]["freeze_layers"] == 2
        # A second partial update keeps the first one's scoring change.
        client_of(instructor).post(url, {"scoring": {"learning_rate": 3e-5}}, format="json")
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
        response = client_of(instructor).post(reverse("api:round_settings_update", args=[round_.pk]), body,
                                              format="json")
        assert response.status_code == 400 and field in response.data, response.data
        round_.refresh_from_db()
        assert (round_.weight_live, round_.weight_cv, round_.scoring_config, round_.closes_at) == (1.0, 1.0, {}, None)

    def test_a_qa_model_cannot_be_live(self, instructor, round_):
        qa = model_version_register(name="qa-1", kind="question_answering", path="/m/qa")
        response = client_of(instructor).post(reverse("api:round_settings_update", args=[round_.pk]),
                                              {"live_model": qa.pk}, format="json")
        assert response.status_code == 400 and "live_model" in response.data

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_others_get_403(self, round_, who, request):
        client = client_of(request.getfixturevalue(who))
        assert client.get(reverse("api:round_settings", args=[round_.pk])).status_code == 403
        response = client.post(reverse("api:round_settings_update", args=[round_.pk]), {"weight_live": 9},
                               format="json")
        assert response.status_code == 403 and Round.objects.get(pk=round_.pk).weight_live == 1.0


class RoundQualitySettingsApiTests:
    def test_partial_update(self, instructor, round_):
        url = reverse("api:round_quality_settings", args=[round_.pk])
        response = client_of(instructor).post(url, {"validations_required": 3, "coach_words": False}, format="json")
        assert response.status_code == 200, response.data
        round_.refresh_from_db()
        assert (round_.validations_required, round_.coach_words, round_.coach_length) == (3, False, True)

    @pytest.mark.parametrize(("body", "field"), [({"validations_required": 0}, "validations_required"),
                                                 ({"peer_validation": "sometimes"}, "peer_validation")])
    def test_bad_input_is_400(self, instructor, round_, body, field):
        response = client_of(instructor).post(reverse("api:round_quality_settings", args=[round_.pk]), body,
                                              format="json")
        assert response.status_code == 400 and field in response.data
        assert Round.objects.get(pk=round_.pk).validations_required == 2

    def test_students_get_403(self, student, round_):
        response = client_of(student).post(reverse("api:round_quality_settings", args=[round_.pk]),
                                           {"validations_required": 1}, format="json")
        assert response.status_code == 403 and Round.objects.get(pk=round_.pk).validations_required == 2


class RoundDuplicatesApiTests:
    def test_lists_near_duplicate_pairs(self, instructor, student, round_, fake_model):
        first = question_submit(user=student, round_id=round_.pk, **question_data())
        second = question_submit(user=student, round_id=round_.pk,
                                          **question_data(prompt="The man ate the whole pizza by himself! He"))
        url = reverse("api:round_duplicates", args=[round_.pk])
        pairs = client_of(instructor).get(url).json()["results"]
        assert [{pairs[0]["a"]["id"], pairs[0]["b"]["id"]}] == [{first.pk, second.pk}]
        assert client_of(instructor).get(url, {"threshold": 0}).status_code == 400



def test_unknown_settings_fields_are_refused_and_nothing_changes(instructor, round_):
    before = (round_.weight_cv, round_.scoring_config)
    response = client_of(instructor).post(reverse("api:round_settings_update", args=[round_.pk]),
                                          {"epochs": 3, "scoring": {"epochs": 3, "lerning_rate": 1e-4}}, format="json")
    assert response.status_code == 400
    assert response.json()["epochs"][0].startswith("Unknown field. Accepted here: title,")
    assert response.json()["scoring.lerning_rate"][0].startswith("Unknown field. Accepted here: epochs,")
    round_.refresh_from_db()
    assert (round_.weight_cv, round_.scoring_config) == before
