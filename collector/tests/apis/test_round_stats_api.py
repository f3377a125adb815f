import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from collector.services.questions import question_submit
from collector.tests.factories import question_data


def url(round_) -> str:
    return reverse("api:round_stats", args=[round_.pk])


@pytest.mark.django_db
class RoundStatsApiTests:
    def test_manager_gets_the_stats(self, instructor, student, round_, fake_model):
        question_submit(user=student, round_id=round_.pk, **question_data(categories=["idioms"]))
        client = APIClient()
        client.force_login(instructor)
        response = client.get(url(round_))
        assert response.status_code == 200
        assert response.data["questions"] == 1 and response.data["authors"] == 1
        assert response.data["fooling_rate_live"] == 1.0
        assert response.data["categories"]["idioms"] == 1

    def test_empty_round_has_no_fooling_rate(self, instructor, round_):
        client = APIClient()
        client.force_login(instructor)
        assert client.get(url(round_)).data["fooling_rate_live"] is None

    @pytest.mark.parametrize("who", ["student", "other_instructor"])
    def test_non_managers_get_403_with_message(self, round_, who, request):
        client = APIClient()
        client.force_login(request.getfixturevalue(who))
        response = client.get(url(round_))
        assert response.status_code == 403
        assert response.data["detail"] == "Only the course's instructors can open this page."
