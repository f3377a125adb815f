"""``apis/validation.py``: blind validation over the API."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from collector.models import Validation
from collector.selectors.validation import validation_token
from collector.tests.factories import api_client

pytestmark = pytest.mark.django_db




class ValidationApiTests:
    def test_next_then_submit(self, submitted, classmates):
        bob = classmates[0]
        api = api_client(bob)
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
        response = api_client(bob).post(reverse("api:validation_submit"), {"token": token, "choice": 0, **body},
                                        format="json")
        assert response.status_code == 400 and field in response.data, response.data
        assert not Validation.objects.exists()

    def test_authors_are_refused_with_a_403(self, submitted, student):
        token = validation_token(question=submitted, validator=student)
        response = api_client(student).post(reverse("api:validation_submit"), {"token": token, "choice": 0},
                                            format="json")
        assert response.status_code == 403 and "own question" in response.data["detail"]

    def test_signed_out_users_are_refused(self, submitted):
        assert APIClient().get(reverse("api:validation_next")).status_code in (401, 403)
