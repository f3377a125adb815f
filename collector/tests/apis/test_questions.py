"""``apis/questions.py``: submitting a question over the API (scored on the server) and listing one's own."""
import json
import uuid

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from collector.models import Question
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from collector.tests.factories import question_data
from courses.services import course_join

SUBMIT_URL = reverse("api:question_submit")
LIST_URL = reverse("api:question_list")


def payload(round_, **overrides) -> dict:
    data = {
        "round_id": round_.pk,
        "prompt": "The man ate the whole pizza by himself. He",
        "choices": ["was very hungry.", "was not hungry at all.", "gave the pizza to his dog.", "ate a salad instead."],
        "correct_index": 0,
        "categories": ["idioms"],
        "time_spent_seconds": 30,
        "client_token": str(uuid.uuid4()),
    }
    data.update(overrides)
    return data


@pytest.fixture
def api(student) -> APIClient:
    client = APIClient()
    client.force_login(student)
    return client


@pytest.mark.django_db
class QuestionSubmitApiTests:
    def test_created_with_the_servers_prediction(self, api, round_, fake_model):
        response = api.post(SUBMIT_URL, payload(round_), format="json")
        assert response.status_code == 201, response.data
        question = Question.objects.get()
        assert response.data == {
            "id": question.pk,
            "round_id": round_.pk,
            "prediction": {
                "status": "done",
                "probs": [0.1, 0.2, 0.3, 0.4],
                "predicted": 3,
                "predicted_text": "ate a salad instead.",
                "fooled": True,
                "model_version": round_.live_model.name,
            },
        }
        assert question.time_spent_seconds == 30 and question.categories == ["idioms"]

    def test_pending_when_the_model_fails(self, api, round_, broken_model):
        response = api.post(SUBMIT_URL, payload(round_), format="json")
        assert response.status_code == 201
        assert response.data["prediction"]["status"] == "pending"
        assert response.data["prediction"]["probs"] is None and response.data["prediction"]["fooled"] is None

    def test_same_client_token_stores_once(self, api, round_, fake_model):
        data = payload(round_)
        first = api.post(SUBMIT_URL, data, format="json")
        second = api.post(SUBMIT_URL, data, format="json")
        assert first.status_code == second.status_code == 201
        assert first.data["id"] == second.data["id"]
        assert Question.objects.count() == 1

    @pytest.mark.parametrize(
        ("overrides", "field", "message"),
        [
            ({"choices": ["a", "b", "c"]}, "choices", "Give exactly 4 completions, not 3."),
            ({"choices": ["a", "b", "c", "d", "e"]}, "choices", "Give exactly 4 completions, not 5."),
            ({"choices": "abcd"}, "choices", "Expected a list"),
            ({"choices": ["a", None, "c", "d"]}, "choices", "may not be null"),
            ({"choices": ["same", "b", "Same ", "d"]}, "choice_2", "Completion C repeats completion A."),
            ({"choices": ["a", "  ", "c", "d"]}, "choice_1", "Completion B is empty."),
            ({"prompt": ""}, "prompt", "The prompt is empty."),
            ({"prompt": " \n "}, "prompt", "The prompt is empty."),
            ({"prompt": "p" * (settings.STUMPER_MAX_PROMPT_CHARS + 1)}, "prompt", "too long"),
            ({"choices": ["a", "b", "c", "d" * (settings.STUMPER_MAX_CHOICE_CHARS + 1)]}, "choice_3", "too long"),
            ({"correct_index": 4}, "answer", "between 0 and 3"),
            ({"correct_index": -1}, "answer", "between 0 and 3"),
            ({"correct_index": "first"}, "correct_index", "valid integer"),
            ({"correct_index": 10**40}, "correct_index", "less than or equal"),
            ({"categories": ["polysemy"]}, "categories", "Not offered in this round"),
            ({"categories": ["bogus"]}, "categories", "Unknown categories"),
            ({"categories": "idioms"}, "categories", "Expected a list"),
            ({"client_token": "nope"}, "client_token", "valid UUID"),
            ({"time_spent_seconds": -5}, "time_spent_seconds", "greater than or equal"),
            ({"round_id": "abc"}, "round_id", "valid integer"),
            ({"round_id": 10**30}, "round_id", "less than or equal"),
            ({"prompt": "nul \x00 byte"}, "prompt", "Null characters"),
        ],
    )
    def test_bad_input_is_400_with_field_errors(self, api, round_, fake_model, overrides, field, message):
        response = api.post(SUBMIT_URL, payload(round_, **overrides), format="json")
        assert response.status_code == 400, response.data
        assert message in str(response.data[field]), response.data
        assert Question.objects.count() == 0

    @pytest.mark.parametrize("missing", ["round_id", "prompt", "choices", "correct_index"])
    def test_missing_field_is_400(self, api, round_, fake_model, missing):
        data = payload(round_)
        del data[missing]
        response = api.post(SUBMIT_URL, data, format="json")
        assert response.status_code == 400
        assert missing in response.data
        assert Question.objects.count() == 0

    @pytest.mark.parametrize("body", ["{not json", "[1, 2", "", "null", "[]", '"text"'])
    def test_body_that_is_not_a_json_object_is_400(self, api, round_, fake_model, body):
        response = api.post(SUBMIT_URL, body, content_type="application/json")
        assert response.status_code == 400
        assert Question.objects.count() == 0

    def test_lone_surrogate_in_json_is_400(self, api, round_, fake_model):
        # Valid JSON, but "\ud800" decodes to text no database can store.
        body = json.dumps(payload(round_, prompt="lone SURROGATE here")).replace("SURROGATE", "\\ud800")
        response = api.post(SUBMIT_URL, body, content_type="application/json")
        assert response.status_code == 400
        assert "Surrogate characters are not allowed" in str(response.data["prompt"])
        assert Question.objects.count() == 0

    def test_closed_round_is_403_with_message(self, api, closed_round, fake_model):
        response = api.post(SUBMIT_URL, payload(closed_round), format="json")
        assert response.status_code == 403
        assert response.data["detail"] == "This round is closed: it no longer accepts questions."
        assert Question.objects.count() == 0

    def test_other_course_is_403_with_message(self, round_, outsider, fake_model):
        client = APIClient()
        client.force_login(outsider)
        response = client.post(SUBMIT_URL, payload(round_), format="json")
        assert response.status_code == 403
        assert "not enrolled" in response.data["detail"]
        assert Question.objects.count() == 0

    def test_unknown_round_is_404(self, api, round_, fake_model):
        response = api.post(SUBMIT_URL, payload(round_, round_id=987654), format="json")
        assert response.status_code == 404
        assert response.data["detail"] == "This round does not exist."

    def test_anonymous_is_rejected(self, round_, fake_model):
        response = APIClient().post(SUBMIT_URL, payload(round_), format="json")
        assert response.status_code in (401, 403)
        assert Question.objects.count() == 0

    def test_session_post_without_csrf_token_is_rejected(self, student, round_, fake_model):
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(student)
        assert client.post(SUBMIT_URL, payload(round_), format="json").status_code == 403
        assert Question.objects.count() == 0


