"""``apis/reviews.py``: the owner's review and appeals over the API."""
import pytest
from django.urls import reverse

from collector.models import Appeal, Question
from collector.selectors.validation import display_order, validation_token
from collector.tests.factories import api_client

pytestmark = pytest.mark.django_db




class ReviewApiTests:
    def test_queue_reject_appeal_and_uphold(self, submitted, classmates, instructor, student):
        bob = classmates[0]
        token = validation_token(question=submitted, validator=bob)
        order = display_order(question_id=submitted.pk, validator_id=bob.pk)
        api_client(bob).post(reverse("api:validation_submit"), {"token": token, "choice": order.index(2),
                                                               "flags": ["wrong_key"]}, format="json")
        prof = api_client(instructor)
        queue = prof.get(reverse("api:review_queue"), {"round_id": submitted.round_id})
        assert queue.status_code == 200 and queue.data["count"] == 1
        item = queue.data["results"][0]
        assert item["status"] == "review" and item["validations"][0]["chosen_index"] == 2
        assert item["validations"][0]["flags"] == ["wrong_key"]

        url = reverse("api:question_review", args=[submitted.pk])
        assert prof.post(url, {"action": "reject"}, format="json").status_code == 400  # the reason is required
        response = prof.post(url, {"action": "reject", "reason": "C is right too."}, format="json")
        assert response.status_code == 200 and response.data["status"] == "rejected"

        author = api_client(student)
        appeal_url = reverse("api:appeal_submit", args=[submitted.pk])
        response = author.post(appeal_url, {"message": "Only A fits."}, format="json")
        assert response.status_code == 201 and response.data["status"] == "open"
        assert author.post(appeal_url, {"message": "Again."}, format="json").status_code == 400

        decide_url = reverse("api:appeal_decide", args=[Appeal.objects.get().pk])
        assert author.post(decide_url, {"uphold": True}, format="json").status_code == 403
        response = prof.post(decide_url, {"uphold": True, "response": "Agreed."}, format="json")
        assert response.status_code == 200 and response.data["question_status"] == "accepted"

    def test_edit_through_the_api(self, submitted, instructor):
        response = api_client(instructor).post(
            reverse("api:question_review", args=[submitted.pk]),
            {"action": "edit", "correct_index": 1, "reason": "Key fixed."}, format="json")
        assert response.status_code == 200 and response.data["correct_index"] == 1
        assert Question.objects.get(pk=submitted.pk).status == "accepted"

    def test_students_cannot_review(self, submitted, classmates):
        api = api_client(classmates[0])
        assert api.post(reverse("api:question_review", args=[submitted.pk]), {"action": "accept"},
                        format="json").status_code == 403
        assert api.get(reverse("api:review_queue"), {"round_id": submitted.round_id}).status_code == 403
