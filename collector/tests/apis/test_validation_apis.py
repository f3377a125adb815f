"""The quality loop's JSON API: validate, review, appeal, decide, report."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from collector.models import Appeal, Question, Validation
from collector.selectors.validation import display_order, validation_token

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


class ValidationApiTests:
    def test_next_then_submit(self, submitted, classmates):
        bob = classmates[0]
        api = client_for(bob)
        response = api.get(reverse("api:validation_next"), {"round_id": submitted.round_id})
        assert response.status_code == 200
        shown = response.data["question"]
        assert shown["prompt"] == submitted.prompt and "correct_index" not in shown
        assert sorted(c["text"] for c in shown["choices"]) == sorted(submitted.choices)
        position = next(c["position"] for c in shown["choices"] if c["text"] == submitted.choices[0])
        response = api.post(reverse("api:validation_submit"), {"token": shown["token"], "choice": position,
                                                               "categories": ["negation"]}, format="json")
        assert response.status_code == 201, response.data
        assert response.data["question_id"] == submitted.pk
        assert Validation.objects.get().is_correct
        assert api.get(reverse("api:validation_next")).data == {"question": None,
                                                                "message": "Nothing is waiting for your validation."}

    @pytest.mark.parametrize(
        "body, field",
        [({"choice": 7}, "choice"), ({"choice": None}, "choice"), ({"flags": ["boring"]}, "flags"),
         ({"categories": ["quantitative"]}, "categories"), ({"token": "forged"}, "token")],
    )
    def test_bad_input_is_a_400_with_the_field(self, submitted, classmates, body, field):
        bob = classmates[0]
        token = validation_token(question=submitted, validator=bob)
        response = client_for(bob).post(reverse("api:validation_submit"), {"token": token, "choice": 0, **body},
                                        format="json")
        assert response.status_code == 400 and field in response.data, response.data
        assert not Validation.objects.exists()

    def test_authors_are_refused_with_a_403(self, submitted, student):
        token = validation_token(question=submitted, validator=student)
        response = client_for(student).post(reverse("api:validation_submit"), {"token": token, "choice": 0},
                                            format="json")
        assert response.status_code == 403 and "own question" in response.data["detail"]

    def test_signed_out_users_are_refused(self, submitted):
        assert APIClient().get(reverse("api:validation_next")).status_code in (401, 403)


class ReviewApiTests:
    def test_queue_reject_appeal_and_uphold(self, submitted, classmates, instructor, student):
        bob = classmates[0]
        token = validation_token(question=submitted, validator=bob)
        order = display_order(question_id=submitted.pk, validator_id=bob.pk)
        client_for(bob).post(reverse("api:validation_submit"), {"token": token, "choice": order.index(2),
                                                               "flags": ["wrong_key"]}, format="json")
        prof = client_for(instructor)
        queue = prof.get(reverse("api:review_queue"), {"round_id": submitted.round_id})
        assert queue.status_code == 200 and queue.data["count"] == 1
        item = queue.data["results"][0]
        assert item["status"] == "review" and item["validations"][0]["chosen_index"] == 2
        assert item["validations"][0]["flags"] == ["wrong_key"]

        url = reverse("api:question_review", args=[submitted.pk])
        assert prof.post(url, {"action": "reject"}, format="json").status_code == 400  # the reason is required
        response = prof.post(url, {"action": "reject", "reason": "C is right too."}, format="json")
        assert response.status_code == 200 and response.data["status"] == "rejected"

        author = client_for(student)
        appeal_url = reverse("api:appeal_submit", args=[submitted.pk])
        response = author.post(appeal_url, {"message": "Only A fits."}, format="json")
        assert response.status_code == 201 and response.data["status"] == "open"
        assert author.post(appeal_url, {"message": "Again."}, format="json").status_code == 400

        decide_url = reverse("api:appeal_decide", args=[Appeal.objects.get().pk])
        assert author.post(decide_url, {"uphold": True}, format="json").status_code == 403
        response = prof.post(decide_url, {"uphold": True, "response": "Agreed."}, format="json")
        assert response.status_code == 200 and response.data["question_status"] == "accepted"

    def test_edit_through_the_api(self, submitted, instructor):
        response = client_for(instructor).post(
            reverse("api:question_review", args=[submitted.pk]),
            {"action": "edit", "correct_index": 1, "reason": "Key fixed."}, format="json")
        assert response.status_code == 200 and response.data["correct_index"] == 1
        assert Question.objects.get(pk=submitted.pk).status == "accepted"

    def test_students_cannot_review(self, submitted, classmates):
        api = client_for(classmates[0])
        assert api.post(reverse("api:question_review", args=[submitted.pk]), {"action": "accept"},
                        format="json").status_code == 403
        assert api.get(reverse("api:review_queue"), {"round_id": submitted.round_id}).status_code == 403


def test_quality_report_for_instructors_only(submitted, instructor, student):
    url = reverse("api:round_quality", args=[submitted.round_id])
    response = client_for(instructor).get(url)
    assert response.status_code == 200 and response.data["status"]["pending"] == 1
    assert {"human_accuracy", "answer_agreement", "category_agreement", "validators", "coach"} <= set(response.data)
    assert client_for(student).get(url).status_code == 403