@pytest.mark.django_db
class QuestionListApiTests:
    def test_lists_own_questions_with_predictions(self, student, outsider, round_, course, fake_model):
        question_submit(user=student, round_id=round_.pk, **question_data(correct_index=0))
        course_join(user=outsider, join_code=course.join_code)
        question_submit(user=outsider, round_id=round_.pk, **question_data(prompt="Not yours. It"))
        client = APIClient()
        client.force_login(student)
        response = client.get(LIST_URL)
        assert response.status_code == 200
        assert response.data["count"] == 1
        item = response.data["results"][0]
        assert item["prompt"] == question_data()["prompt"]
        assert item["round_name"] == round_.name
        assert item["prediction"]["fooled"] is True and item["credit"] == 1.0

    def test_paginated_and_filtered_by_round(self, student, round_, course, fake_model):
        other = round_create(course=course, name="r2")
        for i in range(30):
            question_submit(user=student, round_id=round_.pk, **question_data(prompt=f"Prompt {i}. He"))
        question_submit(user=student, round_id=other.pk, **question_data())
        client = APIClient()
        client.force_login(student)
        first = client.get(LIST_URL)
        assert first.data["count"] == 31 and len(first.data["results"]) == 25 and first.data["next"]
        assert client.get(LIST_URL, {"round_id": other.pk}).data["count"] == 1
        assert client.get(LIST_URL, {"round_id": "x"}).status_code == 400
        assert client.get(LIST_URL, {"round_id": 10**30}).status_code == 400
        assert client.get(LIST_URL, {"page": 99}).status_code == 404

    def test_anonymous_is_rejected(self, db):
        assert APIClient().get(LIST_URL).status_code in (401, 403)
